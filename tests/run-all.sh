#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: host unit tests, the in-VM suite on every kernel (Debian
# 6.1 and 6.12, each in two guests), the teaching labs' selftest and the
# short guests, as jobs that two lanes take in turn, one lane per host
# core (see "Jobs" below). Ends with the time it took and one line
# "N passed, N failed".
#   tests/run-all.sh [--host-only|--vm-only] [--serial] [--kernel K]... [--timeout S] [CASE.sh...]
#                                 (--serial: one lane, as on a 1-core host)
#                                 (K as tests/vm/run -k takes it: 6.1, 6.12, rt;
#                                 with --kernel, no labs selftest: it boots
#                                 6.1 and 6.12 itself)
#   tests/run-all.sh --vm-only --kernel rt   make check-rt: 6.12 PREEMPT_RT
#   tests/run-all.sh --long       make check-long: the stress smoke and YNL
#                                 on 6.1, the labs' wrong answers
#   tests/run-all.sh --pkg [--kernel K]...   make check-pkg: make deb's
#                                 packages installed in a guest (DKMS)
#   tests/run-all.sh --debug      make check-debug: the suite on the KASAN/
#                                 lockdep kernel, ring/stream/churn on KCSAN
# (tests/vm/debug-kernel.sh builds those kernels; build the module for them first).
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2

# A suite guest's limit: a whole suite (--kernel K) takes 25 to 30 min,
# half of one (make check's parts) 12 to 16, more on a slow day of the
# shared host; CI's limit is 90 min.
kernels=() cases=() host=1 vm=1 debug=0 pkg=0 long=0 timeout=3600 serial=0
while [ $# -gt 0 ]; do
	case $1 in
	--host-only)	vm=0; shift ;;
	--vm-only)	host=0; shift ;;
	--debug)	debug=1; host=0; vm=0; shift ;;
	--pkg)		pkg=1; host=0; vm=0; shift ;;
	--long)		long=1; host=0; vm=0; shift ;;
	--serial)	serial=1; shift ;;
	-k|--kernel)	kernels+=("$2"); shift 2 ;;
	-t|--timeout)	timeout=$2; shift 2 ;;
	*)		cases+=("$1"); shift ;;
	esac
