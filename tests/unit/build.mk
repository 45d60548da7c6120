# SPDX-License-Identifier: MIT
# tests/unit/build.mk: host Criterion tests of libbinder-c (no kernel),
# built with the sanitizers against the sanitizer build of the library.

LBCUT_SRC := $(TOP)/tests/unit
LBCUT_BIN := $(B)/tests/unit
LBCUT_NAMES := parcel golden malformed fuzz local refs
# The transaction-report parser (libbinder-c/report.c).
LBCUT_NAMES += report
# bc_binder_set_sched(): the scheduling flags of a flattened local object.
LBCUT_NAMES += sched
# The registration rule of bc_slot (<binderc/slot.h>).
LBCUT_NAMES += slot
# Stability levels of local objects (marking, requiring, the words).
LBCUT_NAMES += stability
LBCUT_BINS := $(patsubst %,$(LBCUT_BIN)/test_%,$(LBCUT_NAMES))

HOST_TESTS += $(LBCUT_BINS)

$(LBCUT_BINS): $(LBCUT_BIN)/test_%: $(LBCUT_SRC)/test_%.c $(LBCUT_SRC)/ut.h $(TH_HDRS) $(LBC_SAN_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(TH_CFLAGS) -I$(TOP)/libbinder-c -o $@ $< $(LBC_SAN_A) $(LBC_TLS_LIBS) $(CRITERION_LIBS) -lpthread

.PHONY: libbinder-c-unit
libbinder-c-unit: $(LBCUT_BINS)
