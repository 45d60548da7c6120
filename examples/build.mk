# SPDX-License-Identifier: MIT
# examples/build.mk: the example programs (pingpong, hello, lazy hello,
# observer, fd passing, calc, kv), built into the guest's bin/ as
# hello-service, hello-client, ...  LBC_* and IFC_* come from
# libbinder-c/build.mk and libbinder-c/iface.mk, read before this file.

EX_SRC := $(TOP)/examples
EX_NAMES := pingpong hello_service hello_client lazy_service observer_service observer_client fd_service fd_client
EX_BINS := $(foreach n,$(EX_NAMES),$(B)/guest/bin/$(subst _,-,$(n)))

ALL_TARGETS += $(EX_BINS)

define ex_rule
$(B)/guest/bin/$(subst _,-,$(1)): $(EX_SRC)/$(1).c $(wildcard $(EX_SRC)/*.h) $$(LBC_A)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS_BASE) -o $$@ $$< $$(LBC_LINK)
endef
$(foreach n,$(EX_NAMES),$(eval $(call ex_rule,$(n))))

.PHONY: examples
examples: $(EX_BINS)

# The guest gets build/guest/ (not examples/): the demo script travels there.
EX_DEMO := $(B)/guest/demo.sh
ALL_TARGETS += $(EX_DEMO)
$(EX_DEMO): $(EX_SRC)/demo.sh
	@mkdir -p $(dir $@)
	cp $< $@

# The signature-described calculator and key-value store: the same, on
# libbinder-c-iface (IFC_A, FFI_LIBS from libbinder-c/iface.mk) too.
IFCX_BINS := $(B)/guest/bin/calc-service $(B)/guest/bin/calc-client $(B)/guest/bin/kv-service \
	$(B)/guest/bin/kv-client

ALL_TARGETS += $(IFCX_BINS)

$(B)/guest/bin/calc-%: $(EX_SRC)/calc/calc-%.c $(EX_SRC)/calc/calc.h $(IFC_A) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $< $(IFC_A) $(LBC_LINK) $(FFI_LIBS) -lm

$(B)/guest/bin/kv-%: $(EX_SRC)/kv/kv-%.c $(EX_SRC)/kv/kv.h $(IFC_A) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $< $(IFC_A) $(LBC_LINK) $(FFI_LIBS)

examples: $(IFCX_BINS)
