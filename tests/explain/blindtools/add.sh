#!/bin/sh
# Why: the truth of a blind case must be written before its log, and a thread
# this project has used before must never come back as "blind". add.sh checks
# the thread's key against the held-out list (heldout.sh) and a fresh grep of
# the repository and its worktrees, appends the truth row to the set's
# truth-PART.tsv, and only then writes PARTNN.log from the pasted text.
# Usage: SET=tests/explain/blind42X PART=a add.sh URL FRAMEWORK VERSION NETWORK
#        CAUSE WANTED PROOF LOGFILE
# (LOGFILE holds the lines as pasted in the thread; it is copied unchanged).
set -eu
tools=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 8 ] || { echo "usage: SET=DIR PART=a add.sh URL FRAMEWORK VERSION NETWORK CAUSE WANTED PROOF LOGFILE" >&2; exit 2; }
set_dir=${SET:?set SET to the blind set folder}
[ -d "$set_dir" ] || { echo "add.sh: no folder $set_dir (SET)" >&2; exit 2; }
here=$(cd "$set_dir" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
part=${PART:?set PART=a, b, ...}; url=$1 fw=$2 ver=$3 net=$4 cause=$5 wanted=$6 proof=$7 log=$8
case $part in [a-z]) ;; *) echo "add.sh: PART must be one letter a-z" >&2; exit 2 ;; esac
key=$(printf '%s\n' "$url" | sed -E 's#^https?://github\.com/##I; s#/(issues|pull|discussions)/#\##I; s#^([^/]+/[^/#]+\#[0-9]+).*$#\1#' | tr '[:upper:]' '[:lower:]')
case $key in */*#[0-9]*) ;; *) echo "add.sh: cannot make OWNER/REPO#N of $url" >&2; exit 2 ;; esac
case $net in yes|no) ;; *) echo "add.sh: network must be yes or no" >&2; exit 2 ;; esac
[ -s "$log" ] || { echo "add.sh: empty log $log" >&2; exit 2; }
keys=$(mktemp); trap 'rm -f "$keys"' EXIT
sh "$tools/heldout.sh" "$root" > "$keys"
if grep -qxF "$key" "$keys"; then echo "add.sh: REFUSED $key: already used" >&2; exit 1; fi
# the same thread in a short form (REPO#N, .../issues/N) anywhere in tests/explain or docs
repo=${key#*/}; num=${key##*#}; repo=${repo%#*}
dirs="$root/tests/explain $root/docs"
for wt in $(sh "$tools/trees.sh" "$root"); do dirs="$dirs $wt/tests/explain"; done
# shellcheck disable=SC2086
if grep -rqiE "(^|[^A-Za-z0-9_.-])$repo(#|/issues/|/pull/)$num([^0-9]|\$)" $dirs 2>/dev/null; then
	echo "add.sh: REFUSED $key: short form found" >&2; exit 1
fi
n=$(($(tail -n +2 "$here/truth-$part.tsv" 2>/dev/null | wc -l) + 1))
id=$part$(printf '%02d' "$n")
[ ! -e "$here/$id.log" ] || { echo "add.sh: $id.log exists" >&2; exit 1; }
[ -s "$here/truth-$part.tsv" ] || printf 'id\turl\tframework\tversion\tnetwork\tcause\twanted\tproof\n' > "$here/truth-$part.tsv"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$url" "$fw" "$ver" "$net" "$cause" "$wanted" "$proof" >> "$here/truth-$part.tsv"
cp "$log" "$here/$id.log"
echo "$id $key"
