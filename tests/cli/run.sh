#!/bin/sh
# The command lines of both programs, every command: --help (exit 0, on
# standard output, 80 columns, the same option list as the man page),
# "did you mean" without glibc's own message, options after operands and
# "--". Root and network are not needed: packets go to loopback only.
# NETPROBE (and NCCLCHECK where it was built) name the programs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/optlist.sh"
NP=${NETPROBE:?set NETPROBE to the netprobe binary}
NC=${NCCLCHECK:-}
MAN=$here/../../man
FIX=$here/../fixtures
TMP=$(mktemp -d) || exit 2
SERVE_PID=
cleanup() {
	[ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok      $*"; }
bad() { fail=$((fail + 1)); echo "  FAIL    $*"; }

# run NAME CMD...: runs CMD bounded in time, output in $TMP/NAME.out and
# .err, status in $rc.
run() {
	_n=$1
	shift
	timeout 60 "$@" >"$TMP/$_n.out" 2>"$TMP/$_n.err"
	rc=$?
}

# expect DESC WANT_RC: the last run's status.
expect() {
	if [ "$rc" = "$2" ]; then
		ok "$1"
	else
		bad "$1 (exit $rc, wanted $2)"
		sed 's/^/    # /' "$TMP/$_n.err" | head -5
	fi
}

# same_doc DESC A B: two JSON documents equal but for their start time.
same_doc() {
	if jq -S 'del(.started)' "$2" >"$TMP/a.json" 2>/dev/null &&
		jq -S 'del(.started)' "$3" >"$TMP/b.json" 2>/dev/null &&
		cmp -s "$TMP/a.json" "$TMP/b.json"; then
		ok "$1"
	else
		bad "$1"
		diff "$TMP/a.json" "$TMP/b.json" | head -5 | sed 's/^/    # /'
	fi
}

# help_checks NAME PROG... : --help of one command against PAGE SECTION
# (set in $page, $section), plus the options every netprobe command has.
help_checks() {
	_name=$1
	shift
	run help "$@" --help
	expect "$_name --help exits 0" 0
	if [ -s "$TMP/help.err" ]; then
		bad "$_name --help writes nothing on standard error"
	fi
	if head -1 "$TMP/help.out" | grep -q "^usage: $_name "; then
		ok "$_name --help starts with its synopsis"
	else
		bad "$_name --help starts with its synopsis"
	fi
	_long=$(awk 'NR == 1 || /^  +-/' "$TMP/help.out" | awk 'length > 80')
	if [ -z "$_long" ]; then
		ok "$_name --help fits 80 columns"
	else
		bad "$_name --help fits 80 columns: $_long"
	fi
	help_opts <"$TMP/help.out" >"$TMP/h.lst"
	{ man_opts "$page" "$section"; for o in $common; do echo "$o"; done; } |
		sort -u >"$TMP/m.lst"
	if [ -s "$TMP/h.lst" ] && cmp -s "$TMP/h.lst" "$TMP/m.lst"; then
		ok "$_name: --help and $(basename "$page") list the same options"
	else
		bad "$_name: --help and $(basename "$page") list the same options"
		diff "$TMP/h.lst" "$TMP/m.lst" | grep '^[<>]' |
			sed 's/^</    # only in --help:/; s/^>/    # only in the man page:/'
	fi
	run typo "$@" --jsno
	expect "$_name --jsno: exit 2" 2
	if head -1 "$TMP/typo.err" | grep -qx \
		"$_name: unknown option '--jsno' (did you mean '--json'?)"; then
		ok "$_name --jsno: did you mean '--json'"
	else
		bad "$_name --jsno: did you mean '--json'"
		head -2 "$TMP/typo.err" | sed 's/^/    # /'
	fi
	run noarg "$@" -Y
	if [ "$rc" = 2 ] && ! grep -qi 'unrecognized\|invalid option --' \
		"$TMP/noarg.err" && grep -q "^$_name: unknown option '-Y'" \
		"$TMP/noarg.err"; then
		ok "$_name -Y: our message, not glibc's"
	else
		bad "$_name -Y: our message, not glibc's (exit $rc)"
		head -2 "$TMP/noarg.err" | sed 's/^/    # /'
	fi
}

echo "cli: --help, man pages, did you mean"
page=$MAN/netprobe.1
common="-j --json -o --output --no-clobber -q --quiet -v --verbose"
# The commands come from the program's own table (its usage), so a new
# command is checked without being listed here.
cmds=$("$NP" --help 2>/dev/null | awk '/^commands:/ { on = 1; next }
	on && /^  [a-z]/ { print $1; next } on && !/^  / { on = 0 }')
case $cmds in
*scan*) ok "netprobe --help lists the commands ($(echo $cmds | wc -w))" ;;
*) bad "netprobe --help lists no command table"; cmds= ;;
esac
for c in $cmds; do
	section="netprobe $c"
	help_checks "netprobe $c" "$NP" "$c"
	run helpc "$NP" help "$c"
	if [ "$rc" = 0 ] && cmp -s "$TMP/helpc.out" "$TMP/help.out"; then
		ok "netprobe help $c is netprobe $c --help"
	else
		bad "netprobe help $c is netprobe $c --help"
	fi
done
run cmd "$NP" scna
expect "netprobe scna: exit 2" 2
if head -1 "$TMP/cmd.err" | grep -qx \
	"netprobe: unknown command 'scna' (did you mean 'scan'?)"; then
	ok "netprobe scna: did you mean 'scan'"
else
	bad "netprobe scna: did you mean 'scan'"
fi
if [ -x "$NC" ]; then
	page=$MAN/ncclcheck.1 section=OPTIONS common=
	help_checks ncclcheck "$NC"
	run ncop "$NC" extra -n 3
	expect "ncclcheck: an operand is refused (exit 2)" 2
	grep -q "unexpected operand 'extra'" "$TMP/ncop.err" &&
		ok "ncclcheck: names the operand" ||
		bad "ncclcheck: names the operand"
else
	echo "  note    ncclcheck not built here (no CUDA/NCCL): skipped"
fi

echo "cli: options after operands"
SR=$FIX/sysroot/docker-bridge
for c in scan layers; do
	run "${c}1" "$NP" "$c" --sysroot "$SR" --json
	run "${c}2" "$NP" "$c" --json --sysroot "$SR"
	same_doc "netprobe $c: options in either order" "$TMP/${c}1.out" \
		"$TMP/${c}2.out"
	run "${c}op" "$NP" "$c" extra --json
	expect "netprobe $c: an operand is refused (exit 2)" 2
	grep -q "unexpected operand 'extra'" "$TMP/${c}op.err" &&
		ok "netprobe $c: names the operand" ||
		bad "netprobe $c: names the operand"
done
run if1 "$NP" ifaces --sysroot "$FIX/ifaces/basic" --json
run if2 "$NP" ifaces --json --sysroot="$FIX/ifaces/basic"
same_doc "netprobe ifaces: options in either order, --opt=value" \
	"$TMP/if1.out" "$TMP/if2.out"

run ports "$NP" ports 127.0.0.1 1 --json -t 500ms
expect "netprobe ports 127.0.0.1 1 --json: a port not open (exit 1)" 1
[ "$(jq -r '.ports[0].state' "$TMP/ports.out" 2>/dev/null)" = closed ] &&
	ok "netprobe ports: --json after the operands is JSON" ||
	bad "netprobe ports: --json after the operands is JSON"
run ports2 "$NP" ports -- 127.0.0.1 1 --json
expect "netprobe ports -- HOST PORTS --json: '--' ends the options" 2
grep -q "expected HOST and PORTS" "$TMP/ports2.err" &&
	ok "netprobe ports: --json after '--' is an operand" ||
	bad "netprobe ports: --json after '--' is an operand"

# a responder on loopback for heartbeat and path, on a free port
port=$((20000 + $$ % 20000))
for try in 1 2 3 4 5 6 7 8 9 10; do
	"$NP" serve --bind 127.0.0.1 --port "$port" >"$TMP/serve.log" 2>&1 &
	SERVE_PID=$!
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		"$NP" ports 127.0.0.1 "$port" -t 200ms >/dev/null 2>&1 && break
		kill -0 "$SERVE_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$SERVE_PID" 2>/dev/null && break
	SERVE_PID=
	port=$((port + 1))
done
if [ -n "$SERVE_PID" ]; then
	run hb "$NP" heartbeat "127.0.0.1:$port" -c 3 --interval 10ms --json
	expect "netprobe heartbeat HOST -c 3 --interval 10ms --json (exit 0)" 0
	jq -e '.command == "heartbeat"' "$TMP/hb.out" >/dev/null 2>&1 &&
		ok "netprobe heartbeat: JSON after the operand" ||
		bad "netprobe heartbeat: JSON after the operand"
	run hbi "$NP" heartbeat "127.0.0.1:$port" -c 2 -i 10ms
	expect "netprobe heartbeat -i (old spelling of --interval) still works" 0
	run path "$NP" path "127.0.0.1:$port" --json -t 2s
	if [ "$rc" -le 1 ] && jq -e . "$TMP/path.out" >/dev/null 2>&1; then
		ok "netprobe path HOST --json -t 2s (exit $rc)"
	else
		bad "netprobe path HOST --json -t 2s (exit $rc)"
	fi
	kill "$SERVE_PID" 2>/dev/null
	wait "$SERVE_PID" 2>/dev/null
	SERVE_PID=
else
	bad "netprobe serve --bind 127.0.0.1 --port N starts"
fi
run serveop "$NP" serve extra --port 1
expect "netprobe serve: an operand is refused (exit 2)" 2
run meshbind "$NP" mesh --bind gpu1 --hosts 127.0.0.1
expect "netprobe mesh --bind gpu1: a name is refused (exit 2)" 2
grep -q "invalid bind address 'gpu1'" "$TMP/meshbind.err" &&
	ok "netprobe mesh --bind: names the bad address" ||
	bad "netprobe mesh --bind: names the bad address"
run meshop "$NP" mesh extra --hosts 127.0.0.1
expect "netprobe mesh: an operand is refused (exit 2)" 2
grep -q "unexpected operand 'extra'" "$TMP/meshop.err" &&
	ok "netprobe mesh: names the operand" ||
	bad "netprobe mesh: names the operand"
run meshjf "$NP" mesh --json --format html --hosts 127.0.0.1
expect "netprobe mesh --json --format html: refused (exit 2)" 2

run cap "$NP" capture tcp port 22 -r "$TMP/none.pcap"
expect "netprobe capture EXPR -r FILE: the file is read (exit 2)" 2
grep -q "cannot read '$TMP/none.pcap'" "$TMP/cap.err" &&
	ok "netprobe capture: -r after the filter operands" ||
	bad "netprobe capture: -r after the filter operands"

RD=$FIX/report/healthy
run rep1 "$NP" report "$RD" --format json
run rep2 "$NP" report --format json "$RD"
same_doc "netprobe report: options in either order" "$TMP/rep1.out" \
	"$TMP/rep2.out"
run rep3 "$NP" report "$RD" --json "$TMP/r.json" --junit "$TMP/r.xml" \
	--html "$TMP/r.html" --markdown "$TMP/r.md"
if [ "$rc" -le 1 ] && grep -q . "$TMP/rep3.out" && jq -e . "$TMP/r.json" \
	>/dev/null 2>&1 && grep -q '<testsuite' "$TMP/r.xml" &&
	grep -qi '<html' "$TMP/r.html" && grep -q '^#' "$TMP/r.md"; then
	ok "netprobe report DIR --json F --junit F --html F --markdown F"
else
	bad "netprobe report DIR --json F --junit F --html F --markdown F (exit $rc)"
fi
same_doc "netprobe report: --json FILE is --format json" "$TMP/rep1.out" \
	"$TMP/r.json"

echo "cli: the common options, every command"
# --json, -o FILE, -q and --no-clobber mean the same in every command
# (netprobe(1), COMMON OPTIONS): each command runs once in each, on
# fixtures and loopback only. A command missing from args_of fails.
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000' \
	>"$TMP/empty.pcap"
printf '\377\377\000\000\001\000\000\000' >>"$TMP/empty.pcap"
printf 'NCCL WARN Net : Connection closed by remote peer gpu2<1234>\n' \
	>"$TMP/nccl.log"
cport=$((20000 + ($$ + 7) % 20000))
mport=$((cport + 1))
"$NP" serve --bind 127.0.0.1 --port "$cport" >"$TMP/cserve.log" 2>&1 &
SERVE_PID=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	"$NP" ports 127.0.0.1 "$cport" -t 200ms >/dev/null 2>&1 && break
	sleep 0.1
done
# args_of CMD: a quick run of CMD in $A; 1 for one that needs its own
# shape (serve runs until a signal).
args_of() {
	case $1 in
	scan | layers) A="--sysroot $SR" ;;
	ifaces) A="--sysroot $FIX/ifaces/basic" ;;
	ports) A="127.0.0.1 1 -t 200ms" ;;
	path) A="127.0.0.1:$cport -t 1s" ;;
	heartbeat) A="127.0.0.1:$cport -c 2 --interval 10ms" ;;
	capture) A="-r $TMP/empty.pcap" ;;
	explain) A="--no-probe $TMP/nccl.log" ;;
	mesh) A="--hosts 127.0.0.1 --bind 127.0.0.1 -p $mport --quick --join-timeout 5s" ;;
	report) A="$RD" ;;
	*) return 1 ;;
	esac
}
for c in $cmds; do
	[ "$c" = serve ] && continue
	if ! args_of "$c"; then
		bad "netprobe $c: no quick run in tests/cli/run.sh (args_of)"
		continue
	fi
	# shellcheck disable=SC2086 # $A is words
	run ctext env NODE_RANK=0 "$NP" "$c" $A
	trc=$rc
	run cjson env NODE_RANK=0 "$NP" "$c" $A --json
	if [ "$rc" -le 1 ] && jq -e . "$TMP/cjson.out" >/dev/null 2>&1; then
		ok "netprobe $c --json: one JSON document (exit $rc)"
	else
		bad "netprobe $c --json: one JSON document (exit $rc)"
	fi
	run cq env NODE_RANK=0 "$NP" "$c" $A -q
	if [ "$rc" = "$trc" ] && [ ! -s "$TMP/cq.out" ]; then
		ok "netprobe $c -q: nothing on standard output, exit $rc as without"
	else
		bad "netprobe $c -q: nothing on standard output (exit $rc, $trc without)"
		head -3 "$TMP/cq.out" | sed 's/^/    # /'
	fi
	rm -f "$TMP/c-o.json"
	run co env NODE_RANK=0 "$NP" "$c" $A --json -o "$TMP/c-o.json"
	if [ "$rc" -le 1 ] && [ ! -s "$TMP/co.out" ] &&
		jq -e . "$TMP/c-o.json" >/dev/null 2>&1; then
		ok "netprobe $c --json -o FILE: the document in FILE alone"
	else
		bad "netprobe $c --json -o FILE: the document in FILE alone (exit $rc)"
		head -3 "$TMP/co.err" | sed 's/^/    # /'
	fi
	echo keep >"$TMP/c-keep"
	run cnc env NODE_RANK=0 "$NP" "$c" $A -o "$TMP/c-keep" --no-clobber
	if [ "$rc" = 2 ] && [ "$(cat "$TMP/c-keep")" = keep ] && grep -q \
		"refusing to replace '$TMP/c-keep': it exists (--no-clobber)" \
		"$TMP/cnc.err"; then
		ok "netprobe $c -o FILE --no-clobber: an existing FILE is kept (exit 2)"
	else
		bad "netprobe $c -o FILE --no-clobber: an existing FILE is kept (exit $rc)"
		head -3 "$TMP/cnc.err" | sed 's/^/    # /'
	fi
