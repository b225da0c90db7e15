#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'rawprobectl btf show', --args auto and named arguments on the host,
# against the BTF of Debian's 6.12 kernel (tests/cli/btf-fixture.sh takes
# it from the kernel cache, RAWPROBECTL_BTF points at it): prototypes in
# text and JSON (validated against the schema), unknown functions and
# missing BTF, modules' split BTF, syscall entry points (__do_sys_ in BTF,
# or a syscall's tracepoint format), the requests probe add --dry-run
# would send, and captures of named probes in every format. No module is
# needed. Ends with "N passed, N failed".
#   tests/cli/btf.sh            RAWPROBECTL=... for another build
AREA=btf
. "$(dirname "$0")/lib.sh"

# same NAME FILE -- CMD...: CMD's stdout is FILE's text exactly
same() {
	local name=$1 want=$2 rc=0
	shift 3
	"$@" >"$T/got" 2>"$T/stderr" || rc=$?
	if [ "$rc" = 0 ] && cmp -s "$want" "$T/got"; then
		pass=$((pass + 1)); echo "ok - btf: $name"
	else
		fail=$((fail + 1)); echo "not ok - btf: $name (exit $rc)"
		diff "$want" "$T/got" | head -20 | sed 's/^/    /'
		sed 's/^/    stderr: /' "$T/stderr" | head -5
	fi
}

if ! BTF=$("$here/btf-fixture.sh" 2>"$T/fixture.err"); then
	echo "not ok - btf: the BTF of Debian's 6.12 kernel (tests/cli/btf-fixture.sh)"
	sed 's/^/    /' "$T/fixture.err"
	echo "0 passed, 1 failed"
	exit 1
fi
export RAWPROBECTL_BTF=$BTF
unset RAWPROBECTL_TRACEFS
# kallsyms as probe add checks it first; ext4's for the module fallback
cat >"$T/kallsyms" <<'KSYMS'
ffffffff81100000 T vfs_read
ffffffff81100200 T vfs_write
ffffffff81100400 t do_sys_openat2
ffffffff81100800 T __x64_sys_openat
ffffffff81100900 T __x64_sys_openat2
ffffffff81100a00 T __x64_sys_getpid
ffffffff81100b00 T __x64_sys_read
ffffffff81100b80 T __x64_sys_pread64
ffffffff81100bc0 T __x64_sys_lseek
ffffffff81100c00 T do_error_trap
ffffffff81100d00 T pte_val
ffffffff81100e00 T fpregs_get
ffffffff81100f00 T __cpuhp_remove_state
ffffffff81101000 T cc_platform_has
ffffffffc0001000 t ext4_sync_file	[ext4]
KSYMS
export RAWPROBE_KALLSYMS=$T/kallsyms
ADD="$CTL probe add"

# --- btf show: prototypes, as bpftrace -lv prints them ---
cat >"$T/vfs_read.txt" <<'EOF'
kprobe:vfs_read
    struct file * file
    char * buf
    size_t count
    loff_t * pos
    ssize_t retval
EOF
same "show vfs_read" "$T/vfs_read.txt" -- $CTL btf show vfs_read
check "show several"     0 "kprobe:vfs_read .*kprobe:do_sys_openat2 +int dfd +const char \* filename +struct open_how \* how +long int retval" "^$" \
	-- bash -c "$CTL btf show vfs_read do_sys_openat2 | tr '\n' ' '"
check "show json"        0 "valid: 2 documents" "^$" -- bash -c "$CTL -j btf show vfs_read do_sys_openat2 | $VALIDATE btf"
check "show pretty"      0 "valid: 1 documents" "^$" -- bash -c "$CTL btf show vfs_read -p | $VALIDATE btf-"
cat >"$T/proto.py" <<'PY'
import json, sys
d = json.loads(sys.stdin.readline())
assert d['function'] == 'vfs_read' and d['return'] == 'ssize_t', d
assert [(a['name'], a['type'], a['rawprobe_type']) for a in d['args']] == [
    ('file', 'struct file *', 'ptr'), ('buf', 'char *', 'ptr'),
    ('count', 'size_t', 'u64'), ('pos', 'loff_t *', 'ptr')], d['args']
print('proto ok')
PY
check "show json fields" 0 "^proto ok$" "^$" -- bash -c "$CTL -j btf show vfs_read | python3 $T/proto.py"
check "unknown function" 1 "^$" "vfs_raed: no such function in the BTF of the kernel.*did you mean: vfs_read" \
	-- bash -c "$CTL btf show vfs_raed 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS[0]}"
