#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot one guest and measure what a probe on getpgid's entry
# costs per call with no probe, empty kprobe/kretprobe handlers (the floor,
# tests/bench/rp_bench_empty.c), rawprobe kprobe/kretprobe with a stream
# draining, ftrace kprobe_events with a trace_pipe reader and bpftrace
# printing one line per hit; configurations interleaved over many rounds,
# medians reported. Then the time to add and remove 1,000 and 10,000
# kprobes, rawprobe beside ftrace on the same functions. Then a
# second guest under the TCG instruction counter (tools/tcg-insn) counts
# the guest instructions per call of the same configurations, with
# jprobe-style rows and the record path's staircase (guest.sh -i). Then
# a 64-vCPU guest: insmod, the first probe's rings and a stream on every
# CPU (tests/vm/many-cpus.sh). And the wall-clock time to arm and disarm
# a glob's probes, tcp_* and one of about 1,000 functions, rawprobe beside
# bpftrace (guest.sh -g). Prints Markdown tables and puts them in
# docs/performance.md: 6.1's between its bench:NAME markers, another
# kernel's between bench:NAME:KERNEL (report.py).
#
#   tests/bench/run.sh [options]
#     -k, --kernel K    6.1 (default) or 6.12
#     -r, --rounds N    rounds after the warm-up (default 11: 3 to 5 minutes)
#     -n, --calls N     getpgid calls per run (default 100000)
#     -c, --configs L   only these configurations (see tests/bench/guest.sh)
#     -t, --timeout S   limit for each guest (default 5400)
#     -o, --out DIR     keep the raw results there (default build/bench,
#                       build/bench-K for a kernel K other than 6.1)
#         --no-doc      do not rewrite docs/performance.md
#         --no-insn     times only (no instruction count)
#         --insn-only   the instruction count only
#         --insn-rounds N  its rounds after the warm-up (default 3)
#         --insn-exact  the plugin counts each instruction (exact=on),
#                       not each block: slower, to check per-block counts
#         --profile     the instruction count by function too, for the
#                       configurations of -c (tools/tcg-insn/profile.py):
#                       where a probe's instructions go
#         --scale "N..."   kprobe counts to add and remove, rawprobe and
#                       ftrace (default "1000 10000"; "" for none)
#         --scale-first T  rawprobe (default) or ftrace: which adds and
#                       removes first (to see what the order does)
#         --scale-reversed  each tool again on the same functions in the
#                       reverse order, which reverses the order both arm
#                       them in (about 25 more minutes at 10,000)
#         --no-many-cpus  no 64-vCPU guest; --many-cpus-only: only it
#         --no-globs    no glob arming guest; --globs-only: only it
#         --glob-rounds N  runs of each glob by rawprobe and bpftrace, in
#                       turn, the medians reported (default 3)
#
# Expects `make ctl modules-all` done (make bench does it); builds the
# empty-handler module itself and installs bpftrace if it is missing.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2

kernel=6.1 rounds=11 calls=100000 configs="" timeout=5400 out="" doc=1
times=1 insn=1 insn_rounds=3 scale="1000 10000" scale_first=rawprobe scale_reversed="" exact=""
many=1 globs=1 glob_rounds=3 profile=""
args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	-k|--kernel)	kernel=$2; shift 2 ;;
	-r|--rounds)	rounds=$2; shift 2 ;;
	-n|--calls)	calls=$2; shift 2 ;;
	-c|--configs)	configs=$2; shift 2 ;;
	-t|--timeout)	timeout=$2; shift 2 ;;
	-o|--out)	out=$2; shift 2 ;;
	--no-doc)	doc=0; shift ;;
	--no-insn)	insn=0; shift ;;
	--insn-only)	times=0; shift ;;
	--insn-rounds)	insn_rounds=$2; shift 2 ;;
	--insn-exact)	exact=",exact=on"; shift ;;
	--profile)	profile=1 times=0 many=0 globs=0 doc=0; shift ;;
	--scale)	scale=$2; shift 2 ;;
	--scale-first)	scale_first=$2; shift 2 ;;
	--scale-reversed) scale_reversed=-R; shift ;;
	--no-many-cpus)	many=0; shift ;;
	--many-cpus-only) times=0 insn=0 globs=0; shift ;;
	--no-globs)	globs=0; shift ;;
	--globs-only)	times=0 insn=0 many=0; shift ;;
	--glob-rounds)	glob_rounds=$2; shift 2 ;;
	-h|--help)	sed -n '3,49p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*)		echo "bench: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || { out=build/bench; [ "$kernel" = 6.1 ] || out+=-$kernel; }