done
labs=0
[ ${#kernels[@]} = 0 ] && kernels=(6.1 6.12) labs=1

start_all=$(date +%s)
# Each suite's output goes through $log (one per lane); its counts go to
# $tallies, and the names of its failed tests to $failures, which both
# lanes append to.
log=$(mktemp) tallies=$(mktemp) failures=$(mktemp) jobs_file=$(mktemp)
trap 'rm -f "$log" "$tallies" "$failures" "$jobs_file"*' EXIT

# The whole run is kept beside the kernels (the five newest runs): CI
# shows a run's last lines only, and its clone is gone after it.
keep_log() {
	local dir=${RAWPROBE_CACHE:-/var/cache/rawprobe}/logs
	mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] || return 0
	kept=$dir/run-all-$(date +%Y%m%d-%H%M%S).log
	ls -1t "$dir"/run-all-*.log 2>/dev/null | tail -n +5 |
		xargs -r rm -f
	exec > >(tee "$kept") 2>&1
}
kept=
keep_log

# Add the counts of a "N passed, N failed" line (or of cmocka summaries).
tally() {	# name rc
	local p f sk
	p=$(awk '/^[0-9]+ passed, [0-9]+ failed/ { p = $1 } END { print p + 0 }' "$log")
	f=$(awk '/^[0-9]+ passed, [0-9]+ failed/ { f = $3 } END { print f + 0 }' "$log")
	# "N passed, N failed, N skipped": a skip is neither, and is said
	sk=$(awk '/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped/ { k = $5 } END { print k + 0 }' "$log")
	if ! grep -Eq '^[0-9]+ passed, [0-9]+ failed' "$log"; then
		# cmocka: "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)"
		p=$(awk '/\[  PASSED  \]/ { s += $4 } END { print s + 0 }' "$log")
		f=$(awk '/\[  FAILED  \] [0-9]+ test/ { s += $4 } END { print s + 0 }' "$log")
	fi
	# A run that failed without saying what failed is one failure.
	if [ "$2" != 0 ] && [ "$f" = 0 ]; then
		f=1
		echo "*** $1: failed (exit $2) without a test result"
		echo "$1: exit $2, no test result" >> "$failures"
	fi
	grep -E '^not ok|\[  FAILED  \] [^0-9]' "$log" |
		sed "s|^|$1: |" >> "$failures"
	if [ "$sk" = 0 ]; then
		echo "*** $1: $p passed, $f failed"
	else
		echo "*** $1: $p passed, $f failed, $sk skipped"
	fi
	echo "$p $f $sk" >> "$tallies"
}

host_tests() {
	echo "=== host unit tests"
	make --no-print-directory -C tests/unit check 2>&1 | tee "$log"
	tally "host unit tests" "${PIPESTATUS[0]}"
	tests/cli/run.sh 2>&1 | tee "$log"
	tally "host CLI tests" "${PIPESTATUS[0]}"
	tests/cli/ctf.sh 2>&1 | tee "$log"
	tally "host CTF export tests (babeltrace2)" "${PIPESTATUS[0]}"
	tests/tcg-insn/check.sh 2>&1 | tee "$log"
	tally "host TCG instruction counter (qemu-x86_64 -plugin)" "${PIPESTATUS[0]}"
	tests/cli/btf.sh 2>&1 | tee "$log"
	tally "host BTF tests (btf show, --args auto, Debian 6.12's BTF)" "${PIPESTATUS[0]}"
	tests/cli/btf_out.sh 2>&1 | tee "$log"
	tally "host BTF output tests (captures, templates, typed values)" "${PIPESTATUS[0]}"
	tests/cli/hostile.sh 2>&1 | tee "$log"
	tally "host hostile CLI invocations (ASan+UBSan)" "${PIPESTATUS[0]}"
	tests/cli/stack.sh 2>&1 | tee "$log"
	tally "host kernel stack output (--stack, folded, hist --stack)" "${PIPESTATUS[0]}"
	tests/cli/flame.sh 2>&1 | tee "$log"
	tally "host flame graphs (flamegraph, -f svg and speedscope, Chromium)" "${PIPESTATUS[0]}"
	tests/cli/serve.sh 2>&1 | tee "$log"
	tally "host exporter: serve's command line, config and HTTP server" "${PIPESTATUS[0]}"
	tests/examples/copy-build.sh 2>&1 | tee "$log"
	tally "host example template tests" "${PIPESTATUS[0]}"
	tools/ctl-layers.py 2>&1 | tee "$log"
	tally "host rawprobectl layout (calls go one way, no circle)" "${PIPESTATUS[0]}"
	python3 tests/ynl/check-spec.py 2>&1 | tee "$log"
	tally "host YNL spec against the schema, header and policies" "${PIPESTATUS[0]}"
}

# The in-VM suite (CASE.sh... or all) on one kernel. Debian's kernels run
# both vCPUs on one host thread (--tcg-single): QEMU 7.2's multi-threaded
# TCG can run a stale translation of kernel text another vCPU patched
# (docs/reliability.md), which killed a make check guest mid-suite; the
# suite takes no longer so (8 min on 6.1 beside a KASAN guest). The debug
# kernels keep a thread per vCPU, for KCSAN's sake.
vm_suite() {	# kernel timeout [case...]
	local k=$1 t=$2 start rc tcg=()
	shift 2
	case $k in kasan|kcsan) ;; *) tcg=(--tcg-single) ;; esac
	echo "=== in-VM tests, kernel $k"
	start=$(date +%s)
	tests/vm/run -k "$k" -n -t "$t" "${tcg[@]}" -- tests/vm/suite.sh "$@" 2>&1 |
		tee "$log"
	rc=${PIPESTATUS[0]}
	echo "*** kernel $(awk '/^kernel: / { print $2; exit }' "$log"):" \
		"$(( $(date +%s) - start ))s"
	tally "in-VM tests ($k)" "$rc"
}