check "unknown among known" 1 "kprobe:vfs_read" "no such function" -- $CTL btf show vfs_read no_such_function_rp
check "no BTF"           1 "^$" "no BTF of the kernel: /nonexistent: No such file or directory" \
	-- env RAWPROBECTL_BTF=/nonexistent $CTL btf show vfs_read
head -c 4096 /dev/urandom >"$T/random.bin"
check "BTF not BTF"      1 "^$" "no BTF of the kernel: .*random.bin" \
	-- env RAWPROBECTL_BTF="$T/random.bin" $CTL btf show vfs_read
check "BTF as a file"    0 "^kprobe:vfs_read" "^$" -- env RAWPROBECTL_BTF="$BTF/vmlinux" $CTL btf show vfs_read
check "not a function"   2 "^$" "'0x1000' is not a function" -- $CTL btf show 0x1000
check "an offset"        2 "^$" "'vfs_read\+8' is not a function" -- $CTL btf show vfs_read+8
check "show --help"      0 "Usage: rawprobectl btf show.*RAWPROBECTL_BTF" "^$" -- bash -c "$CTL btf show --help | tr '\n' ' '"
check "btf help"         0 "btf show" "^$" -- $CTL btf help
check "btf no command"   2 "^$" "Usage: rawprobectl \[OPTIONS\] btf COMMAND" -- $CTL btf
check "btf show nothing" 2 "^$" "Usage: rawprobectl btf show" -- $CTL btf show
check "btf bad command"  2 "^$" "unknown command 'btf frob'" -- $CTL btf frob

# --- modules: split BTF over vmlinux's ---
check "module function"  0 "^kprobe:ext4:ext4_sync_file .*loff_t start .*int datasync .*int retval" "^$" \
	-- bash -c "$CTL btf show ext4:ext4_sync_file | tr '\n' ' '"
check "module via kallsyms" 0 "^kprobe:ext4_sync_file .*struct file \* file" "^$" \
	-- bash -c "$CTL btf show ext4_sync_file | tr '\n' ' '"
check "module unknown"   1 "^$" "ext4:ext4_sync_fil: no such function in the BTF of module ext4.*did you mean: ext4_sync_file" \
	-- bash -c "$CTL btf show ext4:ext4_sync_fil 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS[0]}"
check "module no BTF"    1 "^$" "no BTF of module loop: .*loop: No such file or directory \(is the module loaded" \
	-- $CTL btf show loop:lo_open
check "module, file BTF" 1 "^$" "no BTF of module ext4: RAWPROBECTL_BTF names a file" \
	-- env RAWPROBECTL_BTF="$BTF/vmlinux" $CTL btf show ext4:ext4_sync_file

# --- syscall entry points: the syscall's own arguments ---
check "syscall __do_sys_" 0 "^kprobe:__x64_sys_openat2 +int dfd +const char \* filename +struct open_how \* how +size_t usize +long int retval" \
	"these are the syscall's arguments \(__do_sys_openat2\)" -- bash -c "$CTL btf show __x64_sys_openat2 | tr '\n' ' '"
check "syscall DEFINE0"  0 "^kprobe:__x64_sys_getpid +long int retval" "__do_sys_getpid" \
	-- bash -c "$CTL btf show __x64_sys_getpid | tr '\n' ' '"
check "syscall inlined"  1 "^$" "__x64_sys_openat: the BTF has no prototype of the syscall openat \(__do_sys_openat and __se_sys_openat were inlined\).*RAWPROBECTL_TRACEFS" \
	-- $CTL btf show __x64_sys_openat
# the format the kernel writes for SYSCALL_DEFINE4(openat, int, dfd,
# const char __user *, filename, int, flags, umode_t, mode)
mkdir -p "$T/tracefs/events/syscalls/sys_enter_openat"
cat >"$T/tracefs/events/syscalls/sys_enter_openat/format" <<'EOF'
name: sys_enter_openat
ID: 643
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:int __syscall_nr;	offset:8;	size:4;	signed:1;
	field:int dfd;	offset:16;	size:8;	signed:0;
	field:const char * filename;	offset:24;	size:8;	signed:0;
	field:int flags;	offset:32;	size:8;	signed:0;
	field:umode_t mode;	offset:40;	size:8;	signed:0;

