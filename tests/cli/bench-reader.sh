#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Records per second of the stream's reader on the host (no module):
#   tests/cli/bench-reader.sh [RECORDS [ROUNDS]]
#
# 1. replay: `rawprobectl stream -r CAPTURE > /dev/null` in each output
#    format (text, JSON, CSV, Perfetto, folded, raw) and -q, on a capture of RECORDS (default 2,000,000) records written
#    by mkcapture.py --bench (kept in $RP_BENCH_DIR, default /tmp);
# 2. live: tests/unit/build/bench/bench_stream, the rings filled in memory
#    by the kernel's writer and drained with the stream's merge.
# Each is run ROUNDS times (default 5); the median is printed. Not a
# test: it takes some 30 s of one core. RAWPROBECTL and BENCH_STREAM pick
# other binaries (an older build, for a before/after comparison).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
n=${1:-2000000}
rounds=${2:-5}
dir=${RP_BENCH_DIR:-/tmp}
cap=$dir/rp-bench-$n.rpc
export RAWPROBE_KALLSYMS=$dir/rp-bench.ksyms
ctl=${RAWPROBECTL:-$repo/userctl/rawprobectl}
bench=${BENCH_STREAM:-$repo/tests/unit/build/bench/bench_stream}

[ -n "${RAWPROBECTL:-}" ] || make -s -C "$repo" userctl/rawprobectl
[ -n "${BENCH_STREAM:-}" ] || make -s -C "$repo/tests/unit" bench >/dev/null
if [ ! -s "$cap" ] || [ ! -s "$RAWPROBE_KALLSYMS" ]; then
	echo "writing $cap ..."
	python3 "$here/mkcapture.py" --bench "$n" "$cap" "$RAWPROBE_KALLSYMS"
fi

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# replay NAME ARGS...: median records/s of ROUNDS runs
replay() {
	local name=$1 i t0 t1
	shift
	for ((i = 0; i < rounds; i++)); do
		t0=$(date +%s%N)
		"$ctl" "$@" -r "$cap" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo $(( n * 1000000000 / (t1 - t0) ))
	done | median | xargs printf "replay %-8s %12d records/s\n" "$name"
}

live() {
	local i
	for ((i = 0; i < rounds; i++)); do
		"$bench" "$1" "$n" | awk '{ print int($(NF - 1)) }'
	done | median | xargs printf "live   %-8s %12d records/s\n" "$1"
}

replay text stream
replay json -j stream
replay csv stream -f csv
replay perfetto stream -f perfetto
replay folded stream -f folded
replay raw stream -f raw
replay quiet stream -q
live text
live json
live quiet
