#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress: load, churn, killed controllers, module cycles
# and the netlink fuzzer in the VM on each kernel, the hostile CLI
# invocations on the host; then one table of figures and the line
# "N passed, N failed".
#   tests/stress/run.sh [--smoke] [-k KERNEL]...
# --smoke: a short version of every part. make check runs the load and
# faults cases shorter still (tests/run-all.sh). The guest runs both
# vCPUs on one host thread (docs/reliability.md on live patching).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2

smoke=0 kernels=()
while [ $# -gt 0 ]; do
	case $1 in
	--smoke)	smoke=1; shift ;;
	-k|--kernel)	kernels+=("$2"); shift 2 ;;
	*)		echo "usage: $0 [--smoke] [-k KERNEL]..." >&2; exit 2 ;;
	esac
done
[ ${#kernels[@]} = 0 ] && kernels=(6.1 6.12)
if [ $smoke = 1 ]; then
	scale=(STRESS_SECONDS=8 STRESS_KILLS=6 STRESS_CYCLES=5 FUZZ_COUNT=300)
	timeout=1200
else
	scale=(STRESS_SECONDS=60 STRESS_KILLS=100 STRESS_CYCLES=50 FUZZ_COUNT=10000)
	timeout=3600
fi

pass=0 fail=0
figures=$(mktemp) log=$(mktemp)
trap 'rm -f "$figures" "$log"' EXIT

# Count a part's "N passed, N failed" line; a part without one failed.
tally() {	# name rc
	local p f
	read -r p f < <(awk '/^[0-9]+ passed, [0-9]+ failed/ { p = $1; f = $3 }
		END { print p + 0, f + 0 }' "$log")
	[ "$2" != 0 ] && [ "$f" = 0 ] && f=1
	echo "*** $1: $p passed, $f failed"
	pass=$((pass + p)) fail=$((fail + f))
}

echo "=== hostile CLI invocations (host, ASan+UBSan)"
tests/cli/hostile.sh 2>&1 | tee "$log" | grep -v '^ok '
tally "hostile CLI" "${PIPESTATUS[0]}"
echo "host cli bad_invocations $(awk '/^[0-9]+ passed/ { print $1 }' "$log")" >> "$figures"

for k in "${kernels[@]}"; do
	echo "=== stress, kernel $k"
	start=$(date +%s)
	tests/vm/run -k "$k" -n -t $timeout --tcg-single -- env "${scale[@]}" \
		tests/vm/suite.sh tests/stress/cases/*.sh tests/vm/cases/22-fuzz.sh \
		2>&1 | tee "$log" | grep -v '^delivered '
	tally "stress ($k)" "${PIPESTATUS[0]}"
	sed -n "s/^# figure: /$k /p" "$log" >> "$figures"
	echo "$k run seconds $(( $(date +%s) - start ))" >> "$figures"
done

# One row per figure, one column per kernel; rounds of a part add up.
echo
awk -v kernels="host ${kernels[*]}" '
	{ v[$2 " " $3, $1] += $4; if (!(($2 " " $3) in seen)) { seen[$2 " " $3] = 1; order[n++] = $2 " " $3 } }
	END {
		nk = split(kernels, k, " ")
		printf "%-32s", "FIGURE"
		for (j = 1; j <= nk; j++) printf " %14s", k[j]
		printf "\n"
		for (i = 0; i < n; i++) {
			printf "%-32s", order[i]
			for (j = 1; j <= nk; j++) {
				if ((order[i], k[j]) in v) printf " %14d", v[order[i], k[j]]
				else printf " %14s", "-"
			}
			printf "\n"
		}
	}' "$figures"
echo
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
