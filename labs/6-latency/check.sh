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

exercise "hist_reads: vfs_read's latency histogram per command" ex_hist
exercise "perfetto_reads: dd's reads as slices in a Perfetto trace" ex_perfetto
exercise "slowest finds the longest slice of a trace" ex_slowest
