# Slurm (issue 35): tests/lab/t_slurm.sh runs a real slurmctld and four
# slurmd in network namespaces, in check-lab with the other labs (about
# 40 s); Debian's packages, which the lab also installs where missing.
DEB_PKGS += slurmctld slurmd slurm-client munge jq

.PHONY: check-slurm
# the Slurm lab alone
check-slurm: $(NETPROBE)
	@NETPROBE=$(CURDIR)/$(NETPROBE) sh tests/lab/t_slurm.sh
