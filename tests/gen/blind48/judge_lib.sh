# The judge of one blind cluster (issue 48), sourced by lib48.sh in judge
# mode once the cluster is built: netprobe mesh on every member, its report
# (node 0's, JSON) against the cluster's row of truth.tsv, and for a right
# diagnosis the closed loop (tests/lab/closedloop.sh): every printed fix
# runs verbatim on the node it names, the mesh runs again and must pass.
#
# Verdicts: right (the right node(s) and cause and a fix that clears it;
# for a "new" class also an honest "cannot tell" that names a command;
# for a healthy cluster no cause, no fault and every node exiting 0),
# cannot-tell (an honest undecided pair on a class that has a code), wrong
# (a healthy node blamed, a wrong cause, a fix that fails or does not
# clear, a miss, no report).

# b48_verdict VERDICT WHY: the cluster's one line.
b48_verdict() {
	printf '%s\t%s\t%s\n' "$B48_ID" "$1" "$2" >&3
}

# b48_has LIST WORD: 0 when WORD is one of LIST's comma- or space-separated
# words.
b48_has() {
	case ",$(printf '%s' "$1" | tr ' ' ','),", in *",$2,"*) return 0 ;; esac
	return 1
}

# b48_cmdlike TEXT: 0 when TEXT names a command a reader can run to decide.
b48_cmdlike() {
	printf '%s\n' "$1" | grep -Eq '(^|[^a-z])(ip (route|rule|neigh|addr|link)|nft |iptables|sysctl|ping|tracepath|traceroute|nc |arping|ss |nstat|getent|netprobe |tcpdump|conntrack)'
}

