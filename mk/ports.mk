# netprobe ports: the lab needs socat (listeners) and jq (reads the JSON);
# `make bench-ports` compares 1,000 filtered ports against nmap -sT.
DEB_PKGS += socat jq

.PHONY: bench-ports
bench-ports: $(NETPROBE)
	@command -v nmap >/dev/null 2>&1 || { \
		echo "bench-ports: needs nmap (apt-get install nmap)"; exit 2; }
	NETPROBE=$(CURDIR)/$(NETPROBE) sh bench/ports/run.sh
