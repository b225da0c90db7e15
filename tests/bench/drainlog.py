#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a stream lost records: its drain log (rawprobectl stream
--drain-log; guest.sh keeps a losing round's as drain-ROUND-CONFIG.log)
around the first pass that saw the rings' lost counters grow, lined up
with what the host's scheduler did to the guest's vCPU threads then
(tests/bench/hostwait.py's OUT.events).

    drainlog.py [--events HOSTWAIT.events] [--window MS] LOG...

The log's last line, "# end NS", is the guest's CLOCK_MONOTONIC as that
line was written, and the file's modification time the host's
CLOCK_REALTIME of the same write: the offset between the two clocks
(good to the host's timestamp granularity, a few ms, and the clocks'
drift over the seconds since the loss).

For each log it prints the passes of the WINDOW ms (default 40) before
the first loss (in a log that lost nothing, the largest backlog) and a
few after, in ms from the start of the pass that
saw the loss, and the host's vCPU waits and steal in the same span. A
reader that was behind for a while (backlog climbing over passes that
each took little time) lost records by being too slow; one that was
level until one pass took (or one poll slept) longer than the ring
lasts lost them in that pass, and the host's waits of the same moment
say whether the host took the CPU then.
"""
import argparse
import os
import sys


def read_log(path):
    """(passes, end_ns, ring): passes as tuples (start, poll, work, records,
    backlog, lost), all ns or counts; ring: records a ring holds."""
    passes, end, ring = [], None, 0
    with open(path) as f:
        for line in f:
            v = line.split()
            if not v:
                continue
            if v[0] == "#":
                if len(v) == 3 and v[1] == "end":
                    end = int(v[2])
                elif len(v) == 9 and v[3] == "log:" and v[8] == "records":
                    ring = int(v[7])
                continue
            if len(v) == 6:
                passes.append(tuple(int(x) for x in v))
    return passes, end, ring


def read_events(path):
    """[(realtime_ns, thread, value)]: waits in ns, steal in ms."""
    ev = []
    if not path:
        return ev
    with open(path) as f:
        for line in f:
            v = line.split()
            if len(v) == 3:
                ev.append((int(v[0]), v[1], int(v[2])))
    return ev


def first_loss(passes):
    for i in range(1, len(passes)):
        if passes[i][5] > passes[i - 1][5]:
            return i
    return None


def rates(passes, i, window_ms, out, what="loss", ring=0):
    """Over the window before pass i: the reader's ns a record in a typical
    pass (the median pass) against the writers' (the backlog's growth
    plus what the reader took, between the moments the backlogs were
    read: after each pass's poll()), its longest pass and its longest
    sleep in poll(). A typical pass slower than the writers is a backlog
    that only grows; a sleep that woke to more than twice the default
    watermark (an eighth of the ring) is a late wakeup; else a stall."""
    lo = passes[i][0] - window_ms * 1e6
    j = next(k for k in range(i + 1) if passes[k][0] >= lo)
    if j >= i:
        return
    seen = [p[0] + p[1] for p in passes]     # when each backlog was read
    span = seen[i] - seen[j]
    taken = sum(p[3] for p in passes[j:i])
    written = passes[i][4] - passes[j][4] + taken
    per = sorted(p[2] / p[3] for p in passes[j:i] if p[3])
    if not per or written <= 0 or span <= 0:
        return
    typical = per[len(per) // 2]
    longest = max(p[2] for p in passes[j:i + 1])
    sleep = max(passes[j:i + 1], key=lambda p: p[1])
    if typical > span / written:
        verdict = "slower than the writers: a backlog that only grows"
    elif ring and sleep[4] > 2 * (ring // 8):
        verdict = (f"asleep in poll() while {sleep[4]:,} records came: "
                   f"a late wakeup (the default watermark is {ring // 8:,})")
    else:
        verdict = f"faster than the writers: the {what} came from a stall"
    print(f"  over the {span / 1e6:.1f} ms before it the reader took "
          f"{typical:,.0f} ns a record in its median pass ({taken:,} "
          f"records), the writers wrote one every {span / written:,.0f} ns "
          f"({written:,}); its longest pass {longest / 1e6:.1f} ms, its "
          f"longest sleep in poll() {sleep[1] / 1e6:.1f} ms: the reader was "
          f"{verdict}", file=out)


def report(path, events, window_ms, out):
    passes, end, ring = read_log(path)
    name = os.path.basename(path)
    if not passes:
        print(f"{name}: no passes", file=out)
        return
    i = first_loss(passes)
    lost = i is not None
    if not lost:        # a near miss: around the largest backlog
        i = max(range(len(passes)), key=lambda k: passes[k][4])
        what = (f"no record lost; the largest backlog, "
                f"{passes[i][4]:,} records, seen by pass {i}")
    else:
        what = (f"{passes[-1][5]:,} records lost, the first seen by "
                f"pass {i}")
    t0 = passes[i][0]
    print(f"{name}: {len(passes):,} passes; {what} "
          f"({(t0 - passes[0][0]) / 1e6:,.1f} ms into the stream)",
          file=out)
    rates(passes, i, window_ms, out, "loss" if lost else "backlog", ring)
    print("  ms     poll_ms  work_ms  records  backlog     lost", file=out)
    lo = t0 - window_ms * 1e6
    for p in passes[:i + 4]:
        if p[0] < lo:
            continue
        print(f"  {(p[0] - t0) / 1e6:7.2f} {p[1] / 1e6:7.2f} "
              f"{p[2] / 1e6:8.2f} {p[3]:8} {p[4]:8} {p[5]:8}", file=out)
    if end is None or not events:
        return
    # guest ns -> host realtime ns
    offset = os.stat(path).st_mtime_ns - end
    hi = passes[min(i + 3, len(passes) - 1)][0]
    near = [e for e in events
            if lo - 20e6 <= e[0] - offset <= hi + 40e6]
    print(f"  the host, {window_ms + 20} ms before to 40 ms after "
          f"(a wait ended within 20 ms before its time):", file=out)
    for when, who, v in near:
        what = f"steal {v} ms" if who == "steal" else \
            f"{who} waited {v / 1e6:.1f} ms"
        print(f"  {(when - offset - t0) / 1e6:7.2f} {what}", file=out)
    if not near:
        print("  (no vCPU thread waited 2 ms or more)", file=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", help="tests/bench/hostwait.py OUT.events")
    ap.add_argument("--window", type=float, default=40,
                    help="ms of passes before the loss (40)")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    events = read_events(a.events)
    for path in a.logs:
        report(path, events, a.window, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
