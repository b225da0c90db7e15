#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'rawprobectl btf show', --args auto and named arguments on the host,
# against the BTF of Debian's 6.12 kernel (tests/cli/btf-fixture.sh takes
# it from the kernel cache, RAWPROBECTL_BTF points at it): prototypes in
# text and JSON (validated against the schema), unknown functions and
# missing BTF, modules' split BTF, syscall entry points (__do_sys_ in BTF,
# or a syscall's tracepoint format), the requests probe add --dry-run
# would send, field paths (--args by name) and value filters (--filter)
# compiled against it, their offsets checked against pahole's view of the
# same BTF (their output: btf_out.sh). No module is needed. Ends with
# "N passed, N failed".
#   tests/cli/btf.sh            RAWPROBECTL=... for another build
AREA=btf
. "$(dirname "$0")/lib.sh"
. "$here/btf_setup.sh"


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

# --- btf show 'struct NAME': layouts as pahole prints them from the same BTF ---
PAHOLE="python3 $here/btf_pahole.py"
# a dozen structs people look at, a union, and module BTF's: the text
# exactly (a union gets a size line that pahole leaves out), and the -j
# numbers against pahole's
LAYOUTS="path file inode sk_buff task_struct tcp_sock list_head dentry qstr page mm_struct sock tty_struct bpf_attr"
check "layouts as pahole"  0 "^same: 14 types$" "^$" -- $PAHOLE text "$BTF" $LAYOUTS
check "layouts' numbers (-j)" 0 "^same numbers: 14 types$" "^$" -- $PAHOLE json "$BTF" $LAYOUTS
EXT4_LAYOUTS="ext4_inode_info ext4_sb_info ext4_extent"
check "module layouts"     0 "^same: 3 types$" "^$" -- $PAHOLE text "$BTF" --module ext4 $EXT4_LAYOUTS
check "module numbers (-j)" 0 "^same numbers: 3 types$" "^$" -- $PAHOLE json "$BTF" --module ext4 $EXT4_LAYOUTS
# Every struct and union of the kernel's BTF (pahole --sizes lists them),
# but 34 that pahole spells its own odd ways ("const const char", a
# pointer to an anonymous struct shown in place, a const anonymous
# struct's summary, an attribute twice); their numbers are checked after.
PAHOLE_ODD=amd_function,bpf_htab,bpf_reg_types,compat_siginfo,cpu_attr,devfreq_governor,dma_device,dpll_pin_ops,ec_params_motion_sense,ec_response_motion_sense,ima_template_field,inet_connection_sock_af_ops,io_uring_task,k_clock,kioctx,kset_uevent_ops,landlock_object_underops,opal_read_write_table,parsed_partitions,pernet_operations,phy_driver,pin_config_item,pinconf_generic_params,privflags_reply_data,shutdown_handler,strset_info,sysrq_key_op,tcp_ulp_ops,text_poke_loc,usb_ss_ep_comp_descriptor,usb_ssp_isoc_ep_comp_descriptor,vm_fault,x86_perf_task_context_arch_lbr_xsave,xfrm_mgr
pahole -F btf --sizes "$BTF/vmlinux" | awk '{ print $1 }' | sort -u >"$T/structs"
nstructs=$(wc -l <"$T/structs")
check "every struct as pahole" 0 "^same: $((nstructs - 34)) types$" "^$" \
	-- bash -c "[ $nstructs -gt 8000 ] && $PAHOLE text '$BTF' --skip $PAHOLE_ODD - <'$T/structs'"
# (parsed_partitions: pahole shows a pointer's anonymous struct in place)
check "odd ones' numbers (-j)" 0 "^same numbers: 33 types$" "^$" \
	-- $PAHOLE json "$BTF" $(echo "$PAHOLE_ODD" | tr , '\n' | grep -vx parsed_partitions)
# the checkers can fail: a rawprobectl that shows struct file for path
printf '#!/bin/bash\nexec %q "${@/path/file}"\n' "$CTL" >"$T/swap"
chmod +x "$T/swap"
check "text checker fails" 1 "differs: struct path" "^$" -- env RAWPROBECTL="$T/swap" $PAHOLE text "$BTF" path
check "json checker fails" 1 "differs: struct path" "^$" -- env RAWPROBECTL="$T/swap" $PAHOLE json "$BTF" path
cat >"$T/qstr.txt" <<'EOF'
struct qstr {
	union {
		struct {
			u32        hash;                 /*     0     4 */
			u32        len;                  /*     4     4 */
		};                                       /*     0     8 */
		u64                hash_len;             /*     0     8 */
	};                                               /*     0     8 */
	const unsigned char  *     name;                 /*     8     8 */

	/* size: 16, cachelines: 1, members: 2 */
	/* last cacheline: 16 bytes */
};
EOF
same "struct qstr"        "$T/qstr.txt" -- $CTL btf show 'struct qstr'
check "struct spaces"     0 "^struct qstr \{" "^$" -- $CTL btf show '  struct   qstr  '
check "two words"         0 "^struct path \{ .*\}; enum pid_type \{ .*\}; $" "^$" \
	-- bash -c "$CTL btf show struct path enum pid_type | tr '\n' ' '"
check "bit fields"        0 "__u8 +pkt_type:3; +/\* +128: 0  1 \*/.*XXX 1 byte hole, try to pack" "^$" \
	-- bash -c "$CTL btf show 'struct sk_buff' | tr '\n' ' '"
check "holes and padding" 0 "XXX 28 bits hole.*Force alignment to the next boundary.*unsigned int +:0;.*sum members: 9675, holes: 19, sum holes: 101.*forced alignments: 2, forced holes: 2, sum forced holes: 40" "^$" \
	-- bash -c "$CTL btf show 'struct task_struct' | tr '\n' ' '"
check "union"             0 "^union bpf_attr \{.*\} token_create; .*/\* size: 152, cachelines: 3, members: 20 \*/ \}; $" "^$" \
	-- bash -c "$CTL btf show 'union bpf_attr' | tr '\n' ' '"
cat >"$T/pid_type.txt" <<'EOF'
enum pid_type {
	PIDTYPE_PID  = 0,
	PIDTYPE_TGID = 1,
	PIDTYPE_PGID = 2,
	PIDTYPE_SID  = 3,
	PIDTYPE_MAX  = 4,
};
EOF
same "enum"               "$T/pid_type.txt" -- $CTL btf show 'enum pid_type'
same "enum as pahole"     "$T/pid_type.txt" -- pahole -F btf -C pid_type "$BTF/vmlinux"
pahole -F btf -C atomic_t,seqcount_t,u32 "$BTF/vmlinux" >"$T/typedefs.txt"
# pahole shows seqcount_t's line alone; we show struct seqcount after it
same "typedefs as pahole" "$T/typedefs.txt" \
	-- bash -c "$CTL btf show 'typedef atomic_t' && $CTL btf show 'typedef seqcount_t' | head -1 && $CTL btf show 'typedef u32'"
check "typedef's struct"  0 "^typedef struct seqcount seqcount_t; +struct seqcount \{ .*unsigned int +sequence;" "^$" \
	-- bash -c "$CTL btf show 'typedef seqcount_t' | tr '\n' ' '"
check "module struct"     0 "^struct ext4_inode_info \{" "^$" -- $CTL btf show 'struct ext4_inode_info'
check "module: prefix"    0 "^struct ext4_inode_info \{" "^$" -- $CTL btf show 'struct ext4:ext4_inode_info'
check "json"              0 "valid: 9 documents" "^$" \
	-- bash -c "$CTL -j btf show 'struct qstr' 'struct sk_buff' 'struct task_struct' 'union bpf_attr' 'enum pid_type' 'typedef atomic_t' 'typedef seqcount_t' 'typedef u32' 'struct ext4_inode_info' | $VALIDATE btf_type"
check "json pretty"       0 "valid: 1 documents" "^$" -- bash -c "$CTL -p btf show 'struct path' | $VALIDATE btf_type-"
cat >"$T/layout.py" <<'PY'
import json, sys
q, skb, e, u, m = [json.loads(l) for l in sys.stdin]
assert (q['kind'], q['name'], q['size'], q['padding']) == ('struct', 'qstr', 16, 0), q
ln = q['members'][0]['members'][0]['members'][1]
assert (ln['name'], ln['type'], ln['offset'], ln['size']) == ('len', 'u32', 4, 4), ln
def find(ms, name):
    for f in ms:
        if f['name'] == name:
            return f
        f = find(f.get('members', []), name)
        if f:
            return f