# -o /tmp/x as well as -o build/x (the plugin and the guest need a full path)
out=$(realpath -m "$out")

# bpftrace runs in the guest from the host's root: install it once.
if { [ $times = 1 ] || [ $globs = 1 ]; } && ! command -v bpftrace >/dev/null; then
	echo "bench: installing bpftrace" >&2
	sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
	$sudo_ apt-get install -y -qq --no-install-recommends bpftrace >/dev/null ||
		echo "bench: bpftrace not installed; its row will say so" >&2
fi

if [ $times = 1 ] || [ $insn = 1 ]; then
	for rel in $(tools/deps.sh --print); do
		make --no-print-directory -s bench-module bench-steps \
			KDIR=/usr/src/linux-headers-$rel >/dev/null || exit 1
	done
	make --no-print-directory -s tcg-plugin || exit 1
fi
make --no-print-directory -s ctl || exit 1

# bench_guest NAME GUEST.SH-OPTION...: one guest; sets rc, secs, load and
# hostwait (what the host took from it: tests/bench/hostwait.py)
bench_guest() {
	local name=$1 start sampler
	shift
	rm -rf "${out:?}/$name"
	mkdir -p "$out/$name"
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	python3 tests/bench/hostwait.py "$out/$name.hostwait" \
		"$(realpath "$out/$name")" &
	sampler=$!
	start=$(date +%s)
	tests/vm/run -k "$kernel" -n -t "$timeout" -o "$out/$name" \
		"${plugin[@]}" "${vmopts[@]}" -- tests/bench/guest.sh "$@" \
		> "$out/$name.log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	kill -TERM $sampler
	wait $sampler
	hostwait=$(cat "$out/$name.hostwait" 2>/dev/null)
	grep -v '^[KRUPIWD] ' "$out/$name.log" | grep -v '^round ' >&2
	if [ $rc != 0 ]; then
		echo "bench: the guest failed (exit $rc); see $out/$name.log;" \
			"the partial results follow, docs/performance.md is" \
			"left alone" >&2
		doc=0
	fi
}

conditions() {	# [VCPUS]: what the run ran on
	local vcpus="2 vCPUs, workload pinned to cpu0 and readers to cpu1"
	echo "QEMU TCG (no KVM), ${1:-$vcpus}, on a 2-core host shared" \
		"with other jobs" \
		"(load average $load at the start, $(cut -d' ' -f1-3 \
		/proc/loadavg) at the end); the guest took $((secs / 60))" \
		"min $((secs % 60)) s${hostwait:+, and $hostwait}."
}

cmd="tests/bench/run.sh${args[*]:+ ${args[*]}}"
[ "${MAKELEVEL:-}" ] && cmd="make bench${args[*]:+ BENCH_FLAGS=\"${args[*]}\"}"
report=(python3 tests/bench/report.py --command "$cmd")
plugin=()
vmopts=()
status=0
if [ $times = 1 ]; then
	echo "bench: kernel $kernel, $rounds rounds of ${calls} calls; the guest prints nothing until it is done" >&2
	bench_guest vm -r "$rounds" -n "$calls" ${configs:+-c "$configs"} -s ""
	[ $rc = 0 ] || status=1
	# the guest's output as it wrote it (complete even if the guest hung)
	cp "$out/vm/output" "$out/times" 2>/dev/null || : > "$out/times"
	report+=("$out/times" --conditions "$(conditions)")
