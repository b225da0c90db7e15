#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn tests/bench/guest.sh's raw lines into the benchmark's Markdown.

    report.py [RAW] [--insn RAW --insn-counts FILE] [--many-cpus OUT]
              [--doc FILE [--doc-kernel K]] [--command CMD] [--conditions TEXT]
              [--insn-conditions TEXT] [--many-cpus-conditions TEXT]

RAW: the time guest's output. --insn: the instruction guest's output
(guest.sh -i), with --insn-counts the TCG plugin's counts, one line
"COUNT VCPU" per interval, in the order of the guest's I lines.
--many-cpus: the output of tests/vm/many-cpus.sh in a 64-vCPU guest.

Prints the results sections. With --doc, also replaces the parts of FILE
between the bench:results, bench:insn, bench:globs and bench:many-cpus
markers with them, or with --doc-kernel K other than 6.1 between
bench:results:K and so on (the rest of FILE, the hand-written reading of
the numbers, is left alone). In FILE, prose is wrapped at 72 columns
(wrap_md; table rows, indented code and fenced blocks are not); what is
printed keeps one line an item, for whoever greps it.
"""
import argparse
import os
import re
import statistics
import sys
import time

# The kernel whose blocks carry no kernel in their markers: run.sh's default.
DOC_KERNEL = "6.1"


def markers(block, kernel):
    """The markers around BLOCK (results, scale, insn, globs, many-cpus) of
    KERNEL's run in the doc: bench:insn for 6.1's, bench:insn:6.12 for
    `run.sh -k 6.12`'s, so each kernel's make bench rewrites its own."""
    tag, cmd = block, "tests/bench/run.sh"
    if kernel != DOC_KERNEL:
        tag, cmd = f"{block}:{kernel}", f"{cmd} -k {kernel}"
    return (f"<!-- bench:{tag}:begin ({cmd} rewrites this part) -->",
            f"<!-- bench:{tag}:end -->")

# (config, label, the empty probe it is compared with)
ROWS = [
    ("none", "no probe", None),
    ("kprobe_empty", "empty kprobe (the floor)", "kprobe_empty"),
    ("rawprobe_kprobe", "rawprobe kprobe + record, `stream` > /dev/null",
     "kprobe_empty"),
    ("rawprobe_kprobe_ring",
     "rawprobe kprobe + record, overwrite, no reader (diagnosis)",
     "kprobe_empty"),
    ("rawprobe_kprobe_kprobes_ring", "rawprobe kprobe + record, armed by "
     "kprobes (`RAWPROBE_ARM=kprobes`), overwrite, no reader",
     "kprobe_empty"),
    ("rawprobe_kprobe_mono", "rawprobe kprobe + record, `ring set clock "
     "mono` (the fallback), `stream` > /dev/null", "kprobe_empty"),
    ("ftrace_kprobe", "ftrace `p:` event, `trace_pipe` reader", "kprobe_empty"),
    ("bpftrace_kprobe", "bpftrace kprobe, `printf` per hit", "kprobe_empty"),
    ("kretprobe_empty", "empty kretprobe (the floor)", "kretprobe_empty"),
    ("rawprobe_kretprobe", "rawprobe kretprobe + record, `stream` > /dev/null",
     "kretprobe_empty"),
    ("rawprobe_kretprobe_ring",
     "rawprobe kretprobe + record, overwrite, no reader (diagnosis)",
     "kretprobe_empty"),
    ("rawprobe_kretprobe_mono", "rawprobe kretprobe + record, `ring set "
     "clock mono` (the fallback), `stream` > /dev/null", "kretprobe_empty"),
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
    ("rawprobe_filter_str_ring", "rawprobe kprobe on `pid_vnr` + `--filter "
     "'pid:str != \"x\"'` (a string term, passes), overwrite, no reader",
     "kprobe_empty"),
    ("rawprobe_filter_glob_ring", "… + `--filter 'pid:str !~ \"*x*\"'` "
     "(a glob, passes), overwrite, no reader", "kprobe_empty"),
    ("rawprobe_cgroup_ring", "rawprobe kprobe + record, `--cgroup` the "
     "root cgroup (passes), overwrite, no reader", "kprobe_empty"),
    ("rawprobe_override_skip", "rawprobe `--override -1 --comm X`, every "
     "hit filtered (the function runs)", "kprobe_empty"),
    ("rawprobe_count", "rawprobe `probe add --count` (counted in the "
     "kernel, no record)", "kprobe_empty"),
    ("rawprobe_count_comm", "rawprobe `--count --by comm`", "kprobe_empty"),
    ("rawprobe_count_stack", "rawprobe `--count --by stack`",
     "kprobe_empty"),
    ("rawprobe_hist_latency", "rawprobe kretprobe `--stats latency --hist "
     "log2`", "kretprobe_empty"),
    ("cmd_trace", "`rawprobectl trace kprobe:X` > file, as typed",
     "kprobe_empty"),
    ("cmd_count", "`rawprobectl count kprobe:X`, as typed", "kprobe_empty"),
    ("cmd_count_comm", "`rawprobectl count kprobe:X --by comm`, as typed",
     "kprobe_empty"),
    ("cmd_hist", "`rawprobectl hist kretprobe:X`, as typed",
     "kretprobe_empty"),
    ("cmd_count_latency", "`rawprobectl count kretprobe:X --stats latency "
     "--hist log2`, as typed", "kretprobe_empty"),
    ("bpftrace_count", "bpftrace `@ = count()`", "kprobe_empty"),
    ("bpftrace_count_comm", "bpftrace `@[comm] = count()`", "kprobe_empty"),
    ("bpftrace_count_stack", "bpftrace `@[kstack] = count()`",
     "kprobe_empty"),
    ("bpftrace_hist_latency", "bpftrace `@ = hist(nsecs - @s[tid])` "
     "(kprobe + kretprobe)", "kretprobe_empty"),
    ("cmd_latency", "`rawprobectl latency --key pid --from kprobe:X --to "
     "kprobe:pid_vnr`, as typed (a pair: two entry probes armed through "
     "ftrace, one table)",
     "kretprobe_empty"),
    ("bpftrace_pair_latency", "bpftrace `@s[tid] = nsecs` at X, `@ = "
     "hist(nsecs - @s[tid]); delete(@s[tid])` at pid_vnr (two kprobes, "
     "a hash map)", "kretprobe_empty"),
    ("ftrace_hist_pid", "ftrace hist trigger `hist:keys=common_pid` on a "
     "`p:` event", "kprobe_empty"),
    ("tracepoint_empty", "empty probe on the `raw_syscalls:sys_enter` "
     "tracepoint (its floor: the syscall's slow entry included)",
     "tracepoint_empty"),
    ("cmd_tp_count", "`rawprobectl count tracepoint:raw_syscalls:sys_enter`,"
     " as typed", "tracepoint_empty"),
    ("rawprobe_tp_ring", "rawprobe tracepoint + record "
     "(`raw_syscalls:sys_enter`), overwrite, no reader", "tracepoint_empty"),
    ("bpftrace_tp_count", "bpftrace `tracepoint:raw_syscalls:sys_enter "
     "{ @ = count(); }`", "tracepoint_empty"),
    ("perf_tp_count", "perf `stat -a -e raw_syscalls:sys_enter` (counting)",
     "tracepoint_empty"),
    ("perf_tp_record", "perf `record -a -e raw_syscalls:sys_enter` "
     "(a sample a hit, to its ring and a file)", "tracepoint_empty"),
    ("cmd_sys_count", "`rawprobectl count tracepoint:syscalls:sys_enter_"
     "getpgid`, as typed (on `raw_syscalls:sys_enter`, by number)",
     "tracepoint_empty"),
    ("cmd_sys_glob_count", "`rawprobectl count 'tracepoint:syscalls:"
     "sys_enter_*'`, as typed (a probe per syscall, one dispatcher: a "
     "lookup by number)",
     "tracepoint_empty"),
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
    ("rawprobe_count", 1.15),
    ("rawprobe_count_comm", 1.25),
    ("rawprobe_hist_latency", 1.3),
    ("rawprobe_kprobe", 1.3),
    ("rawprobe_kretprobe", 1.3),
    ("cmd_trace", 1.3),
    ("cmd_count", 1.15),
    ("cmd_count_comm", 1.25),
    ("cmd_hist", 1.3),
    ("cmd_count_latency", 1.3),
]
# The instruction count also holds each target's _ring row (the same
# probe, no reader) to it; a persistent kprobe with no reader to 1.2x
RING_TARGETS = {"rawprobe_kprobe_ring": 1.2}

# Rows that may cost no more than another (config, the row to stay
# under, why): a pair against the kretprobe latency histogram of the
# same call it replaces; a tracepoint's count against the empty kprobe
# (no breakpoint, no ftrace hop)
PAIR_TARGETS = [
    ("cmd_latency", "cmd_hist", "the same call's kretprobe latency histogram"),
    ("cmd_tp_count", "kprobe_empty", "the empty kprobe"),
]


def pair_targets(over, unit):
    """Each row against the one it must stay under."""
    out = []
    for cfg, other, why in PAIR_TARGETS:
        if over.get(cfg) is None or not over.get(other):
            continue
        out.append(f"- {cfg} ≤ {other} ({why}): {over[cfg]:+,.0f} vs "
                   f"{over[other]:+,.0f} {unit} — "
                   f"{'met' if over[cfg] <= over[other] else 'MISSED'}")
    return out


SCALE_TOOLS = [  # S lines' tool, its row
    ("rawprobe", "rawprobe"),
    ("rawprobe_kprobes", "rawprobe, `RAWPROBE_ARM=kprobes`"),
    ("ftrace", "ftrace"),
    ("rawprobe_reversed", "rawprobe, list reversed"),
    ("ftrace_reversed", "ftrace, list reversed"),
    ("rawprobe_unarmed", "rawprobe unarmed"),
    ("ftrace_unarmed", "ftrace unarmed"),
]

# The instruction count's rows: the time rows and these
INSN_ROWS = ROWS[:4] + [
    ("rawprobe_jprobe", "rawprobe jprobe-style, `--args auto`, `stream` > "
     "/dev/null", "kprobe_empty"),
    ("rawprobe_jprobe_ring", "rawprobe jprobe-style, `--args auto`, "
     "overwrite, no reader", "kprobe_empty"),
    ("rawprobe_kprobe_ring_1000", "rawprobe kprobe + record, overwrite, "
     "no reader, 1,000 other probes registered (disabled)", "kprobe_empty"),
    ("kprobe_empty_1000", "empty kprobe, 1,000 kprobes registered "
     "(disabled, `RAWPROBE_ARM=kprobes`)", "kprobe_empty"),
    ("rawprobe_kprobe_mono_ring", "rawprobe kprobe + record, mono clock, "
     "overwrite, no reader", "kprobe_empty"),
    ("rawprobe_kretprobe_mono_ring", "rawprobe kretprobe + record, mono clock, "
     "overwrite, no reader", "kretprobe_empty"),
] + ROWS[4:]

# The staircase: (config, step, the row before it); the first of each
# kind is compared with its empty probe
STAIRS = [
    ("kprobe", [
        ("kprobe_empty", "empty kprobe handler (the floor)", None),
        ("step1_kprobe_ring", "counts the hit, returns", "kprobe_empty"),
        ("step2_kprobe_ring", "+ reserve and commit", "step1_kprobe_ring"),
        ("step3_kprobe_ring", "+ the header (pid, tgid, comm, cpu, id, "
         "kind, address, zeroed fields)", "step2_kprobe_ring"),
        ("rawprobe_kprobe_ring", "+ the clock (tsc): the record as shipped",
         "step3_kprobe_ring"),
        ("rawprobe_jprobe_ring", "+ typed arguments (jprobe-style, "
         "`--args auto`)", "rawprobe_kprobe_ring"),
        ("rawprobe_kprobe", "the shipped record with a `stream` reader "
         "(wakeups)", "rawprobe_kprobe_ring"),
        ("rawprobe_kprobe_mono_ring", "the mono clock instead, the fallback "
         "(`ring set clock mono`), no reader", "step3_kprobe_ring"),
    ]),
    ("kretprobe", [
        ("kretprobe_empty", "empty kretprobe handlers (the floor)", None),
        ("step1_kretprobe_ring", "counts the hit, returns",
         "kretprobe_empty"),
        ("step2_kretprobe_ring", "+ reserve and commit",
         "step1_kretprobe_ring"),
        ("step3_kretprobe_ring", "+ the header", "step2_kretprobe_ring"),
        ("rawprobe_kretprobe_ring", "+ both clock reads: the record as "
         "shipped", "step3_kretprobe_ring"),
        ("rawprobe_kretprobe", "the shipped record with a `stream` reader "
         "(wakeups)", "rawprobe_kretprobe_ring"),
        ("rawprobe_kretprobe_mono_ring", "both clock reads of the mono clock "
         "instead, no reader", "step3_kretprobe_ring"),
    ]),
]


def fields(path):
    """The guest's lines, split, the empty ones left out."""
    for line in open(path, errors="replace"):
        f = line.split()
        if f:
            yield f


