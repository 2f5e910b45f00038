# netprobe report through the binary: golden files for every format, the
# JUnit validated against tests/junit/junit.xsd, the HTML rendered by
# headless Chromium to a PNG that is not blank, bad input and exit codes.
# Needs no namespaces and no root.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
fx="$top/tests/fixtures/report"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; lab_cleanup' EXIT

# The fixture paths printed in reports are relative to the fixture folder.
cd "$fx" || exit 1
for set in healthy nat filtered mtu slowrank malformed recorded; do
	for f in text:txt markdown:md html:html json:json junit:xml; do
		fmt=${f%%:*} ext=${f##*:}
		timeout 60 "$NETPROBE" report --format "$fmt" \
			-o "$tmp/$set.$ext" "$set" 2>/dev/null
		lab_check "$set $fmt matches golden/$set.$ext" \
			cmp -s "$tmp/$set.$ext" "golden/$set.$ext"
	done
done

if command -v xmllint >/dev/null 2>&1; then
	for set in healthy nat filtered mtu slowrank malformed recorded; do
		lab_check "$set JUnit validates against junit.xsd" \
			xmllint --noout --schema "$top/tests/junit/junit.xsd" \
			"$tmp/$set.xml"
	done
else
	echo "skip - no xmllint: JUnit not validated"
fi

# A decoded PNG: how many distinct colours its pixels have (0 on error).
png_colours() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
try:
    data = open(sys.argv[1], 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        if y % 8 == 0:
            for x in range(0, stride, bpp * 4):
                colours.add(bytes(line[x:x + 3]))
        prev = line
    print(len(colours))
except Exception as e:
    print(0)
PY
}

if command -v chromium >/dev/null 2>&1 && command -v python3 >/dev/null; then
	for set in healthy nat slowrank; do
		prof=$(mktemp -d)
		timeout 90 chromium --headless --no-sandbox --disable-gpu \
			--disable-quic --no-first-run \
			--disable-background-networking \
			--disable-component-update --disable-sync \
			--user-data-dir="$prof" --screenshot="$tmp/$set.png" \
			--window-size=1200,1600 "file://$tmp/$set.html" \
			>"$tmp/$set.chromium.log" 2>&1
		rc=$?
		rm -rf "$prof"
		lab_check "$set HTML renders in Chromium" \
			test "$rc" = 0 -a -s "$tmp/$set.png"
		n=$(png_colours "$tmp/$set.png")
		lab_check "$set PNG is not blank ($n colours sampled)" \
			test "$n" -gt 20
	done
else
	echo "skip - no chromium or python3: HTML not rendered"
fi

lab_rc 1 "nat report fails the default gate" "$NETPROBE" report -o \
	"$tmp/x.txt" nat
lab_rc 0 "healthy passes --fail-on fault" "$NETPROBE" report -o \
	"$tmp/x.txt" healthy
lab_rc 1 "healthy fails --fail-on warning (one warning)" "$NETPROBE" \
	report --fail-on warning -o "$tmp/x.txt" healthy
lab_rc 0 "--fail-on never passes a fault" "$NETPROBE" report \
	--fail-on never -o "$tmp/x.txt" nat
lab_rc 0 "a malformed file among good ones is skipped" "$NETPROBE" \
	report -o "$tmp/x.txt" malformed
lab_grep "the truncated file is named with line and column" \
	"skipped 'malformed/gpu-c-truncated.json' at line [0-9]+, column [0-9]+"
lab_grep "the empty file is named" "skipped 'malformed/gpu-d-empty.json': empty file"
lab_grep "the unknown major version is named" \
	"gpu-e-future.json': unknown major schema version 'netprobe/2'"
lab_check "the good files are still used" \
	grep -q 'inputs: 2 read, 3 skipped' "$tmp/x.txt"
lab_rc 2 "only bad files: exit 2" "$NETPROBE" report \
	malformed/gpu-c-truncated.json malformed/gpu-d-empty.json
lab_grep "says nothing was usable" "no usable document"
lab_rc 2 "unknown --format: exit 2" "$NETPROBE" report --format pdf healthy
lab_grep "names the format" "unknown format 'pdf'"
lab_rc 2 "no files: exit 2" "$NETPROBE" report
lab_rc 0 "--help exits 0" "$NETPROBE" report --help
lab_grep "help names the formats" 'text, markdown, html, json or junit'
lab_check "a hostile hostname is escaped in HTML" \
	sh -c "! grep -q '<img src=x' '$tmp/nat.html' && grep -q '&lt;img src=x' '$tmp/nat.html'"
lab_check "no script in the HTML" sh -c "! grep -qi '<script' '$tmp/nat.html'"
lab_check "HTML fetches nothing" \
	sh -c "! grep -Eq '(src|href)=\"(https?:)?//' '$tmp/healthy.html'"
NO_COLOR=1 "$NETPROBE" report nat >"$tmp/nc.txt" 2>/dev/null
lab_check "no colour when not on a terminal" \
	sh -c "! grep -q \"$(printf '\033')\" '$tmp/nc.txt'"
# The demo end to end, where namespaces can be made: every format comes
# out, the container behind NAT blocks the cluster choice.
if [ "$(id -u)" = 0 ] && command -v nft >/dev/null 2>&1 &&
	command -v unshare >/dev/null 2>&1; then
	lab_rc 0 "make demo's script runs" timeout 280 sh "$top/tests/demo/demo.sh" \
		"$tmp/demo"
	for ext in txt md html json xml; do
		lab_check "demo wrote report.$ext" test -s "$tmp/demo/report.$ext"
	done
	lab_check "demo JUnit validates" sh -c "xmllint --noout --schema \
		'$top/tests/junit/junit.xsd' '$tmp/demo/report.xml' 2>/dev/null"
	lab_check "demo names gpu-c as behind NAT" \
		grep -q 'container-bridge-nat on gpu-c' "$tmp/demo/report.txt"
else
	echo "skip - demo needs root, nft and unshare"
fi
lab_done