pt = [find(skb['members'], 'pkt_type')]
assert [(f['offset'], f['bit_offset'], f['bit_size'], f['size']) for f in pt] == [(128, 0, 3, 1)], pt
assert [(h['after'], h['offset'], h['size']) for h in skb['holes']] == [('end', 196, 4)], skb['holes']
assert e['values'][1] == {'name': 'PIDTYPE_TGID', 'value': 1} and not e['signed'], e
assert (u['kind'], u['name'], u['type'], u['size']) == ('typedef', 'u32', '__u32', 4), u
assert m['module'] == 'ext4' and m['size'] > 1000, m['size']
print('layout json ok')
PY
check "json fields"       0 "^layout json ok$" "^$" \
	-- bash -c "$CTL -j btf show 'struct qstr' 'struct sk_buff' 'enum pid_type' 'typedef u32' 'struct ext4_inode_info' | python3 $T/layout.py"
check "no such struct"    1 "^$" "^rawprobectl: no struct 'no_such_struct_rp' in the kernel's BTF \(vmlinux, 1 module\)$" \
	-- $CTL btf show 'struct no_such_struct_rp'
check "struct typo"       1 "^$" "no struct 'pathh' in the kernel's BTF \(vmlinux, 1 module\).*did you mean: path" \
	-- bash -c "$CTL btf show 'struct pathh' 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS[0]}"
check "a union as struct" 1 "^$" "no struct 'bpf_attr'" -- $CTL btf show 'struct bpf_attr'
check "struct, no name"   2 "^$" "^rawprobectl: 'struct' needs a name: btf show 'struct NAME' \(or 'struct MODULE:NAME'\)$" \
	-- $CTL btf show 'struct'
check "enum, no name"     2 "^$" "'enum ' needs a name" -- $CTL btf show 'enum '
check "struct, two names" 2 "^$" "'struct a b' is not a type: 'struct NAME' or 'struct MODULE:NAME'" \
	-- $CTL btf show 'struct a b'
check "not in the module" 1 "^$" "^rawprobectl: no struct 'path' in the BTF of module ext4" \
	-- $CTL btf show 'struct ext4:path'
check "module not loaded" 1 "^$" "no BTF of module loop \(is it loaded" -- $CTL btf show 'struct loop:loop_device'
check "struct, no BTF"    1 "^$" "no BTF of the kernel: /nonexistent" -- env RAWPROBECTL_BTF=/nonexistent $CTL btf show 'struct path'
check "struct, BTF file"  1 "^$" "no struct 'ext4_inode_info' in the kernel's BTF \(vmlinux, 0 modules\)" \
	-- env RAWPROBECTL_BTF="$BTF/vmlinux" $CTL btf show 'struct ext4_inode_info'
check "struct among others" 1 "^kprobe:vfs_read .*struct path \{" "no struct 'nope_rp'" \
	-- bash -c "$CTL btf show vfs_read 'struct nope_rp' 'struct path' | tr '\n' ' '; exit \${PIPESTATUS[0]}"

# --- btf show GLOB: every function whose name matches ---
# the names each BTF has, read from the format by btf_funcs.py (no
# libbpf), matched by Python's fnmatch
python3 "$here/btf_funcs.py" "$BTF/vmlinux" >"$T/funcs"
python3 "$here/btf_funcs.py" "$BTF/ext4" "$BTF/vmlinux" | sed 's/^/ext4:/' >"$T/ext4-funcs"
globs() {	# GLOB FILE...: the names that match it
	python3 -c 'import fnmatch, sys
for f in sys.argv[2:]:
    for n in open(f).read().split():
        if fnmatch.fnmatchcase(n.split(":")[-1], sys.argv[1]): print(n)' "$@"
}
globbed() { $CTL btf show "$1" 2>/dev/null | sed -n 's/^kprobe://p'; }
for g in 'vfs_*' 'tcp_v4_*' 'ext4_?[a-c]*'; do
	globs "$g" "$T/funcs" "$T/ext4-funcs" >"$T/want"
	globbed "$g" >"$T/got"
	check "glob $g ($(wc -l <"$T/want") functions)" 0 "^$" "^$" \
		-- bash -c "[ \$(wc -l <'$T/want') -gt 10 ] && diff '$T/want' '$T/got'"
done
globs '*_sync_[!a-e]*' "$T/ext4-funcs" >"$T/want"
globbed 'ext4:*_sync_[!a-e]*' >"$T/got"
check "glob MODULE:GLOB"  0 "^$" "^$" -- bash -c "[ -s '$T/want' ] && diff '$T/want' '$T/got'"
check "glob prototypes"   0 "^kprobe:vfs_read +struct file \* file .*ssize_t retval kprobe:vfs_readlink " "^$" \
	-- bash -c "$CTL btf show 'vfs_rea[d]*' | tr '\n' ' '"
check "glob json"         0 "valid: [0-9]+ documents" "^$" -- bash -c "$CTL -j btf show 'vfs_*' | $VALIDATE btf"
check "glob no match"     1 "^$" "^rawprobectl: no function matches 'vfs_zz\*' in the kernel's BTF \(vmlinux, 1 module\)$" \
	-- $CTL btf show 'vfs_zz*'
check "glob no match, module" 1 "^$" "^rawprobectl: no function matches 'ext4:vfs_\*' in the BTF of module ext4$" \
	-- $CTL btf show 'ext4:vfs_*'
check "glob unterminated [" 2 "^$" "^rawprobectl: glob 'tcp_v4_\[rs': the '\[' at 8 has no '\]'$" \
	-- $CTL btf show 'tcp_v4_[rs'
check "glob []] is whole" 1 "^$" "no function matches 'x\[\]\]'" -- $CTL btf show 'x[]]'
check "glob module glob"  2 "^$" "is not a glob of functions: GLOB or MODULE:GLOB" -- $CTL btf show 'ext*:ext4_*'

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
fmt execve 'const char * filename' 'const char *const * argv' 'const char *const * envp'
export RAWPROBECTL_TRACEFS=$T/tracefs
check "syscall format"   0 "^kprobe:__x64_sys_openat +int dfd +const char \* filename +int flags +umode_t mode +long retval" \
	"syscalls:sys_enter_openat's format" -- bash -c "$CTL btf show __x64_sys_openat | tr '\n' ' '"
check "syscall json"     0 "valid: 3 documents" "^$" -- bash -c "$CTL -j btf show __x64_sys_openat __x64_sys_openat2 __x64_sys_getpid 2>/dev/null | $VALIDATE btf"
check "syscall no format" 1 "^$" "__x64_sys_pread64: .*sys_enter_pread64/format: No such file" -- $CTL btf show __x64_sys_pread64
check "syscall format types" 0 "^kprobe:__x64_sys_read args=fd:u32,buf:ptr,count:u64 syscall persistent$" "^$" \
	-- $ADD kprobe __x64_sys_read -a auto --dry-run
check "syscall unknown type" 0 "^kprobe:__x64_sys_lseek args=fd:u32,offset:u64,whence:u32 syscall persistent$" \
	"'frob_t offset' is recorded as a raw u64" -- $ADD kprobe __x64_sys_lseek -a auto --dry-run

# a glob's --args auto is each function's own (ftrace's list: a fixture)
printf 'do_sys_openat2\nvfs_read\n' > "$T/tracefs/available_filter_functions"
: > "$T/blacklist"
check "glob args auto"   0 "^kprobe:do_sys_openat2 args=dfd:s32,filename:ptr,how:ptr persistent kprobe:vfs_read args=file:ptr,buf:ptr,count:u64,pos:ptr persistent $" \
	"'kprobe:\*': 2 functions" \
	-- bash -c "RAWPROBE_KPROBES_BLACKLIST=$T/blacklist $CTL probe add kprobe '*' -a auto --dry-run | tr '\n' ' '"
check "glob filter each" 0 "^kretprobe:do_sys_openat2 args=none.* term0: src=retval .*kretprobe:vfs_read args=none.* term0: src=retval " \
	"2 functions" \
	-- bash -c "RAWPROBE_KPROBES_BLACKLIST=$T/blacklist $CTL probe add kretprobe '*' --filter 'retval < 0' --dry-run | tr '\n' ' '"

# --- --args auto: what probe add would send (--dry-run) ---
# a typo in a list of types stays one, even where BTF knows the function
check "types with a typo" 2 "^$" "^rawprobectl: bad --args 's32,bogus': a count" \
	-- $CTL probe add kprobe vfs_read --args s32,bogus --dry-run
check "names by BTF"      0 "^kprobe:vfs_read args=count:u64,file:ptr persistent$" "^$" \
	-- $CTL probe add kprobe vfs_read --args count,file --dry-run
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

# --- field paths (--args by name) and --filter: offsets as pahole has them ---
check "pahole installed (tools/deps.sh)" 0 "^v1\.[0-9]+" "^$" -- pahole --version
# po STRUCT MEMBER: "OFFSET BIT BITS" of MEMBER as pahole -F btf shows it
# (the first one of that name, anonymous structs' and unions' included)
po() {
	pahole -F btf -C "$1" "$BTF/vmlinux" | python3 -c '
import re, sys
pat = re.compile(r"[\s*]%s(?:\[\d+\])*(?::(\d+))?;\s+/\*\s+(\d+)(?::\s*(\d+))?\s+\d+\s+\*/"
                 % re.escape(sys.argv[1]))
for line in sys.stdin:
    m = pat.search(line)
    if m:
        print(m.group(2), m.group(3) or 0, m.group(1) or 0)
        break' "$2"
}
# What --dry-run -j compiled, one line per probe: "args TYPE..., fetch
# SRC/LOADS/SIZE/SIGNED/BIT_OFF/BIT_SIZE/ADD..., terms [or] CMP VALUE
# PROGRAM;..." and, for a bitfield, "@ABSOLUTE_BIT+WIDTH" after its program
cat >"$T/progs.py" <<'PY'
import json, sys
def prog(f):
    s = '%s/%s/%d/%d/%d/%d/%d' % (f['src'], ','.join(map(str, f['loads'])),
                                  f['size'], f['signed'], f['bit_off'],
                                  f['bit_size'], f['add'])
    if f['bit_size']:
        s += '@%d+%d' % (f['loads'][-1] * 8 + f['bit_off'], f['bit_size'])
    return s
def val(t):	# a number, or "string"/STR_SIZE[/user]
    if not isinstance(t['value'], str):
        return '%d' % t['value']
    return '"%s"/%d%s' % (t['value'], t['str_size'], '/user' if t['user'] else '')
for line in sys.stdin:
    d = json.loads(line)
    terms = d.get('value_filter', {}).get('terms', [])
    print('args %s, fetch %s, terms %s' % (
        ' '.join(d['args']), ' '.join(prog(f) for f in d.get('fetch', [])),
        ';'.join('%s%s %s %s' % ('or ' if t['or'] else '', t['cmp'], val(t),
                                 prog(t['fetch'])) for t in terms)))
PY
progs() { $ADD -j "$@" --dry-run | python3 "$T/progs.py"; }
read -r f_pos _ <<<"$(po file f_pos)"
read -r f_flags _ <<<"$(po file f_flags)"
read -r f_path _ <<<"$(po file f_path)"
read -r p_dentry _ <<<"$(po path dentry)"
read -r d_name _ <<<"$(po dentry d_name)"
read -r q_name _ <<<"$(po qstr name)"
read -r q_len _ <<<"$(po qstr len)"
read -r skb_len _ <<<"$(po sk_buff len)"
read -r skb_dev _ <<<"$(po sk_buff dev)"
read -r skb_cb _ <<<"$(po sk_buff cb)"
read -r nd_name _ <<<"$(po net_device name)"
read -r sock_state _ <<<"$(po socket state)"
read -r sock_type _ <<<"$(po socket type)"
read -r sk_proto _ <<<"$(po sock sk_protocol)"
read -r pt_off pt_bit pt_bits <<<"$(po sk_buff pkt_type)"
read -r df_off df_bit df_bits <<<"$(po sk_buff ignore_df)"
read -r ms_off ms_bit ms_bits <<<"$(po task_struct in_memstall)"
read -r pi_off pi_bit pi_bits <<<"$(po perf_event_attr precise_ip)"
check "pahole offsets"   0 "^$" "^$" -- bash -c "[ -n '$f_pos' ] && [ -n '$q_len' ] && [ -n '$nd_name' ] && [ '$pt_bits' = 3 ] && [ '$df_bits' = 1 ] && [ '$pi_bits' = 2 ] && [ '$ms_bits' = 1 ]"
check "path vfs_read"    0 "^args s64 u64, fetch 0/$f_pos/8/1/0/0/0 2//8/0/0/0/0, terms $" "^$" \
	-- progs kprobe vfs_read --args 'file->f_pos,count'
check "path text"        0 "^kprobe:vfs_read args=file->f_pos:s64,count:u64 persistent
  arg0 file->f_pos: src=arg0 loads=$f_pos size=8 signed
  arg1 count: src=arg2 size=8$" "^$" -- $ADD kprobe vfs_read --args 'file -> f_pos, count' --dry-run
check "path json names"  0 '"arg_names":\["file->f_pos","count"\],"fetch":\[' "^$" \
	-- $ADD -j kprobe vfs_read --args 'file->f_pos,count' --dry-run
check "path skb->len"    0 "^args u32 u32, fetch 0/$skb_len/4/0/0/0/0 0/$skb_len/4/0/0/0/0, terms $" "^$" \
	-- progs kprobe consume_skb --args 'skb->len,arg0->len'
check "path second arg, enum" 0 "^args u32 u32, fetch 1/$skb_len/4/0/0/0/0 2//4/0/0/0/0, terms $" "^$" \
	-- progs kprobe sk_skb_reason_drop --args 'skb->len,reason'
check "path two levels, char array" 0 "^args str, fetch 0/$skb_dev/8/0/0/0/$nd_name, terms $" "^$" \
	-- progs kprobe consume_skb --args 'skb->dev->name'
check "path . then ->"   0 "^args str u32, fetch 0/$((f_path + p_dentry)),$((d_name + q_name))/8/0/0/0/0 0/$((f_path + p_dentry)),$((d_name + q_len))/4/0/0/0/0, terms $" "^$" \
	-- progs kprobe vfs_read --args 'file->f_path.dentry->d_name.name:str,file->f_path.dentry->d_name.len'
check "path bitfields"   0 "^args u32 u32, fetch 0/$pt_off/1/0/$pt_bit/3/0@$((pt_off * 8 + pt_bit))\+3 0/$df_off/1/0/$df_bit/1/0@$((df_off * 8 + df_bit))\+1, terms $" "^$" \
	-- progs kprobe consume_skb --args 'skb->pkt_type,skb->ignore_df'
# pahole shows these in their 4- and 8-byte units; rawprobe loads the
# fewest bytes that hold them: the same bits
check "path bitfield in an int" 0 "^args u32, fetch 0/[0-9]+/1/0/[0-7]/1/0@$((ms_off * 8 + ms_bit))\+1, terms $" "^$" \
	-- progs kprobe wake_up_process --args 'p->in_memstall'
check "path bitfield across bytes" 0 "^args u64, fetch 0/$(((pi_off * 8 + pi_bit) / 8))/2/0/$(((pi_off * 8 + pi_bit) % 8))/2/0@$((pi_off * 8 + pi_bit))\+2, terms $" "^$" \
	-- progs kprobe perf_event_create_kernel_counter --args 'attr->precise_ip'
check "path signed, enum field" 0 "^args s32 u32, fetch 0/$sock_type/2/1/0/0/0 0/$sock_state/4/0/0/0/0, terms $" "^$" \
	-- progs kprobe inet_release --args 'sock->type,sock->state'
check "path index, :ptr" 0 "^args u32 ptr u64, fetch 0/$skb_dev,$((nd_name + 2))/1/0/0/0/0 0/$skb_dev/8/0/0/0/$nd_name 0//8/0/0/0/0, terms $" "^$" \
	-- progs kprobe consume_skb --args 'skb->dev->name[2],skb->dev->name:ptr,skb:u64'
check "path retval"      0 "^args u32 ptr, fetch retval/$sk_proto/2/0/0/0/0 retval//8/0/0/0/0, terms $" "^$" \
	-- progs kretprobe inet_csk_accept --args 'retval->sk_protocol,retval'
check "path module"      0 "^args s64 s32, fetch 0/$f_pos/8/1/0/0/0 3//4/1/0/0/0, terms $" "^$" \
	-- progs kprobe ext4:ext4_sync_file --args 'file->f_pos,datasync'
check "path batch"       0 "^args u32, fetch 0/$skb_len/4/0/0/0/0, terms  args u32, fetch 1/$skb_len/4/0/0/0/0, terms  $" "^$" \
	-- bash -c "$ADD -j kprobe consume_skb sk_skb_reason_drop --args 'skb->len' --dry-run | python3 $T/progs.py | tr '\n' ' '"
