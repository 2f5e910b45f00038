# netprobe and ncclcheck: one Makefile for building, testing and installing.
# `make` builds, `make check` runs every test that needs no GPU, `make deps`
# installs the Debian packages that are missing. Fragments in mk/*.mk add
# targets of their own (ncclcheck, fuzzing, benchmarks) to CHECK_TARGETS.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
# systemd reads units from /usr/local/lib/systemd/system and
# /usr/lib/systemd/system; Debian 12 packages install into /lib/systemd/system.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# The operators' files (Slurm scripts, Prometheus rules and their test, the
# Grafana dashboard) are data read in place or copied, so they go under
# share/netprobe/contrib as in the tree; docs/findings.md is documentation.
DATADIR ?= $(PREFIX)/share
PKGDATADIR ?= $(DATADIR)/netprobe
DOCDIR ?= $(DATADIR)/doc/netprobe
DESTDIR ?=
# Programs go through $(INSTALL) (debhelper sets it); data through install.
INSTALL ?= install
# `make install` strips the programs; in the package build dh_auto_install
# sets INSTALL="install --strip-program=true" and dh_strip strips instead
# (debug symbols kept apart, DEB_BUILD_OPTIONS=nostrip honoured).
INSTALL_STRIP ?= -s
VERSION := 0.1.0

# Quiet build lines as the kernel and git print them (`  CC      file.c`);
# `make V=1` prints every full command.
ifeq ($(V),1)
Q :=
QUIET_CC :=
QUIET_LD :=
QUIET_NVCC :=
else
Q := @
QUIET_CC = @printf '  %-7s %s\n' CC $<;
QUIET_LD = @printf '  %-7s %s\n' LD $@;
QUIET_NVCC = @printf '  %-7s %s\n' NVCC $<;
endif

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libmnl jansson libpcap

# SANITIZE=1 builds everything with ASan and UBSan into build-asan/.
ifeq ($(SANITIZE),1)
BUILD ?= build-asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
else
BUILD ?= build
SANFLAGS :=
endif

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wundef \
	-Wpointer-arith -Wcast-align -Wvla -Wnull-dereference -Wwrite-strings
# an option table's entry leaves out the unit and range it does not have
# (lib/base/cli.h): trailing members left out are zero, as C says
WARN += -Wno-missing-field-initializers
CFLAGS ?= -O2 -g
# reports/ is five stage folders, in the order calls go (reports/README.md;
# check-layout enforces it); report.h, report.c and util.c stay on top.
REPORT_STAGES := load merge decide model render
REPORT_INC := -Ireports $(addprefix -Ireports/,$(REPORT_STAGES))
# CPPFLAGS carries dpkg-buildflags' -D_FORTIFY_SOURCE in the package build.
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -DNETPROBE_VERSION='"$(VERSION)"' \
	$(WARN) $(SANFLAGS) $(CPPFLAGS) $(CFLAGS) -Ilib -Iprobes $(REPORT_INC) -MMD -MP
ALL_LDFLAGS := $(SANFLAGS) $(LDFLAGS)

# pkg-config is asked only when building, so `make deps` works without it.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

LIB_SRC := $(sort $(wildcard lib/*/*.c))
CMD_SRC := $(sort $(filter-out probes/netprobe.c,$(wildcard probes/*.c probes/*/*.c)) \
	$(wildcard reports/*.c reports/*/*.c))
