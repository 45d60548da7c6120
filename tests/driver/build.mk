# SPDX-License-Identifier: MIT
# tests/driver/build.mk: raw-ioctl conformance tests for the binder drivers.
# Included by the top-level Makefile (TOP, B, CFLAGS_BASE come from there,
# TH_* from tests/common/build.mk: the shared harness and main);
# the ?= defaults only let it be used on its own:
#   make -f tests/driver/build.mk TOP=$PWD driver-tests
TOP ?= $(CURDIR)
B ?= $(TOP)/build
CFLAGS_BASE ?= -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -I$(TOP)/include
# The shared harness (a no-op when the top Makefile has read it already).
include $(TOP)/tests/common/build.mk

DRVT_SRC := $(TOP)/tests/driver
DRVT_OBJ := $(B)/obj/tests/driver
DRVT_BIN := $(B)/guest/bin
DRVT_NAMES := interface multiproc badinput cve access counters freeze
# The 6.1 features that had no asserting test (issue 17).
DRVT_NAMES += protocol61
DRVT_LIBOBJS := $(DRVT_OBJ)/bt.o $(DRVT_OBJ)/srv.o $(TH_OBJS)
DRVT_NAMES += binderfs
# Transaction reports over generic netlink, read with libbinder-c's listener.
DRVT_NAMES += report
# The receive-buffer allocator: placement, exhaustion, 10,000 outstanding.
DRVT_NAMES += alloc
# Tracepoints (trace system binderc; mainline's binder events), via tracefs.
DRVT_NAMES += trace
# Receive-buffer pages given back under memory pressure (the shrinker).
DRVT_NAMES += shrink
# Real-time priority inheritance, a binderc opt-in (issue 20).
DRVT_NAMES += rtprio
DRVT_BINS := $(foreach n,$(DRVT_NAMES),$(DRVT_BIN)/driver-$(n)-test)

GUEST_TESTS += $(DRVT_BINS)

.PHONY: driver-tests
driver-tests: $(DRVT_BINS)

$(DRVT_OBJ)/%.o: $(DRVT_SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -MMD -MP -c $< -o $@

$(DRVT_BINS): $(DRVT_BIN)/driver-%-test: $(DRVT_OBJ)/test_%.o $(DRVT_LIBOBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $^ -lcriterion -lpthread

# An extra prerequisite joins $^ of the rule above: linked in.
$(DRVT_BIN)/driver-report-test: $(LBC_A)

-include $(wildcard $(DRVT_OBJ)/*.d)