check "path stream"      3 "^$" "not loaded" -- $CTL stream -e kprobe:consume_skb -a 'skb->len' --filter 'skb->len > 1000' -d 1
# NAME:TYPE: where BTF knows the function, the name selects the parameter
# ('filename:ustr' records do_sys_openat2's arg1, not dfd); without BTF, a label
check "names select"     0 "^args ustr, fetch 1//8/0/0/0/0, terms $" "^$" \
	-- progs kprobe do_sys_openat2 --args filename:ustr
check "names select order" 0 "^args ptr u64, fetch 1//8/0/0/0/0 0//8/0/0/0/0, terms $" "^$" \
	-- progs kprobe vfs_read --args buf:ptr,file:u64
check "names select syscall" 0 '"syscall_args":true.*"arg_names":\["filename"\],"fetch":\[\{"src":1,' "^$" \
	-- $ADD -j kprobe __x64_sys_openat2 --args filename:ustr --dry-run
check "names not parameters" 2 "^$" "^rawprobectl: --args 'fd:s32': is not an argument of vfs_read \(its arguments: file, buf, count, pos\)" \
	-- $ADD kprobe vfs_read --args fd:s32,buf:ptr --dry-run
check "value formats"    0 "^args ip4 be16 ksym hex, fetch 0/[0-9]+,[0-9]+/4/0/0/0/0 0/[0-9]+,[0-9]+/2/0/0/0/0 0/[0-9]+,[0-9]+/8/0/0/0/0 0/[0-9]+/4/0/0/0/0, terms $" "^$" \
	-- progs kprobe inet_release --args 'sock->sk->__sk_common.skc_daddr:ip4,sock->sk->__sk_common.skc_dport:be16,sock->sk->sk_state_change:ksym,sock->state:hex'
check "value format unknown" 2 "^$" "unknown type 'ip5' \(u64, s64, s32, u32, ptr, str, ustr, strv, ustrv, hex, ksym, ip4, be16, be32, ip6, tcpstate, cap, signal, errno\)" \
	-- $ADD kprobe inet_release --args 'sock->state:ip5' --dry-run
# lookups: a parameter's own name may be a lookup's (cap_capable's cap),
# which a bare word never is: 'cap,opts' is two names, not a type list
check "lookup cap named" 0 "^args cap u32, fetch 2//4/1/0/0/0 3//4/0/0/0/0, terms $" "^$" \
	-- progs kprobe cap_capable --args 'cap:cap,opts'
check "lookup bare names" 0 "^args s32 u32, fetch 2//4/1/0/0/0 3//4/0/0/0/0, terms $" "^$" \
	-- progs kprobe cap_capable --args 'cap,opts'
check "lookup on a field" 0 "^args tcpstate errno signal, fetch 0/[0-9]+/1/0/0/0/0 0/[0-9]+/4/1/0/0/0 1//4/1/0/0/0, terms $" "^$" \
	-- progs kprobe tcp_set_state --args 'sk->__sk_common.skc_state:tcpstate,sk->sk_err:errno,state:signal'
# :saddr, :daddr: a socket's address as its family says; the value a
# struct sock_common's address (a pointer, or the struct in memory)
check "inet pointer and struct" 0 "^args saddr daddr daddr, fetch 0/([0-9]+)/8/0/0/0/0 0/\\1/8/0/0/0/0 0/\\1/8/0/0/0/0, terms $" "^$" \
	-- progs kprobe inet_release --args 'sock->sk:saddr,sock->sk:daddr,sock->sk->__sk_common:daddr'
check "inet of tcp_sock" 0 "arg0 sk: src=arg0 size=8" "^$" \
	-- $ADD kprobe tcp_rcv_established --args 'sk:saddr' --dry-run
check "inet not a socket" 2 "^$" "'sock->file:saddr': is struct file \*: ':saddr' takes a socket \(struct sock \*, or a struct that begins with struct sock_common\)" \
	-- $ADD kprobe inet_release --args 'sock->file:saddr' --dry-run
check "inet no key"      2 "^$" "--by sk: a socket's address \(:daddr\) is IPv4's or IPv6's as the socket is: no key" \
	-- $CTL count kprobe:tcp_connect --args 'sk:daddr' --by sk --dry-run
check "inet with a stack" 2 "^$" "not with a str/ustr/strv/ip6/saddr/daddr argument" \
	-- $ADD kprobe tcp_connect --args 'sk:daddr' --stack --dry-run
check "lookup bare type list" 2 "^$" "bad --args 'u64,errno': a count 0..6, 'auto', or up to 6 of u64,.*ip6, each NAME:TYPE or none" \
	-- $ADD kprobe vfs_read --args 'u64,errno' --dry-run
# :ip6: a struct in6_addr's address (no load), or a pointer's value; the
# string area carries its 16 bytes
check "ip6 field and pointer" 0 "^args ip6 ip6 be16, fetch 0/[0-9]+/8/0/0/0/[0-9]+ 0/[0-9]+/8/0/0/0/[0-9]+ 0/[0-9]+,[0-9]+/2/0/0/0/0, terms $" "^$" \
	-- progs kprobe inet_release --args 'sock->sk->__sk_common.skc_v6_daddr:ip6,sock->sk->__sk_common.skc_v6_daddr.in6_u.u6_addr8:ip6,sock->sk->__sk_common.skc_dport:be16'
check "ip6 pointer"      0 "^args ip6, fetch 1//8/0/0/0/0, terms $" "^$" \
	-- progs kprobe ipv6_chk_addr --args 'addr:ip6'
check "ip6 not 16 bytes" 2 "^$" "'sock->sk->__sk_common.skc_daddr:ip6': is __be32: ':ip6' takes a 16-byte address \(struct in6_addr\) or a pointer to one" \
	-- $ADD kprobe inet_release --args 'sock->sk->__sk_common.skc_daddr:ip6' --dry-run
check "ip6 struct not 16" 2 "^$" "is struct sock_common: ':ip6' takes a 16-byte address \(struct in6_addr\) or a pointer to one" \
	-- $ADD kprobe inet_release --args 'sock->sk->__sk_common:ip6' --dry-run
check "ip6 not in filters" 2 "^$" "'addr:ip6': a filter's operand takes :str \(a kernel string\) or :ustr" \
	-- $ADD kprobe ipv6_chk_addr --filter 'addr:ip6 == 1' --dry-run
check "ip6 with a stack" 2 "^$" "not with a str/ustr/strv/ip6/saddr/daddr argument" \
	-- $ADD kprobe ipv6_chk_addr --args 'addr:ip6' --stack --dry-run
check "labels without BTF" 0 "^kprobe:vfs_read args=fd:s32,buf:ptr persistent$" "^$" \
	-- env RAWPROBECTL_BTF=/nonexistent $ADD kprobe vfs_read --args fd:s32,buf:ptr --dry-run
check "types and a name" 2 "^$" "--args 'fd:s32': is not an argument of vfs_read \(its arguments: file, buf, count, pos\)" \
	-- $ADD kprobe vfs_read --args fd:s32,buf --dry-run
# errors: each names the element and why, exit 2 (1: no BTF)
check "path unknown member" 2 "^$" "^rawprobectl: --args 'skb->lenn': 'skb' \(struct sk_buff\) has no member 'lenn'   did you mean: len" \
	-- bash -c "$ADD kprobe consume_skb --args 'skb->lenn' --dry-run 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS[0]}"
check "path not a pointer" 2 "^$" "--args 'skb->len->x': 'skb->len' is unsigned int, not a pointer$" \
	-- $ADD kprobe consume_skb --args 'skb->len->x' --dry-run
check "path . on a pointer" 2 "^$" "'skb' is a pointer: 'skb->len' follows it" \
	-- $ADD kprobe consume_skb --args 'skb.len' --dry-run
check "path a struct"    2 "^$" "--args 'file->f_path': is a struct path: name one of its fields" \
	-- $ADD kprobe vfs_read --args 'file->f_path' --dry-run
# --- aliases (NAME=PATH) and casts ((struct S *)PATH): the kernel keeps
# NAME=PATH; output, templates, :LEN and --by call the argument NAME ---
read -r sock_sk _ <<<"$(po socket sk)"
read -r tp_acked _ <<<"$(po tcp_sock bytes_acked)"
read -r tp_rcvd _ <<<"$(po tcp_sock bytes_received)"
check "alias"            0 "^args ip4 u32, fetch 0/$sock_sk,[0-9]+/4/0/0/0/0 0/$sock_state/4/0/0/0/0, terms $" "^$" \
	-- progs kprobe inet_release --args 'daddr=sock->sk->__sk_common.skc_daddr:ip4, st = sock->state'
check "alias names sent" 0 '^kprobe:inet_release args=daddr=sock->sk->__sk_common.skc_daddr:ip4,st=sock->state:u32 persistent$' "^$" \
	-- bash -c "$ADD kprobe inet_release --args 'daddr=sock->sk->__sk_common.skc_daddr:ip4, st = sock->state' --dry-run | head -1"
check "alias json names" 0 '"arg_names":\["daddr","st"\]' "^$" \
	-- $ADD -j kprobe inet_release --args 'daddr=sock->sk->__sk_common.skc_daddr:ip4,st=sock->state' --dry-run
check "alias a length"   0 "^args ustr u64, fetch 1//8/0/0/0/0 2//8/0/0/0/0, terms $" "^$" \
	-- progs kprobe vfs_write --args 'data=buf:ustr:n,n=count'
check "alias --by"       0 "arg1 st=sock->state: src=arg0" "^$" \
	-- $CTL count kprobe:inet_release --args 'daddr=sock->sk->__sk_common.skc_daddr:ip4,st=sock->state' --by st,daddr --dry-run
check "alias --by path"  2 "^$" "--by: unknown key 'sock->state'" \
	-- $CTL count kprobe:inet_release --args 'st=sock->state' --by 'sock->state' --dry-run
check "cast"             0 "^args u64 u64 ptr, fetch 0/$sock_sk,$tp_acked/8/0/0/0/0 0/$sock_sk,$tp_rcvd/8/0/0/0/0 0/$sock_sk/8/0/0/0/0, terms $" "^$" \
	-- progs kprobe inet_release --args 'tx=((struct tcp_sock *)sock->sk)->bytes_acked,( ( struct  tcp_sock*) sock -> sk ) -> bytes_received,(struct tcp_sock *)sock->sk'
check "cast its text"    0 '"arg_names":\["tx","\(\(struct tcp_sock \*\)sock->sk\)->bytes_received"\]' "^$" \
	-- $ADD -j kprobe inet_release --args 'tx=((struct tcp_sock *)sock->sk)->bytes_acked,( ( struct  tcp_sock*) sock -> sk ) -> bytes_received' --dry-run
check "cast json valid"  0 "valid: 1 documents" "^$" \
	-- bash -c "$ADD -j kprobe inet_release --args 'tx=((struct tcp_sock *)sock->sk)->bytes_acked,((struct tcp_sock *)sock->sk)->bytes_received,(struct tcp_sock *)sock->sk' --dry-run | $VALIDATE probe_request"
check "cast module"      0 "^args u64, fetch 0/[0-9]+,[0-9]+/8/0/0/0/0, terms $" "^$" \
	-- progs kprobe ext4:ext4_sync_file --args '((struct inode *)file->f_inode)->i_ino'
check "cast unknown struct" 2 "^$" "^rawprobectl: --args '\(\(struct tcp_sok \*\)sock->sk\)->x': 'sock->sk' is cast to struct tcp_sok, which the BTF of inet_release \(vmlinux's, or its module's\) does not have$" \
	-- $ADD kprobe inet_release --args '((struct tcp_sok *)sock->sk)->x' --dry-run
check "cast not a pointer" 2 "^$" "'sock->state' is socket_state, not a pointer: a cast takes a pointer as one to struct tcp_sock$" \
	-- $ADD kprobe inet_release --args '((struct tcp_sock *)sock->state)->x' --dry-run
check "cast its member"  2 "^$" "'\(\(struct tcp_sock \*\)sock->sk\)' \(struct tcp_sock\) has no member 'nosuch'" \
	-- $ADD kprobe inet_release --args '((struct tcp_sock *)sock->sk)->nosuch' --dry-run
check "cast syntax"      2 "^$" "expected a cast, '\(\(struct NAME \*\)PATH\)->MEMBER' or '\(struct NAME \*\)PATH', at 'union x \*\)sock\)->y'" \
	-- $ADD kprobe inet_release --args '((union x *)sock)->y' --dry-run
check "cast unclosed"    2 "^$" "expected a cast, .* at the end" \
	-- $ADD kprobe inet_release --args '((struct tcp_sock *)sock->sk->bytes_acked' --dry-run
check "cast, no member"  2 "^$" "--args '\(\(struct tcp_sock \*\)sock->sk\)->': expected a name or an index at the end" \
	-- $ADD kprobe inet_release --args '((struct tcp_sock *)sock->sk)->' --dry-run
check "cast not filtered" 2 "^$" "parentheses are not supported" \
	-- $ADD kprobe inet_release --filter '((struct tcp_sock *)sock->sk)->bytes_acked > 0' --dry-run
check "alias not a name" 2 "^$" "--args '1x=sock->state': '1x': an alias is NAME=PATH, NAME an identifier of at most 63 characters" \
	-- $ADD kprobe inet_release --args '1x=sock->state' --dry-run
check "alias empty"      2 "^$" "--args '=sock->state': '': an alias is NAME=PATH" \
	-- $ADD kprobe inet_release --args '=sock->state' --dry-run
check "alias too long"   2 "^$" "an alias is NAME=PATH, NAME an identifier of at most 63" \
	-- $ADD kprobe inet_release --args "$(printf 'a%.0s' $(seq 64))=sock->state" --dry-run
check "alias twice"      2 "^$" "--args: 'st' names two arguments \('st=sock->type' and 'st=sock->state'\): give each its own name" \
	-- $ADD kprobe inet_release --args 'st=sock->state,st=sock->type' --dry-run
check "alias a path's name" 2 "^$" "--args: 'sock' names two arguments \('sock' and 'sock=sock->sk'\)" \
	-- $ADD kprobe inet_release --args 'sock=sock->sk,sock' --dry-run
check "alias no path"    2 "^$" "--args 'st=': expected a name \(an argument's\) at the end" \
	-- $ADD kprobe inet_release --args 'st=' --dry-run
# the kernel keeps 511 characters of names and paths; --args 639
long="a=sock->sk->__sk_common.skc_daddr:ip4"
check "alias 511 names"  0 "^args( ip4){6}, " "^$" \
	-- progs kprobe inet_release --args "$long,b=${long#a=},c=${long#a=},d=${long#a=},e=${long#a=},f=${long#a=}"
long="((struct tcp_sock *)sock->sk)->inet_conn.icsk_inet.sk.__sk_common.skc_daddr"
a=$(printf 'a%.0s' $(seq 20))
check "names past 511"   2 "^$" "its names and paths take [0-9]+ characters or more: the kernel keeps 511 \(RAWPROBE_ARG_NAMES_LEN\)" \
	-- $ADD kprobe inet_release --args "${a}1=$long,${a}2=$long,${a}3=$long,${a}4=$long,${a}5=$long,${a}6=$long"
a=$a$a
check "args past 639"    2 "^$" "--args: [0-9]+ characters, at most 639" \
	-- $ADD kprobe inet_release --args "${a}1=$long,${a}2=$long,${a}3=$long,${a}4=$long,${a}5=$long,${a}6=$long"
check "path 5 loads"     2 "^$" "needs more than 4 reads of memory .*RAWPROBE_FETCH_MAX_LOADS" \
	-- $ADD kprobe consume_skb --args 'skb->sk->sk_socket->file->f_path.dentry->d_name.name:str' --dry-run
check "path 4 loads"     0 "^args u64, fetch 0/[0-9]+,[0-9]+,[0-9]+,[0-9]+/8/0/0/0/0, terms $" "^$" \
	-- progs kprobe consume_skb --args 'skb->sk->sk_socket->file->f_inode:u64'
check "path no argument" 2 "^$" "'sbk' is not an argument of consume_skb \(its arguments: skb\), nor argN or retval" \
	-- $ADD kprobe consume_skb --args 'sbk->len' --dry-run
check "path past the end" 2 "^$" "'skb->dev->name' has 16 elements: \[16\] is past its end" \
	-- $ADD kprobe consume_skb --args 'skb->dev->name[16]' --dry-run
check "path syntax"      2 "^$" "--args 'skb->': expected a name or an index at the end" \
	-- $ADD kprobe consume_skb --args 'skb->' --dry-run
