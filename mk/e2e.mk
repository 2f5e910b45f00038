# The end-to-end suite (tests/e2e/): the real frameworks judge netprobe.
# Each scenario builds nodes out of network and UTS namespaces, runs torch's
# Gloo backend (Debian's python3-torch, through /usr/bin/python3) and Open
# MPI over TCP across them, then netprobe on every node, applies its advice
# and runs the frameworks again. `make e2e` runs it and writes the table to
# $(BUILD)/e2e/RESULTS.md only (a test run never touches the source tree);
# `make e2e-results` copies that table into the committed
# tests/e2e/RESULTS.md, on purpose. `make check` runs the suite too, or says
# why it skipped (not root, no namespaces, no torch).

DEB_PKGS += python3-torch openmpi-bin libopenmpi-dev jq nftables iproute2 \
	util-linux

E2E_BUILD := $(BUILD)/e2e
E2E_MPI := $(E2E_BUILD)/mpi_allreduce
E2E_RUN = E2E_BUILD=$(CURDIR)/$(E2E_BUILD) NETPROBE=$(CURDIR)/$(NETPROBE) \
	sh tests/e2e/run.sh

.PHONY: e2e e2e-results check-e2e
CHECK_TARGETS += check-e2e

# The suite's own MPI program; mpicc is Open MPI's wrapper around $(CC).
$(E2E_MPI): tests/e2e/mpi_allreduce.c
	@mkdir -p $(dir $@)
	mpicc -std=c11 $(WARN) -O2 -o $@ $<

# Exit 77 from run.sh: the suite cannot run here (it says why).
e2e: deps
	@$(MAKE) --no-print-directory $(NETPROBE) $(E2E_MPI)
	@$(E2E_RUN); rc=$$?; \
	if [ $$rc != 77 ]; then \
		echo "e2e: table in $(E2E_BUILD)/RESULTS.md" \
			"('make e2e-results' commits it to tests/e2e/RESULTS.md)"; \
	fi; \
	[ $$rc = 0 ] || [ $$rc = 77 ]

# The deliberate step: the last run's table becomes the committed one.
e2e-results:
	@if [ ! -s $(E2E_BUILD)/RESULTS.md ]; then \
		echo "e2e-results: no $(E2E_BUILD)/RESULTS.md: run 'make e2e'" \
			"first" >&2; exit 2; \
	fi
	cp $(E2E_BUILD)/RESULTS.md tests/e2e/RESULTS.md
	@echo "e2e-results: tests/e2e/RESULTS.md updated; review and commit it"

check-e2e: $(NETPROBE)
	@if command -v mpicc >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory $(E2E_MPI); fi
	@$(E2E_RUN); rc=$$?; [ $$rc = 0 ] || [ $$rc = 77 ]
