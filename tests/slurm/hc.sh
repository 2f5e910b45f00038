#!/bin/sh
# contrib/slurm/netprobe-healthcheck without Slurm (issues 44, 45): a fake
# scontrol on PATH records each call's arguments and keeps the node's
# state in a file; a fake netprobe prints a document, exits as told,
# crashes or hangs. No root, no network: make check-slurm-hc.
# - a newline in a summary (or a severity) forges no finding line;
# - NETPROBE_HC_DRAIN=never logs only and exits 0;
# - the reason is cut on a UTF-8 character, the "+N more" kept;
# - NETPROBE_HC_ARGS is split, never globbed;
# - fail closed: netprobe missing, crashing, exit 2, hanging past the
#   deadline (its process group killed), a misspelt or bad setting, a
#   settings file that is not shell, no jq: each drains naming why;
# - killed, the check leaves nothing it started running;
# - --dry-run prints one scontrol line that, pasted, runs that command;
# - the log file; resume only of a node the check drained; one check at a
#   time (a lock), a second one leaving the verdict to the first.
set -u
for c in jq timeout iconv; do
	command -v "$c" >/dev/null 2>&1 || {
		echo "skip - no $c"
		exit 0
	}
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HC="$ROOT/contrib/slurm/netprobe-healthcheck"
T=$(mktemp -d "${TMPDIR:-/tmp}/np-hc.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
PASS=0
FAIL=0

ok() {
	PASS=$((PASS + 1))
	echo "ok - $*"
}
notok() {
	FAIL=$((FAIL + 1))
	echo "not ok - $*"
	sed 's/^/    # /' "$T/out" | head -20
}
# check DESC CMD...: passes when CMD exits 0.
check() {
	_d=$1
	shift
	if "$@"; then ok "$_d"; else notok "$_d"; fi
}

mkdir -p "$T/bin" "$T/work"
# the fake scontrol: "show node -o NODE" prints $T/state; every other call
# is one line of $T/calls, each argument in brackets, and a drain or
# resume changes $T/state as Slurm would
cat >"$T/bin/scontrol" <<EOF
#!/bin/sh
T='$T'
EOF
cat >>"$T/bin/scontrol" <<'EOF'
if [ "$1" = show ]; then
	cat "$T/state"
	exit 0
fi
for a in "$@"; do printf '[%s]' "$a"; done >>"$T/calls"
echo >>"$T/calls"
case "$3" in
state=drain) echo "NodeName=n1 State=IDLE+DRAIN Reason=${4#reason=} [root@now]" >"$T/state" ;;
state=resume) echo "NodeName=n1 State=IDLE Reason=(null)" >"$T/state" ;;
esac
EOF
# the fake netprobe: its arguments to $T/args, one a line; FAKE_DOC's
# file on stdout, FAKE_ERR on stderr, exit FAKE_RC; FAKE_HANG=1 sleeps
# (a child in its group; both ids in $T/pids); FAKE_SIG kills itself
cat >"$T/bin/fake-netprobe" <<EOF
#!/bin/sh
T='$T'
EOF
cat >>"$T/bin/fake-netprobe" <<'EOF'
printf '%s\n' "$@" >"$T/args"
if [ "${FAKE_HANG:-}" = 1 ]; then
	sleep 300 &
	echo "$$ $!" >"$T/pids"
	wait
fi
[ -n "${FAKE_SIG:-}" ] && kill -s "$FAKE_SIG" $$
[ -n "${FAKE_ERR:-}" ] && echo "$FAKE_ERR" >&2
[ -n "${FAKE_DOC:-}" ] && cat "$FAKE_DOC"
exit "${FAKE_RC:-0}"
EOF
chmod 755 "$T/bin/scontrol" "$T/bin/fake-netprobe"
export PATH="$T/bin:$PATH"

# doc FILE SEVERITY CODE SUMMARY...: a scan document with these findings
# (jq builds it, so a summary may hold any character)
doc() {
	_f=$1
	shift
	_a='[]'
	while [ "$#" -ge 3 ]; do
		_a=$(printf '%s' "$_a" | jq -c --arg s "$1" --arg c "$2" \
			--arg m "$3" '. + [{severity: $s, code: $c, summary: $m}]')
		shift 3
	done
	printf '%s' "$_a" | jq '{schema: "netprobe/1", findings: .}' >"$_f"
}
doc "$T/healthy.json"
doc "$T/fault.json" fault hostname-loopback \
	"hostname n1 resolves to 127.0.1.1"