MAIN_SRC := probes/netprobe.c
TEST_SRC := $(sort $(wildcard tests/unit/*.c))

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
LIB_OBJ := $(call obj,$(LIB_SRC))
CMD_OBJ := $(call obj,$(CMD_SRC))
MAIN_OBJ := $(call obj,$(MAIN_SRC))
TEST_OBJ := $(call obj,$(TEST_SRC))

NETPROBE := $(BUILD)/netprobe
UNIT := $(BUILD)/unit-tests
MAN1 := $(wildcard man/*.1)
NP_MAN1 := $(filter-out man/ncclcheck.1,$(MAN1))
MAN5 := $(wildcard man/*.5)

# Debian packages the build and the tests need; `make deps` installs the
# missing ones. Fragments may add to it.
DEB_PKGS := build-essential pkg-config libmnl-dev libjansson-dev libpcap-dev \
	check libsubunit-dev mandoc iproute2 nftables tcpdump libxml2-utils \
	clang
CHECK_TARGETS := check-unit check-man check-layout check-cli check-lab

.PHONY: all deps check check-unit check-cli check-lab check-man check-layout \
	install uninstall clean
all: $(NETPROBE)

-include $(sort $(wildcard mk/*.mk))

deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | \
			grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq && apt-get install -y -qq $$missing; \
	fi

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(EXTRA_CFLAGS) -c -o $@ $<

$(NETPROBE): $(MAIN_OBJ) $(CMD_OBJ) $(LIB_OBJ)
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# The unit-test runner finds its suites by name: every tests/unit file
# defines `Suite *suite_NAME(void)`.
$(BUILD)/suites.h: $(TEST_SRC)
	@mkdir -p $(dir $@)
	@grep -ho '^Suite \*suite_[a-z0-9_]*(void)' $(TEST_SRC) | \
		sed 's/^Suite \*\(suite_[a-z0-9_]*\)(void)/SUITE(\1)/' > $@.tmp
	@mv $@.tmp $@

$(BUILD)/tests/unit/%.o: tests/unit/%.c $(BUILD)/suites.h
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(CHECK_CFLAGS) -I$(BUILD) \
		-include tests/unit/suites_decl.h \
		-DSRCDIR='"$(CURDIR)"' -c -o $@ $<

$(UNIT): $(TEST_OBJ) $(CMD_OBJ) $(LIB_OBJ)
	$(QUIET_LD)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(CHECK_LIBS) -lm

# make check: the quick suites one after another, then the long ones side
# by side, CHECK_JOBS at a time. The long ones build namespaces and wait on
# bounded timeouts far more than they compute, so together they take about
# the time of the longest (7 min here, not 20). Each suite's output is
# printed whole when it ends (-O); -k lets every suite finish and report.
# CHECK_JOBS=1 runs them one after another.
CHECK_JOBS ?= 4
CHECK_LONG := check-lab check-deb check-e2e check-gen fuzz-ci
check: deps
	@$(MAKE) --no-print-directory \
		$(filter-out $(CHECK_LONG),$(CHECK_TARGETS))
	@echo "check: $(filter $(CHECK_LONG),$(CHECK_TARGETS)), $(CHECK_JOBS)" \
		"at a time; each prints its output when it ends"
	@$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -Otarget \
		$(filter $(CHECK_LONG),$(CHECK_TARGETS))

check-unit: $(UNIT)
	$(UNIT)

# Every command of both programs: --help against the man page, did-you-mean,
# options after operands (tests/cli; loopback only, no root needed).
check-cli: all
	@NETPROBE=$(CURDIR)/$(NETPROBE) \
		NCCLCHECK=$(if $(wildcard $(NCCLCHECK)),$(CURDIR)/$(NCCLCHECK)) \
		sh tests/cli/run.sh

check-lab: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/lab/run.sh

# lib/README.md's order of groups, and no circle between headers (every C
# file's #include lines), files or groups (includes and the objects'
# symbols), over everything built (ncclcheck's CPU objects too: the
# prerequisite in mk/ncclcheck.mk); reports/' stage folders in the order
# of REPORT_STAGES; no source file over 900 lines; after a self-test that
# proves the checker catches each.
check-layout: all
	@sh tests/layout/selftest.sh
	@sh tests/layout/docrefs.sh CONTRIBUTING.md lib/README.md collectives/README.md probes/README.md reports/README.md
	LAYOUT_STAGE_ORDER="$(REPORT_STAGES)" \
		sh tests/layout/check.sh $(BUILD)/probes $(BUILD)/reports $(BUILD)/lib \
		$(wildcard $(BUILD)/ncgpu) $(wildcard $(BUILD)/nccpu)

check-man:
	mandoc -Tlint -Wwarning $(MAN1) $(MAN5)
	@sh tests/man/render.sh $(MAN1) $(MAN5)

INSTALL_TARGETS ?=
UNINSTALL_TARGETS ?=
# What contrib/ installs, by mode: the scripts stay executable.
CONTRIB_EXEC := contrib/slurm/netprobe-gate.sbatch \
	contrib/slurm/netprobe-healthcheck
CONTRIB_DATA := contrib/slurm/README.md contrib/prometheus/netprobe.rules.yml \
	contrib/prometheus/netprobe.rules.test.yml \
	contrib/grafana/netprobe-dashboard.json
CONTRIB_DIRS := contrib/slurm contrib/prometheus contrib/grafana
# The man pages name the packaged paths (/usr/share/...): an installed page
# names where this PREFIX put them.
MAN_PATHS := sed -e 's|/usr/share/netprobe/|$(PKGDATADIR)/|g' \
	-e 's|/usr/share/doc/netprobe/|$(DOCDIR)/|g'
install: $(NETPROBE) $(INSTALL_TARGETS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(SYSTEMDUNITDIR) \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(DOCDIR) \
		$(addprefix $(DESTDIR)$(PKGDATADIR)/,$(CONTRIB_DIRS))
	$(INSTALL) -m 755 $(INSTALL_STRIP) $(NETPROBE) $(DESTDIR)$(BINDIR)/netprobe
	for f in $(NP_MAN1); do $(MAN_PATHS) $$f > \
		$(DESTDIR)$(MANDIR)/man1/$${f##*/} || exit 1; done
	for f in $(MAN5); do $(MAN_PATHS) $$f > \
		$(DESTDIR)$(MANDIR)/man5/$${f##*/} || exit 1; done
	chmod 644 $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(NP_MAN1))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))
	sed 's|@BINDIR@|$(BINDIR)|g' contrib/netprobe-serve.service.in > \
		$(DESTDIR)$(SYSTEMDUNITDIR)/netprobe-serve.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/netprobe-serve.service
	install -m 644 contrib/bash-completion/netprobe \
		$(DESTDIR)$(BASHCOMPDIR)/netprobe
	for f in $(CONTRIB_EXEC); do install -m 755 $$f \
		$(DESTDIR)$(PKGDATADIR)/$$f || exit 1; done
	for f in $(CONTRIB_DATA); do install -m 644 $$f \
		$(DESTDIR)$(PKGDATADIR)/$$f || exit 1; done
	install -m 644 docs/findings.md $(DESTDIR)$(DOCDIR)/findings.md

