# SPDX-License-Identifier: MIT
# aidl/build.mk: bc-aidl, the AIDL to C compiler (a host tool), its
# pkg-config file and install rule, and a sanitizer build of its
# front end for the tests in tests/aidl (no main()).
#
# Users' Makefiles find it with
#   BC_AIDL := $(shell pkg-config --variable=bc_aidl bc-aidl)
# and compile the generated sources with `pkg-config --cflags --libs libbinder-c`.

AIDL_SRC := $(TOP)/aidl
AIDL_OBJ := $(B)/obj/aidl
AIDL_NAMES := arena lexer annot parser resolve instance consteval gen_kinds gen_types gen_helpers gen_header gen_instances gen_source compile
AIDL_HDRS := $(AIDL_SRC)/aidl.h $(AIDL_SRC)/gen.h
BC_AIDL := $(B)/bin/bc-aidl
AIDL_PC := $(B)/lib/pkgconfig/bc-aidl.pc
# The front end and generator with the sanitizers, for the host tests.
AIDL_SAN_A := $(AIDL_OBJ)/libbcaidl-san.a

ALL_TARGETS += $(BC_AIDL) $(AIDL_PC)
INSTALL_TARGETS += install-bc-aidl

$(AIDL_OBJ)/%.o: $(AIDL_SRC)/%.c $(AIDL_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -c $< -o $@

$(AIDL_OBJ)/san/%.o: $(AIDL_SRC)/%.c $(AIDL_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -c $< -o $@

$(BC_AIDL): $(patsubst %,$(AIDL_OBJ)/%.o,$(AIDL_NAMES) main)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $^ -lm

$(AIDL_SAN_A): $(patsubst %,$(AIDL_OBJ)/san/%.o,$(AIDL_NAMES))
	rm -f $@ && $(AR) rcs $@ $^

$(AIDL_PC): $(AIDL_SRC)/build.mk
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' 'bindir=$${exec_prefix}/bin' \
		'bc_aidl=$${bindir}/bc-aidl' '' 'Name: bc-aidl' \
		'Description: AIDL to C compiler for libbinder-c' 'Version: $(LBC_VERSION)' \
		'Requires: libbinder-c' > $@

.PHONY: install-bc-aidl bc-aidl
bc-aidl: $(BC_AIDL)
install-bc-aidl: $(BC_AIDL) $(AIDL_PC)
	install -D -m 0755 $(BC_AIDL) $(DESTDIR)$(PREFIX)/bin/bc-aidl
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig
	sed -e 's|^prefix=.*|prefix=$(PREFIX)|' $(AIDL_PC) > $(DESTDIR)$(LIBDIR)/pkgconfig/bc-aidl.pc

# --- the greeter example: C generated from examples/aidl at build time ---
# (guest programs, linked statically like the other examples: LBC_LINK)
AIDLX_SRC := $(TOP)/examples/aidl
AIDLX_GEN := $(B)/gen/aidl-examples
AIDLX_AIDL := $(wildcard $(AIDLX_SRC)/org/binderc/examples/*.aidl)
AIDLX_NAMES := $(patsubst %.aidl,org_binderc_examples_%,$(notdir $(AIDLX_AIDL)))
AIDLX_GEN_C := $(patsubst %,$(AIDLX_GEN)/%.c,$(AIDLX_NAMES))
AIDLX_GEN_O := $(patsubst %,$(AIDLX_GEN)/%.o,$(AIDLX_NAMES))
AIDLX_BINS := $(B)/guest/bin/greeter-service $(B)/guest/bin/greeter-client
# The bc-aidl that runs during the build: a cross build (cross/build.mk)
# cannot run its own, so it points this at the native one.
BC_AIDL_RUN ?= $(BC_AIDL)

ALL_TARGETS += $(AIDLX_BINS)

# Static pattern rules: make never prefers its built-in %.o: %.c to them.
$(AIDLX_GEN_C): $(AIDLX_GEN)/org_binderc_examples_%.c: $(AIDLX_SRC)/org/binderc/examples/%.aidl $(BC_AIDL_RUN)
	@mkdir -p $(dir $@)
	$(BC_AIDL_RUN) -I $(AIDLX_SRC) -o $(AIDLX_GEN) --version 1 $<

$(AIDLX_GEN_O): $(AIDLX_GEN)/%.o: $(AIDLX_GEN)/%.c $(AIDLX_GEN_C)
	$(CC) $(CFLAGS_BASE) -I$(AIDLX_GEN) -c $< -o $@

$(B)/guest/bin/greeter-service: $(AIDLX_SRC)/greeter-service.c $(AIDLX_GEN_O) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -I$(AIDLX_GEN) -o $@ $< $(AIDLX_GEN_O) $(LBC_LINK)

$(B)/guest/bin/greeter-client: $(AIDLX_SRC)/greeter-client.c $(AIDLX_GEN_O) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -I$(AIDLX_GEN) -o $@ $< $(AIDLX_GEN_O) $(LBC_LINK)

# --- two of Android 14's HALs, end to end: android.hardware.vibrator
# (version 2) and android.hardware.power (version 4), written as .aidl in
# examples/hal from their published contracts, C generated at build time,
# a small service and client for each (guest test: tests/aidl/hal.sh)
HALX_SRC := $(TOP)/examples/hal
HALX_GEN := $(B)/gen/aidl-hal
HALX_VIB_AIDL := $(wildcard $(HALX_SRC)/android/hardware/vibrator/*.aidl)
HALX_POW_AIDL := $(wildcard $(HALX_SRC)/android/hardware/power/*.aidl)
HALX_VIB_C := $(patsubst %.aidl,$(HALX_GEN)/android_hardware_vibrator_%.c,$(notdir $(HALX_VIB_AIDL)))
HALX_POW_C := $(patsubst %.aidl,$(HALX_GEN)/android_hardware_power_%.c,$(notdir $(HALX_POW_AIDL)))
HALX_VIB_O := $(HALX_VIB_C:.c=.o)
HALX_POW_O := $(HALX_POW_C:.c=.o)
HALX_BINS := $(addprefix $(B)/guest/bin/,vibrator-service vibrator-client power-service power-client)
# the frozen versions and hashes Android 14 ships (aidl_api/.../N/.hash)
HALX_VIB_FLAGS := --version 2 --hash ea8742d6993e1a82917da38b9938e537aa7fcb54
HALX_POW_FLAGS := --version 4 --hash 141ac3bb33bb4f524de020669f12599c18cdd67f

ALL_TARGETS += $(HALX_BINS)

$(HALX_VIB_C): $(HALX_GEN)/android_hardware_vibrator_%.c: $(HALX_SRC)/android/hardware/vibrator/%.aidl $(BC_AIDL_RUN)
	@mkdir -p $(dir $@)
	$(BC_AIDL_RUN) -I $(HALX_SRC) -o $(HALX_GEN) $(HALX_VIB_FLAGS) $<

$(HALX_POW_C): $(HALX_GEN)/android_hardware_power_%.c: $(HALX_SRC)/android/hardware/power/%.aidl $(BC_AIDL_RUN)
	@mkdir -p $(dir $@)
	$(BC_AIDL_RUN) -I $(HALX_SRC) -o $(HALX_GEN) $(HALX_POW_FLAGS) $<

# Warning-free as a user would build them: pedantic C11, no _GNU_SOURCE.
$(HALX_VIB_O) $(HALX_POW_O): $(HALX_GEN)/%.o: $(HALX_GEN)/%.c $(HALX_VIB_C) $(HALX_POW_C)
	$(CC) $(CFLAGS_BASE) -U_GNU_SOURCE -Wpedantic -I$(HALX_GEN) -c $< -o $@

$(B)/guest/bin/vibrator-%: $(HALX_SRC)/vibrator-%.c $(HALX_VIB_O) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -I$(HALX_GEN) -o $@ $< $(HALX_VIB_O) $(LBC_LINK)

$(B)/guest/bin/power-%: $(HALX_SRC)/power-%.c $(HALX_POW_O) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -I$(HALX_GEN) -o $@ $< $(HALX_POW_O) $(LBC_LINK)
