# SPDX-License-Identifier: MIT
# tests/sm/build.mk: tests of the service manager, its client and the
# binder tool.
#   unit_sm      host (no kernel), sanitizers: policy, dialects, methods
#   sm-test      guest, once per device: the daemon, both dialects, the
#                client API, deaths, denials, malformed requests, the tool
# SMD_*, SMC_*, SM_LIBBC_* come from servicemanager/build.mk.

SMT_SRC := $(TOP)/tests/sm
SMT_HOST := $(B)/tests/sm/unit_sm
SMT_GUEST := $(B)/guest/bin/sm-test

HOST_TESTS += $(SMT_HOST)

$(SMT_HOST): $(SMT_SRC)/unit_sm.c $(patsubst %,$(SMD_OBJ)/san/%.o,$(SMD_NAMES)) $(SM_LIBBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -o $@ $^ $(CRITERION_LIBS) -lpthread

.PHONY: sm-tests
sm-tests: $(SMT_HOST)
