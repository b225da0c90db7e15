#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Name the blocks of libinsn.so's profile= by a guest's kallsyms.

    profile.py PROFILE KALLSYMS_DIR GUEST_OUTPUT [-n TOP]

PROFILE holds the plugin's "VADDR INSNS RUNS" lines (the blocks that ran
inside an interval); KALLSYMS_DIR the guest's kallsyms.CONFIG files
(tests/bench/guest.sh -P); GUEST_OUTPUT its "I ROUND CONFIG INTERVALS
CALLS" lines, which say how many calls the intervals held. Prints the
instructions per call by function, the most first: where a probe's
instructions go (run it with one configuration, tests/bench/run.sh
--profile -c CONFIG, and once with -c none to see the call without it).
"""
import argparse
import bisect
import glob
import os
import sys


def load_syms(path):
    """Text symbols, sorted: (address, name [module])."""
    syms = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or parts[1] not in "TtWw":
                continue
            addr = int(parts[0], 16)
            if not addr:
                continue
            name = parts[2] + (" " + parts[3] if len(parts) > 3 else "")
            syms.setdefault(addr, name)
    out = sorted(syms.items())
    return [a for a, _ in out], [n for _, n in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile")
    ap.add_argument("kallsyms_dir")
    ap.add_argument("guest_output")
    ap.add_argument("-n", "--top", type=int, default=40)
    a = ap.parse_args()

    files = sorted(glob.glob(os.path.join(a.kallsyms_dir, "kallsyms.*")))
    if not files:
        sys.exit("profile.py: no kallsyms.* in %s (guest.sh -P)"
                 % a.kallsyms_dir)
    configs, calls = set(), 0
    with open(a.guest_output) as f:
        for line in f:
            p = line.split()
            if len(p) == 5 and p[0] == "I":
                configs.add(p[2])
                calls += int(p[3]) * int(p[4])
    if not calls:
        sys.exit("profile.py: no I lines in %s" % a.guest_output)
    # the module addresses of the last configuration's symbols
    addrs, names = load_syms(files[-1])
    per = {}
    total = 0
    with open(a.profile) as f:
        for line in f:
            va, n, runs = line.split()
            va, insns = int(va, 16), int(n) * int(runs)
            total += insns
            if va < 1 << 63:
                name = "[user]"
            else:
                i = bisect.bisect_right(addrs, va) - 1
                name = names[i] if i >= 0 else "[unknown]"
            per[name] = per.get(name, 0) + insns
    print("# %s: %d calls in intervals, %.1f instructions a call "
          "(configurations: %s)" % (os.path.basename(a.profile), calls,
                                    total / calls, " ".join(sorted(configs))))
    if len(configs) > 1:
        print("# several configurations: the figures mix them")
    print("%10s  %s" % ("insns/call", "function"))
    for name, insns in sorted(per.items(), key=lambda x: -x[1])[:a.top]:
        print("%10.1f  %s" % (insns / calls, name))


if __name__ == "__main__":
    main()
