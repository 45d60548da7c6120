# SPDX-License-Identifier: MIT
# examples/build.mk: the example programs (hello, lazy hello, observer, fd passing),
# built into the guest's bin/ as hello-service, hello-client, ...
# SM_LINK comes from servicemanager/build.mk, which is read after this
# file: it appears only in recipes, and prerequisites are given by path.

EX_SRC := $(TOP)/examples
EX_NAMES := pingpong hello_service hello_client lazy_service observer_service observer_client fd_service fd_client
EX_BINS := $(foreach n,$(EX_NAMES),$(B)/guest/bin/$(subst _,-,$(n)))

ALL_TARGETS += $(EX_BINS)

define ex_rule
$(B)/guest/bin/$(subst _,-,$(1)): $(EX_SRC)/$(1).c $(wildcard $(EX_SRC)/*.h) $(B)/lib/libbinder-c.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS_BASE) -o $$@ $$< $$(SM_LINK)
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
