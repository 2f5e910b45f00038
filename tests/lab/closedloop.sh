# The closed loop (issue 23), sourced by labs after lib.sh: every fix a
# report prints as commands (the root causes' fix.commands in its JSON,
# the text the reader sees) is run verbatim on the node it names, and the
# lab re-runs its mesh, which must then pass with no new finding. A fix
# that fails, that names a node the lab's ground truth calls healthy, or
# that has no command a lab can run (ufw, firewalld need their daemons)
# fails the test. The lab defines cl_ns NODE (the node's namespace).

# cl_fixes REPORT: "NODE<TAB>DIALECT<TAB>COMMAND" for every command of
# every root cause, in the report's order; a hop's workaround blocks
# ("on NODE") are shell commands on NODE.
cl_fixes() {
	jq -r '.causes[]? | .fix as $f | ($f.commands // {}) | to_entries[] |
		.key as $k | .value[] |
		if ($k | startswith("on ")) then "\($k[3:])\tshell\t\(.)"
		else "\($f.node)\t\($k)\t\(.)" end' "$1"
}

# cl_apply REPORT FAULTY...: runs the report's fixes on their nodes;
# FAULTY are the nodes the ground truth lets a fix touch. One check per
# fix; CL_APPLIED counts the commands run. CL_NOCMD (cause ids, words)
# names the causes the lab's ground truth says have no command fix (a
# NAT: host networking; a hostname: the settings cl_env prints).
cl_apply() {
	_rep=$1
	shift
	CL_APPLIED=0
	_tab=$(printf '\t')
	_fx=$(cl_fixes "$_rep")
	_causes=$(jq -r --arg nocmd " ${CL_NOCMD:-} " '[.causes[]? |
		select(.id as $i | $nocmd | contains(" " + $i + " ") | not) |
		select(((.fix.commands // {}) |
		to_entries | map(select(.key == "nftables" or
		.key == "iptables-legacy" or .key == "shell" or
		(.key | startswith("on "))) | .value[]) | length) == 0) |
		.id] | join(" ")' "$_rep")
	if [ -n "$_causes" ]; then
		lab_notok "closed loop: causes without a command a lab can run: $_causes"
	fi
	[ -n "$_fx" ] || return 0
	while IFS="$_tab" read -r _node _dl _cmd; do
		case "$_dl" in
		nftables | iptables-legacy | shell) ;;
		*) continue ;; # the daemons' commands: not in a namespace
		esac
		_ok=
		for _f in "$@"; do
			[ "$_f" = "$_node" ] && _ok=1
		done
		if [ -z "$_ok" ]; then
			lab_notok "closed loop: a fix on healthy $_node: $_cmd"
			continue
		fi
		if ip netns exec "$(cl_ns "$_node")" sh -c "$_cmd" \
			>"${TMPDIR:-/tmp}/np23-cl.$$" 2>&1; then
			lab_ok "closed loop: on $_node: $_cmd"
			CL_APPLIED=$((CL_APPLIED + 1))
		else
			lab_notok "closed loop: on $_node, failed: $_cmd"
			sed 's/^/    # /' "${TMPDIR:-/tmp}/np23-cl.$$"
		fi
	done <<EOF2
$_fx
EOF2
	rm -f "${TMPDIR:-/tmp}/np23-cl.$$"
}

# cl_report DIR: a lab of single commands (scan, path): the report over
# the documents in DIR/docs, as a reader runs it, into DIR/report.json;
# the commands' exit statuses are the lab's DIR/*.rc.
cl_report() {
	"$NETPROBE" report --format json "$1/docs" >"$1/report.json" 2>/dev/null
	[ -s "$1/report.json" ] || lab_notok "closed loop: no report over $1/docs"
}

# cl_env REPORT NODE: the settings the report prints for NODE, the
# cluster-wide ones and then NODE's own (which win), as the `export
# NAME=VALUE` lines a job script sources, each value exactly as printed;
# a disputed setting or one without a value is not printed as a line.
cl_env() {
	jq -r --arg n "$2" '[.recommendation.settings[]? |
		select(.disputed != true and .value != null) |
		select(.node == null or .node == $n)] | sort_by(.node != null) |
		.[] | "export \(.name)=\(.value | @sh)"' "$1"
}

# cl_same BEFORE AFTER DESC [ID...]: where a fault has no fix (a NAT),
# the re-run after the printed fixes holds no fault or warning the first
# run did not (code and node), and its causes are exactly ID... (those
# without a fix; by default all of BEFORE's): nothing new, nothing
# claimed cleared, the fixed ones gone.
cl_same() {
	_b=$1 _a=$2 _d=$3
	shift 3
	_new=$(jq -r --slurpfile b "$_b" '($b[0].findings | map(select(.severity
		!= "info") | "\(.code)@\(.node)")) as $old | [.findings[] |
		select(.severity != "info") | "\(.code)@\(.node)" |
		select(. as $x | $old | index($x) | not)] | unique |
		join(" ")' "$_a")
	if [ $# -gt 0 ]; then
		_c0=$(printf '%s\n' "$@" | sort | tr '\n' ' ' | sed 's/ $//')
	else
		_c0=$(jq -r '[.causes[].id] | sort | join(" ")' "$_b")
	fi
	_c1=$(jq -r '[.causes[].id] | sort | join(" ")' "$_a")
	if [ -z "$_new" ] && [ "$_c0" = "$_c1" ]; then
		lab_ok "$_d: after the fixes the causes without one stay ($_c1), nothing new"
	else
		lab_notok "$_d: after the fixes: new [$_new], causes [$_c1], wanted [$_c0]"
	fi
}

