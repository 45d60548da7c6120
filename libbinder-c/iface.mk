# SPDX-License-Identifier: MIT
# libbinder-c/iface.mk: libbinder-c-iface, interfaces built at run time
# from signature strings over libffi (<binderc/iface.h>), a library of its
# own on top of libbinder-c (its sources, iface*.c, live beside the
# library's):
#   $(B)/lib/libbinder-c-iface.so / .a     (link: -lbinder-c-iface -lbinder-c -lffi)
#   $(B)/obj/iface/libbinder-c-iface-san.a (sanitizer build, host tests)
# with its pkg-config file and install rule.  Included by the top-level
# Makefile right after libbinder-c/build.mk (LBC_* come from there).

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
	$(CC) -shared $(PKG_LDFLAGS) -Wl,-soname,libbinder-c-iface.so.$(LBC_SOVERSION) -Wl,--version-script=$(IFC_SRC)/libbinder-c.map \
		-o $@.$(LBC_SOVERSION) $(filter %.o,$^) -L$(B)/lib -lbinder-c $(FFI_LIBS) -lpthread
	ln -sf libbinder-c-iface.so.$(LBC_SOVERSION) $@

$(IFC_A): $(patsubst %,$(IFC_OBJ)/static/%.o,$(IFC_NAMES))
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

$(IFC_SAN_A): $(patsubst %,$(IFC_OBJ)/san/%.o,$(IFC_NAMES))
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

# Installed beside libbinder-c, with a .pc file of its own that pulls in
# libbinder-c and libffi (pkg-config --libs libbinder-c-iface).
IFC_PC := $(B)/lib/pkgconfig/libbinder-c-iface.pc
ALL_TARGETS += $(IFC_PC)
INSTALL_TARGETS += install-libbinder-c-iface

$(IFC_PC): $(TOP)/libbinder-c/iface.mk
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' 'libdir=$(LBC_PC_LIBDIR)' \
		'includedir=$${prefix}/include' '' 'Name: libbinder-c-iface' \
		'Description: binder interfaces from signature strings, over libffi' \
		'Version: $(LBC_VERSION)' 'Requires: libbinder-c' 'Requires.private: libffi' \
		'Libs: -L$${libdir} -lbinder-c-iface' 'Cflags: -I$${includedir}' > $@

.PHONY: install-libbinder-c-iface
install-libbinder-c-iface: $(IFC_SO) $(IFC_A) $(IFC_PC) install-libbinder-c
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 0755 $(IFC_SO).$(LBC_SOVERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libbinder-c-iface.so.$(LBC_SOVERSION) $(DESTDIR)$(LIBDIR)/libbinder-c-iface.so
	install -m 0644 $(IFC_A) $(DESTDIR)$(LIBDIR)/
	sed -e 's|^prefix=.*|prefix=$(PREFIX)|' -e 's|^libdir=.*|libdir=$(LBC_PC_LIBDIR)|' \
		$(IFC_PC) > $(DESTDIR)$(LIBDIR)/pkgconfig/libbinder-c-iface.pc

