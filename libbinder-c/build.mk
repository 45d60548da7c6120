# SPDX-License-Identifier: MIT
# libbinder-c/build.mk: the pure-C binder library (shared, static, a
# sanitizer build for host tests, pkg-config file, install rule).
# Included by the top-level Makefile (TOP, B, CC, CFLAGS_BASE, SAN_FLAGS,
# PREFIX, LIBDIR, DESTDIR come from there), before every other fragment:
# the others name the archive LBC_A and link with LBC_LINK.

LBC_VERSION := 2.0.0
LBC_SOVERSION := 2
LBC_SRC := $(TOP)/libbinder-c
LBC_OBJ := $(B)/obj/libbinder-c
LBC_NAMES := utf status parcel parcel_write parcel_read parcel_objects orderq txn ipc process servicemanager
# The transaction-report listener (<binderc/report.h>).
LBC_NAMES += report
# Binders: the base, its kinds and what hangs on them (binder_internal.h).
LBC_NAMES += binder class local proxy death frozen weak
# Registrations of callbacks (<binderc/slot.h>).
LBC_NAMES += slot
# Stability levels of binders and the check of required ones.
LBC_NAMES += stability
# RPC binder: binder over sockets, wire-compatible with Android (rpc.h).
LBC_NAMES += rpc_wire rpc_conn rpc_session rpc_client rpc_proxy rpc_server rpc_addr rpc_death rpc_listen rpc_poll rpc_allow
# a server the program polls itself, its connections reading ahead
LBC_NAMES += rpc_server_poll rpc_pollbuf
# a session's pieces (rpc_session_internal.h)
LBC_NAMES += rpc_msg rpc_nodes rpc_parcel rpc_dec rpc_async rpc_dispatch rpc_call
# RPC over TLS (<binderc/rpc_tls.h>) with OpenSSL (libssl-dev), or a stand-in
# saying -EOPNOTSUPP when LBC_TLS=no.  The cross and -m32 builds say yes:
# their roots (scripts/fetch-*-root) hold OpenSSL for their architecture.
LBC_TLS ?= $(if $(shell pkg-config --exists libssl libcrypto 2>/dev/null && echo yes),yes,no)
ifeq ($(LBC_TLS),yes)
LBC_NAMES += rpc_tls rpc_tls_ctx
LBC_TLS_LIBS := $(or $(shell pkg-config --libs libssl libcrypto 2>/dev/null),-lssl -lcrypto)
LBC_PC_PRIVATE := libssl libcrypto
else
LBC_NAMES += rpc_tls_none
LBC_TLS_LIBS :=
LBC_PC_PRIVATE :=
endif
LBC_HEADERS := $(wildcard $(TOP)/include/binderc/*.h)
LBC_PIC := $(patsubst %,$(LBC_OBJ)/pic/%.o,$(LBC_NAMES))
LBC_STATIC := $(patsubst %,$(LBC_OBJ)/static/%.o,$(LBC_NAMES))
LBC_SANOBJ := $(patsubst %,$(LBC_OBJ)/san/%.o,$(LBC_NAMES))

LBC_SO := $(B)/lib/libbinder-c.so
LBC_A := $(B)/lib/libbinder-c.a
LBC_PC := $(B)/lib/pkgconfig/libbinder-c.pc
# The .pc file's libdir, relative to ${prefix} when LIBDIR is under it
# (Debian's multiarch: ${prefix}/lib/x86_64-linux-gnu).
LBC_PC_LIBDIR = $(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
# For host tests: the library built with the sanitizers.
LBC_SAN_A := $(LBC_OBJ)/libbinder-c-san.a
# How programs of this tree link the library: statically, so the guest
# needs no library path (servicemanager, tools, examples, guest tests).
LBC_LINK := $(LBC_A) $(LBC_TLS_LIBS) -lpthread

ALL_TARGETS += $(LBC_SO) $(LBC_A) $(LBC_PC)
INSTALL_TARGETS += install-libbinder-c

$(LBC_OBJ)/pic/%.o: $(LBC_SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -fPIC -MMD -MP -c $< -o $@

$(LBC_OBJ)/static/%.o: $(LBC_SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -MMD -MP -c $< -o $@

$(LBC_OBJ)/san/%.o: $(LBC_SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -MMD -MP -c $< -o $@

$(LBC_SO): $(LBC_PIC) $(LBC_SRC)/libbinder-c.map
	@mkdir -p $(dir $@)
	$(CC) -shared $(PKG_LDFLAGS) -Wl,-soname,libbinder-c.so.$(LBC_SOVERSION) -Wl,--version-script=$(LBC_SRC)/libbinder-c.map \
		-o $@.$(LBC_VERSION) $(LBC_PIC) $(LBC_TLS_LIBS) -lpthread
	ln -sf libbinder-c.so.$(LBC_VERSION) $@.$(LBC_SOVERSION)
	ln -sf libbinder-c.so.$(LBC_VERSION) $@

$(LBC_A): $(LBC_STATIC)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

$(LBC_SAN_A): $(LBC_SANOBJ)
	rm -f $@ && $(AR) rcs $@ $^

$(LBC_PC): $(LBC_SRC)/build.mk
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' 'libdir=$(LBC_PC_LIBDIR)' \
		'includedir=$${prefix}/include' '' 'Name: libbinder-c' \
		'Description: Android binder IPC for plain C programs' 'Version: $(LBC_VERSION)' \
		'Libs: -L$${libdir} -lbinder-c' 'Libs.private: -lpthread' 'Requires.private: $(LBC_PC_PRIVATE)' \
		'Cflags: -I$${includedir}' > $@

.PHONY: install-libbinder-c
install-libbinder-c: $(LBC_SO) $(LBC_A) $(LBC_PC)
	install -d $(DESTDIR)$(PREFIX)/include/binderc $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 0644 $(LBC_HEADERS) $(DESTDIR)$(PREFIX)/include/binderc/
	install -m 0755 $(LBC_SO).$(LBC_VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libbinder-c.so.$(LBC_VERSION) $(DESTDIR)$(LIBDIR)/libbinder-c.so.$(LBC_SOVERSION)
	ln -sf libbinder-c.so.$(LBC_VERSION) $(DESTDIR)$(LIBDIR)/libbinder-c.so
	install -m 0644 $(LBC_A) $(DESTDIR)$(LIBDIR)/
	sed -e 's|^prefix=.*|prefix=$(PREFIX)|' -e 's|^libdir=.*|libdir=$(LBC_PC_LIBDIR)|' \
		$(LBC_PC) > $(DESTDIR)$(LIBDIR)/pkgconfig/libbinder-c.pc

-include $(wildcard $(LBC_OBJ)/*/*.d)
