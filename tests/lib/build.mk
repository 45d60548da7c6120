# SPDX-License-Identifier: MIT
# tests/lib/build.mk: guest tests of libbinder-c (Criterion, run in the
# QEMU guest once per device), linked statically against the library.

LBCGT_SRC := $(TOP)/tests/lib
LBCGT_OBJ := $(B)/obj/tests/lib
LBCGT_BIN := $(B)/guest/bin
LBCGT_BINS := $(LBCGT_BIN)/libbinder-c-test $(LBCGT_BIN)/libbinder-c-stress-test

GUEST_USER_TESTS += $(LBCGT_BINS)

$(LBCGT_OBJ)/%.o: $(LBCGT_SRC)/%.c $(LBCGT_SRC)/lt.h $(TH_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -MMD -MP -c $< -o $@

# main() is the shared one (TH_OBJS, tests/common).
$(LBCGT_BIN)/libbinder-c-test: $(LBCGT_OBJ)/test_lib.o $(LBCGT_OBJ)/lt.o $(TH_OBJS) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $(filter %.o,$^) $(LBC_LINK) $(CRITERION_LIBS)

# Proxies under contention while the service dies and restarts; the
# steady call path's allocations (none), counted with malloc interposed.
$(LBCGT_BIN)/libbinder-c-stress-test: $(LBCGT_OBJ)/test_lib_stress.o $(LBCGT_OBJ)/test_lib_noalloc.o $(LBCGT_OBJ)/lt.o \
		$(TH_OBJS) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $(filter %.o,$^) $(LBC_LINK) $(CRITERION_LIBS)

.PHONY: libbinder-c-guest-tests
libbinder-c-guest-tests: $(LBCGT_BINS)

# The example program (not a Criterion test): run by test_lib's
# lib_example::hello test.
LBCGT_EXAMPLE := $(LBCGT_BIN)/libbinder-c-example-hello
ALL_TARGETS += $(LBCGT_EXAMPLE)
$(LBCGT_BINS): | $(LBCGT_EXAMPLE)
$(LBCGT_EXAMPLE): $(LBCGT_SRC)/example_hello.c $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $< $(LBC_LINK)

# The same suite over RPC binder on the host, with no device and no guest
# (tests/common/th_rpc.h), under the sanitizers; the tests only the kernel
# can run skip there with their reason.
LBCGT_RPC := $(B)/tests/lib/test_lib_rpc
HOST_TESTS += $(LBCGT_RPC)

$(B)/obj/tests/lib-rpc/%.o: $(LBCGT_SRC)/%.c $(LBCGT_SRC)/lt.h $(TH_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) -DTH_RPC_DEFAULT -MMD -MP -c $< -o $@

# The example program again, for lib_example::hello to run with --rpc.
LBCGT_EXAMPLE_RPC := $(B)/tests/lib/libbinder-c-example-hello
$(LBCGT_RPC): | $(LBCGT_EXAMPLE_RPC)
$(LBCGT_EXAMPLE_RPC): $(LBCGT_SRC)/example_hello.c $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -o $@ $< $(LBC_SAN_A) $(LBC_TLS_LIBS) -lpthread

$(LBCGT_RPC): $(B)/obj/tests/lib-rpc/test_lib.o $(B)/obj/tests/lib-rpc/lt.o $(B)/obj/tests/lib-rpc/one_job.o \
		$(TH_LIB) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -o $@ $(filter %.o,$^) $(LBC_SAN_A) $(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread

# The stress suite over RPC binder too (the same flags, one job): the
# service killed is the process serving its RPC sessions; what only the
# kernel has skips with its reason.
LBCGT_STRESS_RPC := $(B)/tests/lib/test_lib_stress_rpc
HOST_TESTS += $(LBCGT_STRESS_RPC)

$(LBCGT_STRESS_RPC): $(B)/obj/tests/lib-rpc/test_lib_stress.o $(B)/obj/tests/lib-rpc/test_lib_noalloc.o \
		$(B)/obj/tests/lib-rpc/lt.o $(B)/obj/tests/lib-rpc/one_job.o $(TH_LIB) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -o $@ $(filter %.o,$^) $(LBC_SAN_A) $(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread
