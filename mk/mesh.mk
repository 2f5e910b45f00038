# netprobe mesh: `make bench-mesh` runs 4, 16 and 64 namespace nodes on this
# machine (root) and prints the figures bench/mesh/RESULTS.md keeps.
.PHONY: bench-mesh
bench-mesh: $(NETPROBE)
	NETPROBE=$(CURDIR)/$(NETPROBE) sh bench/mesh/run.sh
