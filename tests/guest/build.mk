# SPDX-License-Identifier: MIT
# tests/guest/build.mk: the guest's smoke tests of a binder device
# (test_version, once per device) and of the module itself (test_module,
# once per guest: it loads and unloads binderc).  tests/guest/run-suite is
# what the guest runs; it reads $(B)/guest/suite.list.

GSMOKE_SRC := $(TOP)/tests/guest
GSMOKE_BIN := $(B)/guest/bin

GUEST_TESTS += $(GSMOKE_BIN)/test_version
GUEST_ONCE_TESTS += $(GSMOKE_BIN)/test_module

$(GSMOKE_BIN)/test_version $(GSMOKE_BIN)/test_module: $(GSMOKE_BIN)/%: $(GSMOKE_SRC)/%.c $(TH_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(TH_CFLAGS) -o $@ $< $(TH_OBJS) $(CRITERION_LIBS)
