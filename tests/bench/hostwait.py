#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the host took from a benchmark guest: while it runs, how long the
guest's vCPU threads (QEMU's "... /TCG" threads) waited for a host core,
from their schedstat run_delay, and the host's own steal time (the host is
itself a virtual machine), sampled every 100 ms. A stream that loses
records while its reader's vCPU waited longer than the ring lasts points
at the host; one that loses them with no such wait, at the reader.

    hostwait.py OUT DIR (runs until SIGTERM, then writes its summary to OUT;
                        only QEMUs whose command line holds DIR, the
                        guest's output directory, are its guest)

The summary is one sentence for the report's conditions. OUT.events
lists, as they are seen, the waits of 2 ms or more: "REALTIME_NS THREAD
WAIT_NS", the wait having ended within the PERIOD before REALTIME_NS
(CLOCK_REALTIME: the clock of a file's modification time, which
tests/bench/drainlog.py lines a guest's drain log up with), and the
host's steal as "REALTIME_NS steal MS". Reading a few /proc files fifty
times a second costs the host next to nothing.
"""
import os
import signal
import sys
import time

PERIOD = 0.02
EVENT_NS = 2000000       # waits logged in OUT.events: 2 ms or more


def vcpu_threads(match):
    """(pid, tid, name) of the guest's TCG vCPU threads running now
    (tests/vm/run names them, "CPU 1/TCG", with -name debug-threads=on)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if not f.read().startswith("qemu-system"):
                    continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if match not in f.read():
                    continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    name = f.read().rstrip()
                if name.endswith("/TCG"):
                    found.append((pid, tid, name.replace(" ", "_")))
        except OSError:
            continue
    return found


def run_delay(pid, tid):
    """ns the thread has waited on a run queue, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            return int(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None


def steal_ms():
    with open("/proc/stat") as f:
        v = f.readline().split()
    return int(v[8]) * 1000 // os.sysconf("SC_CLK_TCK") if len(v) > 8 else 0


def sample(threads, last, events):
    """One period: each thread's wait since the last one, in ns; waits of
    EVENT_NS or more go to events. Returns the waits."""
    now = time.time_ns()
    waits = []
    for t in threads:
        d = run_delay(t[0], t[1])
        if d is None:
            continue
        if t in last:
            waits.append(d - last[t])
            if d - last[t] >= EVENT_NS:
                events.write(f"{now} {t[2]} {d - last[t]}\n")
        last[t] = d
    return waits


def main():
    if len(sys.argv) != 3:
        print("usage: hostwait.py OUT DIR", file=sys.stderr)
        return 2
    match = os.fsencode(sys.argv[2])
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    last = {}                   # (pid, tid, name) -> run_delay ns
    total = worst = 0           # ns: all waits; the most in one period
    steal0 = steal = steal_ms()
    threads, rescan = [], 0.0
    with open(sys.argv[1] + ".events", "w") as events:
        while not stop:
            now = time.monotonic()
            if now >= rescan:   # QEMU starts after us; look once a second
                threads, rescan = vcpu_threads(match), now + 1
                s, steal = steal, steal_ms()
                if steal > s:
                    events.write(f"{time.time_ns()} steal {steal - s}\n")
            waits = sample(threads, last, events)
            total += sum(waits)
            worst = max([worst] + waits)
            time.sleep(PERIOD)
    with open(sys.argv[1], "w") as f:
        # the most one thread waited within one period
        f.write(f"its vCPU threads waited for a host core "
                f"{total / 1e9:.1f} s in all, at most {worst / 1e6:.0f} ms "
                f"in one {PERIOD * 1000:.0f} ms; host steal "
                f"{steal_ms() - steal0} ms" if last else "")
    return 0

if __name__ == "__main__":
    sys.exit(main())
