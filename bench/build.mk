# SPDX-License-Identifier: MIT
# bench/build.mk: the benchmark (binderc-bench, installed as binder-bench)
# and its guest runs.
# Included by the top-level Makefile (TOP, B, CFLAGS_BASE come from there).
#
#   make bench-run     full run: one -smp 1 guest (latency), one -smp 2
#                      guest (scaling); results in build/bench/
#                      (BENCH_KERNELS="stock 6.12": per kernel)
#   make bench-boots   the full run BENCH_BOOTS times (3), and each goal's
#                      value per boot side by side (bench/boots.py)
#   make bench-quick   a --quick run of everything in one guest boot; fails
#                      only when the benchmark itself breaks
#   make bench-ab BASE=REV [HEAD=REV]
#                      the driver at two commits, one -icount boot each,
#                      HEAD/BASE per point in guest instructions
#   make install       binder-bench in $(PREFIX)/bin, its library helper in
#                      $(PREFIX)/libexec/binder-c
TOP ?= $(CURDIR)
B ?= $(TOP)/build
CFLAGS_BASE ?= -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -I$(TOP)/include

BENCH_SRC := $(TOP)/bench
BENCH_OBJ := $(B)/obj/bench
BENCH_BIN := $(B)/guest/bin/binderc-bench
BENCH_OBJS := $(addprefix $(BENCH_OBJ)/,main.o point.o table.o hist.o memory.o util.o ipc_simple.o ipc_binder.o)
BENCH_LIBEXEC := $(PREFIX)/libexec/binder-c

# The library rows (libbinder-c, libffi proxy): IFC_A, FFI_LIBS and LBC_A
# come from the libraries' fragments, read before this one.
BENCH_LIB := $(B)/guest/bin/binderc-bench-lib
BENCH_LIBDEPS := $(IFC_A) $(LBC_A)

ALL_TARGETS += $(BENCH_BIN) $(BENCH_LIB)
INSTALL_TARGETS += install-binder-bench

# binder-bench's options and outputs, and its histograms, on the host (no
# driver needed).
BENCH_CLI_TEST := $(B)/tests/bench/test_cli
BENCH_HIST_TEST := $(B)/tests/bench/test_hist
HOST_TESTS += $(BENCH_CLI_TEST) $(BENCH_HIST_TEST)

$(BENCH_HIST_TEST): $(TOP)/tests/bench/test_hist.c $(BENCH_SRC)/hist.c $(BENCH_SRC)/hist.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -I$(BENCH_SRC) -o $@ $< $(BENCH_SRC)/hist.c $(CRITERION_LIBS) -lm

$(BENCH_CLI_TEST): $(TOP)/tests/bench/test_cli.c $(BENCH_BIN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -DBENCH_BIN='"$(BENCH_BIN)"' -o $@ $< $(CRITERION_LIBS)

.PHONY: bench-bin bench-run bench-quick bench-boots bench-ab
bench-bin: $(BENCH_BIN) $(BENCH_LIB)

$(BENCH_OBJ)/%.o: $(BENCH_SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -MMD -MP -c $< -o $@

# The installed program finds its helper here (the build tree's copy sits
# beside it and is found first).
$(BENCH_OBJ)/main.o: CFLAGS_BASE += -DBENCH_LIBEXECDIR='"$(BENCH_LIBEXEC)"'

$(BENCH_BIN): $(BENCH_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $^ -lm

$(BENCH_LIB): $(BENCH_OBJ)/lib_helper.o $(BENCH_OBJ)/lib_rpc.o $(BENCH_OBJ)/util.o $(BENCH_LIBDEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $(BENCH_OBJ)/lib_helper.o $(BENCH_OBJ)/lib_rpc.o $(BENCH_OBJ)/util.o $(BENCH_LIBDEPS) $(LBC_TLS_LIBS) \
		$(FFI_LIBS) -lpthread

.PHONY: install-binder-bench
install-binder-bench: $(BENCH_BIN) $(BENCH_LIB)
	install -D -m 0755 $(BENCH_BIN) $(DESTDIR)$(PREFIX)/bin/binder-bench
	install -D -m 0755 $(BENCH_LIB) $(DESTDIR)$(BENCH_LIBEXEC)/binderc-bench-lib

# make bench BENCH_KERNELS="stock 6.12": one report per kernel, binderc
# beside that kernel's binder_linux (build/bench/KERNEL/).
BENCH_KERNELS ?= stock
bench-run: bench-bin
	@$(BENCH_SRC)/run-bench --out $(B)/bench $(foreach k,$(BENCH_KERNELS),--kernel $(k))

# make bench-boots BENCH_BOOTS=3 BENCH_KERNELS="stock 6.12": the full run
# once per boot (build/bench/boot-N/KERNEL/), then the goal rows of every
# boot side by side per kernel (build/bench/boots-KERNEL.md): whether a
# figure reproduces across boots (issue 19).
BENCH_BOOTS ?= 3
bench-boots: bench-bin
	@set -e; for i in $$(seq 1 $(BENCH_BOOTS)); do \
		$(BENCH_SRC)/run-bench --out $(B)/bench/boot-$$i $(foreach k,$(BENCH_KERNELS),--kernel $(k)); done; \
	for k in $(BENCH_KERNELS); do \
		python3 $(BENCH_SRC)/boots.py --out $(B)/bench/boots-$$k.md \
			$$(for i in $$(seq 1 $(BENCH_BOOTS)); do d=$(B)/bench/boot-$$i; \
			  [ ! -d $$d/$$k ] || d=$$d/$$k; echo $$d; done); done

bench-quick: bench-bin
	@$(BENCH_SRC)/run-bench --quick --out $(B)/bench/quick

# make bench-ab BASE=REV [HEAD=REV] [BENCH_KERNELS="stock 6.12"]: the
# driver at BASE against the driver at HEAD (default: this checkout's
# driver/), one -icount boot each, in guest instructions (bench/bench-ab).
bench-ab: bench-bin
	@[ -n "$(BASE)" ] || { echo "make bench-ab: BASE=REV is required" >&2; exit 2; }
	@$(BENCH_SRC)/bench-ab --base $(BASE) $(if $(HEAD),--head $(HEAD)) --out $(B)/bench-ab \
		$(foreach k,$(BENCH_KERNELS),--kernel $(k))

-include $(wildcard $(BENCH_OBJ)/*.d)
