# SPDX-License-Identifier: GPL-2.0
# What one probe lifecycle (add, disable, enable, del) costs, by batch
# size, bare (each probe arms an ftrace site) and anchored (a jprobe
# already holds the address: the kprobe joins the aggregate, no text
# patching). The churn of tests/stress/cases/10-load.sh is bound by it
# (docs/reliability.md). Not part of any suite; run it by hand:
#   tests/vm/run -k 6.1 -t 600 --tcg-single -- \
#       tests/vm/suite.sh $PWD/tests/stress/repro/churn-cost.sh
timeit() {	# label cmd...
	local t0=$(date +%s%N) l=$1
	shift
	"$@" >/dev/null
	echo "# $l: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
cycle() {	# N symbols file
	local ids t0=$(date +%s%N)
	ids=$($CTL probe add kprobe $(head -$1 $2))
	local t1=$(date +%s%N)
	$CTL probe disable $ids
	local t2=$(date +%s%N)
	$CTL probe enable $ids
	local t3=$(date +%s%N)
	$CTL probe del $ids
	local t4=$(date +%s%N)
	echo "# $3 n=$1: add $(( (t1-t0)/1000000 )) disable $(( (t2-t1)/1000000 )) enable $(( (t3-t2)/1000000 )) del $(( (t4-t3)/1000000 )) ms"
}
t_rates() {
	probeable_functions 256 > $T_SCRATCH/syms
	timeit "version (a process)" $CTL version
	cycle 16 $T_SCRATCH/syms bare
	cycle 64 $T_SCRATCH/syms bare
	$CTL probe add jprobe $(head -128 $T_SCRATCH/syms) >/dev/null
	cycle 16 $T_SCRATCH/syms anchored
	cycle 64 $T_SCRATCH/syms anchored
	cycle 128 $T_SCRATCH/syms anchored
	$CTL probe del all
}
tests t_rates
