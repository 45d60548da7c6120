# SPDX-License-Identifier: MIT
# tests/stress/build.mk: the kill-storm stress and its Criterion wrapper.
# Included by the top-level Makefile (TOP, B, CFLAGS_BASE come from there,
# TH_* from tests/common/build.mk), before tests/fuzz/build.mk.
#
#   $(B)/guest/bin/binderc-stress   the stress (plain program, see its header)
#   $(B)/guest/bin/stress-test      Criterion: one budgeted storm (per device)
TOP ?= $(CURDIR)
B ?= $(TOP)/build
CFLAGS_BASE ?= -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -I$(TOP)/include
# The shared harness (a no-op when the top Makefile has read it already).
include $(TOP)/tests/common/build.mk

STRESS_SRC := $(TOP)/tests/stress
STRESS_BIN := $(B)/guest/bin
STRESS_PROGS := $(STRESS_BIN)/binderc-stress
STRESS_TESTS := $(STRESS_BIN)/stress-test

ALL_TARGETS += $(STRESS_PROGS)
# The kill storm runs where KASAN, lockdep, kmemleak and failslab can see
# what it provokes: the debug kernel.
GUEST_DEBUG_TESTS += $(STRESS_TESTS)

# libbinder-c for its report listener (--reports) only.
$(STRESS_BIN)/binderc-stress: $(STRESS_SRC)/stress.c $(TOP)/tests/fuzz/fz.h $(TH_HDRS) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< $(LBC_LINK)

$(STRESS_BIN)/stress-test: $(STRESS_SRC)/test_stress.c $(TOP)/tests/fuzz/fz.h $(TOP)/tests/fuzz/guest.h $(TH_OBJS) \
		| $(STRESS_PROGS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< $(TH_OBJS) $(CRITERION_LIBS)

.PHONY: stress
stress: $(STRESS_PROGS) $(STRESS_TESTS)