# cl_clean REPORT RCDIR DESC: after the fixes, the re-run's report has no
# fault and no warning (but those whose codes CL_ALLOW names, words) and
# every node exited 0.
cl_clean() {
	_n=$(jq --arg allow " ${CL_ALLOW:-} " '[.findings[] |
		select(.severity == "fault" or .severity == "warning") |
		select(.code as $c | $allow | contains(" " + $c + " ") | not)] |
		length' "$1")
	if [ "$_n" = 0 ] && [ "$(cat "$2"/*.rc | sort -u)" = 0 ]; then
		lab_ok "$3: PASS after the fixes"
	else
		lab_notok "$3: not clean after the fixes ($_n findings, exit $(cat "$2"/*.rc | tr '\n' ' '))"
		jq -r '.findings[] | select(.severity != "info") |
			"    # \(.node) \(.code): \(.summary)"' "$1" | head -20
	fi
}

# cl_counts DOCS DESC: one count (issue 23): the report over DOCS in
# every format says the same numbers: JSON's counts equal its causes and
# findings, every cause holds a finding or a fact of its own, and the
# text, Markdown and HTML
# verdicts and JUnit's failures agree with JSON (JUnit: one failure per failing check, and every
# node and class with a fault has one).
cl_counts() {
	_d=$1
	_j=$("$NETPROBE" report --format json "$_d" 2>/dev/null)
	_c=$(printf '%s\n' "$_j" | jq '.causes | length')
	_f=$(printf '%s\n' "$_j" | jq '[.findings[] | select(.severity == "fault")] | length')
	_w=$(printf '%s\n' "$_j" | jq '[.findings[] | select(.severity == "warning")] | length')
	_cnt=$(printf '%s\n' "$_j" | jq -r '"\(.counts.causes) \(.counts.faults) \(.counts.warnings)"')
	_empty=$(printf '%s\n' "$_j" | jq '[.causes[] | select((.findings | length) == 0 and (.evidence | length) == 0)] | length')
	_jf=$(printf '%s\n' "$_j" | jq '[.checks[] | select(.status == "fault")] | length')
	_lost=$(printf '%s\n' "$_j" | jq -r '([.findings[] | select(.severity == "fault") | "netprobe.\(.node)/\(.class)"] | unique) - [.checks[] | select(.status == "fault") | "\(.suite)/\(.name)"] | join(",")')
	_txt=$("$NETPROBE" report --format text "$_d" 2>/dev/null | head -1)
	_md=$("$NETPROBE" report --format md "$_d" 2>/dev/null | grep -m1 'fault(s)')
	_html=$("$NETPROBE" report --format html "$_d" 2>/dev/null | grep -o 'explain [0-9]* fault(s), [0-9]* warning(s)' | head -1)
	_junit=$("$NETPROBE" report --format junit "$_d" 2>/dev/null | grep -o '<testsuites [^>]*failures="[0-9]*"' | sed 's/.*failures="//; s/"//')
	_why=
	_fw=faults _ww=warnings
	[ "$_f" = 1 ] && _fw=fault
	[ "$_w" = 1 ] && _ww=warning
	[ "$_cnt" = "$_c $_f $_w" ] || _why="$_why json counts $_cnt vs $_c $_f $_w;"
	[ "$_empty" = 0 ] || _why="$_why $_empty causes that rest on nothing shown;"
	if [ "$_c" = 0 ]; then
		case "$_txt" in *"$_f $_fw, $_w $_ww"*) ;; *) _why="$_why text '$_txt';" ;; esac
	else
		case "$_txt" in *"$_c root cause"*"($_f $_fw, $_w $_ww)"*) ;; *) _why="$_why text '$_txt';" ;; esac
		case "$_md" in *"$_c root cause(s)"*"explain $_f fault(s), $_w warning(s)"*) ;; *) _why="$_why md '$_md';" ;; esac
		[ "$_html" = "explain $_f fault(s), $_w warning(s)" ] || _why="$_why html '$_html';"
	fi
	[ "$_junit" = "$_jf" ] || _why="$_why junit failures $_junit vs $_jf;"
	[ -z "$_lost" ] || _why="$_why faults without a failing check: $_lost;"
	if [ -z "$_why" ]; then
		lab_ok "$2: every format says $_c causes, $_f faults, $_w warnings"
	else
		lab_notok "$2: the formats disagree:$_why"
	fi
}

# hop_drop_fragneeded NS: the router NS drops ICMP "fragmentation needed",
# forwarded and its own, so a smaller MTU on its leg is a black hole (the
# hop scenarios of t_mtuhop and the generated clusters).
hop_drop_fragneeded() {
	ip netns exec "$1" nft -f - <<'NFT'
table ip np23_hop {
	chain forward {
		type filter hook forward priority 0; policy accept;
		icmp type destination-unreachable icmp code frag-needed drop
	}
	chain out {
		type filter hook output priority 0; policy accept;
		icmp type destination-unreachable icmp code frag-needed drop
	}
}
NFT
}