# Removes what `make install` put there (with the same PREFIX and DESTDIR),
# and the folders that are netprobe's alone once they are empty.
uninstall: $(UNINSTALL_TARGETS)
	rm -f $(DESTDIR)$(BINDIR)/netprobe \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(NP_MAN1))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
		$(DESTDIR)$(SYSTEMDUNITDIR)/netprobe-serve.service \
		$(DESTDIR)$(BASHCOMPDIR)/netprobe \
		$(addprefix $(DESTDIR)$(PKGDATADIR)/,$(CONTRIB_EXEC)) \
		$(addprefix $(DESTDIR)$(PKGDATADIR)/,$(CONTRIB_DATA)) \
		$(DESTDIR)$(DOCDIR)/findings.md
	for d in $(addprefix $(DESTDIR)$(PKGDATADIR)/,$(CONTRIB_DIRS)) \
		$(DESTDIR)$(PKGDATADIR)/contrib $(DESTDIR)$(PKGDATADIR) \
		$(DESTDIR)$(DOCDIR); do [ ! -d $$d ] || \
		rmdir --ignore-fail-on-non-empty $$d || exit 1; done

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

# The README's first command: build and run the scan on this machine.
.PHONY: scan
# A fault found (exit 1) is the scan's answer, not a failed make: only exit 2
# (could not run) fails the target.
scan: deps
	@$(MAKE) --no-print-directory all
	@$(NETPROBE) scan; rc=$$?; \
	if [ $$rc = 1 ]; then echo "(netprobe scan: exit 1: a fault was found, see above)"; fi; \
	[ $$rc -le 1 ]