check "path bad type"    2 "^$" "unknown type 'flt'" -- $ADD kprobe consume_skb --args 'skb->len:flt' --dry-run
check "path str of int"  2 "^$" "is unsigned int: a string is a char array or a pointer" \
	-- $ADD kprobe consume_skb --args 'skb->len:str' --dry-run
check "path two strings" 0 "^args str str, fetch 0/$skb_dev/8/0/0/0/$nd_name 0//8/0/0/0/$skb_cb, terms $" "^$" \
	-- progs kprobe consume_skb --args 'skb->dev->name,skb->cb'
check "path string length" 0 '"str_len_args":\[null,2,null\]' "^$" \
	-- $ADD -j kprobe pty_write --args 'tty->name,buf:str:c,c' --dry-run
check "path string length text" 0 "arg1 buf: src=arg1 size=8 len=arg2" "^$" \
	-- $ADD kprobe pty_write --args 'tty->name,buf:str:c,c' --dry-run
check "path length missing" 2 "^$" "'c', the length of 'buf', is not in the list: add it \('buf:str:c,c'\)" \
	-- $ADD kprobe pty_write --args 'tty->name,buf:str:c' --dry-run
check "path length a string" 2 "^$" "'tty->name', the length of 'buf', is a str: a length is an integer" \
	-- $ADD kprobe pty_write --args 'tty->name,buf:str:tty->name' --dry-run
check "path length of a number" 2 "^$" "--args 'c:...:tty->name': a length is for a string" \
	-- $ADD kprobe pty_write --args 'tty->name,c:u64:tty->name' --dry-run
check "path strings at return" 0 "args=retval->name:str,filename:ustr" "^$" \
	-- $ADD kretprobe getname --args 'retval->name:str,filename:ustr' --dry-run
check "path kretprobe string" 0 "skb->dev->name:str" "^$" \
	-- $ADD kretprobe consume_skb --args 'skb->dev->name' --dry-run
check "path argument 7"  2 "^$" "is argument 7 of consume_skb: rawprobe reads the first 6" \
	-- $ADD kprobe consume_skb --args 'arg6' --dry-run
check "path retval at entry" 2 "^$" "'retval' is only known to kretprobes, at return \(this is a kprobe\)" \
	-- $ADD kprobe inet_csk_accept --args 'retval->sk_protocol' --dry-run
check "path address"     2 "^$" "--args by name needs a function's name, not an address" \
	-- $ADD kprobe 0xffffffff81100000 --args 'file->f_pos' --dry-run
check "path offset"      2 "^$" "--args by name: vfs_read\+0x10 is not a function's entry" \
	-- $ADD kprobe vfs_read+0x10 --args 'file->f_pos' --dry-run
check "path no BTF"      1 "^$" "no BTF of the kernel: /nonexistent" \
	-- env RAWPROBECTL_BTF=/nonexistent $ADD kprobe vfs_read --args 'file->f_pos' --dry-run
check "path unknown function" 1 "^$" "no_fn_rp: no such function in the BTF" \
	-- env RAWPROBE_KALLSYMS=/dev/null $ADD kprobe no_fn_rp --args 'x->y' --dry-run
check "path 7 arguments" 2 "^$" "more than 6 arguments" \
	-- $ADD kprobe vfs_read --args 'count,count,count,count,count,count,count' --dry-run

# --filter: terms, as the kernel tests them
check "filter && || & hex" 0 "^args , fetch , terms lt 0 retval//8/1/0/0/0;gt 4096 2//8/0/0/0/0;or any 32768 0/$f_flags/4/0/0/0/0$" "^$" \
	-- progs kretprobe vfs_read --filter 'retval < 0 && count > 0x1000 || file->f_flags & 0x8000'
check "filter & == 0, !=" 0 "^args , fetch , terms none 12 0/$skb_len/4/0/0/0/0;ne 0 0/$skb_dev/8/0/0/0/0$" "^$" \
	-- progs kprobe consume_skb --filter 'skb->len & 12 == 0 && skb->dev != 0'
# SS_CONNECTED is 3 (include/uapi/linux/net.h), as BTF has it
check "filter enumerator, negative" 0 "^args , fetch , terms eq 3 0/$sock_state/4/0/0/0/0;or lt -1 0/$sock_type/2/1/0/0/0$" "^$" \
	-- progs kprobe inet_release --filter 'sock->state == SS_CONNECTED || sock->type < -1'
check "filter bool" 0 "^args , fetch , terms eq 1 1//1/0/0/0/0$" "^$" \
	-- progs kprobe __cpuhp_remove_state --filter 'invoke == true'
# CC_ATTR_GUEST_MEM_ENCRYPT is 2 (include/linux/cc_platform.h)
check "filter retval bool, enum" 0 "^args , fetch , terms eq 1 retval//1/0/0/0/0;eq 2 0//4/0/0/0/0$" "^$" \
	-- progs kretprobe cc_platform_has --filter 'retval == true && attr == CC_ATTR_GUEST_MEM_ENCRYPT'
check "filter retval int" 0 "^args , fetch , terms ge -4 retval//4/1/0/0/0$" "^$" \
	-- progs kretprobe inet_release --filter 'retval >= -4'
check "filter unsigned -1" 0 "^args , fetch , terms eq 4294967295 0/$skb_len/4/0/0/0/0$" "^$" \
	-- progs kprobe consume_skb --filter 'skb->len == -1'
check "filter bitfield"  0 "^args , fetch , terms eq 3 0/$pt_off/1/0/$pt_bit/3/0@$((pt_off * 8 + pt_bit))\+3$" "^$" \
	-- progs kprobe consume_skb --filter 'skb->pkt_type == 3'
check "filter text"      0 "^kretprobe:vfs_read args=none persistent
  filter retval < 0 \|\| count > 4096
  term0: src=retval size=8 signed lt 0
  term1: \|\| src=arg2 size=8 gt 4096$" "^$" -- $ADD kretprobe vfs_read --filter '  retval < 0 || count > 4096 ' --dry-run
check "filter json text" 0 '"value_filter":\{"text":"retval<0","terms":\[\{"fetch":\{"src":"retval",' "^$" \
	-- $ADD -j kretprobe vfs_read --filter 'retval<0' --dry-run
check "filter with args" 0 "^args u32, fetch 0/$skb_len/4/0/0/0/0, terms gt 1000 0/$skb_len/4/0/0/0/0$" "^$" \
	-- progs kprobe consume_skb --args 'skb->len' --filter 'skb->len > 1000'
check "filter no BTF"    0 "^args , fetch , terms lt -1 retval//8/1/0/0/0;gt 100 2//8/0/0/0/0$" "^$" \
	-- env RAWPROBECTL_BTF=/nonexistent bash -c "$ADD -j kretprobe vfs_read --filter 'retval<-1 && arg2 > 100' --dry-run | python3 $T/progs.py"
check "filter no BTF, a path" 1 "^$" "no BTF of the kernel" \
	-- env RAWPROBECTL_BTF=/nonexistent $ADD kprobe vfs_read --filter 'file->f_pos > 0' --dry-run
check "filter retval at entry" 2 "^$" "^rawprobectl: --filter: 'retval' is only known to kretprobes" \
	-- $ADD kprobe vfs_read --filter 'retval < 0' --dry-run
check "filter void"      2 "^$" "'retval' is nothing: consume_skb returns void" \
	-- $ADD kretprobe consume_skb --filter 'retval == 0' --dry-run
check "filter no comparison" 2 "^$" "^rawprobectl: --filter: expected a comparison after 'skb->len'" \
	-- $ADD kprobe consume_skb --filter 'skb->len' --dry-run
check "filter operator"  2 "^$" "unknown operator '=<' after 'skb->len'" \
	-- $ADD kprobe consume_skb --filter 'skb->len =< 3' --dry-run
check "filter no number" 2 "^$" "expected a number after 'skb->len >'" \
	-- $ADD kprobe consume_skb --filter 'skb->len > ' --dry-run
check "filter dangling &&" 2 "^$" "expected a value .* at the end" \
	-- $ADD kprobe consume_skb --filter 'skb->len > 3 &&' --dry-run
check "filter junk"      2 "^$" "expected &&, \|\| or the end after 'skb->len > 3', not 'and 4'" \
	-- $ADD kprobe consume_skb --filter 'skb->len > 3 and 4' --dry-run
check "filter & == 1"    2 "^$" "compares with 0 only" -- $ADD kprobe consume_skb --filter 'skb->len & 4 == 1' --dry-run
check "filter too big"   2 "^$" "0x100000000 does not fit 'skb->len', a 32-bit value" \
	-- $ADD kprobe consume_skb --filter 'skb->len > 0x100000000' --dry-run
