# SPDX-License-Identifier: MIT
# tests/rpc/build.mk: host Criterion tests of RPC binder (libbinder-c's
# rpc_*.c): golden wire bytes, sessions over a socketpair, malformed
# streams, a short fuzz run.  Sanitizer build of the library; the
# internal headers are visible (-I libbinder-c) for the wire module.

RPCT_SRC := $(TOP)/tests/rpc
RPCT_BIN := $(B)/tests/rpc
# rpc_ prefixed: the tally names host binaries by their base name, and
# tests/unit has a test_malformed and a test_fuzz of its own.
RPCT_NAMES := rpc_wire rpc_session rpc_malformed rpc_fuzz rpc_addr rpc_death rpc_listen rpc_conns
RPCT_BINS := $(patsubst %,$(RPCT_BIN)/test_%,$(RPCT_NAMES))

HOST_TESTS += $(RPCT_BINS)

$(RPCT_BINS): $(RPCT_BIN)/test_%: $(RPCT_SRC)/test_%.c $(wildcard $(RPCT_SRC)/*.h) $(TH_HDRS) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) -I$(TOP)/libbinder-c -o $@ $< $(LBC_SAN_A) $(CRITERION_LIBS) -lpthread

.PHONY: rpc-tests
rpc-tests: $(RPCT_BINS)