# Every case of a folder, in name order (99-lockdown stays last).
all_cases() {	# DIR...
	local d
	for d; do printf '%s\n' "$d"/*.sh; done |
		awk -F/ '{ print $NF "\t" $0 }' | sort | cut -f2
}

# make stress's load and faults, short, in their own guest: both vCPUs
# on one host thread, as make stress runs them (docs/reliability.md).
stress_smoke() {	# kernel
	local start=$(date +%s)
	echo "=== stress smoke (tests/stress/cases), kernel $1"
	tests/vm/run -k "$1" -n -t 900 --tcg-single -- \
		env STRESS_SECONDS=4 STRESS_KILLS=3 STRESS_CYCLES=5 \
		tests/vm/suite.sh tests/stress/cases/*.sh 2>&1 |
		grep -v '^delivered ' | tee "$log"
	rc=${PIPESTATUS[0]}
	echo "*** stress smoke: $(( $(date +%s) - start ))s"
	tally "stress smoke ($1)" "$rc"
}

# A guest booted locked down: the module is refused, the tools say why.
locked_boot() {	# kernel
	echo "=== booted with lockdown=confidentiality, kernel $1"
	tests/vm/run -k "$1" -n -t 300 -a lockdown=confidentiality -- \
		tests/vm/locked-boot.sh 2>&1 | tee "$log"
	tally "locked-down boot ($1)" "${PIPESTATUS[0]}"
}

# 64 possible CPUs, 2 online (62 hot-pluggable): the rings' default size
# for many CPUs, allocated by the first probe, not by insmod
# (tests/vm/many-cpus.sh). 6.1 only: 6.12's CPU topology code counts no
# hot-pluggable CPU in QEMU's MADT, so there it takes 64 vCPUs, a guest
# of several minutes that make bench boots instead.
many_cpus() {	# kernel
	echo "=== 64 possible CPUs, 2 online, kernel $1"
	tests/vm/run -k "$1" -n -t 600 --smp 2,maxcpus=64 -- \
		tests/vm/many-cpus.sh 2>&1 | tee "$log"
	tally "many possible CPUs ($1)" "${PIPESTATUS[0]}"
}

# The kernel's own YNL client drives the family from uapi/rawprobe.yaml
# (cli.py and its schema unpacked by tests/ynl/check-spec.py, above).
ynl_in_guest() {	# kernel
	echo "=== YNL cli.py in the guest, kernel $1"
	[ -f build/ynl/tools/net/ynl/cli.py ] ||
		python3 tests/ynl/check-spec.py >/dev/null 2>&1
	tests/vm/run -k "$1" -t 600 -- tests/ynl/ynl-in-guest.sh 2>&1 | tee "$log"
	tally "YNL cli.py in the guest ($1)" "${PIPESTATUS[0]}"
}

# The teaching labs on one kernel (LAB_KERNELS), or the lab shell's and
# the fresh copy's smokes: every skeleton fails its checks, every
# solution passes them. The wrong answers (labs/N-*/wrong/) are make
# labs-selftest's: they change only with a lab. This script's guests
# run outside lab.sh's lock already: none (the outer one would
# deadlock); the fresh copy's make lab-check takes its own.
labs_selftest() {	# kernel | smokes
	local what=$1 env=(LAB_KERNELS="$1" LAB_SMOKES=0)

	[ "$1" = smokes ] && what="shell and fresh copy" env=(LAB_KERNELS= LAB_SMOKES=1)
	echo "=== teaching labs (labs/, $what): skeletons fail, solutions pass"
	# (a folder each: the jobs may run at once)
	env VM_LOCK= LAB_WRONG_KERNELS=none LAB_SELFTEST_DIR="build/labs/selftest-$1" \
		"${env[@]}" labs/lab.sh selftest 2>&1 | tee "$log"
	tally "labs selftest ($what)" "${PIPESTATUS[0]}"
}

# The labs' wrong answers: each fails the exercises it names (6.12).
labs_wrong() {
	echo "=== teaching labs (labs/, 6.12): wrong answers fail"
	VM_LOCK= LAB_KERNELS=6.12 LAB_WRONG_KERNELS=6.12 LAB_SMOKES=0 \
		labs/lab.sh selftest 2>&1 | tee "$log"
	tally "labs selftest (wrong answers, 6.12)" "${PIPESTATUS[0]}"
}

