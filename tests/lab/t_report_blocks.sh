# Every code block of the Markdown and HTML reports is runnable as pasted:
# each passes `bash -n` and joins no alternatives with '|', and each nftables block passes `nft -c` (check
# mode) in a namespace holding the ruleset Debian's /etc/nftables.conf
# creates. Blocks are extracted by tests/lab/codeblocks.py.
. "$(dirname "$0")/lib.sh"
lab_require nft bash python3 jq
top=$(cd "$(dirname "$0")/../.." && pwd)
fx="$top/tests/fixtures/report"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; lab_cleanup' EXIT

lab_ns N fw
ip netns exec "$N" nft -f - <<'NFT' || { lab_notok "debian ruleset"; lab_done; exit 1; }
table inet filter {
	chain input { type filter hook input priority filter; }
	chain forward { type filter hook forward priority filter; }
	chain output { type filter hook output priority filter; }
}
NFT

# nftables commands are written only against a ruleset a scan read (a
# fixture without one gets none): "filtered" again, gpu-b's scan holding
# Debian's ruleset with its input policy drop, as `nft -j` gives it
mkdir -p "$tmp/sets/filtered-ruleset"
cp "$fx"/filtered/*.json "$tmp/sets/filtered-ruleset/"
jq '.firewall = {backend: "nftables", ufw: false, firewalld: false,
	truncated: false, blocks: [{kind: "policy", family: "inet",
	table: "filter", chain: "input", handle: null, proto: null,
	ports: [], verdict: "drop"}]}' "$fx/filtered/gpu-b-scan.json" \
	>"$tmp/sets/filtered-ruleset/gpu-b-scan.json"

cd "$fx" || exit 1
total=0 nfts=0
for set in healthy nat filtered filtered-ruleset mtu slowrank malformed \
	recorded; do
	src=$set
	[ -d "$src" ] || src=$tmp/sets/$set
	for fmt in markdown:md html:html; do
		ext=${fmt##*:}
		d="$tmp/$set-$ext"
		mkdir -p "$d"
		timeout 60 "$NETPROBE" report --format "${fmt%%:*}" \
			-o "$d/report.$ext" "$src" 2>/dev/null
		n=$(python3 "$top/tests/lab/codeblocks.py" "$d/report.$ext" "$d")
		total=$((total + n))
		bad=""
		for b in "$d"/[0-9]*.sh; do
			[ -e "$b" ] || continue
			bash -n "$b" 2>/dev/null || bad="$bad $(basename "$b")"
			# alternatives joined with '|' parse as a pipeline
			grep -q ' | ' "$b" && bad="$bad $(basename "$b")(pipe)"
		done
		lab_check "$set $ext: $n code blocks pass bash -n${bad:+ (not:$bad)}" \
			test -z "$bad"
		while read -r b; do
			nfts=$((nfts + 1))
			sed -n 's/^nft /nft -c /p' "$b" >"$b.check"
			lab_check "$set $ext: $(basename "$b") passes nft -c" \
				ip netns exec "$N" sh "$b.check"
		done <"$d/nft.list"
	done
done
lab_check "the reports have code blocks ($total) and nft blocks ($nfts)" \
	test "$total" -gt 0 -a "$nfts" -gt 0
lab_done
