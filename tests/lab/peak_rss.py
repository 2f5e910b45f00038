#!/usr/bin/python3
"""peak_rss.py PIDFILE PEAKFILE CMD...: runs CMD, writes its pid to
PIDFILE (for the lab's signals), reads its VmHWM from /proc/PID/status
every 20 ms while it runs and writes the peak in kB to PEAKFILE (the
larger of the last VmHWM read and the kernel's ru_maxrss at its end),
its CPU time in seconds (user and system) to PEAKFILE.cpu.
Exits with CMD's status, 128 + the signal that killed it. At most 300 s:
then CMD is killed."""
import os
import signal
import sys
import time

pidfile, peakfile, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
pid = os.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
with open(pidfile + ".tmp", "w") as f:
    f.write("%d\n" % pid)
os.rename(pidfile + ".tmp", pidfile)
peak, end, status, ru = 0, time.monotonic() + 300, None, None
while status is None:
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
    except OSError:
        pass
    got, st, r = os.wait4(pid, os.WNOHANG)
    if got == pid:
        status, ru = st, r
    elif time.monotonic() > end:
        os.kill(pid, signal.SIGKILL)
    else:
        time.sleep(0.02)
with open(peakfile, "w") as f:
    f.write("%d\n" % max(peak, ru.ru_maxrss))
with open(peakfile + ".cpu", "w") as f:
    f.write("%.2f\n" % (ru.ru_utime + ru.ru_stime))
if os.WIFSIGNALED(status):
    sys.exit(128 + os.WTERMSIG(status))
sys.exit(os.WEXITSTATUS(status))
