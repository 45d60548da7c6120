# SPDX-License-Identifier: MIT
#
# binder-c top-level build.
#
#   make            build the module (stock kernel), libraries, tools, tests
#   make demo       boot a guest and run the hello service end to end
#   make check      host unit tests, the compile matrix, DKMS, the guest
#                   suite on the stock, backports 6.12 and the debug
#                   kernel (Linux 7.3 from linux-source-7.3, built once
#                   and cached: 7-14 min on 2 cores; each test binary on
#                   /dev/binder and /dev/binderc; on the stock kernel
#                   also the driver and library suites built as i386,
#                   when gcc-12-multilib is installed: tests/m32/build.mk)
#   make m32        those i386 test binaries, under build/m32
#   make bench      benchmarks in a guest (ratios against mainline binder)
#   make install    PREFIX=/usr/local DESTDIR= LIBDIR=$(PREFIX)/lib
#                   MANDIR=$(PREFIX)/share/man
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
#                    service manager, interfaces, AIDL): on the debug
#                    kernel only on /dev/binderc, the driver it checks
#                    (their mainline runs are on the stock and 6.12 kernels)
#   GUEST_ONCE_TESTS like GUEST_TESTS, run once per guest, one job at a time
#   GUEST_DEBUG_TESTS like GUEST_TESTS, one job at a time, on the debug
#                    kernel only (the reliability budget: fuzzer, kill
#                    storm, fault injection; each wants the context manager)
#   GUEST_DEBUG_BINDERC_TESTS like GUEST_DEBUG_TESTS, on /dev/binderc only:
#                    fault injection, whose point is our driver's error
#                    paths (mainline's are not ours to fix; 213 s there)
#   INSTALL_TARGETS  phony targets run by 'make install'
#   CHECK_TARGETS    phony targets run by 'make check' after check-host;
#                    each adds a "passed failed" line to a build/check/*.tally

TOP := $(CURDIR)
B := $(TOP)/build
CC ?= cc
PREFIX ?= /usr/local
# Libraries and their pkg-config files; Debian's multiarch layout wants
# LIBDIR=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH).
LIBDIR ?= $(PREFIX)/lib
DESTDIR ?=

CFLAGS_BASE := -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -I$(TOP)/include
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
	tests/common/build.mk tests/unit/build.mk tests/aidl/build.mk tests/iface/build.mk tests/lib/build.mk \
	tests/sm/build.mk tests/driver/build.mk tests/guest/build.mk tests/stress/build.mk tests/fuzz/build.mk tests/m32/build.mk \
	bench/build.mk cross/build.mk
# A new fragment must be placed in the list, not silently left out.
UNLISTED := $(filter-out $(FRAGMENTS),$(patsubst $(TOP)/%,%,$(wildcard $(TOP)/*/build.mk $(TOP)/tests/*/build.mk)))
$(if $(UNLISTED),$(error build fragments missing from FRAGMENTS in the top Makefile: $(UNLISTED)))
include $(addprefix $(TOP)/,$(FRAGMENTS))

.PHONY: all deps check demo bench install clean module-stock module-debug \
	module-matrix no-criterion check-host check-compile check-dkms dkms-install dkms-uninstall check-guest-stock check-guest-6.12 check-guest-debug \
	check-bench guest-tests

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
DRIVER_SRC = $(wildcard $(DRIVER_DIR)/*.c $(DRIVER_DIR)/*.h) $(DRIVER_DIR)/Kbuild $(DRIVER_DIR)/dkms.conf

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

check: deps
	@rm -rf $(B)/check && mkdir -p $(B)/check
	@$(MAKE) -k --no-print-directory check-host $(CHECK_TARGETS) check-compile check-dkms check-guest-stock check-guest-6.12 check-guest-debug check-bench; rc=$$?; \
	$(TOP)/scripts/check-summary $(B)/check; exit $$rc

check-host: $(HOST_TESTS)
	@mkdir -p $(B)/check
	@rc=0; for t in $(HOST_TESTS); do \
		sh $(TOP)/tests/run-criterion $(B)/check/host.tally host/$$(basename $$t) $$t || rc=1; \
	done; exit $$rc

# Wall-clock limits for one guest run of the suite (TCG; the debug kernel's
# KASAN, lockdep and kmemleak make everything several times slower).
# The guest kernels: Debian 12's own (stock), Debian 12 backports' 6.12
# (fetched by scripts/fetch-kernel-tree --image) and the debug kernel.
GUEST_KERNELS := stock 6.12 debug
GUEST_TIMEOUT_stock := 1200
GUEST_TIMEOUT_6.12 := 1200
GUEST_TIMEOUT_debug := 4200

# Phony targets get no pattern rules, so each kernel gets its rule here.
define guest_check
check-guest-$(1): all $(if $(filter stock,$(1)),m32-check-build)
	@mkdir -p $(B)/check
	@$(TOP)/tests/vm/run-guest --kernel $(1) --timeout $(GUEST_TIMEOUT_$(1)) --quiet \
		--log $(B)/check/guest-$(1).log -- \
		sh tests/guest/run-suite; rc=$$$$?; \
	grep -E '^(\[----\]|\[FAIL\]|run-criterion|run-suite|[a-z0-9.]+/.*: [0-9]+ passed|guest-)' \
		$(B)/check/guest-$(1).log || true; \
	$(if $(filter stock,$(1)),test ! -e $(B)/check/m32.tally || rc=1;) \
	exit $$$$rc
endef
$(foreach k,$(GUEST_KERNELS),$(eval $(call guest_check,$(k))))

# The benchmark runs once in quick mode so it cannot rot; its numbers are
# not judged here (make bench is where they are read).
check-bench: all
	@$(MAKE) --no-print-directory bench-quick > $(B)/check/bench-quick.log 2>&1; rc=$$?; \
	tail -n 25 $(B)/check/bench-quick.log; \
	if [ $$rc = 0 ]; then echo "check: bench --quick ran"; else echo "check: bench --quick FAILED (exit $$rc)"; fi; \
	exit $$rc

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
install: module-stock $(INSTALL_TARGETS)
	install -D -m 0644 $(B)/stock/driver/binderc.ko \
		$(DESTDIR)/lib/modules/$(KREL)/extra/binderc.ko
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KREL); \
	else echo "install: run 'depmod -a $(KREL)' on the target (DESTDIR is set)"; fi

# --- demo and benchmarks ------------------------------------------------------
bench: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory bench-run

demo: deps
	@$(MAKE) --no-print-directory all
	@$(TOP)/tests/vm/run-guest --kernel stock --quiet --log $(B)/demo.log -- sh build/guest/demo.sh; rc=$$?; \
	sed -n '/^BINDERC-GUEST-CMD-START$$/,/^BINDERC-GUEST-CMD-END$$/p' $(B)/demo.log | sed '1d;$$d' | grep -v '^\[ *[0-9.]*\]'; \
	exit $$rc
