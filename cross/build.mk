# SPDX-License-Identifier: MIT
# cross/build.mk: the arm64 cross build (issue 20), with Debian's
# gcc-aarch64-linux-gnu, into $(B)/arm64/ beside the native build:
#
#   make cross-arm64          everything below
#   make cross-arm64-user     libbinder-c (+ -iface), servicemanager, the
#                             binder tool, the examples and the guest test
#                             binaries: $(B)/arm64/{lib,guest}/...
#   make module-arm64         binderc.ko for Debian 12's arm64 kernel:
#                             $(B)/arm64/driver/binderc.ko
#   make check-arm64          the guest suite in an aarch64 guest
#   make cross-armhf          the same userspace for 32-bit ARM
#                             (arm-linux-gnueabihf): $(B)/armhf/...
#   make check-armhf          the armhf guest suites as 32-bit processes
#                             on the arm64 kernel, in the aarch64 guest
#
# Userspace is a sub-make of this same Makefile with B=$(B)/arm64 and the
# cross compiler as CC, so every rule is the native one and the native
# objects are never touched.  libffi and Criterion for arm64 come from
# scripts/fetch-arm64-root (a private unpacked root, found with -I/-L;
# -rpath-link lets the linker follow libcriterion's own dependencies).
# bc-aidl runs during the build (the greeter example's generated C), so
# the native one is built first and the sub-make runs that one.
#
# The module is built against Debian's arm64 headers fetched by
# scripts/fetch-kernel-tree 6.1-arm64; their host tools are the amd64
# linux-kbuild-6.1 package's, which Debian builds for exactly this
# (Multi-Arch: foreign; modpost handles either ELF class and byte order).
# Read after every other fragment: it lists their targets.

ARM64_CROSS ?= aarch64-linux-gnu-
HAVE_ARM64_CC := $(shell command -v $(ARM64_CROSS)gcc >/dev/null 2>&1 && echo yes)

# What the sub-make builds (evaluated there, with its B).
CROSS_USER_TARGETS = $(LBC_SO) $(LBC_A) $(LBC_PC) $(IFC_SO) $(IFC_A) $(IFC_PC) $(SMD_BIN) \
	$(BINDER_TOOL) $(EX_BINS) $(EX_DEMO) $(IFCX_BINS) $(AIDLX_BINS) $(HALX_BINS) guest-tests

.PHONY: cross-arm64 cross-arm64-user cross-user-targets module-arm64 check-cross-arm64

cross-arm64: cross-arm64-user module-arm64

cross-user-targets: $(CROSS_USER_TARGETS)

cross-arm64-user: $(BC_AIDL)
	@test -n "$(HAVE_ARM64_CC)" || { echo "cross-arm64: no $(ARM64_CROSS)gcc (apt-get install gcc-aarch64-linux-gnu)" >&2; exit 1; }
	+@root=$$($(TOP)/scripts/fetch-arm64-root) || exit 1; \
	lib=$$root/usr/lib/aarch64-linux-gnu; \
	$(MAKE) --no-print-directory B=$(B)/arm64 AR=$(ARM64_CROSS)ar HAVE_CRITERION=yes LBC_TLS=yes \
		CC="$(ARM64_CROSS)gcc -isystem $$root/usr/include -isystem $$root/usr/include/aarch64-linux-gnu -L$$lib -Wl,-rpath-link,$$lib" \
		FFI_CFLAGS= FFI_LIBS=-lffi BC_AIDL_RUN=$(BC_AIDL) cross-user-targets

module-arm64:
	$(call build_module,arm64,$(shell $(TOP)/scripts/fetch-kernel-tree 6.1-arm64),ARCH=arm64 CROSS_COMPILE=$(ARM64_CROSS) KCFLAGS=-Werror)

# 'make check': the whole cross build, failed on any warning (the module's
# modpost ones included), timed; one tally line like check-compile's.
# The native bc-aidl is a prerequisite here so that this make builds it
# (once, with 'all'), never the cross-build's own make at the same time.
CHECK_TARGETS += check-cross-arm64
check-cross-arm64: $(BC_AIDL)
	@mkdir -p $(B)/check
	@start=$$(date +%s); \
	if $(MAKE) --no-print-directory cross-arm64 > $(B)/check/cross-arm64.log 2>&1 && \
	   ! grep -qi 'warning' $(B)/check/cross-arm64.log; then \
		echo "cross-arm64: ok ($$(( $$(date +%s) - start )) s)"; echo "1 0" > $(B)/check/cross-arm64.tally; \
	else \
		echo "cross-arm64: FAILED ($$(( $$(date +%s) - start )) s; log in $(B)/check/cross-arm64.log)"; \
		grep -iE 'error|warning' $(B)/check/cross-arm64.log | head -n 20 | sed 's/^/  /'; \
		echo "0 1" > $(B)/check/cross-arm64.tally; exit 1; \
	fi

# The aarch64 guest: Debian 12's arm64 kernel (qemu-system-aarch64, TCG)
# with its binder_linux and this binderc.ko, the whole guest suite of the
# cross build on both drivers (tests/vm/run-guest --kernel arm64).  Not
# part of 'make check': TCG emulating arm64 is ~2.5 times slower than the
# x86 guests.  The whole list (551 tests, the same count as the stock
# x86 guest without the i386 suites) took ~770 s of test time and ~880 s
# of guest time, plus ~1 min on the host per boot (binderc.ko, the ~40 MB
# initramfs), on a loaded 2-CPU host (run in five chunks of at most 260 s;
# sm-test alone ~160 s, both drivers); the debug-only stress and fault
# suites are not in it.  The timeout leaves room for a busier machine.
GUEST_TIMEOUT_arm64 := 3600
.PHONY: check-arm64
check-arm64: cross-arm64
	@$(TOP)/scripts/deps arm-guest
	@mkdir -p $(B)/check
	@$(TOP)/tests/vm/run-guest --kernel arm64 --timeout $(GUEST_TIMEOUT_arm64) --quiet \
		--log $(B)/check/guest-arm64.log -- sh tests/guest/run-suite; rc=$$?; \
	grep -E '^(\[----\]|\[FAIL\]|run-criterion|run-suite|[a-z0-9.]+/.*: [0-9]+ passed|guest-)' \
		$(B)/check/guest-arm64.log || true; \
	exit $$rc

