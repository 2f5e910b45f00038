# Output files (lib/base/outfile.c) through the real binary: every kind of
# path -o can name, in a private directory (mknod there, never the system's
# /dev): a new file, a mode 600 file with its owner, a symlink, a hard
# link, a null-like and a full-like device, a FIFO, a unix socket;
# --no-clobber; an output that is also an input. Needs root for mknod and
# chown, no namespaces.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || lab_skip "needs root for mknod and chown"
top=$(cd "$(dirname "$0")/../.." && pwd)
doc="$top/tests/fixtures/report/healthy/gpu-a-scan.json"
tmp=$(mktemp -d)
spid=""
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$tmp"; lab_cleanup' EXIT
cd "$tmp" || exit 1
rep() { # outside lab_rc, which runs commands, not functions
	timeout 20 "$NETPROBE" report --format json "$doc" "$@"
}
valid() {
	jq -e '.schema' "$1" >/dev/null 2>&1
}

# a new file: whole, and what the umask allows
(umask 022; rep -o new.json)
lab_check "a new file is written" valid new.json
lab_check "a new file gets 644 under umask 022" \
	test "$(stat -c %a new.json)" = 644
lab_check "no temporary file is left" \
	test "$(ls -A | grep -c '^\.new')" = 0

# a mode 600 file owned by someone else: replaced, mode and owner kept
echo old >secret.json
chmod 600 secret.json
chown 4321:4322 secret.json
ino=$(stat -c %i secret.json)
lab_rc 0 "a mode 600 file is replaced" "$NETPROBE" report --format json "$doc" -o secret.json
lab_check "its content is the report" valid secret.json
lab_check "its mode stays 600" test "$(stat -c %a secret.json)" = 600
lab_check "its owner stays 4321:4322" \
	test "$(stat -c %u:%g secret.json)" = 4321:4322
lab_check "it was replaced atomically (a new inode)" \
	test "$(stat -c %i secret.json)" != "$ino"

# a symlink: followed, the link stays a link
mkdir sub
echo old >sub/target.json
ln -s sub/target.json link.json
lab_rc 0 "a symlink is written" "$NETPROBE" report --format json "$doc" -o link.json
lab_check "the symlink stays a symlink" test -L link.json
lab_check "its target holds the report" valid sub/target.json
ln -s sub/absent.json dangling.json
lab_rc 0 "a dangling symlink is written" "$NETPROBE" report --format json "$doc" -o dangling.json
lab_check "the dangling symlink's target is created" valid sub/absent.json

# a hard link: both names keep sharing one file
echo old >a.json
ln a.json b.json
lab_rc 0 "a hard-linked file is written" "$NETPROBE" report --format json "$doc" -o a.json
lab_check "the other name sees the report" valid b.json
lab_check "the two names are still one file" \
	test "$(stat -c %i a.json)" = "$(stat -c %i b.json)"

# devices: a null-like one takes the write, a full-like one fails it
mknod null c 1 3
mknod full c 1 7
lab_rc 0 "a null-like device is written in place" "$NETPROBE" report --format json "$doc" -o null
lab_check "it is still a character device" test -c null
lab_rc 2 "a full-like device is a write error (exit 2)" "$NETPROBE" report --format json "$doc" -o full
lab_grep "the error names the device and ENOSPC" \
	"cannot write '.*full'.*(No space|space left)"
lab_check "it is still a character device" test -c full
# the same through heartbeat's and ports' -o (their document is written
# even when the run itself cannot reach anything)
lab_rc 2 "ports -o a full device exits 2" timeout 20 "$NETPROBE" ports \
	127.0.0.1 1 -t 200ms --responder-port 1 -o full
lab_check "it is still a character device after ports" test -c full

# a FIFO: written in place to its reader
mkfifo fifo
timeout 20 cat fifo >fifo.out &
cpid=$!
lab_rc 0 "a FIFO is written in place" "$NETPROBE" report --format json "$doc" -o fifo
wait "$cpid"
lab_check "the FIFO stays a FIFO" test -p fifo
lab_check "its reader got the report" valid fifo.out

# a unix socket: connected to and written
python3 - "$tmp/sock" "$tmp/sock.out" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(1); s.settimeout(20)
c, _ = s.accept(); c.settimeout(20)
with open(sys.argv[2], 'wb') as f:
    while True:
        b = c.recv(65536)
        if not b:
            break
        f.write(b)
PY
spid=$!
lab_wait 100 test -S sock
lab_rc 0 "a unix socket is written through a connection" "$NETPROBE" report --format json "$doc" -o sock
wait "$spid"
spid=""
lab_check "the socket stays a socket" test -S sock
lab_check "its listener got the report" valid sock.out

# --no-clobber
echo keep >kept.json
lab_rc 2 "--no-clobber refuses an existing file" "$NETPROBE" report --format json "$doc" --no-clobber -o kept.json
lab_grep "the error says why" "refusing to replace '.*kept.json'.*no-clobber"
lab_check "the existing file is untouched" test "$(cat kept.json)" = keep
lab_rc 0 "--no-clobber writes a new file" "$NETPROBE" report --format json "$doc" --no-clobber -o fresh.json
lab_check "the new file holds the report" valid fresh.json
lab_rc 0 "--no-clobber still writes a device" "$NETPROBE" report --format json "$doc" --no-clobber -o null

# an output that is also an input
cp "$doc" self.json
cp self.json self.orig
lab_rc 2 "report X -o X is refused" \
	timeout 20 "$NETPROBE" report self.json -o self.json
lab_grep "the error names the input" "it is also an input"
lab_check "the input is untouched" cmp -s self.json self.orig
ln -s self.json self-link.json
lab_rc 2 "an input reached through a symlink is refused" \
	timeout 20 "$NETPROBE" report self.json --html self-link.json
mkdir docs
cp "$doc" docs/a.json
lab_rc 2 "a document of an input directory is refused" \
	timeout 20 "$NETPROBE" report docs -o docs/a.json
lab_check "that document is untouched" cmp -s docs/a.json "$doc"
lab_done
