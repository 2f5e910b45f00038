#!/bin/sh
# Test every node against every other from a shell, with pdsh starting one
# process per node and the same --hosts list everywhere (each process finds
# itself in it by hostname or address; node 0 is the first entry).
#
#   sh examples/mesh-pdsh.sh 'gpu[01-16]'
set -u
LIST=${1:?usage: mesh-pdsh.sh 'gpu[01-16]'}

# pdsh expands the list itself to pick the hosts; netprobe expands the
# same text the same way (Slurm ranges) to number them.
pdsh -w "$LIST" "netprobe mesh --hosts '$LIST' --join-timeout 60s \
	--format html -o /tmp/netprobe-mesh.html; echo exit \$?"
echo "the report is /tmp/netprobe-mesh.html on the first host of $LIST"