done
kill "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID" 2>/dev/null
SERVE_PID=
# serve: its document comes at exit (SIGTERM); -q keeps its notices back
sport=$((cport + 2))
rm -f "$TMP/s-o.json"
"$NP" serve --bind 127.0.0.1 --port "$sport" -q --json -o "$TMP/s-o.json" \
	>"$TMP/s.out" 2>"$TMP/s.err" &
SERVE_PID=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	"$NP" ports 127.0.0.1 "$sport" -t 200ms >/dev/null 2>&1 && break
	sleep 0.1
done
kill -TERM "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID"
rc=$?
SERVE_PID=
if [ "$rc" = 0 ] && [ ! -s "$TMP/s.out" ] && [ ! -s "$TMP/s.err" ] &&
	jq -e '.command == "serve"' "$TMP/s-o.json" >/dev/null 2>&1; then
	ok "netprobe serve -q --json -o FILE: the document in FILE at exit, nothing else"
else
	bad "netprobe serve -q --json -o FILE: the document in FILE at exit (exit $rc)"
	head -3 "$TMP/s.err" | sed 's/^/    # /'
fi
echo keep >"$TMP/s-keep"
run snc "$NP" serve --bind 127.0.0.1 --port "$sport" -o "$TMP/s-keep" \
	--no-clobber
if [ "$rc" = 2 ] && [ "$(cat "$TMP/s-keep")" = keep ] &&
	grep -q "refusing to replace" "$TMP/snc.err"; then
	ok "netprobe serve -o FILE --no-clobber: refused at start (exit 2)"
else
	bad "netprobe serve -o FILE --no-clobber: refused at start (exit $rc)"
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
