# SPDX-License-Identifier: GPL-2.0
#
# Lab 6's checks (sourced by labs/guest.sh after labs/lib.sh).
LAB_SCRIPT=lab6.sh
export DURATION=5
D=/tmp/lab6
mkdir -p $D
head -c 1000000 /dev/urandom > $D/data

reads() {	# N: dd reads N blocks of 4 KiB
	dd if=$D/data of=/dev/null bs=4k count="$1" 2>/dev/null
}

ex_hist() {
	local c sum
	student_bg vfs_read hist_reads $S/h.txt
	reads 20
	wait $STUDENT_PID || hint "hist_reads failed"
	[ -s $S/h.txt ] || hint "hist_reads wrote nothing to the file it was given"
	c=$(sed -n 's/^@kretprobe:vfs_read\[dd\], latency_ns: count \([0-9]*\),.*/\1/p' $S/h.txt)
	[ -n "$c" ] || hint "no histogram of vfs_read's latency for the command dd: one per command name"
	[ "$c" -ge 20 ] || hint "dd's histogram counts $c calls; dd read 20 blocks"
	sum=$(awk '/^@kretprobe:vfs_read\[dd\]/ { on = 1; next } /^@/ || /^$/ { on = 0 }
		on && /^\[/ { s += $3 } END { print s + 0 }' $S/h.txt)
	[ "$sum" = "$c" ] || hint "dd's buckets add up to $sum, its count says $c"
}

# slices FILE COND: complete events ("X") of threads named dd, or not
slices() {
	python3 - "$1" "$2" <<'EOF'
import json
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("ph") == "M"}
x = [e for e in ev if e.get("ph") == "X" and e.get("dur", 0) > 0]
dd = [e for e in x if names.get(e["tid"]) == "dd"]
print(len(dd) if sys.argv[2] == "dd" else len(x) - len(dd))
EOF
}

ex_perfetto() {
	local n
	student_bg vfs_read perfetto_reads $S/p.json
	reads 20
	cat $D/data > /dev/null
	wait $STUDENT_PID || hint "perfetto_reads failed"
	python3 -c "import json; json.load(open('$S/p.json'))['traceEvents']" 2>/dev/null ||
		hint "$S/p.json is not a Perfetto (Chrome trace-event) JSON file"
	n=$(slices $S/p.json dd)
	[ "$n" -ge 20 ] || hint "$n slices of dd's reads, expected 20 or more: are returns recorded, with their latency?"
	n=$(slices $S/p.json other)
	[ "$n" = 0 ] || hint "$n slices of other commands: keep dd's alone"
}

ex_slowest() {
	local pid got want
	$CTL trace kretprobe:vfs_read -f perfetto -o $S/t.json 2>/dev/null &
	pid=$!
	wait_for "probe_on vfs_read" 150
	reads 10
	cat $D/data > /dev/null
	kill -INT $pid
	wait $pid
	want=$(python3 - $S/t.json <<'EOF'
import json
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M"}
top = max((e for e in ev if e["ph"] == "X"), key=lambda e: e["dur"])
print(round(top["dur"] * 1000), names[top["tid"]])
EOF
)
	got=$(student slowest $S/t.json) || hint "slowest failed"
	[ "${got#* }" = "${want#* }" ] ||
		hint "slowest printed '$got': that is not the longest slice's thread"
	python3 -c "import sys; sys.exit(abs(int('${got%% *}') - ${want%% *}) > 1)" 2>/dev/null ||
		hint "slowest printed '$got': not the longest slice's duration in ns"
}

# linear FILE NAME: the histogram of NAME's (or the only one) in a hist
# text output, as "COUNT LINEAR WIDTHS N50 N200 OVER": its count, 1 if
# linear, its bounded buckets' widths (comma-separated), the counts of
# the buckets from 50 to 100 ms and from 200 to 250 ms, and past the
# last bucket; "none" if there is no such histogram.
linear() {
	python3 - "$1" "$2" <<'EOF'
import re
import sys

heads, cur = {}, None
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"@kretprobe:hrtimer_nanosleep(?:\[(.*)\])?, latency_ns( \(linear\))?: count (\d+)", line)
    if m:
        cur = heads.setdefault(m.group(1) or "", {"lin": bool(m.group(2)), "count": int(m.group(3)), "b": []})
        continue
    if line.startswith("@") or not line.strip():
        cur = None
    m = re.match(r"\[(\d+), (\d+|\.\.\.)\)\s+(\d+)", line)
    if m and cur is not None:
        cur["b"].append((int(m.group(1)), None if m.group(2) == "..." else int(m.group(2)), int(m.group(3))))
h = heads.get(sys.argv[2], heads.get("") if len(heads) == 1 else None)
if h is None:
    print("none")
    sys.exit()
widths = sorted({hi - lo for lo, hi, n in h["b"] if hi is not None})
span = lambda a, b: sum(n for lo, hi, n in h["b"] if hi is not None and a <= lo and hi <= b)
over = sum(n for lo, hi, n in h["b"] if hi is None)
print(h["count"], int(h["lin"]), ",".join(map(str, widths)) or "-",
      span(50000000, 100000000), span(200000000, 250000000), over)
EOF
}

ex_sleeps() {
	local name=lab6-sleep r count lin widths n50 n200 over
	cp /bin/sleep $D/$name
	student_bg hrtimer_nanosleep hist_sleeps $S/sl.txt $name
	$D/$name 0.05; $D/$name 0.2; $D/$name 0.05; $D/$name 0.2; $D/$name 0.05
	python3 -c "import time; time.sleep(0.05)"
	wait $STUDENT_PID || hint "hist_sleeps failed"
	[ -s $S/sl.txt ] || hint "hist_sleeps wrote nothing to the file it was given"
	r=$(linear $S/sl.txt $name)
	[ "$r" != none ] || hint "no histogram of hrtimer_nanosleep's latency (for $name, or alone) in the file"
	read -r count lin widths n50 n200 over <<< "$r"
	[ "$lin" = 1 ] || hint "the histogram's buckets are log2's, not linear"
	[ "$widths" != - ] ||
		hint "every sleep ($over) is counted past the histogram's last bucket: are its buckets 10 ms wide?"
	[ "$over" = 0 ] && [ "$widths" = 10000000 ] ||
		hint "the buckets are $widths ns wide ($over sleeps past the last one): that is not 10 ms"
	[ "$count" = 5 ] ||
		hint "the histogram counts $count sleeps; $name made 5 (another command slept once): only $name's"
	[ "$n50" = 3 ] && [ "$n200" = 2 ] ||
		hint "$n50 sleeps counted from 50 to 100 ms (3 made) and $n200 from 200 to 250 ms (2 made)"
}

exercise "hist_reads: vfs_read's latency histogram per command" ex_hist
exercise "perfetto_reads: dd's reads as slices in a Perfetto trace" ex_perfetto
exercise "slowest finds the longest slice of a trace" ex_slowest
exercise "hist_sleeps: one command's sleeps in linear 10 ms buckets" ex_sleeps
