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
# fix; CL_APPLIED counts the commands run.
cl_apply() {
	_rep=$1
	shift
	CL_APPLIED=0
	_tab=$(printf '\t')
	_fx=$(cl_fixes "$_rep")
	_causes=$(jq -r '[.causes[]? | select(((.fix.commands // {}) |
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

# cl_clean REPORT RCDIR DESC: after the fixes, the re-run's report has no
# fault and no warning and every node exited 0.
cl_clean() {
	_n=$(jq '[.findings[] | select(.severity == "fault" or
		.severity == "warning")] | length' "$1")
	if [ "$_n" = 0 ] && [ "$(cat "$2"/*.rc | sort -u)" = 0 ]; then
		lab_ok "$3: PASS after the fixes"
	else
		lab_notok "$3: not clean after the fixes ($_n findings, exit $(cat "$2"/*.rc | tr '\n' ' '))"
		jq -r '.findings[] | select(.severity != "info") |
			"    # \(.node) \(.code): \(.summary)"' "$1" | head -20
	fi
}
