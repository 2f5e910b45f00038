# make check-gen [N=20] [SEED=1] (part of make check): N generated
# namespace clusters
# (tests/gen/gen.sh) from SEED on, then the regression seeds of
# tests/gen/regress.txt, each judged by the oracle and the closed loop; as
# root. Bounded: 10 minutes a seed at most. tests/gen/RESULTS.md keeps
# the table of a longer run. N here is 20 unless given on the command
# line (lab.mk's default of N is lab-repeat's).
SEED ?= 1
# the iptables-legacy case of the firewall-fix labs needs iptables
DEB_PKGS += iptables
CHECK_TARGETS += check-gen
GEN_N = $(if $(filter command line,$(origin N)),$(N),20)

.PHONY: check-gen
check-gen: $(NETPROBE)
	@if [ "$$(id -u)" != 0 ]; then \
		echo "check-gen: skipped: generated clusters need root"; \
		exit 0; fi
	@rm -f $(CURDIR)/$(BUILD)/gen-results.tsv
	@rc=0; NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/gen/run.sh $(GEN_N) \
		$(SEED) $(CURDIR)/$(BUILD)/gen-results.tsv || rc=1; \
	for s in $$(grep -v '^#' tests/gen/regress.txt | cut -f1); do \
		NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/gen/run.sh 1 $$s \
			$(CURDIR)/$(BUILD)/gen-results.tsv || rc=1; \
	done; \
	if [ $$rc != 0 ]; then echo "# check-gen: the seeds that failed:"; \
		grep -v '	ok	' $(CURDIR)/$(BUILD)/gen-results.tsv; fi; \
	exit $$rc
