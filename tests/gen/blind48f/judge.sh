# The sixth blind set of issue 48, judged with the first set's judge
# (tests/gen/blind48/judge.sh, judge_lib.sh) against this folder's
# truth.tsv: one line per cluster, then a total; exits 0 (2 on bad usage).
#   NETPROBE=$PWD/build/netprobe sh tests/gen/blind48f/judge.sh [NN ...]
# Namespaces are np<LAB_ID>j<NN>-...; LAB_ID defaults to 815b48f.
B48_SET=$(cd "$(dirname "$0")" && pwd)
export B48_SET
LAB_ID=${LAB_ID:-815b48f} exec sh "$B48_SET/../blind48/judge.sh" "$@"