# a warning whose summary holds a newline and a finding line after it
doc "$T/forged.json" warning interface-down "train0 is down
fault forged-code: this line is part of a summary" \
	"warning
fault" iface-forged "a severity with a newline"
# 150 two-byte characters (300 bytes), then two more findings
E=$(printf '\303\251%.0s' $(seq 150))
doc "$T/long.json" fault mtu-mismatch "$E" fault second x fault third y

# hc ENV...: the check under env ENV (node n1, the fake netprobe, the
# log in $T), bounded; its output in $T/out, its exit status in $RC, the
# seconds it took in $SECS.
# --dry-run among ENV is the script's argument.
hc() {
	: >"$T/calls"
	_x=""
	for _a in "$@"; do
		shift
		if [ "$_a" = --dry-run ]; then _x=$_a; else set -- "$@" "$_a"; fi
	done
	_s=$(date +%s)
	# shellcheck disable=SC2086 # _x: no word, or one
	(cd "$T/work" && timeout -k 5 60 env SLURMD_NODENAME=n1 \
		NETPROBE="$T/bin/fake-netprobe" NETPROBE_HC_LOG="$T/log" \
		NETPROBE_HC_LOCK="$T/lock" "$@" sh "$HC" $_x) >"$T/out" 2>&1
	RC=$?
	SECS=$(($(date +%s) - _s))
}
state_idle() {
	echo "NodeName=n1 State=IDLE Reason=(null)" >"$T/state"
}
calls() {
	cat "$T/calls"
}
# drained_with PATTERN: the one scontrol call was a drain of n1 whose
# reason matches the extended regex PATTERN.
drained_with() {
	[ "$(wc -l <"$T/calls")" = 1 ] &&
		grep -Eq "^\[update\]\[nodename=n1\]\[state=drain\]\[reason=$1" \
			"$T/calls"
}
no_calls() {
	[ ! -s "$T/calls" ]
}
alive() {
	for _p in $(cat "$T/pids" 2>/dev/null); do
		kill -0 "$_p" 2>/dev/null && return 0
	done
	return 1
}
# gone: none of the hanging netprobe's processes is left (5 s at most).
gone() {
	_t=50
	while [ "$_t" -gt 0 ] && alive; do
		sleep 0.1
		_t=$((_t - 1))
	done
	! alive
}

# --- the verdicts ----------------------------------------------------------
state_idle
hc FAKE_DOC="$T/healthy.json"
check "healthy: exit 0, no scontrol update [$RC]" test "$RC" = 0
check "healthy: nothing drained" no_calls
hc FAKE_DOC="$T/fault.json" FAKE_RC=1
check "a fault: exit 1 [$RC]" test "$RC" = 1
check "a fault: drained with the code and summary" \
	drained_with 'netprobe: hostname-loopback hostname n1 resolves to 127\.0\.1\.1\]$'
check "a fault: the log file has the line" \
	grep -q ' n1: draining: netprobe: hostname-loopback' "$T/log"
hc FAKE_DOC="$T/fault.json" FAKE_RC=1
check "drained already for this: exit 1, no second drain [$RC]" \
	no_calls
hc FAKE_DOC="$T/healthy.json"
check "passes again: the node the check drained is resumed [$RC]" \
	test "$RC" = 0 -a "$(calls)" = "[update][nodename=n1][state=resume]"
echo "NodeName=n1 State=IDLE+DRAIN Reason=disk [admin@now]" >"$T/state"
hc FAKE_DOC="$T/healthy.json"
check "a node drained for another reason is not resumed" no_calls
hc FAKE_DOC="$T/fault.json" FAKE_RC=1
check "nor drained again with netprobe's reason [$RC]" \
	test "$RC" = 1 -a ! -s "$T/calls"

# --- issue 45 --------------------------------------------------------------
state_idle
hc FAKE_DOC="$T/forged.json"
check "a newline in a warning's summary or severity forges no fault: exit 0 [$RC]" \
	test "$RC" = 0
