#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest: every tests/vm/cases/*.sh (or those named), each
# case with the module loaded fresh, then checks that unloading leaves
# nothing behind. Ends with "N passed, N failed".
# On a kernel with kmemleak (the debug kernels of tests/vm/debug-kernel.sh)
# each case is also a test that it leaked nothing: two forced scans after
# the unload, the suspects printed as the kernel wrote them. Where the
# kernel refuses the scan (a lockdown raised by 99-lockdown closes
# debugfs), that test is skipped, and counted as such.
here=$(cd "$(dirname "$0")" && pwd)
KMEMLEAK=/sys/kernel/debug/kmemleak
echo "kernel: $(uname -r)"
pass=0 failn=0 skipn=0
cases=("$@")
[ ${#cases[@]} = 0 ] && cases=("$here"/cases/*.sh)

# Scan twice (an object must look unreferenced in two scans to be
# reported), print the suspects, forget them. 0 if there were none, 2 if
# the kernel refused the scan.
kmemleak_scan() {
	local leaks
	{ echo scan > $KMEMLEAK && echo scan > $KMEMLEAK &&
	  leaks=$(cat $KMEMLEAK); } 2>/dev/null || return 2
	echo clear > $KMEMLEAK
	[ -z "$leaks" ] && return 0
	printf '%s\n' "$leaks"
	return 1
}

# KCSAN on 6.12: the fast timekeeper's readers (ktime_get_mono_fast_ns,
# which the probe handlers call for timestamps) still use the raw latch
# accessors that KCSAN cannot see, so a timer interrupt updating the
# latch under a handler is reported as a race in the kernel's own code.
# The latch retries such reads by design; 6.13 moved timekeeping to the
# annotated read_seqcount_latch() ("seqlock, treewide: Switch to non-raw
# seqcount_latch interface"). Reports with it on top go unreported here.
KCSAN=/sys/kernel/debug/kcsan
[ -w $KCSAN ] && echo '!ktime_get_mono_fast_ns' > $KCSAN

# What the kernel leaked while booting is not the suite's.
if [ -w $KMEMLEAK ] && ! kmemleak_scan >/dev/null; then
	echo "# kmemleak: suspects from before the suite, ignored"
fi
for c in "${cases[@]}"; do
	name=$(basename "$c" .sh)
	if [ ! -f "$c" ]; then	# a misspelt case is a failure, not a pass
		echo "not ok - $c: no such case"
		failn=$((failn + 1))
		continue
	fi
	start=$SECONDS
	out=$(
		. "$here/lib.sh"
		T_CASE="$name: "
		. "$c"
		module_load
		run_tests
		# Whatever a case did, the module must unload cleanly.
		if module_unload && [ ! -e /dev/rawprobe ]; then
			T_PASS=$((T_PASS + 1)); echo "ok - ${name}: unload"
		else
			T_FAIL=$((T_FAIL + 1)); echo "not ok - ${name}: unload"
		fi
		rm -rf "$T_SCRATCH"
		skip=0
		if [ -w $KMEMLEAK ]; then
			kmemleak_scan
			case $? in
			0)	T_PASS=$((T_PASS + 1)); echo "ok - ${name}: kmemleak" ;;
			2)	skip=1
				echo "ok - ${name}: kmemleak # SKIP the kernel refused the scan ($(cat /sys/kernel/security/lockdown 2>/dev/null))" ;;
			*)	T_FAIL=$((T_FAIL + 1)); echo "not ok - ${name}: kmemleak" ;;
			esac
		fi
		echo "#counts $T_PASS $T_FAIL $((skip + T_SKIP))"
	)
	printf '%s\n' "$out" | grep -v '^#counts'
	echo "# $name: $((SECONDS - start)) s"
	read -r p f s < <(printf '%s\n' "$out" | awk '/^#counts/ { print $2, $3, $4 }')
	pass=$((pass + ${p:-0}))
	failn=$((failn + ${f:-1}))
	skipn=$((skipn + ${s:-0}))
done
echo "$pass passed, $failn failed$([ $skipn = 0 ] || echo ", $skipn skipped")"
[ "$failn" = 0 ]
