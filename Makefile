# SPDX-License-Identifier: MIT
#
# binder-c top-level build.
#
#   make            build the module (stock kernel), libraries, tools, tests
#   make demo       boot a guest and run the hello service end to end
#   make check      everything in 45 minutes from cold (30 warm) on two
#                   cores: host unit tests, the compile matrix, DKMS,
#                   check-style, the arm64 cross build, and the guest
#                   suites on Debian's 6.1 (also as i386 processes),
#                   6.12 (binderc) and 7.3 (mainline), and on the debug
#                   kernel (7.3 with KASAN, lockdep, kmemleak, UBSAN,
#                   built once and cached: ~10 min on 2 cores; binderc);
#                   stages side by side, a table of their cost at the end
#   make check-full make check, plus mainline on the debug kernel and
#                   on 6.12, the long fuzz and storm budgets, the
#                   arm64 and armhf guests, check-system (Debian 12
#                   and 13), and RPC binder from a guest to this host
#                   over TCP (make demo-across-vm shows it)
#   make m32        those i386 test binaries, under build/m32
#   make bench      benchmarks in a guest (ratios against mainline binder)
#   make install    PREFIX=/usr/local DESTDIR= LIBDIR=$(PREFIX)/lib
#                   MANDIR=$(PREFIX)/share/man
#   make userspace  libraries, programs and examples, without the module
#                   or the tests; install-userspace installs them (what
#                   debian/rules runs: the module ships as DKMS source)
#   make deb        Debian packages under build/deb (debian/README.md)
#   make check-system  the packages installed, booted and purged in a
#                   Debian 12 guest with systemd (tests/system/README.md;
#                   SYSTEM_RELEASE=trixie: Debian 13)
#   make deps       check (as root: install) the Debian packages needed
#
# Components add themselves through build.mk fragments (FRAGMENTS below
# lists them in the order they are read) that append to:
#   ALL_TARGETS      files 'make all' builds
#   HOST_TESTS       Criterion binaries run on the host by 'make check'
#   GUEST_TESTS      Criterion binaries under $(B)/guest/bin, run in the
#                    guest once per device (BINDER_DEVICE=/dev/binder, then
#                    /dev/binderc; BINDERC_TEST_DRIVER=mainline|binderc)
#   GUEST_USER_TESTS like GUEST_TESTS, for suites of our userspace (library,
#                    service manager, interfaces, AIDL); on the debug
#                    kernel every suite runs on /dev/binderc only
#                    (tests/guest/run-suite says where each kind runs)
#   GUEST_ONCE_TESTS like GUEST_TESTS, run once per guest, one job at a time
#   GUEST_DEBUG_TESTS like GUEST_TESTS, one job at a time, on the debug
#                    kernel and Debian's 7.3 only (the reliability budget:
#                    kill storm; each wants the context manager)
#   GUEST_DEBUG_BINDERC_TESTS like GUEST_DEBUG_TESTS, on /dev/binderc only:
#                    fault injection, whose point is our driver's error
#                    paths (mainline's are not ours to fix; 213 s there)
#   INSTALL_TARGETS  phony targets run by 'make install'
#   CHECK_TARGETS    phony targets check-NAME run by 'make check' as stages
#                    after the build; each adds "passed failed" lines to
#                    build/check/NAME.tally

TOP := $(CURDIR)
B := $(TOP)/build
CC ?= cc
PREFIX ?= /usr/local
# Libraries and their pkg-config files; Debian's multiarch layout wants
# LIBDIR=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH).
LIBDIR ?= $(PREFIX)/lib
DESTDIR ?=

