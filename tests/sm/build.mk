# SPDX-License-Identifier: MIT
# tests/sm/build.mk: tests of the service manager, its client and the
# binder tool.
#   unit_sm      host (no kernel), sanitizers: policy, dialects, methods
#   unit_lazy    host, sanitizers: client callbacks, tryUnregister, start-command
#   sm-test      guest, once per device: the daemon, both dialects, the
#                client API, deaths, denials, malformed requests, the tool
# SMD_* come from servicemanager/build.mk, LBC_* from libbinder-c/build.mk,
# TH_* (the shared harness and main) from tests/common/build.mk.

SMT_SRC := $(TOP)/tests/sm
SMT_HOST := $(B)/tests/sm/unit_sm
SMT_GUEST := $(B)/guest/bin/sm-test

SMT_LAZY := $(B)/tests/sm/unit_lazy

HOST_TESTS += $(SMT_HOST) $(SMT_LAZY)

$(SMT_HOST): $(SMT_SRC)/unit_sm.c $(patsubst %,$(SMD_OBJ)/san/%.o,$(SMD_NAMES)) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -o $@ $^ $(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread

$(SMT_LAZY): $(SMT_SRC)/unit_lazy.c $(patsubst %,$(SMD_OBJ)/san/%.o,$(SMD_NAMES)) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -o $@ $^ $(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread

.PHONY: sm-tests
sm-tests: $(SMT_HOST) $(SMT_LAZY)

GUEST_USER_TESTS += $(SMT_GUEST)

$(B)/obj/tests/sm/test_sm.o: $(SMT_SRC)/test_sm.c $(TOP)/include/binderc/servicemanager.h $(TH_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -MMD -MP -c $< -o $@

# The suite runs the daemon, the tool and the examples from its own bin/.
$(SMT_GUEST): $(B)/obj/tests/sm/test_sm.o $(TH_OBJS) $(LBC_A) | $(SMD_BIN) $(BINDER_TOOL) $(EX_BINS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $< $(TH_OBJS) $(LBC_LINK) $(CRITERION_LIBS)

sm-tests: $(SMT_GUEST)

-include $(wildcard $(B)/obj/tests/sm/*.d)
