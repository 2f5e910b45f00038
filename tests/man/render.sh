#!/bin/sh
# Renders the man pages and checks what mandoc -Tlint cannot see (issue
# 44): on a macro line a word that names a callable macro ("No", "Ns") is
# called, not printed, and a lone ":" is a delimiter that loses the space
# before it, so NCCL's "NET/IB : No device found" rendered as "NET/IB:
# device found". Two rules: every literal of NCCL's own words (a .Ql whose
# text starts with NET/) renders verbatim; and no .Ql run holds a lone,
# unescaped ":" (write "\&:"). Usage: render.sh PAGE...
fail=0 n=0
for page in "$@"; do
	out=$(mandoc -Tascii "$page" | col -b | tr -s ' \t\n' '   ') || {
		echo "render: mandoc failed on $page"
		fail=1
		continue
	}
	# .Ql literals that start with NET/, up to a closing delimiter word
	lits=$(sed -n 's/^\..*Ql \(NET\/[^,;)]*\).*$/\1/p' "$page" |
		sed 's/\\&//g; s/ *$//')
	while IFS= read -r lit; do
		[ -n "$lit" ] || continue
		n=$((n + 1))
		case $out in
		*"$lit"*) ;;
		*)
			echo "render: $page: the literal '$lit' does not render verbatim"
			fail=1
			;;
		esac
	done <<EOL
$lits
EOL
	bad=$(grep -n '^\..*Ql [^,;)]* : ' "$page")
	if [ -n "$bad" ]; then
		echo "render: $page: a lone ':' in a .Ql (write \\&:):"
		echo "$bad"
		fail=1
	fi
done
echo "man render: $n literals checked, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