print fmt: "dfd: 0x%08lx, filename: 0x%08lx, flags: 0x%08lx, mode: 0x%08lx", ((unsigned long)(REC->dfd)), ((unsigned long)(REC->filename)), ((unsigned long)(REC->flags)), ((unsigned long)(REC->mode))
EOF
# read's, and lseek's with a type BTF does not have
fmt() {	# SYSCALL FIELD...
	mkdir -p "$T/tracefs/events/syscalls/sys_enter_$1"
	{
		printf 'name: sys_enter_%s\nformat:\n' "$1"
		printf '\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n'
		shift
		printf '\tfield:%s;\toffset:16;\tsize:8;\tsigned:0;\n' "$@"
	} >"$T/tracefs/events/syscalls/sys_enter_$1/format"
}
fmt read 'unsigned int fd' 'char * buf' 'size_t count'
fmt lseek 'unsigned int fd' 'frob_t offset' 'unsigned int whence'
export RAWPROBECTL_TRACEFS=$T/tracefs
check "syscall format"   0 "^kprobe:__x64_sys_openat +int dfd +const char \* filename +int flags +umode_t mode +long retval" \
	"syscalls:sys_enter_openat's format" -- bash -c "$CTL btf show __x64_sys_openat | tr '\n' ' '"
check "syscall json"     0 "valid: 3 documents" "^$" -- bash -c "$CTL -j btf show __x64_sys_openat __x64_sys_openat2 __x64_sys_getpid 2>/dev/null | $VALIDATE btf"
check "syscall no format" 1 "^$" "__x64_sys_pread64: .*sys_enter_pread64/format: No such file" -- $CTL btf show __x64_sys_pread64
check "syscall format types" 0 "^kprobe:__x64_sys_read args=fd:u32,buf:ptr,count:u64 syscall persistent$" "^$" \
	-- $ADD kprobe __x64_sys_read -a auto --dry-run
check "syscall unknown type" 0 "^kprobe:__x64_sys_lseek args=fd:u32,offset:u64,whence:u32 syscall persistent$" \
	"'frob_t offset' is recorded as a raw u64" -- $ADD kprobe __x64_sys_lseek -a auto --dry-run

# --- --args auto: what probe add would send (--dry-run) ---
check "auto vfs_read"    0 "^kprobe:vfs_read args=file:ptr,buf:ptr,count:u64,pos:ptr persistent$" "^$" \
	-- $ADD kprobe vfs_read --args auto --dry-run
check "auto openat"      0 "^jprobe:__x64_sys_openat args=dfd:s32,filename:ptr,flags:s32,mode:u32 syscall persistent$" "^$" \
	-- $ADD jprobe __x64_sys_openat --args auto --dry-run
check "auto openat2"     0 "^jprobe:__x64_sys_openat2 args=dfd:s32,filename:ptr,how:ptr,usize:u64 syscall persistent$" "^$" \
	-- $ADD jprobe __x64_sys_openat2 -a auto --dry-run
check "auto no args"     0 "^kprobe:__x64_sys_getpid args=none syscall persistent$" "^$" \
	-- $ADD kprobe __x64_sys_getpid -a auto --dry-run
check "auto kretprobe"   0 "^kretprobe:vfs_read args=file:ptr,buf:ptr,count:u64,pos:ptr persistent$" "^$" \
	-- $ADD kretprobe vfs_read -a auto --dry-run
check "auto enums"       0 "^kprobe:__cpuhp_remove_state args=state:s32,invoke:u32 persistent kprobe:cc_platform_has args=attr:u32 persistent $" "^$" \
	-- bash -c "$ADD kprobe __cpuhp_remove_state cc_platform_has -a auto --dry-run | tr '\n' ' '"
check "auto module"      0 "^kprobe:ext4:ext4_sync_file args=file:ptr,start:s64,end:s64,datasync:s32 persistent$" "^$" \
	-- $ADD kprobe ext4:ext4_sync_file -a auto --dry-run
check "auto 7 arguments" 0 "^kprobe:do_error_trap args=regs:ptr,error_code:s64,str:ptr,trapnr:u64,signr:s32,sicode:s32 persistent$" \
	"^rawprobectl: note: do_error_trap has 7 arguments: recording the first 6$" -- $ADD kprobe do_error_trap -a auto --dry-run
