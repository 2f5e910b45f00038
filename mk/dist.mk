# Installing: `make check-install` tests `make install` and `make
# uninstall` in a scratch DESTDIR. Debian packages: `make deb` builds
# netprobe_*.deb (and ncclcheck_*.deb where CUDA and NCCL are) with
# dpkg-buildpackage from debian/, in a copy of the tree under $(DEB_DIR);
# `make check-deb` installs them with apt-get, runs the installed
# programs, then removes and purges them, each leaving no path of theirs
# (root only). Both are part of make check.
DEB_PKGS += debhelper dpkg-dev bash-completion

DEB_DIR := $(BUILD)/deb
DEB_SRC := $(DEB_DIR)/netprobe-$(VERSION)
# make check already ran the tests: the package build skips them; no
# -dbgsym package, so that `apt-get install ./*.deb` installs the programs.
DEB_OPTIONS ?= nocheck noddebs
# Without the toolkit the ncclcheck package is left out, and said so; the
# nocheck option goes with the profile that drops the test Build-Depends.
DEB_PROFILES = $(strip $(if $(NC_HAVE_TOOLKIT),,pkg.netprobe.nocuda) \
	$(filter nocheck,$(DEB_OPTIONS)))

.PHONY: deb check-deb check-install
CHECK_TARGETS += check-install check-deb

check-install: all
	@sh tests/install/make.sh "$(MAKE)" $(BUILD)

# dpkg-buildpackage writes beside the tree it builds, so it builds a copy.
# MAKEFLAGS is dropped so that a `make check SANITIZE=1` around this does not
# build the package with sanitizers.
deb:
	@v=$$(dpkg-parsechangelog -l debian/changelog -S Version); \
	[ "$$v" = "$(VERSION)" ] || { echo "deb: debian/changelog is at" \
		"$$v but the Makefile at $(VERSION)"; exit 2; }
	@rm -rf $(DEB_DIR) && mkdir -p $(DEB_SRC)
	@tar --exclude=./build --exclude='./build-*' --exclude=./.git \
		--exclude=./.devbin --exclude='*.pcap' -cf - . | \
		tar -xf - -C $(DEB_SRC)
	$(if $(NC_HAVE_TOOLKIT),,@echo "deb: ncclcheck package skipped:" \
		"$(NC_SKIP_WHY)")
	@printf '  %-7s %s\n' DEB "$(DEB_DIR) (log: $(DEB_DIR)/build.log)"
	@cd $(DEB_SRC) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		DEB_BUILD_PROFILES="$(DEB_PROFILES)" \
		DEB_BUILD_OPTIONS="$(DEB_OPTIONS) parallel=$$(nproc)" \
		dpkg-buildpackage -b -us -uc > ../build.log 2>&1 || { \
		tail -40 ../build.log; echo "deb: dpkg-buildpackage failed:" \
			"$(DEB_DIR)/build.log"; exit 2; }
	@rm -rf $(DEB_SRC)
	@for f in $(DEB_DIR)/*.deb; do printf '  %-7s %s\n' DEB "$$f"; done

# Installs the packages as a user would (apt-get install ./*.deb), checks the
# installed files, runs `netprobe scan` and `ncclcheck --help` from them,
# then removes and purges what it installed, checking after each that no
# path of theirs is left, nor NCCL's folder in the loader's path.
check-deb:
	@if [ "$$(id -u)" != 0 ]; then \
		echo "check-deb: skipped: apt-get install needs root"; \
	else \
		$(MAKE) --no-print-directory deb && \
		sh tests/install/deb.sh $(DEB_DIR); \
	fi
