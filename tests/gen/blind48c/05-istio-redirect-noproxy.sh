# Blind cluster 05 of the third set (issue 48; truth.tsv row
# 05-istio-redirect-noproxy): kubeflow/trainer#1637, kubeflow/website#2011,
# kubeflow/kubeflow#3935.
# Four nodes on one switch; node03 is a pod whose istio-init rules are in
# place (inbound TCP to 15006, outbound TCP to 15001, as istio-iptables
# writes them through iptables-nft) while its istio-proxy is not running.
#   sh tests/gen/blind48c/05-istio-redirect-noproxy.sh validate|judge
B48_ID=05-istio-redirect-noproxy
LAB_ID=${LAB_ID:-811b48c05-$$}
. "$(dirname "$0")/lib48c.sh"

b48_build() {
	b48_lan sw 86 4
	ip netns exec "$(cl_ns node03)" nft -f - <<'NFT'
table ip nat {
	chain ISTIO_INBOUND {
		tcp dport 15008 return
		tcp dport 15090 return
		tcp dport 15021 return
		tcp dport 15020 return
		ip protocol tcp jump ISTIO_IN_REDIRECT
	}
	chain ISTIO_IN_REDIRECT {
		ip protocol tcp redirect to :15006
	}
	chain ISTIO_REDIRECT {
		ip protocol tcp redirect to :15001
	}
	chain ISTIO_OUTPUT {
		ip saddr 127.0.0.6 oifname "lo" return
		ip daddr != 127.0.0.1 oifname "lo" meta skuid 1337 jump ISTIO_IN_REDIRECT
		oifname "lo" meta skuid != 1337 return
		meta skuid 1337 return
		ip daddr != 127.0.0.1 oifname "lo" meta skgid 1337 jump ISTIO_IN_REDIRECT
		oifname "lo" meta skgid != 1337 return
		meta skgid 1337 return
		ip daddr 127.0.0.1 return
		jump ISTIO_REDIRECT
	}
	chain PREROUTING {
		type nat hook prerouting priority dstnat; policy accept;
		ip protocol tcp jump ISTIO_INBOUND
	}
	chain OUTPUT {
		type nat hook output priority -100; policy accept;
		ip protocol tcp jump ISTIO_OUTPUT
	}
}
NFT
}

# the redirects gone, as a pod without the sidecar has it
# (sidecar.istio.io/inject: "false")
b48_fix() {
	ip netns exec "$(cl_ns node03)" nft flush chain ip nat ISTIO_OUTPUT
	ip netns exec "$(cl_ns node03)" nft flush chain ip nat ISTIO_INBOUND
}

b48_main "$@"
