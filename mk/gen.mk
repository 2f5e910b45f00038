# make check-gen [N=20] [SEED=1]: N generated namespace clusters
# (tests/gen/gen.sh), each judged by the oracle and the closed loop; as
# root. Bounded: 10 minutes a seed at most. tests/gen/RESULTS.md keeps
# the table of a longer run. N here is 20 unless given on the command
# line (lab.mk's default of N is lab-repeat's).
SEED ?= 1
GEN_N = $(if $(filter command line,$(origin N)),$(N),20)

.PHONY: check-gen
check-gen: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/gen/run.sh $(GEN_N) $(SEED) \
		$(CURDIR)/$(BUILD)/gen-results.tsv