# b48_judge: see the head of this file.
b48_judge() {
	_fault=$(b48_truth 4)
	_codes=$(b48_truth 6)
	_kinds=$(b48_truth 8)
	_F="" _any=0 _box=""
	case "$_fault" in
	healthy) ;;
	host:*) _box=${_fault#host:}; _box=${_box%% *} ;;
	*"|"*) _F=$(printf '%s' "$_fault" | tr '|' ' '); _any=1 ;;
	*) _F=$(printf '%s' "$_fault" | tr ',' ' ') ;;
	esac
	if ! b48_mesh run; then
		b48_verdict wrong "the mesh did not end within 150 s"
		return
	fi
	_R="$B48_OUT/run/report.json"
	if [ ! -s "$_R" ]; then
		b48_verdict wrong "no report (node 0 exited $(cat "$B48_OUT/run/node01.rc"))"
		return
	fi
	_rcs=$(for _m in $B48_MEMBERS; do printf '%s:%s ' "$_m" "$(cat "$B48_OUT/run/$_m.rc")"; done)
	_causes=$(jq -r '.causes[]? | [.kind, .node,
		([.findings[]? | if type == "object" then .code else tostring end] | join(",")),
		(.summary // "" | gsub("[\t\n]"; " ")),
		(.fix.text // "" | gsub("[\t\n]"; " "))] | @tsv' "$_R")
	_faults=$(jq -r '[.findings[]? | select(.severity == "fault") |
		"\(.node)\t\(.code)\t\(.root_cause // "")"] | .[]' "$_R")
	_nwarn=$(jq '[.findings[]? | select(.severity == "warning")] | length' "$_R")
	if [ -z "$_F" ] && [ -z "$_box" ]; then
		_fl=$(printf '%s\n' "$_faults" | awk -F'\t' 'NF { printf "%s@%s ", $2, $1 }')
		_cl=$(printf '%s\n' "$_causes" | awk -F'\t' 'NF { printf "%s:%s ", $1, $2 }')
		_nz=$(printf '%s\n' $_rcs | grep -v ':0$')
		if [ -z "$_cl$_fl$_nz" ]; then
			b48_verdict right "healthy: no cause, no fault, every node exited 0 ($_nwarn warnings)"
		else
			b48_verdict wrong "healthy cluster blamed: causes [$_cl] faults [$_fl] exits [$_rcs]"
		fi
		return
	fi
	_tab=$(printf '\t')
	_blamed="" _wrongc="" _rightn="" _honest=0 _nocmd=0 _namesbox=0 _ncause=0
	_boxaddr=$(printf '%s' "$_fault" | sed -n 's/.*, \([0-9.]*\))$/\1/p')
	while IFS="$_tab" read -r _k _n _c _s _x; do
		[ -n "$_k" ] || continue
		_ncause=$((_ncause + 1))
		if [ "$_k" = undecided ]; then
			if b48_cmdlike "$_x"; then _honest=1; else _nocmd=1; fi
			continue
		fi
		if b48_has "$_F" "$_n"; then
			_ok=0
			b48_has "$_kinds" "$_k" && _ok=1
			b48_has "$_kinds" new && _ok=1
			for _cc in $(printf '%s' "$_c" | tr ',' ' '); do
				b48_has "$_codes" "$_cc" && _ok=1
			done
			if [ "$_ok" = 1 ]; then
				_rightn="$_rightn $_n"
			else
				_wrongc="$_wrongc $_k:$_n"
			fi
		elif [ -n "$_box" ] && { [ "$_n" = "$_box" ] ||
			{ [ -n "$_boxaddr" ] && [ "$_n" = "$_boxaddr" ]; }; }; then
			_namesbox=1
		else
			_blamed="$_blamed $_k:$_n"
		fi
	done <<EOF
$_causes
EOF
	# a fault no cause explains, on a node the truth holds healthy
	while IFS="$_tab" read -r _n _c _rc; do
		[ -n "$_n" ] && [ -z "$_rc" ] || continue
		b48_has "$_F" "$_n" || _blamed="$_blamed $_c@$_n"
	done <<EOF
$_faults
EOF
	if [ -n "$_blamed" ]; then
		b48_verdict wrong "healthy node blamed:$_blamed"
		return
	fi
	if [ -n "$_wrongc" ]; then
		b48_verdict wrong "wrong cause on a faulty node:$_wrongc"
		return
	fi
	_need=1
	if [ -n "$_F" ]; then
		_need=0
		_all=1
		for _f in $_F; do
			if b48_has "$_rightn" "$_f"; then _need=1; else _all=0; fi
		done
		[ "$_any" = 1 ] || _need=$_all
	fi
	if [ -n "$_F" ] && [ "$_need" = 1 ]; then
		b48_loop
		return
	fi
	if [ "$_codes" = new ] && { [ "$_honest" = 1 ] || [ "$_namesbox" = 1 ]; }; then
		b48_verdict right "cannot tell, names a deciding command (new class); exits [$_rcs]"
		return
	fi
	if [ "$_honest" = 1 ]; then
		b48_verdict cannot-tell "an undecided pair that names a command, on a class with a code ($_codes)"
		return
	fi
	if [ "$_nocmd" = 1 ]; then
		b48_verdict wrong "cannot tell without a deciding command"
		return
	fi
	b48_verdict wrong "missed: $_ncause causes, right on [${_rightn# }], exits [$_rcs]"
}

# b48_loop: the closed loop over the first run's report: its fixes on the
# nodes they name (a fix that edits /etc/hosts edits the file that `ip
# netns exec` mounts there, /etc/netns/NS/hosts), every member's
# neighbour cache flushed (b48_settle), the mesh again, clean.
b48_loop() {
	_map=$(for _m in $B48_MEMBERS; do printf '"%s":"%s",' "$_m" "$(cl_ns "$_m")"; done)
	_L="$B48_OUT/report-loop.json"
	jq --argjson m "{${_map%,}}" '.causes |= map(. as $c | .fix.commands |=
		(if . == null then . else with_entries(.value |= map(
		gsub("/etc/hosts"; "/etc/netns/\($m[$c.fix.node // ""] // "none")/hosts")))
		end))' "$_R" >"$_L"
	CL_NOCMD=$(jq -r '[.causes[] | select(.kind == "undecided") | .id] | join(" ")' "$_L")
	LAB_FAIL=0
	cl_apply "$_L" $_F
	if [ "$LAB_FAIL" != 0 ]; then
		b48_verdict wrong "right node and cause, but the fix: $(grep '^not ok - closed loop' "$B48_OUT/log" | head -2 | sed 's/^not ok - closed loop: //' | tr '\n' ';')"
		return
	fi
	if [ "$CL_APPLIED" = 0 ]; then
		b48_verdict wrong "right node and cause, but no fix a lab can run"
		return
	fi
	b48_settle
	if ! b48_mesh after; then
		b48_verdict wrong "right node and cause; the re-run did not end"
		return
	fi
	# the two warnings of which interface a job would choose on a host
	# with an underlay and an overlay (no NCCL_SOCKET_IFNAME set): true
	# of the cluster before its fault and after, and of its healthy rows
	# (blind48f 06 exits 0 with them), as t_deadnic and t_rpfilter allow
	CL_ALLOW="mpi-btl-iface nccl-default-iface-unsafe" \
		cl_clean "$B48_OUT/after/report.json" "$B48_OUT/after" after
	if [ "$LAB_FAIL" = 0 ]; then
		b48_verdict right "right node(s) [${_rightn# }] and cause; $CL_APPLIED fix command(s) applied, the re-run passes"
	else
		b48_verdict wrong "right node and cause, but not clean after its $CL_APPLIED fix command(s): $(jq -r '[.findings[] | select(.severity != "info") | "\(.node):\(.code)"] | unique | join(",")' "$B48_OUT/after/report.json")"
	fi
}
