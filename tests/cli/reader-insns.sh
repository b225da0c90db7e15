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
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
n=${1:-100000}
dir=${RP_BENCH_DIR:-/tmp}
export RAWPROBE_KALLSYMS=$dir/rp-bench.ksyms
ctl=${RAWPROBECTL:-$repo/userctl/rawprobectl}

command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 2; }
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
