#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest: every tests/vm/cases/*.sh (or those named), each
# case with the module loaded fresh, then checks that unloading leaves
# nothing behind. Ends with "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
echo "kernel: $(uname -r)"
pass=0 failn=0
cases=("$@")
[ ${#cases[@]} = 0 ] && cases=("$here"/cases/*.sh)
for c in "${cases[@]}"; do
	name=$(basename "$c" .sh)
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
		echo "#counts $T_PASS $T_FAIL"
	)
	printf '%s\n' "$out" | grep -v '^#counts'
	read -r p f < <(printf '%s\n' "$out" | awk '/^#counts/ { print $2, $3 }')
	pass=$((pass + ${p:-0}))
	failn=$((failn + ${f:-1}))
done
echo "$pass passed, $failn failed"
[ "$failn" = 0 ]