check "forged: nothing drained" no_calls
hc FAKE_DOC="$T/forged.json" NETPROBE_HC_DRAIN=warning
check "forged, NETPROBE_HC_DRAIN=warning: the warning's reason on one line" \
	drained_with 'netprobe: interface-down train0 is down fault forged-code: this line is part of a summary\]$'
state_idle
hc FAKE_DOC="$T/fault.json" FAKE_RC=1 NETPROBE_HC_DRAIN=never
check "NETPROBE_HC_DRAIN=never: exit 0 on a fault [$RC]" test "$RC" = 0
check "NETPROBE_HC_DRAIN=never: nothing drained" no_calls
check "NETPROBE_HC_DRAIN=never: logged" \
	grep -q 'would drain: netprobe: hostname-loopback .*logged only' "$T/out"
hc FAKE_DOC="$T/long.json" FAKE_RC=1
R=$(sed -n 's/^\[update\]\[nodename=n1\]\[state=drain\]\[reason=\(.*\)\]$/\1/p' "$T/calls")
check "UTF-8: the reason is at most 200 bytes [$(printf '%s' "$R" | wc -c)]" \
	test "$(printf '%s' "$R" | wc -c)" -le 200 -a -n "$R"
check "UTF-8: the reason is whole characters (iconv reads it)" \
	sh -c 'printf "%s" "$0" | iconv -f UTF-8 -t UTF-8 >/dev/null' "$R"
check "UTF-8: the reason keeps its count of more findings" \
	sh -c 'case $0 in "netprobe: mtu-mismatch "*"(+2 more: netprobe scan)") ;; *) exit 1 ;; esac' "$R"
state_idle
touch "$T/work/a.json" "$T/work/b.json"
hc FAKE_DOC="$T/healthy.json" NETPROBE_HC_ARGS='--peer *.json  --quick'
check "NETPROBE_HC_ARGS split on blanks, never globbed" \
	test "$(tr '\n' ' ' <"$T/args")" = "scan --json --peer *.json --quick "

# --- fail closed (issue 44) ------------------------------------------------
state_idle
hc NETPROBE=/nonexistent/netprobe
check "netprobe missing: exit 1 [$RC]" test "$RC" = 1
check "netprobe missing: drained naming it" \
	drained_with "netprobe-healthcheck: netprobe not found or not executable: '/nonexistent/netprobe'\]$"
state_idle
hc FAKE_SIG=SEGV
check "netprobe crashing: drained naming the signal [$RC]" \
	drained_with 'netprobe-healthcheck: netprobe crashed \(signal 11\)\]$'
state_idle
hc FAKE_RC=2 FAKE_ERR="netprobe scan: cannot open netlink socket: Permission denied"
check "netprobe exit 2: drained with its first error line [$RC]" \
	drained_with 'netprobe-healthcheck: netprobe scan could not run \(exit 2\): netprobe scan: cannot open netlink socket: Permission denied\]$'
state_idle
hc FAKE_RC=1 FAKE_DOC="$T/healthy.json"
check "exit 1 with no fault in the document: drained [$RC]" \
	drained_with 'netprobe-healthcheck: netprobe scan exited 1 but its document holds no fault\]$'
state_idle
hc FAKE_RC=0
check "no document: drained [$RC]" \
	drained_with 'netprobe-healthcheck: netprobe scan --json wrote no document jq could read \(exit 0\)\]$'
state_idle
hc FAKE_HANG=1 NETPROBE_HC_TIMEOUT=2
check "netprobe hanging: drained at the deadline" \
	drained_with 'netprobe-healthcheck: netprobe did not finish within 2 s\]$'
check "netprobe hanging: the check took 2-8 s, not the hang's 300 [$SECS s]" \
	test "$SECS" -ge 2 -a "$SECS" -le 8
check "netprobe hanging: its process group was killed" gone
state_idle
for s in NETPROBE_HC_DRIAN=warning NETPROBE_HC_TIMEOUT=30s \
	NETPROBE_HC_DRAIN=faults NETPROBE_HC_LOG=relative.log \
	NETPROBE_HC_DRY_RUN=yes; do
	state_idle
	hc FAKE_DOC="$T/healthy.json" "$s"
	case $s in
	NETPROBE_HC_DRIAN=*) want="unknown setting NETPROBE_HC_DRIAN \(misspelt\?\)" ;;
	*) want="invalid ${s%%=*} '${s#*=}': " ;;
	esac
	check "$s on a healthy node: drained naming it [$RC]" \
		drained_with "netprobe-healthcheck: $want"