# --- armhf: 32-bit ARM userspace on the arm64 kernel ------------------------
# The same userspace, built with Debian's gcc-arm-linux-gnueabihf into
# $(B)/armhf/ (a sub-make, as for arm64), run as 32-bit (AArch32 EL0)
# processes in the aarch64 guest: the drivers' compat ioctl paths on ARM.
# Criterion (and BoxFort) have no armhf Debian package, so
# scripts/fetch-armhf-root cross-builds them from Debian's sources, once
# (100 s from nothing on a loaded host, downloads included; cached in
# /var/cache/binderc/armhf-root).  The guest gets $(B)/armhf/guest and
# the cross toolchain's armhf libc.  The cross build itself: 82 s from
# nothing.  The whole list on both drivers (565 tests: the 551 of
# check-arm64, same counts per binary, and the later rtprio suite's 14)
# took 854 s of test time and 942 s of guest time in three boots
# (chunk 1: 286 s of tests, 294 s of guest; 2: 280 / 346; rest: 288 /
# 302), plus ~1 min on the host per boot; about 20 min for one
# check-armhf on a loaded 2-CPU machine.
ARMHF_CROSS ?= arm-linux-gnueabihf-

.PHONY: cross-armhf
cross-armhf: $(BC_AIDL)
	@$(TOP)/scripts/deps armhf
	@command -v $(ARMHF_CROSS)gcc >/dev/null || { echo "cross-armhf: no $(ARMHF_CROSS)gcc (apt-get install gcc-arm-linux-gnueabihf)" >&2; exit 1; }
	+@root=$$($(TOP)/scripts/fetch-armhf-root) || exit 1; \
	lib=$$root/usr/lib/arm-linux-gnueabihf; \
	$(MAKE) --no-print-directory B=$(B)/armhf AR=$(ARMHF_CROSS)ar HAVE_CRITERION=yes LBC_TLS=yes \
		CC="$(ARMHF_CROSS)gcc -isystem $$root/usr/include -isystem $$root/usr/include/arm-linux-gnueabihf -L$$lib -Wl,-rpath-link,$$lib" \
		FFI_CFLAGS= FFI_LIBS=-lffi BC_AIDL_RUN=$(BC_AIDL) cross-user-targets

# make check-armhf: the armhf suites (build/armhf/guest/suite.list) on
# both drivers in the aarch64 guest, labelled armhf/arm64/DRIVER/NAME,
# in chunks of one boot each so that no boot passes 600 s (the guest
# rule); the last chunk is every binary the others do not name, so a new
# suite is never left out.  Not part of 'make check' (figures above).
ARMHF_CHUNK_1 := test_module test_version sm-test aidl-greeter-test aidl-remote-test \
	iface-calls-test iface-examples-test iface-sm-test
ARMHF_CHUNK_2 := libbinder-c-test libbinder-c-stress-test fuzz-test driver-interface-test \
	driver-multiproc-test
ARMHF_CHUNKS := 1 2 rest
GUEST_TIMEOUT_armhf := 600
.PHONY: check-armhf
check-armhf: cross-armhf
	@$(TOP)/scripts/deps arm-guest
	@mkdir -p $(B)/check
	@rm -f $(B)/check/armhf.tally; rc=0; \
	for c in $(ARMHF_CHUNKS); do \
		case $$c in \
		1) names="$(ARMHF_CHUNK_1)" ;; \
		2) names="$(ARMHF_CHUNK_2)" ;; \
		*) names=$$(awk '{print $$2}' $(B)/armhf/guest/suite.list | \
			grep -vxF $(foreach n,$(ARMHF_CHUNK_1) $(ARMHF_CHUNK_2),-e $(n)) | tr '\n' ' ') ;; \
		esac; \
		start=$$(date +%s); \
		$(TOP)/tests/vm/run-guest --kernel arm64 --timeout $(GUEST_TIMEOUT_armhf) --quiet \
			--log $(B)/check/guest-armhf-$$c.log --env BINDERC_SUITE_ARMHF=only \
			--env "BINDERC_SUITE_ONLY=$$names" -- sh tests/guest/run-suite || rc=1; \
		grep -E '^(\[FAIL\]|run-criterion|run-suite|armhf/.*: [0-9]+ passed)' $(B)/check/guest-armhf-$$c.log || true; \
		t=$$(sed -n 's/^guest-arm64: \([0-9]*\) passed, \([0-9]*\) failed$$/\1 \2/p' $(B)/check/guest-armhf-$$c.log); \
		echo "$${t:-0 1}" >> $(B)/check/armhf.tally; \
		echo "check-armhf: chunk $$c: $$(( $$(date +%s) - start )) s"; \
	done; \
	set -- $$(awk '{p += $$1; f += $$2} END {print p + 0, f + 0}' $(B)/check/armhf.tally); \
	echo "armhf: $$1 passed, $$2 failed"; exit $$rc