# What a distribution's build adds (debian/rules passes dpkg-buildflags'
# hardening flags): PKG_CFLAGS on every compile and link, PKG_LDFLAGS on
# every link (the compile lines ignore -Wl, options).  Empty here, so a
# developer's environment CFLAGS never changes what make check builds.
PKG_CFLAGS ?=
PKG_LDFLAGS ?=
CFLAGS_BASE := -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -I$(TOP)/include $(PKG_CFLAGS) $(PKG_LDFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
CRITERION_LIBS := -lcriterion

# Resolved lazily: 'make deps' may be what installs the kernel packages.
KREL = $(shell $(TOP)/scripts/kernel-version)
STOCK_KDIR = /usr/src/linux-headers-$(KREL)

ALL_TARGETS :=
HOST_TESTS :=
GUEST_TESTS :=
GUEST_USER_TESTS :=
GUEST_ONCE_TESTS :=
GUEST_DEBUG_TESTS :=
GUEST_DEBUG_BINDERC_TESTS :=
INSTALL_TARGETS :=
CHECK_TARGETS :=

# The fragments, in this order: a fragment may use (even in prerequisites,
# which make expands at once) the variables of every fragment before it.
# Libraries first, then the programs built on them, then the tests (their
# shared harness first) and the benchmark.
FRAGMENTS := libbinder-c/build.mk libbinder-c/iface.mk servicemanager/build.mk tools/build.mk \
	examples/build.mk aidl/build.mk man/build.mk \
	tests/common/build.mk tests/unit/build.mk tests/rpc/build.mk tests/aidl/build.mk tests/iface/build.mk tests/lib/build.mk \
	tests/sm/build.mk tests/driver/build.mk tests/guest/build.mk tests/stress/build.mk tests/fuzz/build.mk tests/m32/build.mk \
	bench/build.mk cross/build.mk
# A new fragment must be placed in the list, not silently left out.
UNLISTED := $(filter-out $(FRAGMENTS),$(patsubst $(TOP)/%,%,$(wildcard $(TOP)/*/build.mk $(TOP)/tests/*/build.mk)))
$(if $(UNLISTED),$(error build fragments missing from FRAGMENTS in the top Makefile: $(UNLISTED)))
include $(addprefix $(TOP)/,$(FRAGMENTS))

.PHONY: all deps check check-full demo bench install clean module-stock module-debug \
	module-matrix no-criterion check-host stage-host check-build check-debug-kernel check-compile check-style \
	check-dkms dkms-install dkms-uninstall check-guest-arm64-full check-guest-armhf-full check-bench \
	guest-tests

# Tests need Criterion; without it 'make' builds everything else and says
# so ('make HAVE_CRITERION=' shows what a machine without it does).
HAVE_CRITERION ?= $(shell printf '\043include <criterion/criterion.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo yes)

all: module-stock $(ALL_TARGETS) $(if $(HAVE_CRITERION),guest-tests $(HOST_TESTS),no-criterion)

no-criterion:
	@echo "make: Criterion not found (libcriterion-dev): tests not built"

deps:
	@$(TOP)/scripts/deps

# --- the module, built against each guest kernel ---------------------------
# DRIVER_DIR may point elsewhere, e.g. at a known-good copy for bisecting.
DRIVER_DIR ?= $(TOP)/driver
DRIVER_SRC = $(wildcard $(DRIVER_DIR)/*.c $(DRIVER_DIR)/*.h $(DRIVER_DIR)/dkms.conf) $(DRIVER_DIR)/Kbuild

# Kbuild builds in the source directory, so each kernel gets its own copy.
# Builds are serialised per kernel (several engineers' runs share build/),
# and the finished module replaces the old one with one rename.  A module
# newer than every driver source and the tree's Module.symvers, built from
# the same source directory, tree and arguments (binderc.key), is kept:
# 'make check' asks for the stock module four times and the 6.12 one twice,
# 50-60 s each.  MODULE_FORCE=1 rebuilds anyway (check-compile: its point
# is the compiler's and modpost's output).
# $(1): name under build/, $(2): KDIR, $(3): extra arguments for Kbuild.
define build_module
	@mkdir -p $(B)/$(1)/driver
	+@flock $(B)/$(1)/.lock sh -c 'set -e; o=$(B)/$(1)/driver; key="$(DRIVER_DIR) $(2) $(3)"; \
		if [ -z "$(MODULE_FORCE)" ] && [ -e $$o/binderc.ko ] && \
		   [ "$$(cat $$o/binderc.key 2>/dev/null)" = "$$key" ] && \
		   [ -z "$$(find $(DRIVER_SRC) $(2)/Module.symvers -newer $$o/binderc.ko 2>&1)" ]; then \
			exit 0; fi; \
		rm -f $$o/binderc.key; d=$(B)/$(1)/driver.tmp; rm -rf $$d; mkdir -p $$d; \
		cp -p $(DRIVER_SRC) $$d/; $(MAKE) -C $(2) M=$$d $(3) modules; \
		cp $$d/binderc.ko $$o/binderc.ko.new; mv -f $$o/binderc.ko.new $$o/binderc.ko; \
		echo "$$key" >$$o/binderc.key'
endef

module-stock:
	$(call build_module,stock,$(STOCK_KDIR))

module-debug:
	$(call build_module,debug,$(shell $(TOP)/scripts/build-debug-kernel))

# The compile matrix: the kernels binderc's users run (Debian 11's 5.10,
# 12's 6.1, 12 backports' 6.12, 13 backports' 7.3; scripts/fetch-kernel-tree).
# 'make module-matrix KV=6.12' builds build/6.12/driver/binderc.ko with
# every compiler warning an error; check-compile also fails on any other
# warning (modpost) and prints one line per kernel.
COMPILE_KERNELS := 5.10 6.1 6.12 7.3

module-matrix:
	@test -n "$(KV)" || { echo "module-matrix: set KV= (one of $(COMPILE_KERNELS))" >&2; exit 1; }
	$(call build_module,$(KV),$(or $(KDIR),$(shell $(TOP)/scripts/fetch-kernel-tree $(KV))),KCFLAGS=-Werror)

check-compile:
	@mkdir -p $(B)/check
	@$(TOP)/scripts/check-compile $(B)/check $(COMPILE_KERNELS)

# The driver's rules, checked by a machine (scripts/check-style): 7.3's
# checkpatch and kernel-doc, declarations in their files' sections, no
# export used in one file only, every lock-suffixed function asserting its
# lock, every lock in the documented order, no raw lock call where lock.h
# has a helper.
check-style:
	@mkdir -p $(B)/check
	@$(TOP)/scripts/check-style $(B)/check

# --- tests -----------------------------------------------------------------
guest-tests: $(GUEST_TESTS) $(GUEST_USER_TESTS) $(GUEST_ONCE_TESTS) $(GUEST_DEBUG_TESTS) \
		$(GUEST_DEBUG_BINDERC_TESTS)
	@mkdir -p $(B)/guest
	@{ for t in $(notdir $(GUEST_ONCE_TESTS)); do echo "once $$t --jobs 1"; done; \
	   for t in $(notdir $(GUEST_USER_TESTS)); do echo "userspace $$t"; done; \
	   for t in $(notdir $(GUEST_TESTS)); do echo "device $$t"; done; \
	   for t in $(notdir $(GUEST_DEBUG_TESTS)); do echo "debug-device $$t --jobs 1"; done; \
	   for t in $(notdir $(GUEST_DEBUG_BINDERC_TESTS)); do echo "debug-binderc $$t --jobs 1"; done; } \
		> $(B)/guest/suite.list

# --- make check: stages side by side, each timed ---------------------------
# Every stage is a target whose recipe runs through scripts/stage, which
# keeps its output in build/check/STAGE.out and records its wall time, CPU
# time, tests and (for guests) kernel and accelerator for the table that
# scripts/check-summary prints at the end.  scripts/check-run starts them
# CHECK_JOBS at a time (the machine's CPU count), each after the stages it
# needs, in CHECK_PLAN's order: most guest stages keep one core busy while
# one test process runs, so two guests, or a guest beside the debug
# kernel's build or the host suites, fill two cores.  The plan's order is
# the priority: the longest chain first (the debug kernel's build, then
# the debug guests), the short stages last.  tests/README.md ("Cost")
# lists what each stage and suite costs.
CHECK_JOBS ?= $(shell nproc)
STAGE = $(TOP)/scripts/stage $(B)/check
CHECK_GUESTS := stock stock-m32 6.12 7.3 debug-a debug-b
# STAGE:NEEDS (comma-separated): the stages of make check, in priority order.
CHECK_AFTER_BUILD = $(addsuffix :check-build,stage-host check-guest-stock check-guest-stock-m32 \
	check-guest-7.3 check-guest-6.12 $(addprefix stage-,$(TALLY_CHECKS)) check-bench)
CHECK_PLAN = check-debug-kernel check-build check-guest-debug-b:check-build,check-debug-kernel \
	check-guest-debug-a:check-build,check-debug-kernel $(CHECK_AFTER_BUILD)
# make check-full: everything make check runs, and what it leaves out for
# time: mainline on the debug kernel (device and reliability suites, the
# fuzzer's million operations and the full kill storm on both drivers),
# mainline on 6.12, the arm64 and armhf guest suites (one after the
# other, first: aarch64 under TCG is the slowest guest, and that chain the
# longest), and the system test (check-system: the .debs in a Debian 12
# guest with systemd, then in Debian 13; last, they need nothing the
# others build, and one after the other: both write build/deb).  Run it before
# resolving an issue that touches driver/, the kernel matrix or the guests.
CHECK_FULL_PLAN = check-debug-kernel check-build check-guest-arm64-full:check-build \
	check-guest-armhf-full:check-build,check-guest-arm64-full $(filter-out check-debug-kernel check-build,$(CHECK_PLAN)) \
	check-system-full:check-build check-system-trixie-full:check-system-full check-rpc-net-full:check-build \
	check-rpc-fuzz-full:check-build

check: deps
	@rm -rf $(B)/check && mkdir -p $(B)/check
	@start=$$(date +%s); \
	MAKE="$(MAKE)" CHECK_RUN=1 $(TOP)/scripts/check-run $(CHECK_JOBS) $(CHECK_PLAN); rc=$$?; \
	$(TOP)/scripts/check-summary $(B)/check $$start; exit $$rc

check-full: deps
	@rm -rf $(B)/check && mkdir -p $(B)/check
	@start=$$(date +%s); \
	MAKE="$(MAKE)" CHECK_RUN=1 CHECK_FULL=1 $(TOP)/scripts/check-run $(CHECK_JOBS) $(CHECK_FULL_PLAN); rc=$$?; \
	$(TOP)/scripts/check-summary $(B)/check $$start; exit $$rc

# Run by hand (outside check-run, CHECK_RUN unset), a stage builds what it
# needs first; inside make check the build stage has done that, once (two
# guests packing build/guest while another make rewrites it would race).
CHECK_NEEDS_ALL = $(if $(CHECK_RUN),,all)

# The build, as a stage of its own so the table shows it.
check-build:
	@mkdir -p $(B)/check
	@$(STAGE) build -- $(MAKE) --no-print-directory -j$(CHECK_JOBS) all m32-check-build

check-debug-kernel:
	@mkdir -p $(B)/check
	@$(STAGE) debug-kernel -- $(TOP)/scripts/build-debug-kernel

stage-host:
	@mkdir -p $(B)/check
	@rm -f $(B)/check/host.tally
	@$(STAGE) host --tally $(B)/check/host.tally -- $(MAKE) --no-print-directory check-host

# Every host suite (ASan, UBSan), one after the other; Criterion runs each
# binary's tests in parallel.
check-host: $(HOST_TESTS) $(LBC_SO) $(IFC_SO)
	@mkdir -p $(B)/check
	@rc=0; for t in $(HOST_TESTS); do \
		sh $(TOP)/tests/run-criterion $(B)/check/host.tally host/$$(basename $$t) $$t || rc=1; \
	done; \
	if $(TOP)/scripts/check-symbols $(TOP)/debian/libbinder-c2.symbols $(LBC_SO) $(IFC_SO); then \
		echo "1 0" >>$(B)/check/host.tally; else echo "0 1" >>$(B)/check/host.tally; rc=1; fi; \
	exit $$rc

# The guests of make check.  Each: its kernel, its wall-clock limit (a
# hang-catcher, far above what the guest needs on a busy host: TCG, and
# the debug kernel's KASAN, lockdep and kmemleak, make everything slow)
# and its share of the suite (tests/guest/run-suite's variables):
#   stock      Debian 12's 6.1, both drivers, 64-bit processes
#   stock-m32  the same kernel, the i386 builds of the driver and library
#              suites (a guest of its own, beside the 64-bit one)
#   6.12       Debian 12 backports': binderc (the only runtime check of
#              compat.h's 6.7-6.12 branches); mainline's 6.12 features
#              are a subset of 7.3's (check-full runs it too)
#   7.3        Debian 13 backports': mainline only, the 7.3 oracle
#   debug-a/b  the debug kernel (7.3 with KASAN, lockdep, kmemleak, UBSAN):
#              every suite on binderc, in two guests side by side: a, the
#              reliability budget (fuzzer, kill storm, fault injection),
#              set by time, and the two suites slowest under KASAN; b,
#              everything else
# The fuzzer's and the storm's make check budgets are seconds, so the
# verdict does not depend on how many operations a slow host gets done;
# check-full gives the fuzzer its million operations (test_fuzz.c).
CHECK_FUZZ_SECONDS ?= 150
CHECK_STORM_SECONDS ?= 30
# (run-suite's name lists may use commas: a make word holds no spaces).
# With sm-test and test_module (36 service managers started, the module
# loaded seven times: slow under KASAN) the two shares take about as long.
DEBUG_A_SUITES := fuzz-test,stress-test,fault-test,sm-test,test_module
GUEST_KERNEL_stock := stock
GUEST_KERNEL_stock-m32 := stock
GUEST_KERNEL_6.12 := 6.12
GUEST_KERNEL_7.3 := 7.3
GUEST_KERNEL_debug-a := debug
GUEST_KERNEL_debug-b := debug
GUEST_TIMEOUT_stock := 1800
GUEST_TIMEOUT_stock-m32 := 1200
GUEST_TIMEOUT_6.12 := 1800
GUEST_TIMEOUT_7.3 := 1800
GUEST_TIMEOUT_debug-a := 3600
GUEST_TIMEOUT_debug-b := 3600
# Debian's 7.3 kernel boots with one vCPU: with two, under TCG, its boot
# once died at 1.2 s with "Oops: int3" in a function being live-patched
# (a static key's int3 seen by the other vCPU's stale translation), one
# boot in five, before any of our code ran.
GUEST_SMP_7.3 := 1
GUEST_ENV_stock := BINDERC_SUITE_M32=0
GUEST_ENV_stock-m32 := BINDERC_SUITE_M32=only
GUEST_ENV_6.12 := $(if $(CHECK_FULL),,BINDERC_SUITE_DRIVERS=binderc)
GUEST_ENV_7.3 := BINDERC_STRESS_SECONDS=$(CHECK_STORM_SECONDS)
GUEST_ENV_debug-a := BINDERC_SUITE_ONLY=$(DEBUG_A_SUITES) \
	$(if $(CHECK_FULL),BINDERC_SUITE_FULL=1,BINDERC_FUZZ_OPS=100000000 BINDERC_FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS) \
	BINDERC_STRESS_SECONDS=$(CHECK_STORM_SECONDS))
GUEST_ENV_debug-b := BINDERC_SUITE_SKIP=$(DEBUG_A_SUITES) $(if $(CHECK_FULL),BINDERC_SUITE_FULL=1)

# Phony targets get no pattern rules, so each guest gets its rule here.
define guest_check
check-guest-$(1): $(CHECK_NEEDS_ALL) $(if $(CHECK_RUN),,$(if $(filter stock-m32,$(1)),m32-check-build))
	@mkdir -p $(B)/check
	@$(STAGE) guest-$(1) --kernel $(GUEST_KERNEL_$(1)) --guest-log $(B)/check/guest-$(1).log -- \
		$(TOP)/tests/vm/run-guest --kernel $(GUEST_KERNEL_$(1)) --timeout $(GUEST_TIMEOUT_$(1)) --quiet \
		$(if $(GUEST_SMP_$(1)),--smp $(GUEST_SMP_$(1))) \
		--log $(B)/check/guest-$(1).log $(foreach e,$(GUEST_ENV_$(1)),--env $(e)) -- sh tests/guest/run-suite
endef
$(foreach g,$(CHECK_GUESTS),$(eval $(call guest_check,$(g))))
.PHONY: $(addprefix check-guest-,$(CHECK_GUESTS))

# check-full's arm64 and armhf guests (cross/build.mk), as stages.
check-guest-arm64-full:
	@$(STAGE) guest-arm64 --kernel arm64 --guest-log $(B)/check/guest-arm64.log -- $(MAKE) --no-print-directory check-arm64
check-guest-armhf-full:
	@rm -f $(B)/check/armhf.tally
	@$(STAGE) guest-armhf --kernel arm64 --tally $(B)/check/armhf.tally -- $(MAKE) --no-print-directory check-armhf

# The benchmark runs once in quick mode so it cannot rot; its numbers are
# not judged here (make bench is where they are read).
check-bench: $(CHECK_NEEDS_ALL)
	@mkdir -p $(B)/check
	@$(STAGE) bench --kernel stock -- $(MAKE) --no-print-directory bench-quick

# The stages that count their own results: check-NAME writes "passed
# failed" lines to $(B)/check/NAME.tally (CHECK_TARGETS come from the
# fragments: the man pages, the arm64 cross build).  stage-check-NAME runs
# it as a stage; check-run starts it after the build (whose parts it would
# otherwise build outside any stage, at the same time).
TALLY_CHECKS := check-compile check-dkms check-style $(CHECK_TARGETS)
define tally_stage
stage-$(1):
	@mkdir -p $(B)/check
	@rm -f $(B)/check/$(patsubst check-%,%,$(1)).tally
	@$(STAGE) $(patsubst check-%,%,$(1)) --tally $(B)/check/$(patsubst check-%,%,$(1)).tally -- \
		$(MAKE) --no-print-directory $(1)
endef
$(foreach t,$(TALLY_CHECKS),$(eval $(call tally_stage,$(t))))
.PHONY: $(addprefix stage-,$(TALLY_CHECKS))

clean:
	rm -rf $(B)
	rm -f $(TOP)/driver/*.o $(TOP)/driver/*.ko $(TOP)/driver/*.mod* $(TOP)/driver/.*.cmd \
		$(TOP)/driver/Module.symvers $(TOP)/driver/modules.order

# DKMS (driver/dkms.conf): the module's sources under /usr/src, rebuilt by
# dkms for every installed kernel and each kernel update.  check-dkms runs
# 'dkms add' and 'dkms build' for 6.1 and 6.12 in private trees under
# build/, so it installs nothing on the machine.
DRIVER_VERSION = $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' $(TOP)/driver/dkms.conf)
DKMS_SRC := $(wildcard $(TOP)/driver/*.c $(TOP)/driver/*.h) $(TOP)/driver/Kbuild $(TOP)/driver/dkms.conf

dkms-install:
	install -d $(DESTDIR)/usr/src/binderc-$(DRIVER_VERSION)
	install -m 0644 $(DKMS_SRC) $(DESTDIR)/usr/src/binderc-$(DRIVER_VERSION)/
	dkms add binderc/$(DRIVER_VERSION)
	dkms install binderc/$(DRIVER_VERSION)

dkms-uninstall:
	dkms remove binderc/$(DRIVER_VERSION) --all
	rm -rf $(DESTDIR)/usr/src/binderc-$(DRIVER_VERSION)

check-dkms:
	@mkdir -p $(B)/check
	@$(TOP)/scripts/check-dkms $(B)/check $(DRIVER_VERSION) $(DKMS_SRC)

# Only what is installed is built: no test, so no Criterion needed.
# userspace and install-userspace leave the module out: the Debian
# packages ship its source for DKMS instead (debian/rules).
.PHONY: userspace install-userspace
userspace: $(ALL_TARGETS)
install-userspace: $(INSTALL_TARGETS)

install: module-stock $(INSTALL_TARGETS)
	install -D -m 0644 $(B)/stock/driver/binderc.ko \
		$(DESTDIR)/lib/modules/$(KREL)/extra/binderc.ko
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KREL); \
	else echo "install: run 'depmod -a $(KREL)' on the target (DESTDIR is set)"; fi

# --- Debian packages and the system test ------------------------------------
# make deb: debian/ built in a clean copy of the tree (scripts/build-deb),
# the .debs and lintian's verdict under build/deb.  check-system installs
# them in a Debian 12 guest with systemd, reboots, checks and purges
# (tests/system/README.md); part of check-full, not check (its cost).
.PHONY: deb check-system check-system-full check-system-trixie-full
deb:
	@$(TOP)/scripts/deps deb
	@$(TOP)/scripts/build-deb $(B)/deb

# SYSTEM_RELEASE=trixie: the same .debs in a Debian 13 guest (6.12).
# SYSTEM_ONLINE=1: on a bare root, the dependencies fetched from the
# mirror through QEMU's user-mode network (tests/system/README.md).
SYSTEM_RELEASE ?= bookworm
check-system: deb
	@$(TOP)/scripts/deps system
	@mkdir -p $(B)/check
	@$(TOP)/tests/system/run --debs $(B)/deb --release $(SYSTEM_RELEASE) \
		--log $(B)/check/system$(if $(filter-out bookworm,$(SYSTEM_RELEASE)),-$(SYSTEM_RELEASE))$(if $(SYSTEM_ONLINE),-online).log \
		$(if $(SYSTEM_ONLINE),--online) $(if $(SYSTEM_TALLY),--tally $(SYSTEM_TALLY))

# check-system as stages of check-full (Debian 12, then 13), their checks
# counted.
check-system-full:
	@mkdir -p $(B)/check
	@rm -f $(B)/check/system.tally
	@$(STAGE) system --tally $(B)/check/system.tally -- \
		$(MAKE) --no-print-directory check-system SYSTEM_TALLY=$(B)/check/system.tally
check-system-trixie-full:
	@mkdir -p $(B)/check
	@rm -f $(B)/check/system-trixie.tally
	@$(STAGE) system-trixie --tally $(B)/check/system-trixie.tally -- \
		$(MAKE) --no-print-directory check-system SYSTEM_RELEASE=trixie \
		SYSTEM_TALLY=$(B)/check/system-trixie.tally

# RPC binder between a guest VM and this host over TCP (tests/vm/rpc-across-vm):
# make demo-across-vm shows it; check-full counts its three calls.
.PHONY: demo-across-vm check-rpc-net-full
demo-across-vm: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tests/vm/rpc-across-vm
check-rpc-net-full:
	@mkdir -p $(B)/check
	@rm -f $(B)/check/rpc-net.tally
	@$(STAGE) rpc-net --kernel stock --tally $(B)/check/rpc-net.tally -- $(TOP)/tests/vm/rpc-across-vm --tally $(B)/check/rpc-net.tally

# The RPC stream fuzzer at issue 33's 10^6 inputs (500,000 mutated streams
# per side, under ASan and UBSan; make check's host stage runs 600 per
# side): about 15 s.
RPC_FUZZ_FULL_ITERS ?= 500000
.PHONY: check-rpc-fuzz-full
check-rpc-fuzz-full: $(RPCT_BIN)/test_rpc_fuzz
	@mkdir -p $(B)/check
	@rm -f $(B)/check/rpc-fuzz.tally
	@$(STAGE) rpc-fuzz --tally $(B)/check/rpc-fuzz.tally -- env RPC_FUZZ_ITERS=$(RPC_FUZZ_FULL_ITERS) \
		sh $(TOP)/tests/run-criterion $(B)/check/rpc-fuzz.tally host/rpc_fuzz_full $(RPCT_BIN)/test_rpc_fuzz

# --- demo and benchmarks ------------------------------------------------------
bench: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory bench-run

demo: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tests/vm/run-guest --kernel stock --quiet --log $(B)/demo.log -- sh build/guest/demo.sh; rc=$$?; \
	sed -n '/^BINDERC-GUEST-CMD-START$$/,/^BINDERC-GUEST-CMD-END$$/p' $(B)/demo.log | sed '1d;$$d' | grep -v '^\[ *[0-9.]*\]'; \
	exit $$rc
