#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Malformed and misspelt rawprobectl invocations under an ASan+UBSan
# build of the CLI (make ctl-asan): each must end with its documented
# exit code and a message on stderr, never a crash or a sanitizer report.
#   tests/cli/hostile.sh [--kernel] [CLI]   default: build/asan/rawprobectl
# On the host (no module) requests the kernel would judge end with 3,
# "module not loaded". --kernel (in the VM, module loaded) runs only
# those: each ends with 1 and leaves the probe list as it was.
# Ends with "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
kernel=0
[ "${1:-}" = --kernel ] && { kernel=1; shift; }
CTL=${1:-$here/../../build/asan/rawprobectl}
[ -x "$CTL" ] || { echo "no $CTL: make ctl-asan" >&2; exit 2; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
pass=0 fail=0
T=$(mktemp -d /tmp/rp-hostile.XXXXXX)
trap 'rm -rf "$T"' EXIT

long=$(printf 'x%.0s' $(seq 300))
head -c 4096 /dev/urandom >"$T/random.bin"
: >"$T/empty.bin"
printf 'RPCAP' >"$T/short.bin"

# One invocation: WANT is an exit code, or K for "the kernel judges".
try() {	# WANT ARG...
	local want=$1 rc=0 name
	shift
	[ "$want" = K ] && want=$((kernel ? 1 : 3))
	"$CTL" "$@" </dev/null >"$T/out" 2>"$T/err" || rc=$?
	name=$(printf '%q ' "$@" | cut -c1-100)
	if [ "$rc" = "$want" ] && [ -s "$T/err" ] &&
	   ! grep -Eq 'Sanitizer|runtime error' "$T/err"; then
		pass=$((pass + 1)); echo "ok - hostile: $name(exit $rc)"
	else
		fail=$((fail + 1)); echo "not ok - hostile: $name(exit $rc, want $want)"
		sed 's/^/    /' "$T/err" | head -20
	fi
}

# Requests the CLI itself must refuse.
parse_errors() {
	# Every number the CLI takes, given values that are not numbers.
	bad_numbers=(-1 '' abc 1.5 0x ' 7' '7 ' 1e3 +5 99999999999999999999 '7;rm')
	for v in "${bad_numbers[@]}"; do
		try 2 probe add kretprobe vfs_read -m "$v"
		try 2 probe add kprobe vfs_read -s "$v"
		try 2 probe add kprobe vfs_read --pid "$v"
		try 2 probe add kprobe vfs_read --tgid "$v"
		try 2 probe add kprobe vfs_read --cpu "$v"
		try 2 stream -c "$v"
		try 2 stream -i "$v"
		try 2 hist --arg "$v"
		try 2 hist --linear "$v"
		try 2 probe del "$v"
		try 2 probe show "$v"
		try 2 probe enable "$v"
		try 2 stats show "$v"
		try 2 ring set records "$v"
		try 2 ring set flight records "$v"
		try 2 ring create flight records "$v"
		try 2 trace kprobe:vfs_read --ring-records "$v"
		try 2 count kprobe:vfs_read --top "$v"
		try 2 count kprobe:vfs_read --max-keys "$v"
		[ "$v" = -1 ] ||	# a value an override may return
			try 2 trace kprobe:__x64_sys_getuid --override "$v"
		try 2 inject kmalloc --times "$v"
		try 2 inject kmalloc --probability "$v"
		try 2 inject kmalloc --interval "$v"
		try 2 inject kmalloc --pid "$v"
		try 2 inject kmalloc --times 1 -d "$v"
	done

	# inject: a class, limits, a chain of at most 8
	try 2 inject
	try 2 inject kmalloc				# every allocation would fail
	try 2 inject kmallocc --times 1
	try 2 inject kmalloc alloc_page --times 1
	try 2 inject kmalloc --probability 0
	try 2 inject kmalloc --probability 101
	try 2 inject kmalloc --times 0
	try 2 inject kmalloc --in ''
	try 2 inject kmalloc --in ,
	try 2 inject kmalloc --in a,b,c,d,e,f,g,h,i
	try 2 inject kmalloc --in "$long"
	try 2 inject kmalloc --comm "$long"
	try 2 inject kmalloc --bogus
	try 2 trace --override 1 kprobe:__x64_sys_getuid
	try 2 trace kprobe:__x64_sys_getuid --override
	try 2 probe add kprobe __x64_sys_getuid --override 1	# persistent

	for v in -1 0 '' abc ' 7' 7s inf nan 1e30 99999999999999999999; do
		try 2 stream -d "$v"		# seconds, fractions allowed
		try 2 count kprobe:vfs_read -i "$v"
		try 2 count kprobe:vfs_read -d "$v"
	done

	# The grammar.
	try 2					# no object
	try 2 probes list			# unknown object
	try 2 PROBE list			# case matters
	try 2 probe				# no command
	try 2 probe adx kprobe vfs_read		# unknown command
	try 2 probe d 1				# ambiguous prefix
	try 2 --jsn probe list			# unknown option
	try 2 -x
	try 2 probe list extra
	try 2 ring show default extra		# SESSION at most
	try 2 version extra
	try 2 monitor extra
	try 2 stats reset
	try 2 stats reset 1 2
	try 2 ring set
	try 2 ring set records
	try 2 ring set mode
	try 2 ring set mode fast
	try 2 ring set records 65
	try 2 ring set records 2097152
	try 2 ring set colour red
	try 2 ring
	try 2 ring frob
	try 2 ring create
	try 2 ring create "$long"
	try 2 ring create ''
	try 2 ring create $'\xff\xfe'
	try 2 ring create $'a\nb'
	try 2 ring create $'a\x1b[2J'
	try 2 ring create 4294967296
	try 2 ring create flight mode
	try 2 ring create flight records 64 mode ring
	try 2 ring del
	try 2 ring del "$long"
	try 2 ring del default
	try 2 ring del 99999999999999999999
	try 2 ring show "$long"
	try 2 ring set "$long" records 64
	try 2 ring set flight clock tsc
	try 2 ring list extra
	try 2 stream --ring "$long"
	try 2 stream --ring ''
	try 2 stream --ring $'\xff'
	try 2 stream --ring-records 64
	try 2 trace kprobe:vfs_read --ring-mode "$long"
	try 2 trace kprobe:vfs_read --ring flight --ring-records 64
	try 2 probe add kprobe vfs_read --ring "$long"
	try 2 probe add kprobe vfs_read --ring ''

	# Kinds and targets.
	try 2 probe add uprobe vfs_read
	try 2 probe add KPROBE vfs_read
	try 2 probe add '' vfs_read
	try 2 probe add kprobe
	try 2 probe add kprobe ''
	try 2 probe add kprobe 'vfs read'
	try 2 probe add kprobe 'vfs_read;reboot'
	try 2 probe add kprobe "$long"
	try 2 probe add kprobe "mod$long:vfs_read"
	try 2 probe add kprobe ':vfs_read'
	try 2 probe add kprobe 'ext4:'
	try 2 probe add kprobe 'a:b:c'
	try 2 probe add kprobe 'vfs_read+'
	try 2 probe add kprobe 'vfs_read+-4'
	try 2 probe add kprobe 'vfs_read+0x8000'
	try 2 probe add kprobe 'vfs_read+4+4'
	try 2 probe add kprobe 0x
	try 2 probe add kprobe 0xzz
	try 2 probe add kprobe 0x10000000000000000
	try 2 probe add kprobe $'vfs_read\n'
	try 2 probe add kprobe $'\xff\xfe'
	try 2 agg
	try 2 agg show
	try 2 agg show x
	try 2 agg show 0
	try 2 agg frob 1
	try 2 agg show 1 2
	try 2 agg show 1 -f xml
	try 2 agg show 1 -f
	try 2 agg show -f openmetrics
	try 2 agg clear 1 -f openmetrics
	try 2 probe add kprobe vfs_read --count --by stak
	try 2 probe add kprobe vfs_read --by retval
	try 2 probe add kretprobe vfs_read --hist log2
	try 2 count
	try 2 count kprobe
	try 2 count vfs_read
	try 2 count kprobe:vfs_read kprobe:vfs_read
	try 2 count kprobe:vfs_read kretprobe:vfs_write
	try 2 count kprobe:vfs_read --by
	try 2 count kprobe:vfs_read --by comm,
	try 2 count kprobe:vfs_read --by ,comm
	try 2 count kprobe:vfs_read --by comm,pid,tgid,cpu,caller
	try 2 count kprobe:vfs_read --by "$long"
	try 2 count kprobe:vfs_read -f "$long"
	try 2 count kprobe:vfs_read -f ''
	try 2 count kprobe:vfs_read -f openmetric
	try 2 count kprobe:vfs_read --format
	try 2 count kprobe:vfs_read --by stak
	try 2 count kprobe:vfs_read --by retval
	try 2 count kprobe:vfs_read --by arg0
	try 2 count kprobe:vfs_read --args 2 --by arg2
	try 2 count kprobe:vfs_read --stats latency
	try 2 count kprobe:vfs_read --stats "$long"
	try 2 count kprobe:vfs_read+4 --by caller
	try 2 count kprobe:vfs_read --max-keys 65537
	try 2 count kretprobe:vfs_read --hist log2
	try 2 count kretprobe:vfs_read --stats retval --hist log10
	try 2 count kretprobe:vfs_read --stats retval --lhist 0,10
	try 2 count kretprobe:vfs_read --stats retval --lhist 10,0,1
	try 2 count kretprobe:vfs_read --stats retval --lhist 0,1000000,1
	try 2 count kretprobe:vfs_read --stats retval --lhist a,b,c
	try 2 count kretprobe:vfs_read --stats retval --lhist "$long"
	try 2 trace
	try 2 trace kprobe
	try 2 trace frob:vfs_read
	try 2 stream -e vfs_read
	try 2 stream -e kprobe:
	try 2 stream -e :vfs_read
	try 2 stream -a 2

	# Argument specs.
	try 2 probe add kprobe vfs_read -a 7
	try 2 probe add kprobe vfs_read -a 10
	try 2 probe add kprobe vfs_read -a -1
	try 2 probe add kprobe vfs_read -a ''
	try 2 probe add kprobe vfs_read -a float
	try 2 probe add kprobe vfs_read -a u64,,u64
	try 2 probe add kprobe vfs_read -a ,u64
	try 2 probe add kprobe vfs_read -a u64,
	try 2 probe add kprobe vfs_read -a U64
	try 2 probe add kprobe vfs_read -a 'u64 ,s32'
	try 2 probe add kprobe vfs_read -a u64,u64,u64,u64,u64,u64,u64
	try 2 probe add kprobe vfs_read -a "$long"
	try 2 probe add kprobe vfs_read -s 0
	try 2 probe add kprobe vfs_read -s 128
	try 2 probe add kretprobe vfs_read -m 0
	try 2 probe add kretprobe vfs_read -m 4097
	try 2 probe add kprobe vfs_read --comm ''
	try 2 probe add kprobe vfs_read --comm 0123456789abcdef
	try 2 probe add kprobe vfs_read --cpu 65536
	try 2 probe add kprobe vfs_read --pid 2147483648

	# Kernel stacks where the kernel would refuse them, and the option's
	# place.
	try 2 probe add kprobe vfs_read+4 --stack
	try 2 probe add kprobe 0x1000 --stack
	try 2 probe add jprobe vfs_read -a u64,ustr --stack
	try 2 probe add jprobe vfs_read -a p:str --stack
	try 2 probe add kprobe vfs_read --stack=1
	try 2 stream --stack
	try 2 stream -e kprobe:vfs_read+4 --stack
	try 2 trace --stack kprobe:vfs_read
	try 2 trace kretprobe:0x1000 --stack
	try 2 hist --stack --arg 0
	try 2 hist --retval --stack
	try 2 hist --stack --linear 1
	try 2 hist kprobe:vfs_read+4 --stack
	try 2 stream -f FOLDED

	# Formats, files and the rest.
	try 2 stream -f xml
	try 2 stream -f ''
	try 2 stream -f JSON
	try 2 hist --by pid
	try 2 hist --arg 6
	try 1 stream -r /nonexistent
	try 1 stream -r "$T"
	try 1 stream -r /dev/null
	try 1 stream -r "$T/empty.bin"
	try 1 stream -r "$T/short.bin"
	try 1 stream -r "$T/random.bin"
	try 1 stream -r "$T/random.bin" -f json
	try 1 hist -r "$T/random.bin"
	try 1 hist -r "$T/random.bin" --by comm
	try 1 stream -r "$T/random.bin" -o /nonexistent/dir/out

	# BTF: prototypes, --args auto, names (no module needed).
	try 2 btf
	try 2 btf show
	try 2 btf frob
	try 2 btf show 0x10
	try 2 btf show "$long"
	try 2 btf show 'vfs_read;ls'
	try 2 btf show 'ext4:'
	try 2 probe add kprobe vfs_read -a auto,u64
	try 2 probe add kprobe vfs_read -a fd:s32,u64
	try 2 probe add kprobe vfs_read -a :s32
	try 2 probe add kprobe vfs_read -a fd:
	try 2 probe add kprobe vfs_read -a 'f d:s32'
	try 2 probe add kprobe vfs_read -a "$long:s32"
	try 2 probe add kprobe vfs_read -a a:u64,b:u64,c:u64,d:u64,e:u64,f:u64,g:u64
	try 2 probe add kprobe 0x1000 -a auto
	try 2 probe add kprobe vfs_read+4 -a auto
	for btf in /nonexistent "$T" "$T/empty.bin" "$T/short.bin" \
		   "$T/random.bin" /dev/null /dev/zero; do
		RAWPROBECTL_BTF=$btf try 1 btf show vfs_read
		RAWPROBECTL_BTF=$btf try 1 btf show ext4:ext4_sync_file
		RAWPROBECTL_BTF=$btf try 1 probe add kprobe vfs_read -a auto --dry-run
	done
	if btf=$("$here/btf-fixture.sh" 2>/dev/null); then
		export RAWPROBECTL_BTF=$btf
		try 1 btf show no_such_function_rawprobe
		try 1 btf show "x${long:0:120}"
		try 1 btf show loop:lo_open
		try 1 btf show __x64_sys_no_such_rawprobe
		RAWPROBECTL_TRACEFS=/nonexistent try 1 btf show __x64_sys_read
		RAWPROBECTL_TRACEFS="$T" try 1 probe add kprobe __x64_sys_read -a auto
		try K probe add kprobe vfs_read -a auto
		try K probe add kprobe __x64_sys_openat2 -a auto
		unset RAWPROBECTL_BTF
	else
		fail=$((fail + 1)); echo "not ok - hostile: tests/cli/btf-fixture.sh"
	fi
	RAWPROBECTL_BTF=/nonexistent try 1 stream -e kprobe:vfs_read -a auto
	RAWPROBECTL_BTF=/nonexistent try 1 trace jprobe:vfs_read -a auto -d 1
	# names in a capture that are no names: ignored
	python3 - "$T/names.bin" <<'PY'
import struct, sys
def item(tag, body):
    return struct.pack('<II', tag, len(body)) + body
desc = struct.pack('<IBBB6s224s3x', 1, 1, 0, 2, bytes(2), b'kprobe:vfs_read')
rec = bytearray(256)
struct.pack_into('<QQIBB', rec, 0, 1, 1, 1, 1, 1)
rec[123] = 2
with open(sys.argv[1], 'wb') as f:
    f.write(b'RPCAP001' + item(1, desc) + item(3, struct.pack('<I128s', 1, b'\x1b[2J,' * 21)) +
            item(3, struct.pack('<I128s', 1, b'a' * 128)) +
            item(3, struct.pack('<I128s', 9, b'x,y')) + item(2, bytes(rec)))
with open(sys.argv[1] + '.short', 'wb') as f:
    f.write(b'RPCAP001' + item(1, desc) + item(3, b'short') + item(2, bytes(rec)))
PY
	try 0 stream -r "$T/names.bin"
	try 0 stream -r "$T/names.bin" -j -o /dev/null
	try 1 stream -r "$T/names.bin.short"
}

# Well-formed requests that only the kernel can judge.
kernel_errors() {
	try K probe add kprobe no_such_function_rawprobe
	try K probe add kretprobe no_such_module_rp:vfs_read
	try K probe add kprobe vfs_read+1		# inside an instruction
	try K probe add kprobe vfs_read vfs_read+1	# a batch: all or none
	try K probe add jprobe vfs_read no_such_function_rawprobe -a 3
	try K probe add kprobe 0x1
	try K probe add kprobe no_such_function_rawprobe --stack
	try K probe del 12345
	try K probe show 12345
	try K probe enable 12345
	try K probe disable 12345
	try K probe del 12345 12346		# several: each reported
	try K probe reset 12345
	try K stats reset 12345
	try K ring show no_such_session_rp
	try K ring del no_such_session_rp
	try K ring set no_such_session_rp records 128
	try K probe add kprobe vfs_read --ring no_such_session_rp
	try K stream --ring no_such_session_rp -d 1
}

list() { "$CTL" -j probe list 2>&1; }
if [ $kernel = 1 ]; then
	before=$(list)
	kernel_errors
	after=$(list)
	if [ "$before" = "$after" ]; then
		pass=$((pass + 1)); echo "ok - hostile: the probe list is as it was"
	else
		fail=$((fail + 1)); echo "not ok - hostile: probes changed"
		printf '    before: %s\n    after: %s\n' "$before" "$after"
	fi
else
	parse_errors
	kernel_errors
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
