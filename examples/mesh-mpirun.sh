#!/bin/sh
# Test every node against every other with Open MPI as the launcher: one
# process per node (--map-by ppr:1:node); rank and size come from
# OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE. netprobe does not link
# MPI, so node 0's address is given: the first host of the list.
#
#   sh examples/mesh-mpirun.sh gpu01,gpu02,gpu03,gpu04
set -u
HOSTS=${1:?usage: mesh-mpirun.sh host1,host2,...}
NODE0=${HOSTS%%,*}

mpirun --host "$HOSTS" --map-by ppr:1:node \
	netprobe mesh --rendezvous "$NODE0" --format markdown \
	-o /tmp/netprobe-mesh.md
rc=$?
echo "exit status $rc; the report is /tmp/netprobe-mesh.md on $NODE0"
exit $rc