check "filter 3 bits"    2 "^$" "8 does not fit 'skb->pkt_type', a 3-bit value" \
	-- $ADD kprobe consume_skb --filter 'skb->pkt_type == 8' --dry-run
check "filter enumerator typo" 2 "^$" "'SS_CONECTED' is no enumerator of socket_state   did you mean: SS_CONNECTED" \
	-- bash -c "$ADD kprobe inet_release --filter 'sock->state == SS_CONECTED' --dry-run 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS[0]}"
check "filter name of no enum" 2 "^$" "'abc' is not a number" -- $ADD kprobe consume_skb --filter 'skb->len > abc' --dry-run
check "filter a string"  2 "^$" "'skb->dev->name' is a string: compare it with a string in quotes" \
	-- $ADD kprobe consume_skb --filter 'skb->dev->name == 0' --dry-run
# strings: a char array's address and size, a char
# pointer loaded, the constants each once, the operators that take them
check "filter char array" 0 "^args , fetch , terms str_eq \"lo\"/16 0/$skb_dev/8/0/0/0/$nd_name$" "^$" \
	-- progs kprobe consume_skb --filter 'skb->dev->name == "lo"'
check "filter char pointer" 0 "^args , fetch , terms glob \"nu\*\"/0 0/$p_dentry,$((d_name + q_name))/8/0/0/0/0;str_ne \"null\"/0 0/$p_dentry,$((d_name + q_name))/8/0/0/0/0$" "^$" \
	-- progs kprobe vfs_open --filter 'path->dentry->d_name.name ~ "nu*" && path->dentry->d_name.name != "null"'
check "filter :str raw"   0 "^args , fetch , terms str_ne \"\"/0 1//8/0/0/0/0;or nglob \"a\?\"/0/user 2//8/0/0/0/0$" "^$" \
	-- progs kprobe vfs_open --filter 'arg1:str != "" || arg2:ustr !~ "a?"'
check "filter strings json" 0 "valid: 1 documents" "^$" -- bash -c "$ADD -j kprobe vfs_open --filter 'path->dentry->d_name.name ~ \"nu*\" && arg1:str == \"\" || arg0 > 3' --dry-run | $VALIDATE probe_request"
check "filter ( in a string" 0 'str_eq "\(deleted\) it'"'"'s comm" str_size=0' "^$" \
	-- $ADD kprobe vfs_open --filter "path->dentry->d_name.name == \"(deleted) it's comm\"" --dry-run
check "filter unterminated" 2 "^$" "unterminated string after 'skb->dev->name ==': \"lo$" \
	-- $ADD kprobe consume_skb --filter 'skb->dev->name == "lo' --dry-run
check "filter long string" 2 "^$" "is 64 characters: a string compares on its first 64 bytes" \
	-- $ADD kprobe consume_skb --filter "skb->dev->name == \"$(printf 'x%.0s' $(seq 64))\"" --dry-run
check "filter glob number" 2 "^$" "'skb->len ~' matches a string with a glob: give it in quotes" \
	-- $ADD kprobe consume_skb --filter 'skb->len ~ 3' --dry-run
check "filter number str" 2 "^$" "'skb->len' is a number, not a string: compare it with a number" \
	-- $ADD kprobe consume_skb --filter 'skb->len == "3"' --dry-run
check "filter ptr str"    2 "^$" "'skb->dev' is not a string .*what it points to with 'skb->dev:str'" \
	-- $ADD kprobe consume_skb --filter 'skb->dev == "x"' --dry-run
check "filter bad :type"  2 "^$" "'skb->len:s32': a filter's operand takes :str \(a kernel string\) or :ustr" \
	-- $ADD kprobe consume_skb --filter 'skb->len:s32 == 3' --dry-run
check "filter task's pid" 2 "^$" "'pid' is not an argument of vfs_read \(its arguments: file, buf, count, pos\): the task's pid is --pid, an option of its own" \
	-- $ADD kprobe vfs_read --filter 'pid == 5' --dry-run
check "filter member"    2 "^$" "^rawprobectl: --filter: 'skb' \(struct sk_buff\) has no member 'lenn'" \
	-- $ADD kprobe consume_skb --filter 'skb->lenn > 1' --dry-run
eight=$(printf 'skb->len>%d && ' 1 2 3 4 5 6 7)'skb->len>8'
check "filter 8 terms"   0 "^args , fetch , terms gt 1 .*;gt 8 0/$skb_len/4/0/0/0/0$" "^$" \
	-- progs kprobe consume_skb --filter "$eight"
check "filter 9 terms"   2 "^$" "more than 8 comparisons: the kernel takes at most 8" \
	-- $ADD kprobe consume_skb --filter "$eight||skb->len>9" --dry-run
long="retval > 0 ||$(printf '%231s' '') retval < 1"	# 255 characters
check "filter 255 characters" 0 "^args , fetch , terms gt 0 retval//8/1/0/0/0;or lt 1 retval//8/1/0/0/0$" "^$" \
	-- progs kretprobe vfs_read --filter "$long"
check "filter 256 characters" 2 "^$" "--filter: 256 characters: the kernel keeps at most 255" \
	-- $ADD kretprobe vfs_read --filter "${long}0" --dry-run
check "filter quote"     2 "^$" "strings compare with ==, != and the globs ~ and !~" -- $ADD kprobe vfs_read --filter 'count > "3"' --dry-run
check "filter empty"     2 "^$" "--filter: empty" -- $ADD kprobe vfs_read --filter '  ' --dry-run
check "filter address"   2 "^$" "--filter needs a function's name, not an address" \
	-- $ADD kretprobe 0xffffffff81100000 --filter 'retval < 0' --dry-run
check "filter stream first" 2 "^$" "--filter applies to a probe: give the probe first" \
	-- $CTL stream --filter 'retval < 0'
check "filter stream bad" 2 "^$" "'retval' is only known to kretprobes" \
	-- $CTL stream -e kprobe:vfs_read --filter 'retval < 0'
check "filter help"      0 "--filter EXPR .*at most 8 comparisons, 255" "^$" -- bash -c "$ADD --help | tr '\n' ' '"

# An entry probe on a vmlinux function, a pair's or one alone, goes
# through ftrace (the kallsyms address sent): not an alias's (the kernel
# names the address by its first name), not a module's, not at an
# offset, not a kretprobe, not under RAWPROBE_ARM=kprobes
PAIR_FT="import json, sys; print(*[d.get('ftrace', False) for d in map(json.loads, sys.stdin)])"
check "pair ftrace"        0 "^True True$" "^$" -- bash -c "$CTL -j latency --key pid --from kprobe:vfs_read --to kprobe:vfs_write --dry-run | python3 -c \"$PAIR_FT\""
check "pair ftrace alias"  0 "^True False$" "^$" -- bash -c "$CTL -j latency --key pid --from kprobe:vfs_read --to kprobe:__x64_sys_getppid --dry-run | python3 -c \"$PAIR_FT\""
check "pair ftrace module" 0 "^False True$" "^$" -- bash -c "$CTL -j latency --key pid --from kprobe:ext4:ext4_sync_file --to kprobe:vfs_write --dry-run | python3 -c \"$PAIR_FT\""
check "pair ftrace off"    0 "^False False$" "^$" -- bash -c "RAWPROBE_ARM=kprobes $CTL -j latency --key pid --from kprobe:vfs_read --to kprobe:vfs_write --dry-run | python3 -c \"$PAIR_FT\""
check "pair ftrace schema" 0 "valid: 2 documents" "^$" -- bash -c "$CTL -j latency --key pid --from kprobe:vfs_read --to kprobe:vfs_write --dry-run | $VALIDATE probe_request"
ONE_FT="import json, sys; print(*[json.loads(l).get('ftrace', False) for l in sys.stdin])"
for one in "True:kprobe vfs_read" "True:jprobe vfs_read -a auto" \
	   "False:kprobe vfs_read+4" "False:kretprobe vfs_read" \
	   "False:kprobe __x64_sys_getppid" "False:kprobe __ia32_sys_getppid" \
	   "False:kprobe ext4:ext4_sync_file" \
	   "False:kprobe ext4:ext4_sync_file+4"; do
	check "ftrace ${one#*:}" 0 "^${one%%:*}\$" "^$" -- bash -c "$CTL -j probe add ${one#*:} --dry-run | python3 -c \"$ONE_FT\""