done
state_idle
echo 'NETPROBE_HC_TIMOUT=10' >"$T/conf"
hc FAKE_DOC="$T/healthy.json" NETPROBE_HC_CONF="$T/conf"
check "a misspelt setting in the settings file: drained naming it" \
	drained_with 'netprobe-healthcheck: unknown setting NETPROBE_HC_TIMOUT'
state_idle
echo 'NETPROBE_HC_DRAIN="fault' >"$T/conf"
hc FAKE_DOC="$T/healthy.json" NETPROBE_HC_CONF="$T/conf"
check "a settings file that is not shell: drained naming it" \
	drained_with "netprobe-healthcheck: NETPROBE_HC_CONF '$T/conf' is not valid shell"
state_idle
hc NETPROBE=/nonexistent/netprobe NETPROBE_HC_DRAIN=never
check "netprobe missing, NETPROBE_HC_DRAIN=never: exit 0, nothing drained [$RC]" \
	test "$RC" = 0 -a ! -s "$T/calls"
# no jq: the tools the script needs, and no jq among them
mkdir -p "$T/nojq"
for c in sh hostname sed awk tr cut grep wc head date mktemp rm timeout \
	cat env; do
	ln -s "$(command -v "$c")" "$T/nojq/$c"
done
ln -s "$T/bin/scontrol" "$T/nojq/scontrol"
state_idle
hc PATH="$T/nojq" FAKE_DOC="$T/healthy.json"
check "no jq: drained naming it [$RC]" \
	drained_with 'netprobe-healthcheck: jq is not installed'

# --- killed: nothing it started stays --------------------------------------
state_idle
rm -f "$T/pids"
(SLURMD_NODENAME=n1 NETPROBE="$T/bin/fake-netprobe" NETPROBE_HC_LOG="" \
	NETPROBE_HC_LOCK="$T/lock" FAKE_HANG=1 exec sh "$HC") >"$T/hang.out" 2>&1 &
HCPID=$!
_t=100
while [ "$_t" -gt 0 ] && ! alive; do
	sleep 0.1
	_t=$((_t - 1))
done
check "killed: the hanging netprobe started" alive
# slurmd starts the next check while this one hangs
hc FAKE_DOC="$T/fault.json" FAKE_RC=1
check "a second check while one runs: exit 0 at once, nothing drained [$RC, $SECS s]" \
	test "$RC" = 0 -a "$SECS" -le 5 -a ! -s "$T/calls"
check "a second check while one runs: it says so" \
	grep -q 'a check is still running' "$T/out"
kill -TERM "$HCPID"
_t=50
while [ "$_t" -gt 0 ] && kill -0 "$HCPID" 2>/dev/null; do
	sleep 0.1
	_t=$((_t - 1))
done
check "killed: the check ended at once" sh -c '! kill -0 "$0" 2>/dev/null' "$HCPID"
check "killed: the netprobe it started and its child are gone" gone

# --- the dry run -------------------------------------------------------------
state_idle
doc "$T/quote.json" fault hostname-loopback "it's \$HOME and \`x\` in \"quotes\""
hc FAKE_DOC="$T/quote.json" FAKE_RC=1 --dry-run
check "--dry-run: exit 1, nothing run [$RC]" test "$RC" = 1 -a ! -s "$T/calls"
LINE=$(sed -n '/^scontrol /p' "$T/out")
check "--dry-run: one scontrol line on stdout" \
	test "$(printf '%s\n' "$LINE" | grep -c .)" = 1
: >"$T/calls"
sh -c "$LINE"
check "--dry-run: the line, pasted, runs that very drain" \
	drained_with "netprobe: hostname-loopback it's [$]HOME and \`x\` in \"quotes\"\]$"
state_idle
rm -f "$T/log"
hc FAKE_DOC="$T/quote.json" FAKE_RC=1 NETPROBE_HC_DRY_RUN=1
check "NETPROBE_HC_DRY_RUN=1: the same, no log written" \
	test -n "$(sed -n '/^scontrol update nodename=n1 state=drain reason=/p' "$T/out")" \
	-a ! -s "$T/calls" -a ! -e "$T/log"

echo "hc: $PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
