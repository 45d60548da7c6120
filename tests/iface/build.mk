# SPDX-License-Identifier: MIT
# tests/iface/build.mk: tests of signature interfaces (libbinder-c-iface):
# host tests (host_*.c, test_* binaries) and guest tests (guest_*.c,
# iface-*-test).  IFC_*, FFI_* come from libbinder-c/iface.mk, LBC_* from
# libbinder-c/build.mk, IFCX_BINS (the calc and kv examples the guest
# tests run) from examples/build.mk, TH_* from tests/common/build.mk.

# --- host tests: parcel API and in-process objects only, no driver ---------
IFCT_SRC := $(TOP)/tests/iface
IFCT_HOST := $(B)/tests/iface
IFCT_HOST_NAMES := sig marshal loopback
IFCT_HOST_BINS := $(patsubst %,$(IFCT_HOST)/test_%,$(IFCT_HOST_NAMES))

HOST_TESTS += $(IFCT_HOST_BINS)

$(IFCT_HOST_BINS): $(IFCT_HOST)/test_%: $(IFCT_SRC)/host_%.c $(IFCT_SRC)/testiface.h $(IFC_SAN_A) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -I$(IFCT_SRC) -o $@ $< $(IFC_SAN_A) $(LBC_SAN_A) \
		$(LBC_TLS_LIBS) $(FFI_LIBS) $(CRITERION_LIBS) -lpthread

# 'make iface-valgrind': the same host tests without sanitizers, under
# valgrind (every closure and description freed, no invalid access).
IFCT_VG_BINS := $(patsubst %,$(IFCT_HOST)/vg/test_%,$(IFCT_HOST_NAMES))

$(IFCT_VG_BINS): $(IFCT_HOST)/vg/test_%: $(IFCT_SRC)/host_%.c $(IFCT_SRC)/testiface.h $(IFC_A) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -I$(IFCT_SRC) -o $@ $< $(IFC_A) $(LBC_A) $(LBC_TLS_LIBS) $(FFI_LIBS) $(CRITERION_LIBS) -lpthread

.PHONY: iface-valgrind
iface-valgrind: $(IFCT_VG_BINS)
	@rc=0; for t in $(IFCT_VG_BINS); do \
		valgrind -q --trace-children=yes --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--error-exitcode=9 $$t -j1 || rc=1; \
	done; exit $$rc

# --- guest tests: both drivers, one test at a time (context manager) ------
IFCT_GUEST := $(B)/guest/bin
IFCT_GUEST_NAMES := calls examples sm
IFCT_GUEST_BINS := $(patsubst %,$(IFCT_GUEST)/iface-%-test,$(IFCT_GUEST_NAMES))

GUEST_USER_TESTS += $(IFCT_GUEST_BINS)

# main() is the shared one (TH_OBJS, tests/common); guest_server.c starts
# the server these tests call.
$(IFCT_GUEST_BINS): $(IFCT_GUEST)/iface-%-test: $(IFCT_SRC)/guest_%.c $(IFCT_SRC)/guest_server.c \
		$(IFCT_SRC)/guest.h $(IFCT_SRC)/testiface.h $(TH_HDRS) $(TH_OBJS) $(IFC_A) $(LBC_A) | $(IFCX_BINS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -I$(IFCT_SRC) -o $@ $< $(IFCT_SRC)/guest_server.c $(TH_OBJS) \
		$(IFC_A) $(LBC_LINK) $(FFI_LIBS) $(CRITERION_LIBS)

.PHONY: iface iface-host-tests
iface: $(IFC_SO) $(IFC_A) $(IFCT_HOST_BINS) $(IFCT_GUEST_BINS) $(IFCX_BINS)
iface-host-tests: $(IFCT_HOST_BINS)

# The calls suite over RPC binder on the host, with no device and no guest
# (tests/common/th_rpc.h), under the sanitizers.  The examples and service
# manager suites stay guest-only: they run the programs on a device.
IFCT_RPC := $(IFCT_HOST)/test_iface_rpc
HOST_TESTS += $(IFCT_RPC)

$(IFCT_RPC): $(IFCT_SRC)/guest_calls.c $(IFCT_SRC)/guest_server.c $(IFCT_SRC)/guest.h $(IFCT_SRC)/testiface.h \
		$(TH_HDRS) $(TH_LIB) $(IFC_SAN_A) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) -DTH_RPC_DEFAULT -I$(IFCT_SRC) -o $@ \
		$(IFCT_SRC)/guest_calls.c $(IFCT_SRC)/guest_server.c $(TH_LIB) $(IFC_SAN_A) $(LBC_SAN_A) $(LBC_TLS_LIBS) \
		$(FFI_LIBS) $(CRITERION_LIBS) -lpthread
