#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn tests/bench/guest.sh's raw lines into the benchmark's Markdown.

    report.py RAW [--doc FILE] [--command CMD] [--conditions TEXT]

Prints the results section. With --doc, also replaces the part of FILE
between the bench:results markers with it (the rest of FILE, the
hand-written reading of the numbers, is left alone).
"""
import argparse
import os
import re
import statistics
import sys
import time

BEGIN = "<!-- bench:results:begin (tests/bench/run.sh rewrites this part) -->"
END = "<!-- bench:results:end -->"

# (config, label, the empty probe it is compared with)
ROWS = [
    ("none", "no probe", None),
    ("kprobe_empty", "empty kprobe (the floor)", "kprobe_empty"),
    ("rawprobe_kprobe", "rawprobe kprobe + record, `stream` > /dev/null",
     "kprobe_empty"),
    ("rawprobe_kprobe_ring",
     "rawprobe kprobe + record, overwrite, no reader (diagnosis)",
     "kprobe_empty"),
    ("ftrace_kprobe", "ftrace `p:` event, `trace_pipe` reader", "kprobe_empty"),
    ("bpftrace_kprobe", "bpftrace kprobe, `printf` per hit", "kprobe_empty"),
    ("kretprobe_empty", "empty kretprobe (the floor)", "kretprobe_empty"),
    ("rawprobe_kretprobe", "rawprobe kretprobe + record, `stream` > /dev/null",
     "kretprobe_empty"),
    ("rawprobe_kretprobe_ring",
     "rawprobe kretprobe + record, overwrite, no reader (diagnosis)",
     "kretprobe_empty"),
    ("ftrace_kretprobe", "ftrace `r:` event, `trace_pipe` reader",
     "kretprobe_empty"),
    ("rawprobe_args_auto_ring", "… + `--args auto` (pid), overwrite, no reader",
     "kprobe_empty"),
    ("rawprobe_filter_ring",
     "… + `--args auto --filter 'pid == 0'` (passes), overwrite, no reader",
     "kprobe_empty"),
    ("rawprobe_stack_ring", "… + `--stack`, overwrite, no reader",
     "kprobe_empty"),
    ("rawprobe_pid_vnr_ring", "rawprobe kprobe on `pid_vnr`, overwrite, "
     "no reader", "kprobe_empty"),
    ("rawprobe_field_ring", "… + `--args 'pid->numbers[0].nr'` (one field "
     "fetch), overwrite, no reader", "kprobe_empty"),
]

# What one option adds: (config, the row without it, what it is)
FEATURES = [
    ("rawprobe_args_auto_ring", "rawprobe_kprobe_ring",
     "`--args auto` (one syscall argument, typed from BTF)"),
    ("rawprobe_filter_ring", "rawprobe_args_auto_ring",
     "`--filter 'pid == 0'` (one term, every call passes)"),
    ("rawprobe_stack_ring", "rawprobe_kprobe_ring",
     "`--stack` (up to 16 callers)"),
    ("rawprobe_field_ring", "rawprobe_pid_vnr_ring",
     "one field fetch (`pid->numbers[0].nr`, a nofault load)"),
]

TARGETS = [  # config, max ratio to its empty probe
    ("rawprobe_kprobe", 1.3),
    ("rawprobe_kretprobe", 1.2),
]


def parse(path):
    runs = {}          # config -> {round: (ns, calls, produced, delivered, lost)}
    unavailable = {}   # config -> reason
    probes = None
    kernel = cpus = "?"
    for line in open(path, errors="replace"):
        f = line.split()
        if not f:
            continue
        if f[0] == "K" and len(f) >= 3:
            kernel, cpus = f[1], f[2]
        elif f[0] == "R" and len(f) == 8:
            if int(f[1]) == 0:
                continue    # the warm-up round
            num = [None if x == "-" else float(x) for x in f[3:]]
            runs.setdefault(f[2], {})[int(f[1])] = num
        elif f[0] == "U" and len(f) >= 2:
            unavailable[f[1]] = " ".join(f[2:])
        elif f[0] == "P" and len(f) == 3:
            probes = (int(f[1]), int(f[2]))
    return runs, unavailable, probes, kernel, cpus


def quartiles(v):
    if len(v) < 2:
        return v[0], v[0]
    q = statistics.quantiles(v, n=4, method="inclusive")
    return q[0], q[2]


def overhead(runs, cfg):
    """Median over rounds of (config - no probe) in the same round."""
    base = runs.get("none", {})
    d = [r[0] - base[n][0] for n, r in runs.get(cfg, {}).items() if n in base]
    return statistics.median(d) if d else None


def count(v):
    return f"{int(v):,}" if v is not None else "–"


def section(runs, unavailable, probes, kernel, cpus, command, conditions,
            when):
    out = []
    nrounds = max((len(r) for r in runs.values()), default=0)
    calls = {int(r[1]) for c in runs.values() for r in c.values()}
    out.append(f"Measured {time.strftime('%Y-%m-%d', time.localtime(when))} "
               f"on Linux {kernel} "
               f"({cpus} vCPUs) with:\n\n    {command}\n")
    out.append(f"{nrounds} rounds, each running every configuration once "
               f"(order rotated every round) around "
               f"{'/'.join(f'{c:,}' for c in sorted(calls))} getpgid calls "
               f"(median of 5 batches per run), after a warm-up round that "
               f"is not counted. {conditions}\n")
    out.append("| configuration | ns/call (median) | p25–p75 | overhead vs "
               "no probe | × empty probe | produced | delivered | lost |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    over = {c: overhead(runs, c) for c, _, _ in ROWS}
    for cfg, label, floor in ROWS:
        if cfg in unavailable:
            out.append(f"| {label} | unavailable: {unavailable[cfg]} "
                       "| | | | | | |")
            continue
        r = runs.get(cfg)
        if not r:
            continue
        ns = sorted(x[0] for x in r.values())
        lo, hi = quartiles(ns)
        ov = over[cfg]
        ratio = "–"
        if floor and cfg != floor and ov is not None and over.get(floor):
            ratio = f"{ov / over[floor]:.2f}"
        ovs = "–" if cfg == "none" or ov is None else f"{ov:+.0f} ns"
        tot = [None] * 3
        for i in range(3):
            vals = [x[2 + i] for x in r.values()]
            if all(v is not None for v in vals):
                tot[i] = sum(vals)
        out.append(f"| {label} | {statistics.median(ns):.0f} | "
                   f"{lo:.0f}–{hi:.0f} | {ovs} | {ratio} | {count(tot[0])} | "
                   f"{count(tot[1])} | {count(tot[2])} |")
    out.append("")
    out.append("Overhead: the median over rounds of (configuration − no "
               "probe) in the same round. × empty probe: that overhead over "
               "the empty kprobe's (kprobe rows) or the empty kretprobe's "
               "(kretprobe rows). Produced: the probe's own hit counter "
               "(rawprobe `hits`, ftrace `kprobe_profile`; bpftrace has "
               "none, so the calls made); delivered: records the reader "
               "got (diagnosis rows: records committed to the ring); lost: "
               "ring full (rawprobe), overruns and drops (ftrace), `Lost N "
               "events` (bpftrace). Totals over all rounds.\n")
    feats = [(c, b, what) for c, b, what in FEATURES
             if over.get(c) is not None and over.get(b) is not None]
    if feats:
        out.append("What each option adds to the record (its row's "
                   "overhead minus the row without it):\n")
        for cfg, base, what in feats:
            out.append(f"- {what}: {over[cfg] - over[base]:+.0f} ns/call "
                       f"({over[cfg]:.0f} vs {over[base]:.0f})")
        out.append("")
    out.append("Targets:\n")
    for cfg, limit in TARGETS:
        floor = next(f for c, _, f in ROWS if c == cfg)
        if over.get(cfg) is None or not over.get(floor):
            out.append(f"- {cfg}: not measured")
            continue
        ratio = over[cfg] / over[floor]
        out.append(f"- {cfg} ≤ {limit}× {floor}: {ratio:.2f}× — "
                   f"{'met' if ratio <= limit else 'MISSED'}")
    for cfg in ("rawprobe_kprobe", "rawprobe_kretprobe"):
        r = runs.get(cfg)
        if not r:
            continue
        lost = sum(x[4] or 0 for x in r.values())
        prod = sum(x[2] or 0 for x in r.values())
        out.append(f"- {cfg}, zero records lost with the default ring: "
                   f"{int(lost):,} of {int(prod):,} lost — "
                   f"{'met' if lost == 0 else 'MISSED'}")
    if probes:
        out.append(f"\nAdding 1,000 kprobes (`rawprobectl probe add kprobe -`, "
                   f"one batch): {probes[0] / 1000:.1f} s; removing them "
                   f"(`probe del all`): {probes[1] / 1000:.1f} s.")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raw")
    ap.add_argument("--doc")
    ap.add_argument("--command", default="tests/bench/run.sh")
    ap.add_argument("--conditions", default="")
    a = ap.parse_args()
    runs, unavailable, probes, kernel, cpus = parse(a.raw)
    if not runs:
        print("report: no results in " + a.raw, file=sys.stderr)
        return 1
    text = section(runs, unavailable, probes, kernel, cpus, a.command,
                   a.conditions, os.path.getmtime(a.raw))
    print(text)
    if a.doc:
        doc = open(a.doc).read()
        pat = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
        if not pat.search(doc):
            print(f"report: no results markers in {a.doc}", file=sys.stderr)
            return 1
        doc = pat.sub(lambda m: BEGIN + "\n" + text + END, doc)
        open(a.doc, "w").write(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
