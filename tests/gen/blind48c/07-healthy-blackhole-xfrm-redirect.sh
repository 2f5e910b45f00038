# Blind cluster 07 of the third set (issue 48; truth.tsv row
# 07-healthy-blackhole-xfrm-redirect): EleutherAI/bergson#444, healthy.
# Four nodes on one switch, each a Calico node: a blackhole route for its
# own pod block (10.231.89.0/24 in /26s, no member inside) and routes to
# the others' blocks; node02 holds site-to-site IPsec tunnel policies
# toward 10.231.99.0/24 (no member there); node03 redirects only its
# outbound TCP 80 and 443 to a local transparent proxy port.
#   sh tests/gen/blind48c/07-healthy-blackhole-xfrm-redirect.sh validate|judge
B48_ID=07-healthy-blackhole-xfrm-redirect
LAB_ID=${LAB_ID:-811b48c07-$$}
. "$(dirname "$0")/lib48c.sh"

b48_build() {
	b48_lan sw 88 4
	for i in 1 2 3 4; do
		_n=$(cl_ns "node0$i")
		for j in 1 2 3 4; do
			_blk="10.231.89.$(((j - 1) * 64))/26"
			if [ "$i" = "$j" ]; then
				ip -n "$_n" route add blackhole "$_blk" proto bird
			else
				ip -n "$_n" route add "$_blk" via "10.231.88.$j" proto bird
			fi
		done
	done
	_n=$(cl_ns node02)
	ip -n "$_n" xfrm policy add src 10.231.88.0/24 dst 10.231.99.0/24 \
		dir out tmpl src 10.231.88.2 dst 10.231.88.254 proto esp mode tunnel
	ip -n "$_n" xfrm policy add src 10.231.99.0/24 dst 10.231.88.0/24 \
		dir in tmpl src 10.231.88.254 dst 10.231.88.2 proto esp mode tunnel
	ip -n "$_n" xfrm policy add src 10.231.99.0/24 dst 10.231.88.0/24 \
		dir fwd tmpl src 10.231.88.254 dst 10.231.88.2 proto esp mode tunnel
	ip netns exec "$(cl_ns node03)" nft -f - <<'NFT'
table ip nat {
	chain OUTPUT {
		type nat hook output priority -100; policy accept;
		meta skuid 13 return
		tcp dport { 80, 443 } redirect to :3128
	}
}
NFT
}

b48_main "$@"
