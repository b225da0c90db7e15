#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Exact accounting of a stress round.

    account.py BEFORE.json START.json MID.json AFTER.json VALIDATOR.txt ID...

BEFORE, START, MID and AFTER are `rawprobectl -j stats show` at the end
of the previous round, when the reader started, once the round's probes
are disabled, and once the reader has stopped; VALIDATOR the output of
ring_validate, which read the rings from START on. For every ID:
    hits == records + lost_ring + filtered        (BEFORE to AFTER)
and, in discard mode, the reader saw every record:
    records(START..MID) <= delivered <= records(BEFORE..AFTER)
A kretprobe counts its hit at entry and its record at return: the
identity is exact per round only if no call straddles BEFORE or AFTER,
so the load's kretprobes keep only the load's own tasks, which end
before each disable (the others are filtered at entry, in full).
A kretprobe's call can straddle the bounds: one that entered before the
disable returns, and records, after MID (a task asleep in vfs_read), or
after AFTER, before a resize between rounds throws the unread records
of a ring with no reader away: so the bounds.
Prints "figure KEY VALUE" lines, the problems found, and exits 1 if any.
"""
import json
import sys


def counters(path):
    with open(path) as f:
        return {p["id"]: p for p in json.load(f)["probes"]}


def validator(path):
    delivered, totals, unread = {}, {}, []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "unread":
                unread.append(line.strip())
            elif len(w) == 3 and w[0] == "delivered":
                delivered[int(w[1])] = int(w[2])
            elif len(w) == 2 and w[1].isdigit():
                totals[w[0]] = int(w[1])
    return delivered, totals, unread


def main():
    before, start, mid, after = (counters(p) for p in sys.argv[1:5])
    delivered, totals, unread = validator(sys.argv[5])
    ids = [int(i) for i in sys.argv[6:]]
    problems, sums = [], dict(hits=0, records=0, lost_ring=0, filtered=0,
                              missed_maxactive=0, missed_recursion=0)
    for i in ids:
        if i not in after:
            problems.append(f"probe {i} is gone")
            continue
        d = {k: after[i][k] - before.get(i, {}).get(k, 0) for k in sums}
        for k in sums:
            sums[k] += d[k]
        if d["hits"] != d["records"] + d["lost_ring"] + d["filtered"]:
            problems.append(f"probe {i} ({after[i]['probe']}): hits {d['hits']}"
                            f" != records {d['records']} + lost {d['lost_ring']}"
                            f" + filtered {d['filtered']}")
        lo = (mid.get(i, after[i])["records"] -
              start.get(i, before.get(i, {})).get("records", 0))
        got = delivered.get(i, 0)
        if totals.get("mode") == 0 and not lo <= got <= d["records"]:
            problems.append(f"probe {i} ({after[i]['probe']}): delivered "
                            f"{got}, records {lo}..{d['records']}")
    for k, v in sums.items():
        print(f"figure {k} {v}")
    print(f"figure delivered {sum(delivered.get(i, 0) for i in ids)}")
    for k in ("corrupt", "torn", "overwritten", "gaps", "ring_lost"):
        print(f"figure {k} {totals.get(k, -1)}")
    if totals.get("corrupt", 1):
        problems.append(f"corrupt records: {totals.get('corrupt')}")
    if totals.get("mode") == 0 and totals.get("torn", 1):
        problems.append(f"torn records in discard mode: {totals.get('torn')}")
    if problems:
        problems += unread	# where the reader stopped, if short
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