done
check "ftrace override"  0 "^False$" "^$" -- bash -c "$CTL -j trace kprobe:vfs_read --override 0 --comm x --dry-run | python3 -c \"$ONE_FT\""
check "ftrace list"      0 "^True False True$" "^$" -- bash -c "printf 'vfs_read\n__x64_sys_getppid\nvfs_write\n' | $CTL -j probe add kprobe - --dry-run | python3 -c \"$ONE_FT\""
check "ftrace off"       0 "^False$" "^$" -- bash -c "RAWPROBE_ARM=kprobes $CTL -j probe add kprobe vfs_read --dry-run | python3 -c \"$ONE_FT\""

# A tracepoint's arguments: its __traceiter_ function's, less __data
mkdir -p "$T/tp" && printf 'sched:sched_switch\nsched:sched_process_exec\n' >"$T/tp/available_events"
TPFS="RAWPROBECTL_TRACEFS=$T/tp"
cat >"$T/tp_switch.txt" <<'EOF'
tracepoint:sched:sched_switch
    bool preempt
    struct task_struct * prev
    struct task_struct * next
    unsigned int prev_state
EOF
same "tracepoint btf show" "$T/tp_switch.txt" -- env "$TPFS" $CTL btf show tracepoint:sched:sched_switch
check "tracepoint btf json" 0 "valid: 1 documents" "^$" -- bash -c "$TPFS $CTL -j btf show t:sched:sched_switch | $VALIDATE btf"
check "tracepoint btf from" 0 '"tracepoint":"sched:sched_switch","function":"__traceiter_sched_switch"' "^$" -- env "$TPFS" $CTL -j btf show t:sched:sched_switch
check "tracepoint btf unknown" 1 "^$" "tracepoint:sched:nope: no such event" -- env "$TPFS" $CTL btf show tracepoint:sched:nope
check "tracepoint args auto" 0 "^tracepoint:sched:sched_process_exec args=p:ptr,old_pid:s32,bprm:ptr$" "^$" -- env "$TPFS" $CTL trace tracepoint:sched:sched_process_exec --args auto --dry-run
check "tracepoint field path" 0 "arg0 prev->pid: src=arg1 loads=" "^$" -- env "$TPFS" $CTL trace tracepoint:sched:sched_switch --args 'prev->pid,next->comm' --dry-run
check "tracepoint filter by name" 0 "term0: src=arg0 size=1 eq 0" "^$" -- env "$TPFS" $CTL count tracepoint:sched:sched_switch --args auto --filter 'preempt == 0' --dry-run
check "tracepoint unknown field" 2 "^$" "'prev' \(struct task_struct\) has no member 'pidd'
  did you mean: pid" -- env "$TPFS" $CTL trace tracepoint:sched:sched_switch --args 'prev->pidd' --dry-run
check "tracepoint field type" 2 "^$" "'prev->comm:u32': is an array \(char\[16\]\)" \
	-- env "$TPFS" $CTL trace tracepoint:sched:sched_switch --args 'prev->comm:u32' --dry-run
check "tracepoint unknown arg" 2 "^$" "'prevv': is not an argument of sched:sched_switch \(its arguments: preempt, prev, next, prev_state\)" \
	-- env "$TPFS" $CTL trace tracepoint:sched:sched_switch --args prevv --dry-run

# The syscalls:* events: a syscall's own arguments by name (its format
# here), passed in place (no "syscall" flag), a char pointer the user's
mkdir -p "$T/tp/events/syscalls" && cp -r "$T/tracefs/events/syscalls/sys_enter_read" "$T/tp/events/syscalls/"
printf 'syscalls:sys_enter_read\nsyscalls:sys_exit_read\nsyscalls:sys_enter_getpid\nftrace:function\n' >>"$T/tp/available_events"
check "syscall event btf show" 0 "^tracepoint:syscalls:sys_enter_read +unsigned int fd +char \* buf +size_t count $" "^$" \
	-- bash -c "$TPFS $CTL btf show tracepoint:syscalls:sys_enter_read | tr '\n' ' '"
check "syscall event exit" 0 "^tracepoint:syscalls:sys_exit_read +long ret $" "^$" \
	-- bash -c "$TPFS $CTL btf show t:syscalls:sys_exit_read | tr '\n' ' '"
check "syscall event json" 0 "valid: 2 documents" "^$" \
	-- bash -c "$TPFS $CTL -j btf show t:syscalls:sys_enter_read t:syscalls:sys_exit_read | $VALIDATE btf"
check "syscall event args auto" 0 "^tracepoint:syscalls:sys_enter_read args=fd:u32,buf:ptr,count:u64$" "^$" \
	-- env "$TPFS" $CTL trace tracepoint:syscalls:sys_enter_read --args auto --dry-run
check "syscall event user string" 0 "^tracepoint:syscalls:sys_enter_read args=buf:ustr,count:u64$" "^$" \
	-- bash -c "$TPFS $CTL trace tracepoint:syscalls:sys_enter_read --args 'buf:str:count,count' --dry-run | head -1"
check "syscall entry user string" 0 "^kprobe:__x64_sys_read args=buf:ustr,count:u64 syscall$" "^$" \
	-- bash -c "$CTL trace kprobe:__x64_sys_read --args 'buf:str:count,count' --dry-run | head -1"
# :strv, a NULL-terminated array of strings joined (execve's argv): a
# syscall's own is the user's, as :str is; printed, not a key nor compared
mkdir -p "$T/tpx/events/syscalls" && cp -r "$T/tracefs/events/syscalls/sys_enter_execve" "$T/tpx/events/syscalls/"
printf 'syscalls:sys_enter_execve\n' >"$T/tpx/available_events"
TPX="RAWPROBECTL_TRACEFS=$T/tpx"
check "strv syscall event" 0 "^tracepoint:syscalls:sys_enter_execve args=filename:ustr,argv:ustrv$" "^$" \
	-- bash -c "$TPX $CTL trace tracepoint:syscalls:sys_enter_execve --args 'filename:str,argv:strv' --dry-run | head -1"
check "strv syscall entry" 0 "^kprobe:__x64_sys_execve args=argv:ustrv syscall$" "^$" \
	-- bash -c "$CTL trace kprobe:__x64_sys_execve --args 'argv:strv' --dry-run | head -1"
check "strv kernel"      0 "^kprobe:call_usermodehelper args=argv:strv,envp:ustrv persistent$" "^$" \
	-- bash -c "$ADD kprobe call_usermodehelper --args 'argv:strv,envp:ustrv' --dry-run | head -1"
check "strv json"        0 "valid: 1 documents" "^$" \
	-- bash -c "$TPX $CTL -j trace t:syscalls:sys_enter_execve --args 'filename:str,argv:strv' --dry-run | $VALIDATE probe_request"
check "strv not a key"   2 "^$" "--by argv: a string array \(:strv\) is a record's string \(trace\), not a key" \
	-- env "$TPX" $CTL count t:syscalls:sys_enter_execve --args 'argv:strv' --by argv --dry-run
check "strv no length"   2 "^$" "--args 'argv:...:filename': a length is for a string \(:str, :ustr\)" \
	-- env "$TPX" $CTL trace t:syscalls:sys_enter_execve --args 'argv:strv:filename,filename' --dry-run
check "strv not in filters" 2 "^$" "'argv:strv': a filter's operand takes :str \(a kernel string\) or :ustr" \
	-- env "$TPX" $CTL trace t:syscalls:sys_enter_execve --filter 'argv:strv == "a"' --dry-run
check "strv with a stack" 2 "^$" "--stack takes the record's string area" \
	-- env "$TPX" $CTL trace t:syscalls:sys_enter_execve --args 'argv:strv' --stack --dry-run
check "syscall event ret filter" 0 "term0: src=arg0 size=8 signed lt 0" "^$" \
	-- env "$TPFS" $CTL trace t:syscalls:sys_exit_read --filter 'ret < 0' --dry-run
check "syscall event glob" 0 "^tracepoint:syscalls:sys_enter_getpid args=none tracepoint:syscalls:sys_enter_read args=none tracepoint:syscalls:sys_exit_read args=none $" \
	"'tracepoint:syscalls:\*': 3 tracepoints" \
	-- bash -c "$TPFS $CTL count 't:syscalls:*' --dry-run | tr '\n' ' '"
check "ftrace event glob" 1 "^$" "left out: 1 ftrace events with no tracepoint" \
	-- env "$TPFS" $CTL count 't:ftrace:*' --dry-run

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
