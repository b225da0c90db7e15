#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: runs in a QEMU guest with rawprobe.ko loaded (tests/vm/run).
# Shows rawprobectl on real kernel functions: doctor, a kprobe with its
# statistics, a kretprobe with a latency histogram, a jprobe-style probe
# capturing the file names cat opens, an export for Perfetto, cleanup.
set -e
C=${RAWPROBECTL:-rawprobectl}
say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { say "$*"; "$@"; }
# later WORKLOAD...: run a workload once the command started meanwhile
# has its probes in place
later() { ( sleep 1.5; "$@" >/dev/null 2>&1 ) & }

run $C doctor

say "$C probe add kprobe __x64_sys_getpgid        # a kprobe on a syscall"
id=$($C probe add kprobe __x64_sys_getpgid)
echo "$id"
say "python3 -c 'import os; [os.getpgid(0) for _ in range(1000)]'"
python3 -c 'import os; [os.getpgid(0) for _ in range(1000)]'
run $C probe show "$id"
run $C probe del "$id"

say "$C hist kretprobe:vfs_read --by comm --duration 4   # meanwhile: dd, cat"
later sh -c 'dd if=/dev/zero of=/dev/null bs=4k count=200; cat /etc/os-release /etc/hostname'
$C hist kretprobe:vfs_read --by comm --duration 4 2>/dev/null | grep -A 30 -E '^@.*\[(dd|cat)\]' | grep -v '^--$'

say "$C trace jprobe:do_sys_openat2 --args s32,ustr --comm cat --duration 3   # meanwhile: cat"
later cat /etc/hostname /etc/os-release
$C trace jprobe:do_sys_openat2 --args s32,ustr --comm cat --duration 3

say "$C trace kretprobe:vfs_read --duration 3 -f perfetto -o /tmp/vfs_read.json   # open it in ui.perfetto.dev"
later dd if=/dev/zero of=/dev/null bs=1k count=20
$C trace kretprobe:vfs_read --duration 3 -f perfetto -o /tmp/vfs_read.json 2>/dev/null
python3 -c 'import json; ev = json.load(open("/tmp/vfs_read.json"))["traceEvents"]
print(len([e for e in ev if e["ph"] == "X"]), "slices on",
      len({e["tid"] for e in ev if e["ph"] == "M"}), "threads in /tmp/vfs_read.json")'

run $C probe add kprobe do_sys_open2 || true
run $C probe list
echo
echo "That was rawprobe on Linux $(uname -r) under QEMU. Next: man/rawprobectl.8, README.md."
