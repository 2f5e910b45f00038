# netprobe ifaces: the lab reads JSON with jq; `make bench-ifaces` times
# the listing of 1,000 veth interfaces (bench/ifaces/RESULTS.md).
DEB_PKGS += jq

.PHONY: bench-ifaces
bench-ifaces: $(NETPROBE)
	sh bench/ifaces/run.sh $(CURDIR)/$(NETPROBE)
