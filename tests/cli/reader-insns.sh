#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Instructions per record of the stream's reader on the host, in each
# output format: exact, whatever else the host runs (bench-reader.sh's
# records per second are not).
#   tests/cli/reader-insns.sh [RECORDS]
#
# valgrind's callgrind counts `rawprobectl stream -r CAPTURE` on
# mkcapture.py --bench captures of 2N and N records (default N 100,000);
# the difference over N is what a record costs, start-up (kallsyms
# loading, the capture's header) cancelling out. Not a test: some two
# minutes of one core. RAWPROBECTL picks another binary (an older build,
# for a before/after comparison).
#   tests/cli/reader-insns.sh --live [RECORDS]
# The live path instead, as make bench's stream rows feed it: the unit
# tests' bench_stream (BENCH_STREAM picks another build) with
# RP_BENCH_MIX=getpgid, its drains and flushes only (--toggle-collect):
# the copy out of the ring, the TSC's conversion, the merge and the text
# line of each record.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
live=0
if [ "${1:-}" = --live ]; then
	live=1
	shift
fi
n=${1:-100000}
dir=${RP_BENCH_DIR:-/tmp}

command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 2; }
if [ $live = 1 ]; then
	bench=${BENCH_STREAM:-$repo/tests/unit/build/bench/bench_stream}
	[ -n "${BENCH_STREAM:-}" ] || make -s -C "$repo/tests/unit" bench
	live_insns() {	# RECORDS
		local out
		out=$(mktemp)
		RP_BENCH_MIX=getpgid valgrind --tool=callgrind \
			--toggle-collect=rp_reader_drain_all \
			--toggle-collect=rp_sink_flush \
			--callgrind-out-file="$out" "$bench" text "$1" 2 4096 \
			>/dev/null 2>&1
		awk '/^summary:/ { print $2 }' "$out"
		rm -f "$out"
	}
	a=$(live_insns "$n")
	b=$(live_insns $((2 * n)))
	printf "%-9s %8d instructions/record\n" live $(((b - a) / n))
	exit 0
fi
export RAWPROBE_KALLSYMS=$dir/rp-bench.ksyms
ctl=${RAWPROBECTL:-$repo/userctl/rawprobectl}

[ -n "${RAWPROBECTL:-}" ] || make -s -C "$repo" userctl/rawprobectl
for k in $n $((2 * n)); do
	cap=$dir/rp-bench-$k.rpc
	if [ ! -s "$cap" ] || [ ! -s "$RAWPROBE_KALLSYMS" ]; then
		python3 "$here/mkcapture.py" --bench "$k" "$cap" "$RAWPROBE_KALLSYMS"
	fi
done

# Instructions of one run: callgrind's "summary:" total.
insns() {
	local out
	out=$(mktemp)
	valgrind --tool=callgrind --callgrind-out-file="$out" "$ctl" "$@" \
		>/dev/null 2>&1
	awk '/^summary:/ { print $2 }' "$out"
	rm -f "$out"
}

# per_record NAME ARGS...: (instructions at 2N − at N) / N
per_record() {
	local name=$1 a b
	shift
	a=$(insns "$@" -r "$dir/rp-bench-$n.rpc")
	b=$(insns "$@" -r "$dir/rp-bench-$((2 * n)).rpc")
	printf "%-9s %8d instructions/record\n" "$name" $(((b - a) / n))
}

per_record text stream
per_record json -j stream
per_record csv stream -f csv
per_record perfetto stream -f perfetto
per_record folded stream -f folded
per_record quiet stream -q
