# SPDX-License-Identifier: MIT
# tests/iface/build.mk: signature interfaces (libffi stubs and proxies).
#
# libbinder-c/build.mk lists its sources explicitly, so the iface*.c files
# are built here into a library of their own that sits on top of
# libbinder-c:
#   $(B)/lib/libbinder-c-iface.so / .a     (link: -lbinder-c-iface -lbinder-c -lffi)
#   $(B)/obj/iface/libbinder-c-iface-san.a (sanitizer build, host tests)
# plus the host tests, the guest tests and the examples (calc, kv).
# Included by the top-level Makefile (TOP, B, CC, CFLAGS_BASE, SAN_FLAGS,
# CRITERION_LIBS, LBC_* come from there and from libbinder-c/build.mk).

IFC_SRC := $(TOP)/libbinder-c
IFC_OBJ := $(B)/obj/iface
IFC_NAMES := iface iface_sig iface_stub iface_proxy
IFC_DEPS := $(IFC_SRC)/iface_internal.h $(IFC_SRC)/refcount.h $(TOP)/include/binderc/iface.h
FFI_CFLAGS := $(shell pkg-config --cflags libffi 2>/dev/null)
FFI_LIBS := $(or $(shell pkg-config --libs libffi 2>/dev/null),-lffi)

IFC_SO := $(B)/lib/libbinder-c-iface.so
IFC_A := $(B)/lib/libbinder-c-iface.a
IFC_SAN_A := $(IFC_OBJ)/libbinder-c-iface-san.a

ALL_TARGETS += $(IFC_SO) $(IFC_A)