def parse(path):
    # config -> {round: [ns, calls, produced, delivered, lost, sched,
    # drain]}; sched: the reader's (longest wait, total wait, involuntary
    # switches, CPU time) over the workload, ms (W lines), or None; drain:
    # its (ns a record in full batches, largest backlog) (D lines), or None
    runs = {}
    warmup = {}        # config -> the warm-up round's [ns, ..., lost]
    sched = {}
    drain = {}
    unavailable = {}   # config -> reason
    scale = []         # (tool, n, add ms, remove ms, armed)
    kernel = cpus = "?"
    for f in fields(path):
        if f[0] == "K" and len(f) >= 3:
            kernel, cpus = f[1], f[2]
        elif f[0] == "R" and len(f) == 8:
            num = [None if x == "-" else float(x) for x in f[3:]]
            if int(f[1]) == 0:
                warmup[f[2]] = num      # counted for losses only
                continue
            runs.setdefault(f[2], {})[int(f[1])] = num
        elif f[0] == "U" and len(f) >= 2:
            unavailable[f[1]] = " ".join(f[2:])
        elif f[0] == "S" and len(f) == 6:
            scale.append((f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5])))
        elif f[0] == "W" and len(f) == 11:
            b, a = [float(x) for x in f[3:7]], [float(x) for x in f[7:]]
            sched[(f[2], int(f[1]))] = (a[0], a[1] - b[1], a[2] - b[2],
                                        a[3] - b[3])
        elif f[0] == "D" and len(f) == 5:
            drain[(f[2], int(f[1]))] = (float(f[3]), int(f[4]))
    for cfg, rounds in runs.items():
        for n, r in rounds.items():
            r.append(sched.get((cfg, n)))
            r.append(drain.get((cfg, n)))
    for cfg, w in warmup.items():
        w.append(sched.get((cfg, 0)))
        w.append(drain.get((cfg, 0)))
    return runs, unavailable, scale, kernel, cpus, warmup


def reader_headroom(r, w=None):
    """The stream reader's speed against the workload's (guest.sh D
    lines, from its drain log): a reader slower than the calls it reads
    only falls behind, and loses once the ring is full. The largest
    backlog counts the warm-up round w too, as the losses do."""
    d = [(x[6][0], x[6][1], x[0]) for x in r.values()
         if len(x) > 6 and x[6]]
    if not d:
        return None
    backlog = max(x[1] for x in d)
    warm = w[6][1] if w and len(w) > 6 and w[6] else 0
    reader = statistics.median(x[0] for x in d)
    calls = statistics.median(x[2] for x in d)
    slower = sum(1 for x in d if x[0] > x[2])
    return (f"the reader: {reader:,.0f} ns a record in full batches "
            f"(median round; {max(x[0] for x in d):,.0f} in the slowest) "
            f"against {calls:,.0f} ns a call; slower than the calls in "
            f"{slower} of {len(d)} rounds; largest backlog "
            f"{max(backlog, warm):,} records"
            + (" (in the warm-up round)" if warm > backlog else ""))


def losing_rounds(r):
    """The rounds that lost records, with what the guest's scheduler did
    to the reader in each (guest.sh reader_sched)."""
    out = []
    for n, x in sorted(r.items()):
        if not x[4]:
            continue
        text = f"round {n}: {int(x[4]):,}"
        if x[5]:
            wmax, wsum, inv, cpu = x[5]
            text += (f" (the reader waited for its CPU {wmax:.1f} ms at "
                     f"most, {wsum:.1f} ms in all, {int(inv)} involuntary "
                     f"switches, {cpu:.0f} ms on CPU)")
        out.append(text)
    return "; ".join(out)


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


def section(runs, unavailable, kernel, cpus, command, conditions,
            when, warmup=None):
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
    out += pair_targets(over, "ns/call")
    for cfg in ("rawprobe_kprobe", "rawprobe_kretprobe",
                "rawprobe_kprobe_mono", "rawprobe_kretprobe_mono"):
        r = runs.get(cfg)
        if not r:
            continue
        lost = sum(x[4] or 0 for x in r.values())
        prod = sum(x[2] or 0 for x in r.values())
        # every round, the warm-up too: a stream must lose nothing at all
        w = (warmup or {}).get(cfg)
        wlost = (w[4] or 0) if w else 0
        out.append(f"- {cfg}, zero records lost with the default ring: "
                   f"{int(lost):,} of {int(prod):,} lost"
                   + (f", and {int(wlost):,} in the warm-up round"
                      if wlost else "")
                   + f" — {'met' if lost + wlost == 0 else 'MISSED'}")
        if lost:
            out.append(f"  - {losing_rounds(r)}")
        headroom = reader_headroom(r, w)
        if headroom:
            out.append(f"  - {headroom}")
    waits = [x[5][0] for c in runs.values() for x in c.values() if x[5]]
    if waits:
        out.append(f"- not a target, for the losses above: the stream "
                   f"readers' longest wait for their CPU in "
                   f"the guest, over every round: {max(waits):.1f} ms "
                   f"(median round {statistics.median(waits):.1f} ms)")
    return "\n".join(out) + "\n"


def scale_section(scale, scale_conditions):
    """Adding and removing many kprobes: a block of its own (bench:scale),
    so that a run without --scale keeps the last one's."""
    out = []
    reversed_text = (", then (`--scale-reversed`) the same list reversed"
                     if any(t.endswith("_reversed") for t, *_ in scale)
                     else "")
    out.append("Adding and removing many kprobes on the same "
               "functions: rawprobe `probe add kprobe -` (batches of "
               "up to 1,024, armed through rawprobe's ftrace_ops, one "
               "ftrace update a batch) and `probe del all`; the same "
               "with `RAWPROBE_ARM=kprobes` (each probe armed by "
               "kprobes, as ftrace's are); ftrace `p:` lines appended "
               "to `kprobe_events`, the group enabled, then disabled "
               "and `kprobe_events` cleared. All get the same sorted "
               f"list{reversed_text}: kprobes arm rawprobe's in "
               "the order given, ftrace's group enable newest-first, "
               "so one of them arms the `__` functions first (among "
               "them the allocator's and the scheduler's, which every "
               "later arm calls and so hits), and at 10,000 the order "
               "is what separates them (see \"Adding and removing\" "
               "below). Unarmed: the same probes "
               "registered without arming them (rawprobe `--disabled`, "
               "ftrace events never enabled), so the difference is the "
               "arming. Armed: what the kprobes debugfs list shows not "
               "disabled once they are added, and the functions "
               "rawprobe's ftrace_ops traces. In a guest of its own: "
               f"{scale_conditions}\n")
    out += scale_table(scale)
    return "\n".join(out) + "\n"


def scale_table(scale):
    """The add/remove table, then the adds compared in one arming order."""
    out = []
    ns = sorted({n for _, n, _, _, _ in scale})
    out.append("| | " + " | ".join(f"{n:,}: add | remove | armed"
                                    for n in ns) + " |")
    out.append("|---|" + "---:|---:|---:|" * len(ns))
    by = {(t, n): (a, r, k) for t, n, a, r, k in scale}
    for tool, label in SCALE_TOOLS:
        if not any((tool, n) in by for n in ns):
            continue
        cells = []
        for n in ns:
            x = by.get((tool, n))
            cells += ([f"{x[0] / 1000:.1f} s", f"{x[1] / 1000:.1f} s",
                       f"{x[2]:,}"] if x else ["failed", "", ""])
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    orders = [("the `__` functions armed last", "rawprobe_reversed",
               "ftrace"),
              ("the `__` functions armed first", "rawprobe",
               "ftrace_reversed")]
    lines = []
    for n in ns:
        for what, rp, ft in orders:
            if (rp, n) not in by or (ft, n) not in by:
                continue
            a, b = by[(rp, n)][0], by[(ft, n)][0]
            lines.append(f"- add {n:,} no slower than ftrace, {what}: "
                         f"rawprobe {a / 1000:.1f} s, ftrace "
                         f"{b / 1000:.1f} s ({a / b:.2f}×) — "
                         f"{'met' if a <= b else 'MISSED'}")
    if lines:
        out.append("\nThe same arming order for both tools:\n")
        out += lines
    return out


def parse_insn(raw, counts_path):
    """{config: {round: [instructions per call, one per interval]}}."""
    counts = []
    for line in open(counts_path, errors="replace"):
        f = line.split()
        if len(f) == 2 and not line.startswith("#"):
            counts.append(int(f[0]))
    per_call = {}
    unavailable = {}
    kernel = cpus = "?"
    used = 0
    shapes = set()
    for f in fields(raw):
        if f[0] == "K" and len(f) >= 3:
            kernel, cpus = f[1], f[2]
        elif f[0] == "U" and len(f) >= 2:
            unavailable[f[1]] = " ".join(f[2:])
        elif f[0] == "I" and len(f) == 5:
            rnd, cfg, k, n = int(f[1]), f[2], int(f[3]), int(f[4])
            shapes.add((k, n))
            got = counts[used:used + k]
            used += k
            if len(got) < k:
                raise SystemExit(f"report: {counts_path} has {len(counts)} "
                                 f"intervals, fewer than the I lines ask")
            if rnd:     # round 0 is the warm-up
                per_call.setdefault(cfg, {})[rnd] = [c / n for c in got]
    if used != len(counts):
        raise SystemExit(f"report: {counts_path} has {len(counts)} intervals,"
                         f" the I lines {used}: they do not line up")
    return per_call, unavailable, kernel, cpus, shapes


def insn_stats(per_call):
    """config -> (median, mean, spread): the median interval of each round,
    their median; the mean of all intervals (ticks and wakeups included);
    the rounds' range over the median."""
    out = {}
    for cfg, rounds in per_call.items():
        meds = [statistics.median(v) for v in rounds.values()]
        med = statistics.median(meds)
        allv = [x for v in rounds.values() for x in v]
        spread = (max(meds) - min(meds)) / med if med else 0.0
        out[cfg] = (med, statistics.fmean(allv), spread)
    return out


def insn_section(per_call, unavailable, kernel, cpus, shapes, command,
                 conditions, when):
    st = insn_stats(per_call)
    nrounds = max((len(r) for r in per_call.values()), default=0)
    base = st.get("none", (None,))[0]
    over = {c: v[0] - base for c, v in st.items()} if base else {}
    out = [f"Measured {time.strftime('%Y-%m-%d', time.localtime(when))} on "
           f"Linux {kernel} ({cpus} vCPUs) with:\n\n    {command}\n",
           "Guest instructions per getpgid call on the workload's vCPU, "
           "user and kernel together, counted by the TCG plugin "
           "tools/tcg-insn between the markers of "
           "build/tcg-insn/getpgid_marked; each run is "
           f"{' or '.join(f'{k} intervals of {n:,} calls' for k, n in sorted(shapes))}"
           ", a configuration's figure the median interval of "
           f"each of {nrounds} rounds (after a warm-up round), then the "
           "median of those. Mean: every interval's, timer ticks and "
           "reader wakeups included. Spread: the rounds' range over the "
           f"figure. {conditions}\n",
           "| configuration | instructions/call | spread | overhead vs no "
           "probe | × empty probe | mean |",
           "|---|---:|---:|---:|---:|---:|"]
    for cfg, label, floor in INSN_ROWS:
        if cfg in unavailable:
            out.append(f"| {label} | unavailable: {unavailable[cfg]} "
                       "| | | | |")
            continue
        if cfg not in st:
            continue
        med, mean, spread = st[cfg]
        ratio = "–"
        if floor and cfg != floor and over.get(floor):
            ratio = f"{over[cfg] / over[floor]:.2f}"
        ovs = "–" if cfg == "none" or cfg not in over else f"{over[cfg]:+,.0f}"
        out.append(f"| {label} | {med:,.1f} | {spread * 100:.2f}% | {ovs} | "
                   f"{ratio} | {mean:,.1f} |")
    out.append("")
    for kind, steps in STAIRS:
        rows = [(c, what, prev) for c, what, prev in steps if c in over]
        if len(rows) < 2:
            continue
        out.append(f"The {kind} record path, a step at a time (copies of "
                   "the core cut short at each step, `make bench-steps`; "
                   "overhead over no probe):\n")
        out.append("| step | overhead | × empty | this step adds |")
        out.append("|---|---:|---:|---:|")
        floor = steps[0][0]
        for cfg, what, prev in rows:
            ratio = (f"{over[cfg] / over[floor]:.2f}" if over.get(floor)
                     else "–")
            add = (f"{over[cfg] - over[prev]:+,.0f}" if prev in over
                   else "")
            out.append(f"| {what} | {over[cfg]:+,.0f} | {ratio} | {add} |")
        out.append("")
    out.append("Targets, in instructions:\n")
    for cfg, limit in TARGETS:
        for c in (cfg + "_ring", cfg):
            floor = next((f for r, _, f in INSN_ROWS if r == c), None)
            if c not in over or not over.get(floor):
                continue
            lim = RING_TARGETS.get(c, limit)
            ratio = over[c] / over[floor]
            out.append(f"- {c} ≤ {lim}× {floor}: {ratio:.2f}× — "
                       f"{'met' if ratio <= lim else 'MISSED'}")
    out += pair_targets(over, "instructions/call")
    for mine in ("rawprobe_kprobe", "rawprobe_kprobe_mono"):
        for other in ("ftrace_kprobe", "bpftrace_kprobe"):
            if mine in over and over.get(other):
                share = over[mine] / over[other]
                out.append(f"- {mine}'s added instructions ≤ 1/3 of "
                           f"{other}'s: {share:.2f} — "
                           f"{'met' if share <= 1 / 3 else 'MISSED'}")
    if "rawprobe_kprobe_ring_1000" in st and "rawprobe_kprobe_ring" in st:
        r = st["rawprobe_kprobe_ring_1000"][0] / st["rawprobe_kprobe_ring"][0]
        out.append(f"- one probe with 1,000 others registered within 5% of "
                   f"one alone, per call: {(r - 1) * 100:+.1f}% — "
                   f"{'met' if r <= 1.05 else 'MISSED'}")
        if "kprobe_empty_1000" in st and "kprobe_empty" in st:
            d = st["kprobe_empty_1000"][0] - st["kprobe_empty"][0]
            out.append(f"  (the empty kprobe with 1,000 kprobes: "
                       f"{d:+,.0f} instructions per call, kprobes' "
                       f"table lookup)")
    worst = max((v[2] for v in st.values()), default=0)
    out.append(f"- repeat runs agree within 1% (the widest spread of any "
               f"row): {worst * 100:.2f}% — "
               f"{'met' if worst <= 0.01 else 'MISSED'}")
    return "\n".join(out) + "\n"


def parse_figures(path):
    """many-cpus.sh's "# figure: STEP KEY VALUE..." lines, its test
    results and the stream's summary lines ("#   ...")."""
    figs, results, summary = {}, [], []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("# figure: "):
            w = line[len("# figure: "):].split()
            figs[w[0]] = dict(zip(w[1::2], w[2::2]))
        elif line.startswith("#   ") and line.strip("# "):
            summary.append(line[4:])
        elif re.match(r"^(not )?ok - ", line):
            results.append(line)
    return figs, results, summary


def glob_rows(path):
    """The G lines by tool and glob, in order, each figure the median of
    the rounds; the kernel."""
    runs, kernel = {}, "?"
    for f in fields(path):
        if f[0] == "K" and len(f) >= 2:
            kernel = f[1]
        elif f[0] == "G" and len(f) in (7, 8):
            runs.setdefault((f[1], f[2]), []).append(
                [int(f[3])] + [None if x == "-" else int(x) for x in f[4:]])
        elif f[0] == "GS" and len(f) >= 4:
            runs.setdefault((f[1], f[2]), " ".join(f[3:]))
    med = lambda v: (None if any(x is None for x in v)
                     else int(statistics.median(v)))
    rows = []
    for (tool, glob), r in runs.items():
        if isinstance(r, str):
            rows.append((tool, glob, r, None))
        else:
            rows.append((tool, glob, [med(col) for col in zip(*r)], len(r)))
    return rows, kernel


