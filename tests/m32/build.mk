# SPDX-License-Identifier: MIT
# tests/m32/build.mk: the driver conformance suites and libbinder-c's guest
# tests built as i386 (-m32), to run as 32-bit processes on the x86_64
# guests: the drivers' compat ioctl and mmap paths, which no 64-bit test
# reaches.
#
#   make m32   build/m32/guest/bin/* and build/m32/guest/suite.list
#
# A sub-make builds the same rules with B=build/m32 and CC='cc -m32', so
# the 64-bit build is untouched.  The kernel's x86 uapi <asm/...> headers
# serve both word sizes; the gcc-multilib metapackage would link them to
# /usr/include/asm, but it conflicts with the arm64 cross compiler, so the
# sub-make finds them through build/m32/include/asm instead.
# Needs gcc-12-multilib (scripts/deps) and
# Criterion's i386 libraries, which scripts/fetch-i386-root downloads once
# into a cache; tests/m32/copy-libs puts what the binaries need in
# build/m32/guest/lib, their rpath, and tests/vm/run-guest copies
# build/m32/guest and the i386 loader into the guest.  The guest tests
# take no sanitizers (they have none in 64 bits either).  Read after the
# driver and library test fragments (DRVT_BINS, LBCGT_BINS).

M32_B := $(B)/m32
HAVE_M32 ?= $(shell printf 'int main(void) { return 0; }\n' | $(CC) -m32 -x c - -o /dev/null >/dev/null 2>&1 && echo yes)
M32_TESTS := $(DRVT_BINS) $(LBCGT_BINS)

.PHONY: m32 m32-build m32-check-build
m32:
	@test -n "$(HAVE_M32)" || { echo "m32: no i386 toolchain ($(CC) -m32 fails): apt-get install gcc-12-multilib" >&2; exit 1; }
	@root=$$($(TOP)/scripts/fetch-i386-root) || { echo "m32: Criterion's i386 libraries are missing (scripts/fetch-i386-root failed)" >&2; exit 1; }; \
	lib=$$root/usr/lib/i386-linux-gnu:$$root/lib/i386-linux-gnu; \
	mkdir -p $(M32_B)/include && ln -sfn /usr/include/x86_64-linux-gnu/asm $(M32_B)/include/asm; \
	$(MAKE) --no-print-directory B=$(M32_B) HAVE_CRITERION=yes LBC_TLS=yes M32_ROOT=$$root \
		CC="$(CC) -m32 -isystem $(M32_B)/include -isystem $$root/usr/include/i386-linux-gnu -L$$root/usr/lib/i386-linux-gnu -Wl,-rpath-link,$$lib -Wl,--disable-new-dtags,-rpath,$(M32_B)/guest/lib" m32-build

# Only meaningful inside the sub-make above (B is build/m32 there).  The
# libraries the binaries need go next to them, in the lib/ their rpath
# names (the guest has this checkout at the same path); DT_RPATH, not
# RUNPATH, so Criterion's own dependencies are found there too.
m32-build: $(M32_TESTS)
	@$(TOP)/tests/m32/copy-libs $(B)/guest/lib $(M32_ROOT) $^ $(LBCGT_EXAMPLE)
	@for t in $(notdir $(M32_TESTS)); do echo "device $$t"; done > $(B)/guest/suite.list

# For 'make check': without the toolchain the i386 suites are skipped
# (said, not counted); with it, a failed build is one failure in the
# tally and the stock guest runs without them.
m32-check-build:
	@mkdir -p $(B)/check
	@rm -f $(M32_B)/guest/suite.list
	@if [ -z "$(HAVE_M32)" ]; then echo "check: no i386 toolchain (gcc-12-multilib): i386 suites skipped"; \
	elif ! $(MAKE) --no-print-directory m32; then echo "check: the i386 build FAILED"; echo "0 1" >> $(B)/check/m32.tally; \
	fi; exit 0
