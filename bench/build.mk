# SPDX-License-Identifier: MIT
# bench/build.mk: the benchmark (binderc-bench) and its guest runs.
# Included by the top-level Makefile (TOP, B, CFLAGS_BASE come from there).
#
#   make bench-run     full run: one -smp 1 guest (latency), one -smp 2
#                      guest (scaling); results in build/bench/
#   make bench-quick   a --quick run of everything in one guest boot; fails
#                      only when the benchmark itself breaks
TOP ?= $(CURDIR)
B ?= $(TOP)/build
CFLAGS_BASE ?= -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -I$(TOP)/include

BENCH_SRC := $(TOP)/bench
BENCH_OBJ := $(B)/obj/bench
BENCH_BIN := $(B)/guest/bin/binderc-bench
BENCH_OBJS := $(addprefix $(BENCH_OBJ)/,main.o util.o ipc_simple.o ipc_binder.o)

# The library rows (libbinder-c, libffi proxy): IFC_A, FFI_LIBS and LBC_A
# come from the libraries' fragments, read before this one.
BENCH_LIB := $(B)/guest/bin/binderc-bench-lib
BENCH_LIBDEPS := $(IFC_A) $(LBC_A)

ALL_TARGETS += $(BENCH_BIN) $(BENCH_LIB)

.PHONY: bench-bin bench-run bench-quick
bench-bin: $(BENCH_BIN) $(BENCH_LIB)

$(BENCH_OBJ)/%.o: $(BENCH_SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -MMD -MP -c $< -o $@

$(BENCH_BIN): $(BENCH_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $^ -lm

$(BENCH_LIB): $(BENCH_OBJ)/lib_helper.o $(BENCH_OBJ)/util.o $(BENCH_LIBDEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $(BENCH_OBJ)/lib_helper.o $(BENCH_OBJ)/util.o $(BENCH_LIBDEPS) \
		$(FFI_LIBS) -lpthread

bench-run: bench-bin
	@$(BENCH_SRC)/run-bench --out $(B)/bench

bench-quick: bench-bin
	@$(BENCH_SRC)/run-bench --quick --out $(B)/bench/quick

-include $(wildcard $(BENCH_OBJ)/*.d)