# Each kernel's suite in two guests, split in name order where the
# first part's cases take about half of the suite's time (50-count and
# before; 99-lockdown stays last in the second): with two lanes, four
# parts of 20 minutes share the cores better than two of 40.
SUITE_SPLIT=51
suite_part() {	# kernel 1|2
	local c part=()

	for c in "${cases[@]}"; do
		case $2 in
		1) [[ ${c##*/} < $SUITE_SPLIT ]] && part+=("$c") ;;
		2) [[ ${c##*/} < $SUITE_SPLIT ]] || part+=("$c") ;;
		esac
	done
	[ ${#part[@]} = 0 ] || vm_suite "$1" "$timeout" "${part[@]}"
}

# Jobs, the longest first, and two lanes (one per host core: a guest
# runs both its vCPUs on one host thread) taking the next job as each
# finishes. A job's output is printed when it ends, one job at a time;
# its start is said at once.
job() {	# command...
	printf '%s\n' "$*" >> "$jobs_file"
}

next_job() {	# the next job's command, or status 1 when none is left
	local i fd

	exec {fd}>> "$jobs_file.lock"
	flock "$fd"
	i=$(cat "$jobs_file.next" 2>/dev/null || echo 0)
	echo $((i + 1)) > "$jobs_file.next"
	exec {fd}>&-
	sed -n "$((i + 1))p" "$jobs_file" | grep .
}

# print FILE... under the lanes' lock (cat FILE, or STDIN without FILE)
print_locked() {
	local fd

	exec {fd}>> "$jobs_file.print"
	flock "$fd"
	cat "$@"
	exec {fd}>&-
}

lane() {	# N
	local cmd out log
	log=$(mktemp) out=$(mktemp)

	while cmd=$(next_job); do
		echo "=== lane $1: $cmd (at $(since_start))" | print_locked
		$cmd > "$out" 2>&1
		echo "=== lane $1: $cmd done (at $(since_start))" >> "$out"
		print_locked "$out"
	done
	rm -f "$log" "$out"
}

since_start() {
	local s=$(( $(date +%s) - start_all ))
	echo "$((s / 60)) min $((s % 60)) s"
}

all=0
if [ $vm = 1 ] && [ ${#cases[@]} = 0 ]; then
	all=1
	mapfile -t cases < <(all_cases tests/vm/cases)
fi
if [ $vm = 1 ]; then
	for k in $(printf '%s\n' "${kernels[@]}" | tac); do
		if [ $all = 1 ]; then
			job suite_part "$k" 1
			job suite_part "$k" 2
		else
			job vm_suite "$k" "$timeout" "${cases[@]}"
		fi
	done
	if [ $all = 1 ] && [ $labs = 1 ]; then
		job labs_selftest 6.12
		job labs_selftest 6.1
		job labs_selftest smokes
	fi
fi
[ $host = 1 ] && job host_tests
if [ $all = 1 ]; then
	for k in "${kernels[@]}"; do
		[ "$k" = 6.12 ] && job stress_smoke "$k" && job ynl_in_guest "$k"
		job locked_boot "$k"
		[ "$k" = 6.1 ] && job many_cpus "$k"
	done
fi
# make check-long: what make check leaves for its time, run before
# resolving what they cover: the stress smoke and YNL on the kernels
# other than 6.12, the labs' wrong answers.
if [ $long = 1 ]; then
	for k in "${kernels[@]}"; do
		[ "$k" = 6.12 ] || { job stress_smoke "$k"; job ynl_in_guest "$k"; }
	done
	job labs_wrong
fi
if [ $serial = 1 ]; then
	lane 1
else
	lane 2 &
	lane2_pid=$!
	lane 1
	wait "$lane2_pid"
fi

# KASAN, lockdep and kmemleak slow a TCG guest several times over.
if [ $debug = 1 ]; then
	# the debug-only cases too, in name order (99-lockdown stays last)
	debug_cases=("${cases[@]}")
	[ ${#cases[@]} = 0 ] &&
		mapfile -t debug_cases < <(all_cases tests/vm/cases tests/vm/debug-cases)
	# about 3 h under TCG on 2 cores (docs/testing.md)
	vm_suite kasan 14400 "${debug_cases[@]}"
	vm_suite kcsan 3600 tests/vm/cases/{30-ring,10-probes,20-netlink,25-races}.sh
fi

# dpkg -i, DKMS's build under TCG, modprobe, dpkg --purge (build/deb).
if [ $pkg = 1 ]; then
	for k in "${kernels[@]}"; do
		echo "=== Debian packages in the guest, kernel $k"
		start=$(date +%s)
		tests/vm/run -k "$k" -n -t 3600 -- tests/pkg/deb-in-guest.sh 2>&1 |
			tee "$log"
		rc=${PIPESTATUS[0]}
		echo "*** packages ($k): $(( $(date +%s) - start ))s"
		tally "Debian packages in the guest ($k)" "$rc"
	done
fi

read -r pass fail skip < <(awk '{ p += $1; f += $2; k += $3 }
	END { print p + 0, f + 0, k + 0 }' "$tallies")
elapsed=$(( $(date +%s) - start_all ))
# What failed, last, where a CI log's tail shows it.
if [ -s "$failures" ]; then
	echo "*** failed ($(wc -l < "$failures")):"
	head -20 "$failures"
fi
[ -n "$kept" ] && echo "*** the whole run: $kept"
echo "*** run-all: $((elapsed / 60)) min $((elapsed % 60)) s"
if [ "$skip" = 0 ]; then
	echo "$pass passed, $fail failed"
else
	echo "$pass passed, $fail failed, $skip skipped"
fi
[ "$fail" = 0 ]
