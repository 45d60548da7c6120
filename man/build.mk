# SPDX-License-Identifier: MIT
# man/build.mk: the manual pages, binder(1), libbinder-c(3), binderc(4)
# and servicemanager(8), in mdoc.  Included by the top-level Makefile (TOP,
# B, CC, PREFIX, DESTDIR come from there).
#
#   make install     installs them as $(DESTDIR)$(MANDIR)/manN/PAGE.N
#                    (MANDIR defaults to $(PREFIX)/share/man)
#   make check-man   part of 'make check': every page through
#                    'mandoc -T lint -W warning' (any warning fails), and
#                    the program in libbinder-c(3)'s EXAMPLES compiled and
#                    linked against the library just built

MAN_SRC := $(TOP)/man
MAN_OBJ := $(B)/man
MAN_PAGES := $(sort $(wildcard $(MAN_SRC)/*.[1-8]))
MAN_SECTIONS := $(sort $(subst .,,$(suffix $(MAN_PAGES))))
MANDIR ?= $(PREFIX)/share/man

MAN_EXAMPLE_SRC := $(MAN_OBJ)/hello.c
MAN_EXAMPLE := $(MAN_OBJ)/hello
MAN_EXAMPLE_LIB := $(LBC_SO)
# Strict C11 without _GNU_SOURCE: what a user's program gets.
MAN_EXAMPLE_CFLAGS := -std=c11 -pedantic -Wall -Wextra -Werror -O2 -I$(TOP)/include

INSTALL_TARGETS += install-man
CHECK_TARGETS += check-man

.PHONY: install-man check-man

define man_install_section
	install -d $(DESTDIR)$(MANDIR)/man$(1)
	install -m 0644 $(filter %.$(1),$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man$(1)/

endef

install-man:
	$(foreach s,$(MAN_SECTIONS),$(call man_install_section,$(s)))

$(MAN_EXAMPLE_SRC): $(MAN_SRC)/libbinder-c.3 $(MAN_SRC)/extract-example
	@mkdir -p $(dir $@)
	sh $(MAN_SRC)/extract-example $< > $@.tmp && mv $@.tmp $@

# Linked the way pkg-config's flags would link it (-lbinder-c), so the
# shared library's exported symbols (libbinder-c.map) are what it sees.
$(MAN_EXAMPLE): $(MAN_EXAMPLE_SRC) $(MAN_EXAMPLE_LIB) $(wildcard $(TOP)/include/binderc/*.h)
	$(CC) $(MAN_EXAMPLE_CFLAGS) -o $@ $< -L$(dir $(MAN_EXAMPLE_LIB)) -lbinder-c

# One tally line for scripts/check-summary: one result per page linted and
# one for the example.  The example is built here (not as a prerequisite)
# so that a broken one counts as a failure instead of stopping the target.
check-man: $(MAN_EXAMPLE_SRC) $(MAN_EXAMPLE_LIB)
	@mkdir -p $(B)/check
	@pass=0; fail=0; \
	for p in $(MAN_PAGES); do \
		if mandoc -T lint -W warning $$p; then \
			pass=$$((pass + 1)); echo "man: $${p##*/}: lint ok"; \
		else \
			fail=$$((fail + 1)); echo "man: $${p##*/}: mandoc -T lint -W warning FAILED"; \
		fi; \
	done; \
	if $(MAKE) --no-print-directory -s $(MAN_EXAMPLE); then \
		pass=$$((pass + 1)); echo "man: libbinder-c.3: example compiles and links"; \
	else \
		fail=$$((fail + 1)); echo "man: libbinder-c.3: example FAILED to build"; \
	fi; \
	echo "$$pass $$fail" >> $(B)/check/man.tally; \
	echo "man: $$pass passed, $$fail failed"; \
	[ $$fail = 0 ]
