#!/bin/sh
# Runs the ncclcheck command of every shipped example (examples/*) with
# stub launchers (mpirun, srun: they drop their own options and run the
# command once) and a stub nvidia-smi, so that an example whose options
# ncclcheck would refuse cannot rot: ncclcheck's own option parser
# (NC_PARSE, built without CUDA) must accept each command; where the real
# binary is built (NCCLCHECK) and no GPU is here, it must get past its
# options and say "no GPU".
#   NC_PARSE=build/ncclcheck-parse [NCCLCHECK=build/ncclcheck] \
#   sh tests/ncclcheck/examples.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
PARSE=$(realpath "${NC_PARSE:-build/ncclcheck-parse}")
REAL=${NCCLCHECK:-}
[ -n "$REAL" ] && REAL=$(realpath "$REAL")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/bin" "$TMP/out/docs" "$TMP/build"

cat >"$TMP/bin/mpirun" <<'STUB'
#!/bin/sh
# stub: drops mpirun's options, runs the program once
while [ $# -gt 0 ]; do
	case $1 in
	-np | -n | -c | -H | --host | --hostfile | --map-by | --bind-to | \
	-x | --rankfile | --npernode | -N) shift 2 ;;
	--mca | --gmca) shift 3 ;;
	-*) shift ;;
	*) break ;;
	esac
done
exec "$@"
STUB
cat >"$TMP/bin/srun" <<'STUB'
#!/bin/sh
# stub: drops srun's options (all --opt=value or flags), runs once
while [ $# -gt 0 ]; do
	case $1 in
	-*) shift ;;
	*) break ;;
	esac
done
exec "$@"
STUB
printf '#!/bin/sh\necho "GPU 0: stub"\necho "GPU 1: stub"\n' >"$TMP/bin/nvidia-smi"
chmod +x "$TMP/bin/"*

# The command lines: continuation lines joined, comments left out, from
# the launcher (or ncclcheck itself) up to the first || && ; or |.
cmds() {
	awk '
		{ sub(/^[ \t]+/, "") }
		/^#/ { next }
		/\\$/ { sub(/\\$/, ""); buf = buf $0 " "; next }
		{ line = buf $0; buf = "" }
		line ~ /(^|[ \t(])(\.\/build\/)?ncclcheck[ \t]/ {
			n = split(line, w, /[ \t]+/); out = ""; on = 0
			for (i = 1; i <= n; i++) {
				if (!on && (w[i] == "mpirun" || w[i] == "srun" ||
				    w[i] ~ /^(\.\/build\/)?ncclcheck$/)) on = 1
				if (!on) continue
				if (w[i] == "||" || w[i] == "&&" || w[i] == "|" ||
				    w[i] == ";") break
				out = out (out == "" ? "" : " ") w[i]
			}
			print out
		}' "$1"
}

fail=0
n=0
for ex in examples/*; do
	cmds "$ex" >"$TMP/cmds"
	while IFS= read -r c; do
		[ -n "$c" ] || continue
		n=$((n + 1))
		c=$(printf '%s' "$c" | sed 's|\./build/ncclcheck|ncclcheck|')
		ln -sf "$PARSE" "$TMP/bin/ncclcheck"
		if ! (cd "$TMP" && OUT="$TMP/out" GPUS=2 ngpu=2 PATH="$TMP/bin:$PATH" \
			sh -c "mkdir -p results /results/docs 2>/dev/null; $c") \
			>"$TMP/log" 2>&1; then
			echo "examples: $ex: ncclcheck refuses: $c"
			sed 's/^/    /' "$TMP/log"
			fail=1
			continue
		fi
		if [ -n "$REAL" ] && ! nvidia-smi -L >/dev/null 2>&1; then
			ln -sf "$REAL" "$TMP/bin/ncclcheck"
			(cd "$TMP" && OUT="$TMP/out" GPUS=2 ngpu=2 PATH="$TMP/bin:$PATH" \
				sh -c "$c") >"$TMP/log" 2>&1
			if ! grep -q "no GPU" "$TMP/log"; then
				echo "examples: $ex: the real ncclcheck did not get past its options: $c"
				sed 's/^/    /' "$TMP/log"
				fail=1
			fi
		fi
	done <"$TMP/cmds"
done
if [ "$n" -lt 4 ]; then
	echo "examples: found $n ncclcheck commands, expected one per example"
	fail=1
fi
[ "$fail" = 0 ] && echo "examples: $n ncclcheck commands of examples/ accepted"
exit $fail
