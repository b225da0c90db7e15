#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in a guest with many possible CPUs: 2 vCPUs and
# 62 hot-pluggable ones (--smp 2,maxcpus=64) in make check, 64 vCPUs in
# make bench (tests/bench/run.sh). The default ring size
# follows kmod/ring.c's rule for this machine, insmod allocates nothing,
# the first probe allocates a ring per possible CPU, and one stream reads
# every online CPU's records. Prints "# figure:" lines for the bench.
#   tests/vm/run -n --smp 2,maxcpus=64 -- tests/vm/many-cpus.sh
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

mem_kib() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
ring_json() { $CTL -j ring show; }
possible() { echo $(( $(cut -d- -f2 /sys/devices/system/cpu/possible) + 1 )); }

# kmod/ring.c, rp_ring_auto_records(): 16384 records, halved while all
# CPUs' records take more than min(256 MiB, a quarter of the budget, i.e.
# RAM/64), not below 1024.
expected_records() {
	local cpus=$1 ram=$(( $(mem_kib MemTotal) * 1024 )) n=16384 budget
	budget=$(( 256 << 20 ))
	[ $((ram / 64)) -lt $budget ] && budget=$((ram / 64))
	while [ $n -gt 1024 ] && [ $((n * 256 * cpus)) -gt $budget ]; do
		n=$((n / 2))
	done
	echo $n
}

t_many_possible_cpus() {
	expect_ge 64 "$(possible)" "possible CPUs (boot with --smp 2,maxcpus=64 or --smp 64)"
	echo "# figure: cpus possible $(possible) online $(nproc)"
}

t_insmod_allocates_no_ring() {
	local free0 free1 t0 t1 j
	free0=$(mem_kib MemFree)
	t0=$(date +%s%N)
	insmod "$KO"
	t1=$(date +%s%N)
	free1=$(mem_kib MemFree)
	j=$(ring_json)
	expect_eq "$(possible)" "$(json_get "$j" 'j["rings"]')" "a ring per possible CPU"
	expect_eq "$(expected_records "$(possible)")" "$(json_get "$j" 'j["records"]')" \
		"the default size for $(possible) CPUs and $(mem_kib MemTotal) KiB"
	expect_eq 0 "$(json_get "$j" 'j["allocated_bytes"]')" "ring memory after insmod"
	echo "# figure: insmod ms $(( (t1 - t0) / 1000000 )) memfree_drop_kib $((free0 - free1))"
}

# What the first probe allocates is charged to its adder's memory cgroup
# (kmod/ring.c): the cgroup's own count measures it, as MemFree, which
# misses pages taken from the per-CPU free lists, cannot. The cgroup stays
# for the unload's count.
t_first_probe_allocates_all_rings() {
	local cg=$CGROOT/rp-many t0 t1 j records want mem0 mem1 free0 free1
	j=$(ring_json)
	records=$(json_get "$j" 'j["records"]')
	want=$(( $(possible) * (records * 256 + 4096) ))
	cgroup_make rp-many
	free0=$(mem_kib MemFree)
	mem0=$(cat $cg/memory.current)
	t0=$(date +%s%N)
	in_cgroup rp-many $CTL probe add kprobe vfs_read >/dev/null
	t1=$(date +%s%N)
	mem1=$(cat $cg/memory.current)
	free1=$(mem_kib MemFree)
	expect_eq "$want" "$(json_get "$(ring_json)" 'j["allocated_bytes"]')" "ring memory"
	expect_ge "$want" $((mem1 - mem0)) "memory charged to the first probe's adder"
	echo "# figure: first_probe ms $(( (t1 - t0) / 1000000 )) ring_kib $((want / 1024)) charged_kib $(( (mem1 - mem0) / 1024 )) memfree_drop_kib $((free0 - free1)) records_per_cpu $records"
}

# One stream, every online CPU reading a file 20 times: 20 records from
# each, each with the CPU its reader was pinned to.
t_stream_every_online_cpu() {
	local out=$T_SCRATCH/many.json cpu n pids=() t0 t1
	stream_bg "$out" -e kprobe:vfs_read --comm rp-many
	t0=$(date +%s%N)
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" bash -c 'printf rp-many > /proc/$$/comm
			for i in $(seq 20); do read -r _ < /proc/version; done' &
		pids+=($!)
	done
	wait "${pids[@]}"
	sleep 0.5	# the flush timer (50 ms) delivers the last ones
	stream_stop
	t1=$(date +%s%N)
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		n=$(count_records "$out" "r['cpu'] == $cpu and r['comm'] == 'rp-many'")
		expect_ge 20 "$n" "records from cpu $cpu"
	done
	echo "# figure: stream online_cpus $(nproc) ms $(( (t1 - t0) / 1000000 ))"
	sed 's/^/#   /' "$out.err"
}

# rmmod gives the rings back: the cgroup that paid for them is uncharged
# (at least 90% of them: its count also moves with the shell's own pages).
t_unload_frees_the_rings() {
	local cg=$CGROOT/rp-many mem0 mem1 free0 free1 want
	want=$(json_get "$(ring_json)" 'j["allocated_bytes"]')
	mem0=$(cat $cg/memory.current)
	free0=$(mem_kib MemFree)
	rmmod rawprobe
	mem1=$(cat $cg/memory.current)
	free1=$(mem_kib MemFree)
	rmdir $cg
	expect_ge $((want / 10 * 9)) $((mem0 - mem1)) "memory uncharged by rmmod"
	echo "# figure: rmmod uncharged_kib $(( (mem0 - mem1) / 1024 )) memfree_gain_kib $((free1 - free0))"
}

tests t_many_possible_cpus t_insmod_allocates_no_ring \
	t_first_probe_allocates_all_rings t_stream_every_online_cpu \
	t_unload_frees_the_rings
run_tests
rm -rf "$T_SCRATCH"
echo "$T_PASS passed, $T_FAIL failed"
[ "$T_FAIL" = 0 ]
