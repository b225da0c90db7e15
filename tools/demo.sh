#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: runs in a QEMU guest with rawprobe.ko loaded (tests/vm/run).
# Shows rawprobectl on real kernel functions.
set -e
C=${RAWPROBECTL:-rawprobectl}
say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { say "$*"; "$@"; }

run $C version

say "$C stream -e jprobe:do_sys_openat2 --args s32,ustr --duration 2   # meanwhile: cat /etc/hostname"
( sleep 0.7; cat /etc/hostname > /dev/null ) &
$C stream -e jprobe:do_sys_openat2 --args s32,ustr --duration 2 2>&1 |
	grep -E ' cat |PROBE|jprobe:|records read'
wait

say "$C probe add kretprobe vfs_read --maxactive 64 --args 3"
id=$($C probe add kretprobe vfs_read --maxactive 64 --args 3)
echo "$id"
run $C probe add kprobe __x64_sys_getpgid
say "python3 -c 'import os; [os.getpgid(0) for _ in range(1000)]'"
python3 -c 'import os; [os.getpgid(0) for _ in range(1000)]'
run $C probe list

say "$C -p probe show $id"
$C -p probe show "$id"

run $C probe del all
run $C probe list
echo
echo "That was rawprobe on Linux $(uname -r) under QEMU. Next: README.md."