$(IFC_OBJ)/pic/%.o: $(IFC_SRC)/%.c $(IFC_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(FFI_CFLAGS) -fPIC -c $< -o $@

$(IFC_OBJ)/static/%.o: $(IFC_SRC)/%.c $(IFC_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(FFI_CFLAGS) -c $< -o $@

$(IFC_OBJ)/san/%.o: $(IFC_SRC)/%.c $(IFC_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(FFI_CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(IFC_SO): $(patsubst %,$(IFC_OBJ)/pic/%.o,$(IFC_NAMES)) $(LBC_SO)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libbinder-c-iface.so.1 -Wl,--version-script=$(IFC_SRC)/libbinder-c.map \
		-o $@.1 $(filter %.o,$^) -L$(B)/lib -lbinder-c $(FFI_LIBS) -lpthread
	ln -sf libbinder-c-iface.so.1 $@

$(IFC_A): $(patsubst %,$(IFC_OBJ)/static/%.o,$(IFC_NAMES))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(IFC_SAN_A): $(patsubst %,$(IFC_OBJ)/san/%.o,$(IFC_NAMES))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# Installed beside libbinder-c, with a .pc file of its own that pulls in
# libbinder-c and libffi (pkg-config --libs libbinder-c-iface).
IFC_PC := $(B)/lib/pkgconfig/libbinder-c-iface.pc
ALL_TARGETS += $(IFC_PC)
INSTALL_TARGETS += install-libbinder-c-iface

$(IFC_PC): $(TOP)/tests/iface/build.mk
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' 'libdir=$(LBC_PC_LIBDIR)' \
		'includedir=$${prefix}/include' '' 'Name: libbinder-c-iface' \
		'Description: binder interfaces from signature strings, over libffi' \
		'Version: $(LBC_VERSION)' 'Requires: libbinder-c' 'Requires.private: libffi' \
		'Libs: -L$${libdir} -lbinder-c-iface' 'Cflags: -I$${includedir}' > $@

.PHONY: install-libbinder-c-iface
install-libbinder-c-iface: $(IFC_SO) $(IFC_A) $(IFC_PC) install-libbinder-c
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 0755 $(IFC_SO).1 $(DESTDIR)$(LIBDIR)/
	ln -sf libbinder-c-iface.so.1 $(DESTDIR)$(LIBDIR)/libbinder-c-iface.so
	install -m 0644 $(IFC_A) $(DESTDIR)$(LIBDIR)/
	sed -e 's|^prefix=.*|prefix=$(PREFIX)|' -e 's|^libdir=.*|libdir=$(LBC_PC_LIBDIR)|' \
		$(IFC_PC) > $(DESTDIR)$(LIBDIR)/pkgconfig/libbinder-c-iface.pc

# --- host tests: parcel API and in-process objects only, no driver ---------
IFCT_SRC := $(TOP)/tests/iface
IFCT_HOST := $(B)/tests/iface
IFCT_HOST_NAMES := sig marshal loopback
IFCT_HOST_BINS := $(patsubst %,$(IFCT_HOST)/test_%,$(IFCT_HOST_NAMES))

HOST_TESTS += $(IFCT_HOST_BINS)

$(IFCT_HOST_BINS): $(IFCT_HOST)/test_%: $(IFCT_SRC)/host_%.c $(IFCT_SRC)/testiface.h $(IFC_SAN_A) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -I$(IFCT_SRC) -o $@ $< $(IFC_SAN_A) $(LBC_SAN_A) \
		$(FFI_LIBS) $(CRITERION_LIBS) -lpthread

# 'make iface-valgrind': the same host tests without sanitizers, under
# valgrind (every closure and description freed, no invalid access).
IFCT_VG_BINS := $(patsubst %,$(IFCT_HOST)/vg/test_%,$(IFCT_HOST_NAMES))

$(IFCT_VG_BINS): $(IFCT_HOST)/vg/test_%: $(IFCT_SRC)/host_%.c $(IFCT_SRC)/testiface.h $(IFC_A) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -I$(IFCT_SRC) -o $@ $< $(IFC_A) $(LBC_A) $(FFI_LIBS) $(CRITERION_LIBS) -lpthread

.PHONY: iface-valgrind
iface-valgrind: $(IFCT_VG_BINS)
	@rc=0; for t in $(IFCT_VG_BINS); do \
		valgrind -q --trace-children=yes --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--error-exitcode=9 $$t -j1 || rc=1; \
	done; exit $$rc

# --- examples ------------------------------------------------------------
# Guest programs (they need a binder device and the service manager),
# linked statically like the other examples (SM_LINK: the service-manager
# client and libbinder-c, from servicemanager/build.mk).
IFCX_BINS := $(B)/guest/bin/calc-service $(B)/guest/bin/calc-client $(B)/guest/bin/kv-service \
	$(B)/guest/bin/kv-client

ALL_TARGETS += $(IFCX_BINS)

$(B)/guest/bin/calc-%: $(TOP)/examples/calc/calc-%.c $(TOP)/examples/calc/calc.h $(IFC_A) $(LBC_A) $(SMC_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $< $(IFC_A) $(SM_LINK) $(FFI_LIBS) -lm

$(B)/guest/bin/kv-%: $(TOP)/examples/kv/kv-%.c $(TOP)/examples/kv/kv.h $(IFC_A) $(LBC_A) $(SMC_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $< $(IFC_A) $(SM_LINK) $(FFI_LIBS)

# --- guest tests: both drivers, one test at a time (context manager) ------
IFCT_GUEST := $(B)/guest/bin
IFCT_GUEST_NAMES := calls examples sm
IFCT_GUEST_BINS := $(patsubst %,$(IFCT_GUEST)/iface-%-test,$(IFCT_GUEST_NAMES))

GUEST_TESTS += $(IFCT_GUEST_BINS)

# main() is tests/lib/serial_main.c, shared by the library's guest suites.
$(IFCT_GUEST_BINS): $(IFCT_GUEST)/iface-%-test: $(IFCT_SRC)/guest_%.c $(IFCT_SRC)/guest_main.c \
		$(IFCT_SRC)/guest.h $(IFCT_SRC)/testiface.h $(B)/obj/tests/lib/serial_main.o $(IFC_A) $(LBC_A) | $(IFCX_BINS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -I$(IFCT_SRC) -o $@ $< $(IFCT_SRC)/guest_main.c $(B)/obj/tests/lib/serial_main.o \
		$(IFC_A) $(LBC_A) $(FFI_LIBS) $(CRITERION_LIBS) -lpthread

.PHONY: iface iface-host-tests
iface: $(IFC_SO) $(IFC_A) $(IFCT_HOST_BINS) $(IFCT_GUEST_BINS) $(IFCX_BINS)
iface-host-tests: $(IFCT_HOST_BINS)
