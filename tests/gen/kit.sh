# Makes a folder that runs the generated clusters on another x86-64 Linux
# machine where we are root but cannot install (a lent GPU host: Ubuntu,
# no ip, nft or jq): the Debian packages of the tools and libraries the
# clusters need (apt-get download, unpacked there with dpkg -x, never
# installed), this build's netprobe, and setup.sh, which that machine
# sources before tests/gen/streams.sh. Runs here, on Debian.
#   sh tests/gen/kit.sh NETPROBE DIR
np=${1:?usage: kit.sh NETPROBE DIR}
kit=${2:?usage: kit.sh NETPROBE DIR}
[ -x "$np" ] || { echo "kit: no program '$np'"; exit 2; }
mkdir -p "$kit/deb" || exit 2
cp "$np" "$kit/netprobe" || exit 2
# the tools, and every library of theirs and of netprobe's that a CUDA
# image may lack
pkgs="iproute2 nftables jq libpcap0.8 libbpf1 libbsd0 libcap2 libdb5.3
libdbus-1-3 libedit2 libelf1 libjq1 libonig5 libmnl0 libnftables1
libnftnl11 libselinux1 libtirpc3 libxtables12 libjansson4 libgssapi-krb5-2
libkrb5-3 libk5crypto3 libkrb5support0 libkeyutils1 libcom-err2 libgmp10
libmd0 libpcre2-8-0 libssl3 libsystemd0 libgcrypt20 libgpg-error0 liblz4-1
liblzma5 libzstd1 libibverbs1 libnl-3-200 libnl-route-3-200 zlib1g
libncursesw6 libtinfo6"
for p in $pkgs; do
	(cd "$kit/deb" && apt-get download -q "$p" >/dev/null 2>&1) ||
		{ echo "kit: cannot download '$p'"; exit 2; }
done
cat >"$kit/setup.sh" <<'SETUP'
# Sourced (bash) on the lent machine: unpacks the .debs into /tmp/r, puts
# Debian's ip, bridge, nft and jq first on PATH and their libraries on
# LD_LIBRARY_PATH, and raises the neighbour table's limits (one table for
# every namespace: many clusters at once overflow the default 1024).
d=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)
mkdir -p /tmp/r/lib /tmp/r/wrap /run/netns /etc/netns
for f in "$d"/deb/*.deb; do dpkg -x "$f" /tmp/r; done
# that image's ld cache lists none of its own libraries, so no test of
# which it has: Debian's all go on the path (Ubuntu's programs ran so)
for so in $(find /tmp/r -name 'lib*.so*' \( -type f -o -type l \)); do
	ln -sf "$so" /tmp/r/lib/"$(basename "$so")"
done
export LD_LIBRARY_PATH=/tmp/r/lib
for t in jq ip bridge nft; do
	for p in /tmp/r/usr/bin/$t /tmp/r/usr/sbin/$t /tmp/r/bin/$t /tmp/r/sbin/$t; do
		[ -x "$p" ] && { ln -sf "$p" /tmp/r/wrap/$t; break; }
	done
done
export PATH=/tmp/r/wrap:$PATH
# netprobe runs nft from the system's own folders only (fwrules_exec.c)
[ -e /usr/sbin/nft ] || ln -s /tmp/r/usr/sbin/nft /usr/sbin/nft
sysctl -q -w net.ipv4.neigh.default.gc_thresh1=8192 \
	net.ipv4.neigh.default.gc_thresh2=32768 \
	net.ipv4.neigh.default.gc_thresh3=65536
export NETPROBE=$d/netprobe
SETUP
echo "kit: $kit ($(du -sh "$kit" | cut -f1)); there: . $kit/setup.sh;" \
	"sh tests/gen/streams.sh 20 15 1 \$OUT"
