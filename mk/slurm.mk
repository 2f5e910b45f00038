# Slurm (issue 35): tests/lab/t_slurm.sh runs a real slurmctld and four
# slurmd in network namespaces, in check-lab with the other labs (about
# 40 s); Debian's packages, which the lab also installs where missing.
# tests/lab/t_slurm_hc.sh runs the health check's failures there (issue
# 44). check-slurm-hc: the health check without Slurm, a fake scontrol
# (tests/slurm/hc.sh, 10 s, no root; issues 44, 45).
DEB_PKGS += slurmctld slurmd slurm-client munge jq

.PHONY: check-slurm check-slurm-hc
CHECK_TARGETS += check-slurm-hc

# the Slurm labs alone
check-slurm: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/lab/t_slurm.sh
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/lab/t_slurm_hc.sh

check-slurm-hc:
	@sh tests/slurm/hc.sh