fi
# Adding and removing thousands of kprobes patches kernel text as fast as
# the kernel can: in a guest of its own, both vCPUs on one host thread,
# since QEMU 7.2's multi-threaded TCG then runs stale translations of the
# patched text (docs/reliability.md; it panicked this guest twice at
# 10,000, once in a jump to 0 and once in a soft lockup).
if [ $times = 1 ] && [ -n "$scale" ]; then
	echo "bench: kernel $kernel, adding and removing $scale kprobes" >&2
	vmopts=(--tcg-single)
	bench_guest scale-vm -r 0 -c none -s "$scale" -f "$scale_first" \
		$scale_reversed
	vmopts=()
	[ $rc = 0 ] || status=1
	grep -s '^S ' "$out/scale-vm/output" >> "$out/times"
	report+=(--scale-conditions "$(conditions \
		"2 vCPUs on one host thread (--tcg-single), $scale_first first")")
fi
if [ $insn = 1 ]; then
	# vcpu=0: the workload's CPU; the plugin writes one count per interval
	counts=$out/insn-counts
	rm -f "$counts"
	plugin=(--plugin "build/tcg-insn/libinsn.so,$(tools/tcg-insn/marks.sh \
		build/tcg-insn/getpgid_marked),vcpu=0,out=$counts$exact${profile:+,profile=$out/insn-profile}")
	echo "bench: kernel $kernel, instruction count, $insn_rounds rounds" >&2
	# One host thread: the counts do not depend on it, and with a thread
	# per vCPU this guest died in a text_poke IPI while ftrace armed its
	# event (docs/reliability.md).
	vmopts=(--tcg-single)
	bench_guest insn-vm -i ${profile:+-P} -r "$insn_rounds" ${configs:+-c "$configs"}
	# the next guests run without the plugin, which would write its
	# counts over these
	vmopts=() plugin=()
	[ $rc = 0 ] || status=1
	if [ -n "$profile" ]; then
		python3 tools/tcg-insn/profile.py "$out/insn-profile" \
			"$out/insn-vm" "$out/insn-vm/output" | tee "$out/profile.txt"
		exit $status
	fi
	report+=(--insn "$out/insn-vm/output" --insn-counts "$counts"
		--insn-conditions "$(conditions "2 vCPUs on one host thread \
(--tcg-single), workload pinned to cpu0 and readers to cpu1")")
fi
# Arming a glob patches kernel text as the scale guest does: one host
# thread (--tcg-single), in a guest of its own.
if [ $globs = 1 ]; then
	echo "bench: kernel $kernel, arming and disarming globs" >&2
	vmopts=(--tcg-single)
	bench_guest glob-vm -g "$glob_rounds"
	vmopts=()
	[ $rc = 0 ] || status=1
	report+=(--globs "$out/glob-vm/output" --globs-conditions "$(conditions \
		"2 vCPUs on one host thread (--tcg-single)")")
fi
if [ $many = 1 ]; then
	# 64 vCPUs on one host thread (docs/reliability.md: multi-threaded TCG
	# ran a stale translation of vfs_read there): each mostly idle
	echo "bench: kernel $kernel, 64 vCPUs (tests/vm/many-cpus.sh)" >&2
	rm -rf "${out:?}/many-cpus"
	mkdir -p "$out/many-cpus"
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	start=$(date +%s)
	tests/vm/run -k "$kernel" -n -t 2400 --smp 64 --mem 5120 --tcg-single \
		-o "$out/many-cpus" -- tests/vm/many-cpus.sh \
		> "$out/many-cpus.log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc != 0 ]; then
		echo "bench: the 64-vCPU guest failed (exit $rc); see" \
			"$out/many-cpus.log" >&2
		status=1 doc=0
	fi
	report+=(--many-cpus "$out/many-cpus/output" --many-cpus-conditions \
		"QEMU TCG, 64 vCPUs on one host thread (--tcg-single) and 5 GiB, on the same 2-core host (load average $load at the start); the guest took $((secs / 60)) min $((secs % 60)) s.")
fi
[ $doc = 1 ] && report+=(--doc docs/performance.md --doc-kernel "$kernel")
"${report[@]}" || exit 1
exit $status
