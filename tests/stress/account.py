#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Exact accounting of a stress round.

    account.py BEFORE.json MID.json AFTER.json VALIDATOR.txt ID...

BEFORE, MID and AFTER are `rawprobectl -j stats show` before the round,
once its probes are disabled, and once the reader has stopped; VALIDATOR
the output of ring_validate, which read the rings the whole round. For
every ID:
    hits == records + lost_ring + filtered        (the kernel's counters)
and, in discard mode, the reader saw every record:
    records(MID) <= delivered <= records(AFTER)
(equal when the two agree: a kretprobe's return of a call that entered
before the disable, a task asleep in vfs_read, still records after it).
Prints "figure KEY VALUE" lines, the problems found, and exits 1 if any.
"""
import json
import sys


def counters(path):
    with open(path) as f:
        return {p["id"]: p for p in json.load(f)["probes"]}


def validator(path):
    delivered, totals = {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == "delivered":
                delivered[int(w[1])] = int(w[2])
            elif len(w) == 2 and w[1].isdigit():
                totals[w[0]] = int(w[1])
    return delivered, totals


def main():
    before, mid, after = (counters(p) for p in sys.argv[1:4])
    delivered, totals = validator(sys.argv[4])
    ids = [int(i) for i in sys.argv[5:]]
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
        lo = mid.get(i, after[i])["records"] - before.get(i, {}).get("records", 0)
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
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
