# SPDX-License-Identifier: MIT
# tests/fuzz/build.mk: the seeded multi-process binder fuzzer, its Criterion
# wrapper and regression tests, the fault-injection shim and its Criterion
# wrapper, and 'make soak'.  Included by the top-level Makefile (TOP, B,
# CFLAGS_BASE come from there, TH_* from tests/common/build.mk).
#
#   $(B)/guest/bin/binderc-fuzz          the fuzzer (plain program)
#   $(B)/guest/bin/fuzz-test             Criterion: budgeted fuzz run and the
#                                        named regression tests (per device)
#   $(B)/guest/lib/libbinderc-failnth.so LD_PRELOAD shim: fail-nth fault
#                                        injection inside binder syscalls
#   $(B)/guest/bin/fault-test            Criterion: conformance suite, stress
#                                        and fuzz under fault injection (per
#                                        device; skips without fault injection)
#
# 'make check' runs fuzz-test once per device on both kernels, the storm
# on both devices of the debug kernel only and fault-test on its
# /dev/binderc only (GUEST_TESTS, GUEST_DEBUG_TESTS and
# GUEST_DEBUG_BINDERC_TESTS in the top-level Makefile).
TOP ?= $(CURDIR)
B ?= $(TOP)/build
CFLAGS_BASE ?= -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -I$(TOP)/include
# The shared harness (a no-op when the top Makefile has read it already).
include $(TOP)/tests/common/build.mk

FUZZ_SRC := $(TOP)/tests/fuzz
FUZZ_BIN := $(B)/guest/bin
FUZZ_LIB := $(B)/guest/lib
FUZZ_PROGS := $(FUZZ_BIN)/binderc-fuzz $(FUZZ_LIB)/libbinderc-failnth.so
FUZZ_TESTS := $(FUZZ_BIN)/fuzz-test $(FUZZ_BIN)/fault-test
FUZZ_HDRS := $(FUZZ_SRC)/fz.h $(FUZZ_SRC)/guest.h $(TH_HDRS)

# Every reliability binary the guest suite should run once per device;
# STRESS_TESTS comes from tests/stress/build.mk (included before this file).
RELIABILITY_GUEST_TESTS = $(FUZZ_BIN)/fuzz-test $(STRESS_TESTS) $(FUZZ_BIN)/fault-test

ALL_TARGETS += $(FUZZ_PROGS)
# The fuzzer on both kernels (its budget depends on the kernel, see
# test_fuzz.c); fault injection on the debug kernel, which has failslab,
# and on binderc only: it is there for our driver's error paths.
GUEST_TESTS += $(FUZZ_BIN)/fuzz-test
GUEST_DEBUG_BINDERC_TESTS += $(FUZZ_BIN)/fault-test

$(FUZZ_BIN)/binderc-fuzz: $(FUZZ_SRC)/fuzz.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< -lpthread

$(FUZZ_LIB)/libbinderc-failnth.so: $(FUZZ_SRC)/failnth.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -fPIC -shared -o $@ $< -ldl

$(FUZZ_BIN)/fuzz-test: $(FUZZ_SRC)/test_fuzz.c $(FUZZ_HDRS) $(TH_OBJS) | $(FUZZ_BIN)/binderc-fuzz
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< $(TH_OBJS) $(CRITERION_LIBS)

# fault-test runs the conformance binaries (tests/driver), the stress and the
# fuzzer with the shim preloaded.  It has a main of its own (a probe mode)
# that calls the shared th_criterion_main: TH_LIB, not TH_OBJS.
$(FUZZ_BIN)/fault-test: $(FUZZ_SRC)/test_fault.c $(FUZZ_HDRS) $(TH_LIB) | $(FUZZ_PROGS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< $(TH_LIB) $(CRITERION_LIBS) -lpthread

.PHONY: fuzz soak
fuzz: $(FUZZ_PROGS) $(FUZZ_TESTS)

# make soak SECONDS=N [SOAK_KERNEL=debug|stock] [SOAK_SEED=S]: one guest,
# the fuzzer and the kill storm on both devices (and under fault injection
# where the kernel has it) for about N seconds in all; random seeds unless
# SOAK_SEED is given, each printed.
SECONDS ?= 600
SOAK_KERNEL ?= debug
SOAK_SEED ?=
soak: all
	@mkdir -p $(B)/soak
	@$(TOP)/tests/vm/run-guest --kernel $(SOAK_KERNEL) --timeout $$(( $(SECONDS) * 2 + 900 )) \
		--quiet --log $(B)/soak/guest-$(SOAK_KERNEL).log -- \
		sh tests/fuzz/soak $(SECONDS) $(SOAK_SEED); rc=$$?; \
	grep -aE '^(soak|binderc-fuzz: (seed|.*ops in|LEAK|HANG|VIOLATION|FAIL)|binderc-stress: (seed|LEAK|HANG|VIOLATION|FAIL))' \
		$(B)/soak/guest-$(SOAK_KERNEL).log | head -n 200; \
	echo "soak: log in $(B)/soak/guest-$(SOAK_KERNEL).log (run-guest exit $$rc)"; exit $$rc
