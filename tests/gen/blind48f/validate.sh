# The sixth blind set of issue 48 proved without netprobe: each cluster's
# validate (a plain-socket matrix of every pair and the torch Gloo client,
# before and after the thread's fix); exit 0 when every cluster behaved as
# its truth says. VALIDATE.txt is its run.
#   sh tests/gen/blind48f/validate.sh [NN ...]
# Namespaces are np<LAB_ID>v<NN>-...; LAB_ID defaults to 815b48f.
B48_SET=$(cd "$(dirname "$0")" && pwd)
export B48_SET
LAB_ID=${LAB_ID:-815b48f} exec sh "$B48_SET/../blind48/validate.sh" "$@"
