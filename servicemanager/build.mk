# SPDX-License-Identifier: MIT
# servicemanager/build.mk: the context-manager daemon, its policy file and
# systemd units (the vnd mode's on /dev/vndbinder, not enabled), and the
# optional binderfs units (dev-binderfs.mount, binderc-binderfs.service).
# Included by the top-level Makefile (TOP, B, CC, CFLAGS_BASE, SAN_FLAGS,
# PREFIX, DESTDIR come from there).
#
# The daemon links libbinder-c statically (LBC_A, LBC_LINK from
# libbinder-c/build.mk); the service-manager client is part of the library
# (libbinder-c/servicemanager.c).

SMD_SRC := $(TOP)/servicemanager
SMD_OBJ := $(B)/obj/servicemanager
SMD_NAMES := policy proto registry lazy handler
# The declared names (Android's VINTF manifest) and what answers from them.
SMD_NAMES += declared
SMD_CORE := $(patsubst %,$(SMD_OBJ)/%.o,$(SMD_NAMES))
SMD_BIN := $(B)/guest/bin/servicemanager

ALL_TARGETS += $(SMD_BIN)
INSTALL_TARGETS += install-servicemanager

$(SMD_OBJ)/%.o: $(SMD_SRC)/%.c $(SMD_SRC)/sm.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -MMD -MP -c $< -o $@

$(SMD_OBJ)/san/%.o: $(SMD_SRC)/%.c $(SMD_SRC)/sm.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) -MMD -MP -c $< -o $@

$(SMD_BIN): $(SMD_OBJ)/main.o $(SMD_CORE) $(LBC_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $(SMD_OBJ)/main.o $(SMD_CORE) $(LBC_LINK)

.PHONY: install-servicemanager
install-servicemanager: $(SMD_BIN)
	install -D -m 0755 $(SMD_BIN) $(DESTDIR)$(PREFIX)/sbin/servicemanager
	install -D -m 0644 $(SMD_SRC)/servicemanager.conf $(DESTDIR)/etc/binderc/servicemanager.conf.example
	sed 's|@SBINDIR@|$(PREFIX)/sbin|' $(SMD_SRC)/binderc-servicemanager.service > $(SMD_OBJ)/binderc-servicemanager.service
	install -D -m 0644 $(SMD_OBJ)/binderc-servicemanager.service \
		$(DESTDIR)$(PREFIX)/lib/systemd/system/binderc-servicemanager.service
	# vnd mode on /dev/vndbinder (not enabled).
	sed 's|@SBINDIR@|$(PREFIX)/sbin|' $(SMD_SRC)/binderc-vndservicemanager.service \
		> $(SMD_OBJ)/binderc-vndservicemanager.service
	install -m 0644 $(SMD_OBJ)/binderc-vndservicemanager.service $(DESTDIR)$(PREFIX)/lib/systemd/system/
	# The optional binderfs instance and its devices (not enabled).
	sed 's|@BINDIR@|$(PREFIX)/bin|' $(SMD_SRC)/binderc-binderfs.service > $(SMD_OBJ)/binderc-binderfs.service
	install -m 0644 $(SMD_OBJ)/binderc-binderfs.service $(SMD_SRC)/dev-binderfs.mount \
		$(DESTDIR)$(PREFIX)/lib/systemd/system/

-include $(wildcard $(SMD_OBJ)/*.d $(SMD_OBJ)/san/*.d)
