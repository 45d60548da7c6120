# SPDX-License-Identifier: MIT
# tests/rpc/build.mk: host Criterion tests of RPC binder (libbinder-c's
# rpc_*.c): golden wire bytes, sessions over a socketpair, malformed
# streams, a short fuzz run.  Sanitizer build of the library; the
# internal headers are visible (-I libbinder-c) for the wire module.

RPCT_SRC := $(TOP)/tests/rpc
RPCT_BIN := $(B)/tests/rpc
# rpc_ prefixed: the tally names host binaries by their base name, and
# tests/unit has a test_malformed and a test_fuzz of its own.
RPCT_NAMES := rpc_wire rpc_session rpc_malformed rpc_fuzz
# What a proxy requires of its object's stability (bc_binder_require_stability).
RPCT_NAMES += rpc_stability
# Addresses and sockets, deaths, accept loop and limits, sessions of
# several connections, oneway order, joins, the binder tool's rpc commands.
RPCT_NAMES += rpc_addr rpc_death rpc_listen rpc_conns rpc_async rpc_join rpc_tool
# A client's bounded set-up against a silent server.
RPCT_NAMES += rpc_timeout
# RPC over TLS (OpenSSL builds only: LBC_TLS).
ifeq ($(LBC_TLS),yes)
RPCT_NAMES += rpc_tls
endif
# The hello example's --rpc mode, run as programs.
RPCT_NAMES += rpc_hello
# An incoming connection the client polls itself.
RPCT_NAMES += rpc_poll
# BINDERC_FLAG_CLEAR_BUF over RPC and in process; sensitive parcels.
RPCT_NAMES += rpc_sensitive
# A server the program polls itself: one thread, a poll() loop.
RPCT_NAMES += rpc_poll_server
# Commands of every size through a connection's read buffer.
RPCT_NAMES += rpc_stream
RPCT_BINS := $(patsubst %,$(RPCT_BIN)/test_%,$(RPCT_NAMES))

HOST_TESTS += $(RPCT_BINS)

$(RPCT_BINS): $(RPCT_BIN)/test_%: $(RPCT_SRC)/test_%.c $(wildcard $(RPCT_SRC)/*.h) $(TH_HDRS) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) -I$(TOP)/libbinder-c $(RPCT_EXTRA) -o $@ $< $(LBC_SAN_A) $(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread

# `binder rpc` run as a program, against servers of the test's own.
$(RPCT_BIN)/test_rpc_tool: $(BINDER_TOOL)
$(RPCT_BIN)/test_rpc_tool: RPCT_EXTRA := -DBINDER_TOOL_PATH='"$(BINDER_TOOL)"'
$(RPCT_BIN)/test_rpc_hello: $(B)/guest/bin/hello-service $(B)/guest/bin/hello-client
$(RPCT_BIN)/test_rpc_hello: RPCT_EXTRA := -DHELLO_SERVICE_PATH='"$(B)/guest/bin/hello-service"' \
	-DHELLO_CLIENT_PATH='"$(B)/guest/bin/hello-client"'

.PHONY: rpc-tests
rpc-tests: $(RPCT_BINS)

# `binder rpc serve` on a guest's device (servicemanager and the tool run
# from the binary's own bin/): about 2 s per device.
RPCT_GUEST := $(B)/guest/bin/rpc-serve-test
GUEST_USER_TESTS += $(RPCT_GUEST)

$(RPCT_GUEST): $(RPCT_SRC)/guest_rpc_serve.c $(TH_HDRS) $(TH_OBJS) $(LBC_A) | $(SMD_BIN) $(BINDER_TOOL)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< $(TH_OBJS) $(LBC_LINK) $(CRITERION_LIBS)
