# The RDMA fixtures through the real binary: netprobe scan --sysroot on
# each tests/fixtures/sysroot/rdma-* tree against tests/rdma/golden.
CHECK_TARGETS += check-rdma

.PHONY: check-rdma
check-rdma: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/rdma/run.sh
