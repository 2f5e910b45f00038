#!/bin/bash
# A/A: takes ncclcheck's "-C COLL ARGS" and runs nccl-tests' COLL_perf with ARGS instead
set -u
coll=""; args=()
while [ $# -gt 0 ]; do
	if [ "$1" = -C ]; then coll=$2; shift 2; else args+=("$1"); shift; fi
done
exec "$NT_DIR/${coll}_perf" "${args[@]}"
