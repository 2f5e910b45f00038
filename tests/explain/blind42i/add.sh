#!/bin/sh
# Why: the truth of a blind case must be written before its log, and a thread
# this project has used before must never come back as "blind". add.sh checks
# the thread's key against the held-out list (heldout.sh) and a fresh grep of
# the repository, appends the truth row, and only then writes NNN.log from
# the pasted text.
# Usage: PART=a|b add.sh URL FRAMEWORK VERSION NETWORK CAUSE WANTED PROOF LOGFILE
# (LOGFILE holds the lines as pasted in the thread; it is copied unchanged).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
[ $# -eq 8 ] || { echo "usage: add.sh URL FRAMEWORK VERSION NETWORK CAUSE WANTED PROOF LOGFILE" >&2; exit 2; }
part=${PART:?set PART=a or b}; url=$1 fw=$2 ver=$3 net=$4 cause=$5 wanted=$6 proof=$7 log=$8
key=$(printf '%s\n' "$url" | sed -E 's#^https?://github\.com/##I; s#/(issues|pull|discussions)/#\##I; s#^([^/]+/[^/#]+\#[0-9]+).*$#\1#' | tr 'A-Z' 'a-z')
case $key in */*#[0-9]*) ;; *) echo "add.sh: cannot make OWNER/REPO#N of $url" >&2; exit 2 ;; esac
case $net in yes|no) ;; *) echo "add.sh: network must be yes or no" >&2; exit 2 ;; esac
[ -s "$log" ] || { echo "add.sh: empty log $log" >&2; exit 2; }
keys=$(mktemp); trap 'rm -f "$keys"' EXIT
sh "$here/heldout.sh" "$root" > "$keys"
if grep -qxF "$key" "$keys"; then echo "add.sh: REFUSED $key: already used" >&2; exit 1; fi
# the same thread in a short form (REPO#N, .../issues/N) anywhere in tests/explain or docs
repo=${key#*/}; num=${key##*#}; repo=${repo%#*}
if grep -rqiE "(^|[^A-Za-z0-9_.-])$repo(#|/issues/|/pull/)$num([^0-9]|\$)" "$root/tests/explain" "$root/docs" /work/wt/*/tests/explain 2>/dev/null; then
	echo "add.sh: REFUSED $key: short form found" >&2; exit 1
fi
n=$(($(tail -n +2 "$here/truth-$part.tsv" 2>/dev/null | wc -l) + 1))
id=$part$(printf '%02d' "$n")
[ ! -e "$here/$id.log" ] || { echo "add.sh: $id.log exists" >&2; exit 1; }
[ -s "$here/truth-$part.tsv" ] || printf 'id\turl\tframework\tversion\tnetwork\tcause\twanted\tproof\n' > "$here/truth-$part.tsv"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$url" "$fw" "$ver" "$net" "$cause" "$wanted" "$proof" >> "$here/truth-$part.tsv"
cp "$log" "$here/$id.log"
echo "$id $key"
