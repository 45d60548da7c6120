# SPDX-License-Identifier: MIT
# tools/build.mk: the `binder` command-line tool.  LBC_A and LBC_LINK
# come from libbinder-c/build.mk.

BINDER_TOOL := $(B)/guest/bin/binder

ALL_TARGETS += $(BINDER_TOOL)
INSTALL_TARGETS += install-binder-tool

$(B)/obj/tools/binder.o: $(TOP)/tools/binder.c $(TOP)/tools/call.h $(TOP)/tools/rpctool.h $(TOP)/include/binderc/servicemanager.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -MMD -MP -c $< -o $@

# `binder monitor` (the transaction-report listener of libbinder-c).
$(B)/obj/tools/monitor.o: $(TOP)/tools/monitor.c $(TOP)/include/binderc/report.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -MMD -MP -c $< -o $@

# `binder freeze`, `thaw`, `frozen` (BINDER_FREEZE from the shell).
$(B)/obj/tools/freeze.o: $(TOP)/tools/freeze.c $(TOP)/include/binderc/process.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -MMD -MP -c $< -o $@

# `binder rpc ping`, `call`, `serve` (RPC binder, <binderc/rpc.h>).
$(B)/obj/tools/rpctool.o: $(TOP)/tools/rpctool.c $(TOP)/tools/rpctool.h $(TOP)/tools/call.h $(TOP)/include/binderc/rpc.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -MMD -MP -c $< -o $@

BINDER_TOOL_OBJ := $(addprefix $(B)/obj/tools/,binder.o monitor.o freeze.o rpctool.o)

$(BINDER_TOOL): $(BINDER_TOOL_OBJ) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $(BINDER_TOOL_OBJ) $(LBC_LINK)

.PHONY: install-binder-tool
install-binder-tool: $(BINDER_TOOL)
	install -D -m 0755 $(BINDER_TOOL) $(DESTDIR)$(PREFIX)/bin/binder

-include $(wildcard $(B)/obj/tools/*.d)
