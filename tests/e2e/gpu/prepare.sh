#!/bin/sh
# Prepares, on this Debian 12 machine, everything the GPU part of the
# end-to-end suite needs on the device machine (Ubuntu 24.04, no `ip`, no
# `nft`, no network): build/e2e/gpu/ then holds
#   bin/   netprobe, ncclcheck (built here with nvcc, as bench/ncclcheck was),
#          mkveth (veth and bridges inside named namespaces, libmnl)
#   root/  Debian's iproute2 and nftables with the libraries they, netprobe
#          and mkveth link (apt-get download + dpkg -x; glibc excluded)
# Carry build/e2e/gpu to the device and run tests/e2e/gpu/run.sh there.
# Exit status 0 ready, 2 could not prepare (it says what).
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
g=$top/build/e2e/gpu
cd "$top" || exit 2
die() {
	echo "gpu prepare: $*" >&2
	exit 2
}

make -j2 build/netprobe ncclcheck-build >/dev/null || die "make failed"
[ -x build/ncclcheck ] || die "no build/ncclcheck (needs nvcc and NCCL)"
rm -rf "$g/debs" "$g/root"
mkdir -p "$g/bin" "$g/debs" "$g/root" || die "cannot write $g"
cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 \
	-o "$g/bin/mkveth" tests/e2e/gpu/mkveth.c -lmnl || die "mkveth"
cp build/netprobe build/ncclcheck "$g/bin/" || die "copy"

# The Debian packages holding every library the binaries link, except
# those glibc and the compiler runtime bring (the device has newer ones).
pkgs="iproute2 nftables"
for b in /usr/bin/ip /usr/sbin/nft "$g/bin/netprobe" "$g/bin/mkveth"; do
	for lib in $(ldd "$b" | awk '$3 ~ /^\// { print $3 }'); do
		p=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null |
			head -n 1 | cut -d: -f1)
		[ -z "$p" ] && p=$(dpkg -S "$lib" 2>/dev/null |
			head -n 1 | cut -d: -f1)
		case $p in
		'' | libc6 | libgcc-s1 | libstdc++6 | zlib1g) ;;
		*) pkgs="$pkgs $p" ;;
		esac
	done
done
pkgs=$(echo $pkgs | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "gpu prepare: Debian packages: $pkgs"
(cd "$g/debs" && apt-get download $pkgs >/dev/null) ||
	die "apt-get download $pkgs failed"
for d in "$g"/debs/*.deb; do
	dpkg -x "$d" "$g/root" || die "dpkg -x $d"
done
rm -rf "$g/debs"
du -sh "$g" | sed 's/^/gpu prepare: carry /'
echo "gpu prepare: ready in $g"