check "auto small struct" 0 "^kprobe:pte_val args=pte:u64 persistent$" "'pte_t pte' is recorded as a raw u64" \
	-- $ADD kprobe pte_val -a auto --dry-run
check "auto big struct"  0 "^kprobe:fpregs_get args=target:ptr,regset:ptr persistent$" "'struct membuf to' is not one general register's value.*recording the 2 before it" \
	-- $ADD kprobe fpregs_get -a auto --dry-run
check "auto json"        0 "valid: 2 documents" "^$" -- bash -c "$ADD kprobe vfs_read __x64_sys_openat -a auto --dry-run -j | $VALIDATE probe_request"
check "auto json names"  0 '"args":\["s32","ptr","s32","u32"\],"arg_names":\["dfd","filename","flags","mode"\]' "^$" \
	-- $ADD -j jprobe __x64_sys_openat -a auto --dry-run
check "auto then types"  0 "^kprobe:vfs_read args=u64,u64 persistent$" "^$" -- $ADD kprobe vfs_read -a auto -a 2 --dry-run
check "auto unknown"     1 "^$" "vfs_raed: no such function in the BTF.*did you mean: vfs_read" \
	-- bash -c "RAWPROBE_KALLSYMS=/dev/null $ADD kprobe vfs_raed -a auto --dry-run 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS[0]}"
check "auto kallsyms first" 1 "^$" "vfs_raed: unknown symbol.*did you mean: vfs_read" \
	-- bash -c "$ADD kprobe vfs_raed -a auto --dry-run 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS[0]}"
check "auto no BTF"      1 "^$" "no BTF of the kernel: /nonexistent" \
	-- env RAWPROBECTL_BTF=/nonexistent $ADD kprobe vfs_read -a auto --dry-run
check "auto address"     2 "^$" "--args auto needs a function's name, not an address" -- $ADD kprobe 0xffffffff81100000 -a auto --dry-run
check "auto offset"      2 "^$" "vfs_read\+0x10 is not a function's entry" -- $ADD kprobe vfs_read+0x10 -a auto --dry-run
check "auto no syscall format" 1 "^$" "__x64_sys_pread64: the BTF has no prototype.*give its arguments' types with --args" \
	-- $ADD kprobe __x64_sys_pread64 -a auto --dry-run
check "auto batch"       0 "^kprobe:vfs_read args=file:ptr.* kprobe:do_sys_openat2 args=dfd:s32,filename:ptr,how:ptr persistent $" "^$" \
	-- bash -c "printf 'vfs_read\ndo_sys_openat2\n' | $ADD kprobe - -a auto --dry-run | tr '\n' ' '"
check "auto stream"      3 "^$" "not loaded" -- $CTL stream -e jprobe:vfs_read -a auto -d 1
check "auto trace"       3 "^$" "not loaded" -- $CTL trace kretprobe:__x64_sys_openat --args auto -d 1
check "auto hist bad"    1 "^$" "no such function in the BTF" -- env RAWPROBE_KALLSYMS=/dev/null $CTL hist kretprobe:no_such_fn_rp -a auto -d 1
check "auto real add"    3 "^$" "not loaded" -- $ADD kprobe vfs_read -a auto

# --- NAME:TYPE ---
check "names dry run"    0 "^kprobe:vfs_read args=file:ptr,buf:ptr,count:u64 persistent$" "^$" \
	-- $ADD kprobe vfs_read --args file:ptr,buf:ptr,count:u64 --dry-run
check "names string"     0 "^jprobe:__x64_sys_openat args=dfd:s32,filename:ustr syscall disabled persistent$" "^$" \
	-- $ADD jprobe __x64_sys_openat --args dfd:s32,filename:ustr --syscall -d --dry-run
check "names mixed"      2 "^$" "bad --args 'fd:s32,ptr'" -- $ADD kprobe vfs_read --args fd:s32,ptr --dry-run
check "names bad name"   2 "^$" "bad --args '1fd:s32'" -- $ADD kprobe vfs_read --args 1fd:s32 --dry-run
check "types dry run"    0 "^kprobe:vfs_read args=u64,ptr persistent$" "^$" -- $ADD kprobe vfs_read --args u64,ptr --dry-run

