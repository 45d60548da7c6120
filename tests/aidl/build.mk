# SPDX-License-Identifier: MIT
# tests/aidl/build.mk: host tests of bc-aidl (Criterion, ASan/UBSan), and
# the guest test of its greeter example (aidl-greeter-test).
#
#  - test_aidl_golden: the .aidl files under good/ are compiled at build
#    time by the freshly built bc-aidl into $(AIDLT_GEN), and the
#    generated C is built with -Wall -Wextra -Werror and the sanitizers
#    and checked byte for byte against hand-written parcel code;
#  - test_aidl_bad: every file in bad/ is refused with the message and
#    file:line:col its first line announces (in-process and through the
#    bc-aidl binary); it also holds the checks of bc-aidl's own tables
#    (annotations.c, kinds.c);
#  - test_aidl_fuzz: mutations of the good corpus never crash the front
#    end and always end in success or one clean error.

AIDLT_SRC := $(TOP)/tests/aidl
AIDLT_BIN := $(B)/tests/aidl
AIDLT_GEN := $(B)/gen/aidl-test
AIDLT_GOOD := $(AIDLT_SRC)/good
AIDLT_AIDL := $(wildcard $(AIDLT_GOOD)/org/binderc/test/*.aidl)
AIDLT_NAMES := $(patsubst %.aidl,org_binderc_test_%,$(notdir $(AIDLT_AIDL)))
AIDLT_GEN_C := $(patsubst %,$(AIDLT_GEN)/%.c,$(AIDLT_NAMES))
AIDLT_GEN_O := $(patsubst %,$(AIDLT_GEN)/%.o,$(AIDLT_NAMES))
AIDLT_FLAGS := -DAIDLT_DIR='"$(AIDLT_SRC)"' -DBC_AIDL_BIN='"$(BC_AIDL)"'

HOST_TESTS += $(AIDLT_BIN)/test_aidl_golden $(AIDLT_BIN)/test_aidl_bad $(AIDLT_BIN)/test_aidl_fuzz

# One run of bc-aidl per file writes both NAME.h and NAME.c.
# (static pattern rules: make never prefers its built-in %.o: %.c to them)
$(AIDLT_GEN_C): $(AIDLT_GEN)/org_binderc_test_%.c: $(AIDLT_GOOD)/org/binderc/test/%.aidl $(BC_AIDL)
	@mkdir -p $(dir $@)
	$(BC_AIDL) -I $(AIDLT_GOOD) -o $(AIDLT_GEN) --version 3 --hash abc123 $<

# Every generated object sees every generated header.  Built as a user
# would: pedantic C11, without _GNU_SOURCE.
$(AIDLT_GEN_O): $(AIDLT_GEN)/%.o: $(AIDLT_GEN)/%.c $(AIDLT_GEN_C)
	$(CC) $(CFLAGS_BASE) -U_GNU_SOURCE -Wpedantic $(SAN_FLAGS) -I$(AIDLT_GEN) -c $< -o $@

AIDLT_GOLDEN := $(AIDLT_SRC)/golden_types.c $(AIDLT_SRC)/golden_iface.c $(AIDLT_SRC)/golden_nullable.c \
	$(AIDLT_SRC)/golden_fds.c $(AIDLT_SRC)/golden_union.c $(AIDLT_SRC)/golden_nested.c \
	$(AIDLT_SRC)/golden_fixed.c $(AIDLT_SRC)/golden_fixed_out.c $(AIDLT_SRC)/golden_nested_iface.c \
	$(AIDLT_SRC)/golden_hal.c $(AIDLT_SRC)/golden_lists.c $(AIDLT_SRC)/golden_defaults.c \
	$(AIDLT_SRC)/golden_holder.c $(AIDLT_SRC)/golden_generic.c $(AIDLT_SRC)/golden_stability.c \
	$(AIDLT_SRC)/golden_sensitive.c $(AIDLT_SRC)/golden_nullable_fixed.c $(AIDLT_SRC)/golden_pair.c

# golden_stability.c and golden_sensitive.c read the generated text
# (AIDLT_GEN); golden_stability.c serves a
# stub over RPC binder with tests/rpc's helpers
AIDLT_GOLDEN_FLAGS := -DAIDLT_GEN='"$(AIDLT_GEN)"' -I$(TOP)/tests/rpc

$(AIDLT_BIN)/test_aidl_golden: $(AIDLT_GOLDEN) $(AIDLT_SRC)/at.h $(TOP)/tests/rpc/rpct.h $(TH_HDRS) $(AIDLT_GEN_O) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) $(AIDLT_GOLDEN_FLAGS) -I$(AIDLT_GEN) -o $@ $(AIDLT_GOLDEN) $(AIDLT_GEN_O) $(LBC_SAN_A) \
		$(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread

$(AIDLT_BIN)/test_aidl_bad: $(AIDLT_SRC)/bad.c $(AIDLT_SRC)/annotations.c $(AIDLT_SRC)/kinds.c $(AIDLT_SRC)/at.h $(TH_HDRS) $(AIDL_SAN_A) $(BC_AIDL) $(wildcard $(AIDLT_SRC)/bad/*.aidl)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) $(AIDLT_FLAGS) -I$(TOP)/aidl -o $@ $(filter %.c,$^) $(AIDL_SAN_A) $(CRITERION_LIBS) -lm

$(AIDLT_BIN)/test_aidl_fuzz: $(AIDLT_SRC)/fuzz.c $(AIDLT_SRC)/at.h $(TH_HDRS) $(AIDL_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) $(AIDLT_FLAGS) -I$(TOP)/aidl -o $@ $(filter %.c,$^) $(AIDL_SAN_A) $(CRITERION_LIBS) -lm

# test_aidl_kv: examples/kv's interfaces written in AIDL (kv/) against the
# same ones in signature strings (examples/kv/kv.h): same bytes.
AIDLT_KV := $(AIDLT_SRC)/kv/org/binderc/examples
AIDLT_KV_GEN := $(B)/gen/aidl-kv
AIDLT_KV_NAMES := org_binderc_examples_IKeyValue org_binderc_examples_IKvListener
AIDLT_KV_C := $(patsubst %,$(AIDLT_KV_GEN)/%.c,$(AIDLT_KV_NAMES))
HOST_TESTS += $(AIDLT_BIN)/test_aidl_kv

$(AIDLT_KV_C): $(AIDLT_KV_GEN)/org_binderc_examples_%.c: $(AIDLT_KV)/%.aidl $(BC_AIDL)
	@mkdir -p $(dir $@)
	$(BC_AIDL) -I $(AIDLT_SRC)/kv -o $(AIDLT_KV_GEN) $<

$(AIDLT_BIN)/test_aidl_kv: $(AIDLT_SRC)/golden_kv.c $(AIDLT_SRC)/at.h $(TOP)/examples/kv/kv.h $(TH_HDRS) $(AIDLT_KV_C) \
		$(IFC_SAN_A) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) -I$(AIDLT_KV_GEN) -I$(TOP)/examples/kv -o $@ $< $(AIDLT_KV_C) \
		$(IFC_SAN_A) $(LBC_SAN_A) $(LBC_TLS_LIBS) $(FFI_LIBS) $(CRITERION_LIBS) -lpthread

# test_aidl_hal_examples: examples/hal's interfaces (aidl/build.mk
# generates them) against Android's codes, constants and bytes
HOST_TESTS += $(AIDLT_BIN)/test_aidl_hal_examples

$(AIDLT_BIN)/test_aidl_hal_examples: $(AIDLT_SRC)/golden_hal_examples.c $(AIDLT_SRC)/at.h $(TH_HDRS) $(HALX_VIB_C) \
		$(HALX_POW_C) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) -I$(HALX_GEN) -o $@ $< $(HALX_VIB_C) $(HALX_POW_C) $(LBC_SAN_A) \
		$(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread

.PHONY: aidl-tests
aidl-tests: $(AIDLT_BIN)/test_aidl_golden $(AIDLT_BIN)/test_aidl_bad $(AIDLT_BIN)/test_aidl_fuzz $(AIDLT_BIN)/test_aidl_kv \
	$(AIDLT_BIN)/test_aidl_hal_examples

# --- guest: the greeter example (aidl/build.mk builds it from examples/aidl)
AIDLX_TEST := $(B)/guest/bin/aidl-greeter-test
GUEST_USER_TESTS += $(AIDLX_TEST)

$(AIDLX_TEST): $(AIDLT_SRC)/guest_greeter.c $(TH_OBJS) | $(AIDLX_BINS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< $(TH_OBJS) $(CRITERION_LIBS)

# --- guest: the HAL examples (aidl/build.mk builds them from examples/hal)
# through tests/aidl/hal.sh, with tests/aidl/hal.policy declaring them
AIDLH_TEST := $(B)/guest/bin/aidl-hal-test
GUEST_USER_TESTS += $(AIDLH_TEST)

$(AIDLH_TEST): $(AIDLT_SRC)/guest_hal.c $(TH_OBJS) $(AIDLT_SRC)/hal.sh $(AIDLT_SRC)/hal.policy | $(HALX_BINS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< $(TH_OBJS) $(CRITERION_LIBS)

# --- guest: IRemote (tests/aidl/remote) across processes: fds, nullable,
# arrays, nested types, callbacks, one-way calls, the service dying
AIDLR_SRC := $(AIDLT_SRC)/remote
AIDLR_GEN := $(B)/gen/aidl-remote
AIDLR_AIDL := $(wildcard $(AIDLR_SRC)/org/binderc/remote/*.aidl)
AIDLR_NAMES := $(patsubst %.aidl,org_binderc_remote_%,$(notdir $(AIDLR_AIDL)))
AIDLR_GEN_C := $(patsubst %,$(AIDLR_GEN)/%.c,$(AIDLR_NAMES))
AIDLR_GEN_O := $(patsubst %,$(AIDLR_GEN)/%.o,$(AIDLR_NAMES))
AIDLR_TEST := $(B)/guest/bin/aidl-remote-test
GUEST_USER_TESTS += $(AIDLR_TEST)

$(AIDLR_GEN_C): $(AIDLR_GEN)/org_binderc_remote_%.c: $(AIDLR_SRC)/org/binderc/remote/%.aidl $(BC_AIDL_RUN)
	@mkdir -p $(dir $@)
	$(BC_AIDL_RUN) -I $(AIDLR_SRC) -o $(AIDLR_GEN) $<

$(AIDLR_GEN_O): $(AIDLR_GEN)/%.o: $(AIDLR_GEN)/%.c $(AIDLR_GEN_C)
	$(CC) $(CFLAGS_BASE) -I$(AIDLR_GEN) -c $< -o $@

$(AIDLR_TEST): $(AIDLT_SRC)/guest_remote.c $(TH_HDRS) $(TH_OBJS) $(AIDLR_GEN_O) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -I$(AIDLR_GEN) -o $@ $< $(AIDLR_GEN_O) $(TH_OBJS) $(LBC_LINK) $(CRITERION_LIBS)

# The same over RPC binder on the host, with no device and no guest
# (tests/common/th_rpc.h), under the sanitizers: the generated C too.
AIDLR_RPC := $(B)/tests/aidl/test_aidl_remote_rpc
HOST_TESTS += $(AIDLR_RPC)

$(AIDLR_RPC): $(AIDLT_SRC)/guest_remote.c $(TH_HDRS) $(TH_LIB) $(AIDLR_GEN_C) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) -DTH_RPC_DEFAULT -I$(AIDLR_GEN) -o $@ $< $(AIDLR_GEN_C) \
		$(TH_LIB) $(LBC_SAN_A) $(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread
