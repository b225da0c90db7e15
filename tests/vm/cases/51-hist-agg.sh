# SPDX-License-Identifier: GPL-2.0
# hist with probes of its own counts in the kernel (RAWPROBE_F_AGG): a
# kretprobe's latency in log2 or linear buckets per comm, written as no
# record; its histograms hold every hit; -i prints intervals whose
# counts add up to the hits; an entry probe by comm counts its hits.

S=$T_SCRATCH
LOOP=build/tools/getpgid_loop
SYS=__x64_sys_getpgid

# summary_col ERRFILE PROBE COLUMN: a column of hist's summary line for
# PROBE (stderr: PROBE HITS RECORDS COUNTED DROPPED), 2 = HITS.
summary_col() {
	awk -v p="$2" -v c="$3" '$1 == p { print $c }' "$1"
}

# docs_sum FILE EXPR: EXPR of every JSON document of FILE (as d), added.
docs_sum() {
	python3 - "$1" "$2" <<'PY'
import json, sys
print(sum(eval(sys.argv[2], {"d": json.loads(l)}) for l in open(sys.argv[1]) if l.strip()))
PY
}

# While it runs the probe counts and records nothing; the histogram of
# getpgid_loop holds its calls exactly, all the histograms every hit.
t_hist_kernel_no_records() {
	local id j hits
	bg_start $S/lat.out -j hist kretprobe:$SYS --by comm -o $S/lat.json
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p['symbol'] == '$SYS'][0]")
	$LOOP -w 0 2000 >/dev/null
	j=$($CTL -j probe show "$id")
	expect_eq 0 "$(json_get "$j" 'j["stats"]["records"]')" "records while hist counts"
	expect_ge 2000 "$(json_get "$j" 'j["stats"]["hits"]')" "hits while hist counts"
	bg_stop INT
	schema hist $S/lat.json
	expect_eq 2000 "$(docs_sum $S/lat.json 'd["count"] if d["comm"] == "getpgid_loop" else 0')" \
		"getpgid_loop's calls in its histogram"
	expect_eq 0 "$(docs_sum $S/lat.json 'd["count"] - sum(b["count"] for b in d["buckets"])')" \
		"every count in a bucket"
	expect_eq 0 "$(docs_sum $S/lat.json 'int(d["min"] > d["max"] or d["sum"] < d["min"] * d["count"])')" \
		"min <= max, sum >= min x count"
	hits=$(summary_col $S/lat.out.err kretprobe:$SYS 2)
	expect_ge 2000 "$hits" "HITS in the summary"
	expect_eq "$hits" "$(docs_sum $S/lat.json 'd["count"]')" "the histograms' counts = HITS"
	expect_eq 0 "$(summary_col $S/lat.out.err kretprobe:$SYS 3)" "RECORDS in the summary"
}

# Text as hist prints it, linear buckets: the header with the sum, the
# bars, and the count in the buckets.
t_hist_kernel_linear_text() {
	bg_start $S/lin.txt hist kretprobe:$SYS --linear 1000000 --by comm
	$LOOP -w 0 300 >/dev/null
	bg_stop INT
	expect_match "^@kretprobe:$SYS\[getpgid_loop\], latency_ns \(linear\): count 300, sum [0-9]+, avg [0-9]+, min [0-9]+, max [0-9]+$" \
		"$(cat $S/lin.txt)" "header"
	expect_eq 300 "$(python3 - $S/lin.txt <<'PY'
import re, sys
on, n = False, 0
for l in open(sys.argv[1]):
    if l.startswith("@"):
        on = "[getpgid_loop]" in l
    elif on and re.search(r"\) +([0-9]+) \|", l):
        n += int(re.search(r"\) +([0-9]+) \|", l).group(1))
print(n)
PY
)" "getpgid_loop's bars add up"
	expect_match "^\[0, 1000000\) +[0-9]+ \|@+ *\|$" "$(cat $S/lin.txt)" "a bar of [0, 1ms)"
}

# -i: every interval printed and restarted; each hit in exactly one, so
# the intervals' counts add up to the probe's HITS.
t_hist_kernel_intervals() {
	local load hits
	bg_start $S/iv.out -j hist kretprobe:$SYS -i 0.3 -o $S/iv.json
	( while :; do $LOOP -w 0 200 >/dev/null; done ) &
	load=$!
	wait_for "[ \$(wc -l < $S/iv.json) -ge 4 ]" 150 ||
		fail "fewer than 4 intervals: $(cat $S/iv.out.err)"
	kill $load; wait $load 2>/dev/null || true
	bg_stop INT
	schema hist $S/iv.json
	expect_ge 4 "$(python3 -c 'import json, sys; print(len({json.loads(l)["interval"] for l in open(sys.argv[1])}))' $S/iv.json)" \
		"distinct intervals"
	hits=$(summary_col $S/iv.out.err kretprobe:$SYS 2)
	expect_ge 800 "$hits" "HITS"
	expect_eq "$hits" "$(docs_sum $S/iv.json 'd["count"]')" "the intervals' counts = HITS"
	bg_start $S/ivt.txt hist kretprobe:$SYS -i 0.3
	$LOOP -w 0 100 >/dev/null
	wait_for "[ \$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$' $S/ivt.txt) -ge 2 ]" 100 ||
		fail "no interval's time line: $(cat $S/ivt.txt)"
	bg_stop INT
}

# An entry probe has no latency: hist by comm counts its hits per
# command, as count's table does, instead of failing.
t_hist_kernel_kprobe_by_comm() {
	bg_start $S/kc.txt hist kprobe:$SYS --by comm
	$LOOP -w 0 500 >/dev/null
	bg_stop INT
	expect_match "^ +500  getpgid_loop$" "$(cat $S/kc.txt)" "getpgid_loop's 500 calls"
	expect_eq "" "$(grep 'no records' $S/kc.txt || true)" "no 'no records'"
	bg_start $S/kc.out -j hist kprobe:$SYS --by comm -o $S/kc.json
	$LOOP -w 0 300 >/dev/null
	bg_stop INT
	schema count $S/kc.json
	expect_eq 300 "$(json_get "$(tail -n 1 $S/kc.json)" "[e['count'] for e in j['entries'] if e['comm'] == 'getpgid_loop'][0]")" \
		"getpgid_loop's calls in JSON"
	expect_eq 0 "$(summary_col $S/kc.out.err kprobe:$SYS 3)" "RECORDS"
}

# lseek returns the offset it is given, or -EINVAL: a return value and
# an argument under the workload's control, below 0 included.
LSEEK='import os, sys
open("/proc/self/comm", "w").write("rp-lseek")
fd = os.open("/etc/hostname", os.O_RDONLY)
for off, whence in [(0, 99)] * 3 + [(0, 0)] * 2 + [(1, 0)] + [(5, 0)] * 4 + [(1000, 0)] * 2 + [(-5, 0)]:
    try:
        os.lseek(fd, off, whence)
    except OSError:
        pass'

# hist_doc FILE: the JSON histogram of rp-lseek's calls in FILE, its keys
# sorted (one line, to compare).
hist_doc() {
	python3 - "$1" <<'PY'
import json, sys
d = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(json.dumps([x for x in d if x.get("comm") == "rp-lseek"], sort_keys=True))
PY
}

# hist --retval and --arg count in the kernel (no record) and print what
# hist printed from records: the same JSON for the same calls, errors in
# the bucket below 0, zeros in [0] (the kernel's log2 keeps them apart).
t_hist_kernel_retval_arg() {
	local id
	bg_start $S/rv.out -j hist kretprobe:__x64_sys_lseek --retval --by comm -o $S/rv.json
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p['symbol'] == '__x64_sys_lseek'][0]")
	py "$LSEEK"
	expect_eq 0 "$(json_get "$($CTL -j probe show "$id")" 'j["stats"]["records"]')" "records while hist --retval counts"
	bg_stop INT
	schema hist $S/rv.json
	expect_eq '[{"buckets": [{"count": 4, "high": 0}, {"count": 2, "high": 1, "low": 0}, {"count": 1, "high": 2, "low": 1}, {"count": 4, "high": 8, "low": 4}, {"count": 2, "high": 1024, "low": 512}], "comm": "rp-lseek", "count": 13, "max": 1000, "min": -22, "probe": "kretprobe:__x64_sys_lseek", "scale": "log2", "sum": 1933, "value": "retval"}]' \
		"$(hist_doc $S/rv.json | sed 's/"avg": [-0-9]*, //')" "rp-lseek's return values"
	# the same calls through records: the same document
	id=$($CTL probe add kretprobe __x64_sys_lseek)
	bg_start $S/rr.out -j hist --id "$id" --retval --by comm -o $S/rr.json
	py "$LSEEK"
	kill -INT "$BG_PID"
	wait "$BG_PID" || fail "hist --id exited $?"
	$CTL probe del "$id"
	expect_eq "$(hist_doc $S/rv.json)" "$(hist_doc $S/rr.json)" "kernel's and records' histograms"
	# an argument, signed: lseek's offset
	bg_start $S/ra.out -j hist kprobe:__x64_sys_lseek --args s32,s64,u32 --arg 1 --by comm -o $S/ra.json
	py "$LSEEK"
	bg_stop INT
	expect_eq 0 "$(summary_col $S/ra.out.err kprobe:__x64_sys_lseek 3)" "RECORDS of hist --arg"
	expect_eq "13 -5 1000" "$(json_get "$(hist_doc $S/ra.json)" '" ".join(str(j[0][k]) for k in ("count", "min", "max"))')" \
		"count, min, max of the offsets"
	expect_eq "1 5 1 4 2" "$(json_get "$(hist_doc $S/ra.json)" '" ".join(str(b["count"]) for b in j[0]["buckets"])')" \
		"the offsets' buckets: below 0, [0], [1, 2), [4, 8), [512, 1024)"
}

tests t_hist_kernel_no_records t_hist_kernel_linear_text t_hist_kernel_intervals \
	t_hist_kernel_kprobe_by_comm t_hist_kernel_retval_arg
