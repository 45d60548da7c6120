# SPDX-License-Identifier: MIT
# tests/common/build.mk: the harness every test directory shares
# (harness.h).  Read before the other tests/ fragments, which use:
#   TH_CFLAGS  finds harness.h (#include "harness.h")
#   TH_HDRS    the harness headers, for prerequisite lists
#   TH_OBJS    the harness and the shared Criterion main: link into a guest
#              test binary
#   TH_LIB     the harness without main(), for a binary with a main of its
#              own that calls th_criterion_main()
# Host tests use Criterion's own main (tests may run in parallel there) and
# only the header.  Fragments that can be used on their own include this
# file too; the guard makes that a no-op under the top Makefile.
ifndef TH_SRC
TH_SRC := $(TOP)/tests/common
TH_OBJ := $(B)/obj/tests/common
TH_CFLAGS := -I$(TH_SRC)
TH_HDRS := $(TH_SRC)/harness.h $(TH_SRC)/th_rpc.h
TH_LIB := $(TH_OBJ)/harness.o
TH_OBJS := $(TH_LIB) $(TH_OBJ)/main.o

$(TH_OBJ)/%.o: $(TH_SRC)/%.c $(TH_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -c $< -o $@
endif