# --- captures of named probes: text, JSON, CSV, raw ---
python3 "$here/mkcapture.py" --names "$T/names.rpc"
cat >"$T/names.txt" <<'EOF'
     7.000000   0     500 cat              jprobe:__x64_sys_openat  (dfd=-100, filename="/etc/hostname", flags=32768, mode=0)
     7.000001   0     500 cat              kretprobe:vfs_read       (file=0xffff888003a1e000, buf=0x7ffd1000, count=4096, pos=0xffffc90000abc000) = 4096 (1500 ns)
     7.000002   0     500 cat              kprobe:__cpuhp_remove_state (state=CPUHP_INVALID, invoke=true)
     7.000003   0     500 cat              kprobe:__cpuhp_remove_state (state=CPUHP_OFFLINE, invoke=false)
     7.000004   0     500 cat              kprobe:__cpuhp_remove_state (state=99999, invoke=true)
     7.000005   0     500 cat              kprobe:cc_platform_has   (attr=CC_ATTR_GUEST_MEM_ENCRYPT)
     7.000006   0     500 cat              kprobe:cc_platform_has   (attr=77)
     7.000007   0     500 cat              kprobe:cc_platform_has   (other=2)
     7.000008   0     500 cat              kprobe:vfs_write         (0x1, 0x2)
     7.000009   0     500 cat              kprobe:vfs_write         (0x1, 0x2)
     7.000010   0     500 cat              kprobe:ext4:ext4_sync_file (file=0xffff888003a1e000, start=0, end=-1, datasync=1)
     7.000011   0     500 cat              ?                        <vfs_read+0x0> (0x5)
EOF
same "names text"        "$T/names.txt" -- $CTL stream -r "$T/names.rpc"
# without BTF: the names, and numbers for bools and enums
sed -e 's/state=CPUHP_INVALID, invoke=true/state=-1, invoke=1/' \
    -e 's/state=CPUHP_OFFLINE, invoke=false/state=0, invoke=0/' \
    -e 's/invoke=true)/invoke=2)/' -e 's/attr=CC_ATTR_GUEST_MEM_ENCRYPT/attr=2/' \
    "$T/names.txt" >"$T/names-nobtf.txt"
same "names without BTF" "$T/names-nobtf.txt" -- env RAWPROBECTL_BTF=/nonexistent $CTL stream -r "$T/names.rpc"
check "names json"       0 "valid: 12 documents" "^$" -- bash -c "$CTL -j stream -r $T/names.rpc 2>/dev/null | $VALIDATE record"
cat >"$T/names.py" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]['arg_names'] == ['dfd', 'filename', 'flags', 'mode'], recs[0]
assert recs[0]['args'][0] == -100 and recs[0]['str'] == '/etc/hostname'
assert recs[2]['arg_names'] == ['state', 'invoke'] and recs[2]['args'] == [-1, 1]
assert 'arg_names' not in recs[8] and 'arg_names' not in recs[9], recs[8]
assert recs[10]['arg_names'] == ['file', 'start', 'end', 'datasync']
assert 'arg_names' not in recs[11]
print('names json ok')
PY
check "names json fields" 0 "^names json ok$" "^$" -- bash -c "$CTL -j stream -r $T/names.rpc -o $T/names.json 2>/dev/null && python3 $T/names.py $T/names.json"
check "names csv columns" 0 "^ts_ns,seq,cpu,pid,tgid,comm,probe_id,probe,kind,addr,sym,arg0,arg1,arg2,arg3,arg4,arg5,str,retval,latency_ns$" "^$" \
	-- bash -c "$CTL stream -r $T/names.rpc -f csv 2>/dev/null | head -1"
check "names raw round trip" 0 "^$" "^$" -- bash -c "$CTL stream -r $T/names.rpc -f raw -o $T/names2.rpc 2>/dev/null && cmp <($CTL stream -r $T/names.rpc 2>/dev/null) <($CTL stream -r $T/names2.rpc 2>/dev/null) && cmp <($CTL -j stream -r $T/names.rpc 2>/dev/null) <($CTL -j stream -r $T/names2.rpc 2>/dev/null)"
check "names perfetto"   0 "valid: 1 documents" "^$" -- bash -c "$CTL stream -r $T/names.rpc -f perfetto 2>/dev/null | $VALIDATE perfetto-"
check "names hist"       0 "do_sys_openat2|__x64_sys_openat, arg0: count 1" "^$" -- bash -c "$CTL hist -r $T/names.rpc --arg 0 -i 1 2>/dev/null"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
