# make lab-repeat [LAB="t_lossy t_pool"] [N=10]: namespace labs N times in
# a row, to show they do not flap (tests/lab/repeat.sh). By default the
# labs of the evidence classes: a lossy link, a bridged container,
# overlapping pools, a dead training NIC.
LAB ?= t_lossy t_bridged t_pool t_deadnic
N ?= 10

.PHONY: lab-repeat
lab-repeat: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/lab/repeat.sh $(N) $(LAB)
