# Blind cluster 12 (issue 48; truth.tsv row 12-healthy-uneven-inputs): microsoft/PyMarlin#80
# (DDP hangs on uneven batches; not the network). Six nodes on one
# switch; node01 holds a second (virtual) address on lan0, every node an
# IPv6 ULA, node05 an unrelated NAT'd container on docker0, node06 a
# service on port 6006.
#   sh tests/gen/blind48/12-healthy-uneven-inputs.sh validate|judge
B48_ID=12-healthy-uneven-inputs
LAB_ID=${LAB_ID:-66b12-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_lan sw 48 6
	ip -n "$(cl_ns node01)" addr add 10.231.48.100/24 dev lan0
	for i in 1 2 3 4 5 6; do
		ip -n "$(cl_ns "node0$i")" addr add "fd48::$i/64" dev lan0 nodad
	done
	b48_box ctr5
	lab_docker_ctr "$(cl_ns node05)" "$(cl_ns ctr5)"
	ip netns exec "$(cl_ns node05)" nft -f - <<'NFT'
table ip docker_nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		ip saddr 172.17.0.0/16 oifname "lan0" masquerade
	}
}
NFT
	ip netns exec "$(cl_ns node06)" "$B48_PY" -m http.server 6006 \
		--bind 0.0.0.0 >/dev/null 2>&1 &
	lab_wait 50 ip netns exec "$(cl_ns node06)" sh -c \
		"ss -ltn | grep -q ':6006 '"
}

b48_fix() { :; }

b48_main "$@"