def glob_targets(rows):
    """Each glob's rawprobe against bpftrace, start-ups taken out of both."""
    out, by = [], {(t, g): v for t, g, v, n in rows if n}
    for tool, glob, v, n in rows:
        if tool != "rawprobe" or not n or len(v) < 5 or v[4] is None:
            continue
        bt = by.get(("bpftrace_multi", glob)) or by.get(("bpftrace", glob))
        if not bt:
            continue
        ours = v[2] + v[3] - 2 * v[4]
        theirs = bt[2] - bt[3]
        out.append(f"- `{glob}` ({v[0]:,} functions), armed and disarmed, "
                   f"start-ups out: rawprobe {ours / 1000:.2f} s ≤ "
                   f"bpftrace {theirs / 1000:.2f} s — "
                   + ("met" if ours <= theirs else "MISSED"))
    return out


def glob_section(path, command, conditions):
    """G lines: a glob armed and disarmed, rawprobe beside bpftrace."""
    rows, kernel = glob_rows(path)
    if not rows:
        raise SystemExit("report: no glob results in " + path)
    rounds = max((n for *_, n in rows if n), default=1)
    out = [f"Measured {time.strftime('%Y-%m-%d', time.localtime(os.path.getmtime(path)))} "
           f"on Linux {kernel} with:\n\n    {command}\n",
           f"Wall-clock time, the median of {rounds} runs (rawprobe_kprobes: "
           "one), rawprobe and bpftrace in turn. rawprobe: `probe add kprobe "
           "GLOB` (the expansion, then batches of up to 1,024, each batch armed "
           "in one ftrace update through rawprobe's ftrace_ops) and "
           "`probe del` of its ids; expand: the same `probe add "
           "--dry-run`, the CLI's part of arm (ftrace's list, the "
           "blacklist, kallsyms); start-up: a run of `rawprobectl "
           "version`, which arm and disarm each pay once. "
           "rawprobe_kprobes: the same with "
           "`RAWPROBE_ARM=kprobes`, each probe armed by kprobes as it is "
           "registered. bpftrace: a run of `kprobe:GLOB { } BEGIN "
           "{ exit(); }` (BEGIN runs once every probe is attached; exit "
           "detaches them), and less a run of `BEGIN { exit(); }` alone, "
           "its start-up (parsing, BTF, code generation): what attaching "
           "and detaching took. bpftrace_multi: with kprobe.multi (one "
           f"fprobe for the lot). In a guest of its own: {conditions}\n",
           "| tool | glob | probes | expand | arm | disarm | arm + disarm |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for tool, glob, v, n in rows:
        if n is None:
            out.append(f"| {tool} | `{glob}` | – | – | – | – | not run: "
                       f"{v} |")
        elif tool.startswith("rawprobe"):
            x, a, b = v[1], v[2], v[3]
            up = (f" ({(a + b - 2 * v[4]) / 1000:.2f} s less two start-ups "
                  f"of {v[4] / 1000:.2f} s)" if len(v) > 4 and v[4] else "")
            out.append(f"| {tool} | `{glob}` | {v[0]:,} | {x / 1000:.2f} s "
                       f"| {a / 1000:.2f} s | {b / 1000:.2f} s "
                       f"| {(a + b) / 1000:.2f} s{up} |")
        else:
            a, b = v[2], v[3]
            out.append(f"| {tool} | `{glob}` | {v[0]:,} attached | – | – | – "
                       f"| {(a - b) / 1000:.2f} s (run {a / 1000:.2f} s, "
                       f"start-up {b / 1000:.2f} s) |")
    targets = glob_targets(rows)
    if targets:
        out += ["", "Targets:", ""] + targets
    return "\n".join(out) + "\n"


def many_cpus_section(path, command, conditions):
    figs, results, summary = parse_figures(path)
    if "cpus" not in figs:
        raise SystemExit("report: no figures in " + path)
    f = lambda step, key: figs.get(step, {}).get(key, "?")
    kib = lambda step, key: (f"{int(f(step, key)) / 1024:,.1f} MiB"
                             if f(step, key).lstrip("-").isdigit() else "?")
    failed = [r for r in results if r.startswith("not ok")]
    out = [f"From `{command}`, "
           f"{time.strftime('%Y-%m-%d', time.localtime(os.path.getmtime(path)))}"
           f", tests/vm/many-cpus.sh in a guest of {f('cpus', 'possible')} "
           f"vCPUs ({f('cpus', 'online')} online). {conditions}", "",
           "| step | time | memory |", "|---|---:|---:|",
           f"| insmod: no ring (`allocated_bytes` 0) | {f('insmod', 'ms')} ms"
           f" | MemFree −{kib('insmod', 'memfree_drop_kib')} (the module"
           " itself, read over 9p) |",
           f"| first probe: {f('first_probe', 'records_per_cpu')} records "
           f"× {f('cpus', 'possible')} rings | {f('first_probe', 'ms')} ms | "
           f"{kib('first_probe', 'ring_kib')} of rings, "
           f"{kib('first_probe', 'charged_kib')} charged to the adder's "
           f"cgroup |",
           f"| stream: every CPU reads a file 20 times | "
           f"{f('stream', 'ms')} ms | |",
           f"| rmmod | | {kib('rmmod', 'uncharged_kib')} uncharged, MemFree "
           f"+{kib('rmmod', 'memfree_gain_kib')} |", ""]
    if summary:
        out += ["The stream's summary:", "", "```"] + summary + ["```", ""]
    out.append(f"{len(results) - len(failed)} of {len(results)} checks "
               "passed" + (": " + "; ".join(failed) if failed else "") + ".")
    return "\n".join(out) + "\n"


WIDTH = 72   # the doc's prose width; tables, code and fences keep theirs


def starts_block(word):
    """Whether a line beginning with word would start a Markdown block (a
    list item, heading, quote or table row) instead of going on with a
    paragraph."""
    return (word in ("-", "+", "*") or word.startswith(("#", ">", "|", "```"))
            or re.fullmatch(r"\d{1,9}[.)]", word) is not None)


def wrap_md(text, width=WIDTH):
    """The section's paragraphs and list items wrapped at width, as the
    rest of the doc is, so that Markdown renders the same: table rows,
    indented code and fenced blocks stay as written. A continuation line
    never begins with a word that would start a block."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        m = re.match(r"( *)([-*] )?", line)
        indent, bullet = m.group(1), m.group(2) or ""
        if (fenced or line.startswith("```") or not line.strip()
                or line.lstrip().startswith("|")
                or (len(indent) >= 4 and not bullet)
                or len(line) <= width):
            out.append(line)
            continue
        head = indent + bullet
        rest = " " * len(head)
        cur = head
        for word in line[len(head):].split():
            if (cur.strip() and len(cur) + 1 + len(word) > width
                    and not starts_block(word)):
                out.append(cur)
                cur = rest + word
            else:
                cur += ("" if cur == head or not cur.strip() else " ") + word
        out.append(cur)
    return "\n".join(out)


def replace_marked(doc, begin, end, text, path):
    pat = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if not pat.search(doc):
        raise SystemExit(f"report: no {begin} markers in {path}")
    return pat.sub(lambda m: begin + "\n" + text + end, doc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raw", nargs="?")
    ap.add_argument("--insn")
    ap.add_argument("--insn-counts")
    ap.add_argument("--doc")
    ap.add_argument("--command", default="tests/bench/run.sh")
    ap.add_argument("--conditions", default="")
    ap.add_argument("--insn-conditions", default="")
    ap.add_argument("--many-cpus")
    ap.add_argument("--many-cpus-conditions", default="")
    ap.add_argument("--scale-conditions", default="")
    ap.add_argument("--globs")
    ap.add_argument("--globs-conditions", default="")
    ap.add_argument("--doc-kernel", default=DOC_KERNEL)
    a = ap.parse_args()
    parts = []
    if a.raw:
        runs, unavailable, scale, kernel, cpus, warmup = parse(a.raw)
        if not runs and not scale:
            print("report: no results in " + a.raw, file=sys.stderr)
            return 1
        if runs:
            parts.append((*markers("results", a.doc_kernel), section(
                runs, unavailable, kernel, cpus, a.command,
                a.conditions, os.path.getmtime(a.raw), warmup)))
        if scale:
            parts.append((*markers("scale", a.doc_kernel),
                          scale_section(scale, a.scale_conditions)))
    if a.insn:
        if not a.insn_counts:
            ap.error("--insn needs --insn-counts")
        per_call, unavailable, kernel, cpus, shapes = parse_insn(
            a.insn, a.insn_counts)
        if not per_call:
            print("report: no instruction counts in " + a.insn,
                  file=sys.stderr)
            return 1
        parts.append((*markers("insn", a.doc_kernel), insn_section(
            per_call, unavailable, kernel, cpus, shapes, a.command,
            a.insn_conditions, os.path.getmtime(a.insn))))
    if a.many_cpus:
        parts.append((*markers("many-cpus", a.doc_kernel),
                      many_cpus_section(
                          a.many_cpus, a.command,
                          a.many_cpus_conditions)))
    if a.globs:
        parts.append((*markers("globs", a.doc_kernel), glob_section(
            a.globs, a.command, a.globs_conditions)))
    if not parts:
        ap.error("nothing to report: give RAW, --insn, --many-cpus or "
                 "--globs")
    # one line an item on stdout, for whoever greps it; wrapped in the doc
    for _, _, text in parts:
        print(text)
    if a.doc:
        doc = open(a.doc).read()
        for begin, end, text in parts:
            doc = replace_marked(doc, begin, end, wrap_md(text), a.doc)
        open(a.doc, "w").write(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
