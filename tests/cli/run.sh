#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rawprobectl on the host, where no module is loaded: grammar, help,
# usage errors and exit codes. Ends with "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
CTL=${RAWPROBECTL:-$here/../../userctl/rawprobectl}
pass=0 fail=0

# matches TEXT REGEX: "^$" means empty (grep sees no line in "")
matches() {
	if [ "$2" = '^$' ]; then [ -z "$1" ]; else printf '%s' "$1" | grep -Eq -- "$2"; fi
}

# check NAME EXPECTED_EXIT STDOUT_REGEX STDERR_REGEX -- CMD...
check() {
	local name=$1 code=$2 out_re=$3 err_re=$4 rc=0 out err
	shift 5
	out=$("$@" 2>/tmp/rp-cli-err.$$) || rc=$?
	err=$(cat /tmp/rp-cli-err.$$)
	if [ "$rc" = "$code" ] && matches "$out" "$out_re" &&
	   matches "$err" "$err_re"; then
		pass=$((pass + 1)); echo "ok - cli: $name"
	else
		fail=$((fail + 1)); echo "not ok - cli: $name"
		echo "    exit $rc (want $code); stdout: $out; stderr: $err"
	fi
}

check "help"             0 "Objects:"        "^$"          -- $CTL --help
check "help object"      0 "probe +add.del"       "^$"          -- $CTL help
check "probe help"       0 "probe del"       "^$"          -- $CTL probe help
check "probe add --help" 0 "maxactive"       "^$"          -- $CTL probe add --help
check "stream --help"    0 "--duration"      "^$"          -- $CTL stream --help
check "ring set help"    0 "power of two"    "^$"          -- $CTL ring set help
check "version -V"       0 "ABI 1"           "^$"          -- $CTL -V
check "no object"        2 "^$"              "Usage"       -- $CTL
check "bad option"       2 "^$"              "Usage"       -- $CTL --frob
check "unknown object"   2 "^$"              "unknown object 'frob'" -- $CTL frob
check "unknown command"  2 "^$"              "unknown command 'probe frob'" -- $CTL probe frob
check "ambiguous prefix" 2 "^$"              "ambiguous: del or disable" -- $CTL probe d 1
check "bad kind"         2 "^$"              "unknown probe kind 'uprobe'" -- $CTL probe add uprobe x
check "bad target"       2 "^$"              "bad target" -- $CTL probe add kprobe 'mod:'
check "bad offset"       2 "^$"              "bad target" -- $CTL probe add kprobe 'f+zz'
check "maxactive range"  2 "^$"              "1..4096"     -- $CTL probe add kretprobe f -m 5000
check "args count"       2 "^$"              "bad --args"  -- $CTL probe add kprobe f -a 7
check "args type"        2 "^$"              "bad --args"  -- $CTL probe add kprobe f -a s32,float
check "args too many"    2 "^$"              "bad --args"  -- $CTL probe add kprobe f -a u64,u64,u64,u64,u64,u64,u64
check "missing target"   2 "^$"              "Usage"       -- $CTL probe add kprobe
check "bad id"           2 "^$"              "not a probe id" -- $CTL probe del 0
check "stream -a first"  2 "^$"              "give -e first" -- $CTL stream -a 2
check "stream -e form"   2 "^$"              "KIND:TARGET" -- $CTL stream -e vfs_read
check "stream duration"  2 "^$"              "--duration"  -- $CTL stream -d -1
check "ring set records" 2 "^$"              "power of two" -- $CTL ring set records 100
check "ring set mode"    2 "^$"              "discard or overwrite" -- $CTL ring set mode fast
check "stray argument"   2 "^$"              "Usage: rawprobectl version" -- $CTL version now
check "list help"        0 "statistics"      "^$"          -- $CTL probe list --help
# the host has no module: the CLI says so with exit code 3
check "no module"        3 "^$"              "not loaded.*insmod" -- $CTL probe list
check "no module json"   3 "^$"              "not loaded" -- $CTL -j version

rm -f /tmp/rp-cli-err.$$
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
