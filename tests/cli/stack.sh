#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel stacks (--stack) on the host, where no module is loaded: the
# option on probe add, stream -e, trace and hist, what the CLI refuses
# before asking the kernel (exit code and message), --dry-run; then
# every output of records that carry a stack, from a capture with known
# stacks (tests/cli/mkcapture.py --stack) and its kallsyms: text, JSON
# (against the schema), CSV, Perfetto, folded, hist --stack (text and
# JSON), a raw round trip, and all of them under ASan with records whose
# stack says more than the record holds. (CTF: tests/cli/ctf.sh.)
# Ends with "N passed, N failed".
#   tests/cli/stack.sh            RAWPROBECTL=... for another build
AREA=stack
. "$(dirname "$0")/lib.sh"
ASAN=$repo/build/asan/rawprobectl

python3 "$here/mkcapture.py" --stack "$T/stack.rpc" "$T/kallsyms"
export RAWPROBE_KALLSYMS=$T/kallsyms

# out NAME CMD...: stdout must be the file $T/NAME.want, byte for byte
out() {
	local name=$1
	shift
	check "$name" 0 "^$" "^$" -- bash -c 'diff -u "$0" <("${@}" 2>/dev/null)' "$T/$name.want" "$@"
}

# --- the option, and what the CLI refuses before the kernel would ---
check "probe add --help" 0 "--stack +record the kernel stack: up to 16 callers" "^$" -- $CTL probe add --help
check "stream --help"    0 "--stack +record the kernel stack" "^$" -- $CTL stream --help
check "stream formats"   0 "folded \(COMM;root;...;function 1" "^$" -- $CTL stream --help
check "hist --help"      0 "--stack +every probe records its kernel stack" "^$" -- $CTL hist --help
check "dry-run"          0 "^kprobe:vfs_read args=none stack persistent$" "^$" \
	-- $CTL probe add kprobe vfs_read --stack --dry-run
check "dry-run args"     0 "^jprobe:do_sys_openat2 args=dfd:s32,flags:u32 stack persistent$" "^$" \
	-- env RAWPROBECTL_BTF=/nonexistent $CTL probe add jprobe do_sys_openat2 --stack -a dfd:s32,flags:u32 --dry-run
check "dry-run without"  0 "^kretprobe:vfs_read args=none persistent$" "^$" \
	-- $CTL probe add kretprobe vfs_read --dry-run
check "dry-run json"     0 '^\{"kind":"kretprobe","target":"vfs_read",.*"disabled":false,"stack":true,"args":\[\]\}$' "^$" \
	-- $CTL -j probe add kretprobe vfs_read --stack --dry-run
check "dry-run json schema" 0 "^valid: 2 documents$" "^$" \
	-- bash -c "$CTL -j probe add kprobe vfs_read ksys_read --stack --dry-run | $VALIDATE probe_request"
check "dry-run json without" 0 '"disabled":false,("ftrace":true,)?"args":\[\]\}$' "^$" \
	-- $CTL -j probe add kprobe vfs_read --dry-run
check "inside a function" 2 "^$" "^rawprobectl: --stack: vfs_read\+0x4 is not a function's entry, where stacks are recorded$" \
	-- $CTL probe add kprobe vfs_read+0x4 --stack
check "in a module, inside" 2 "^$" "^rawprobectl: --stack: ext4:ext4_file_read_iter\+0x10 is not a function's entry" \
	-- $CTL probe add kprobe ext4:ext4_file_read_iter+0x10 --stack
check "raw address"      2 "^$" "^rawprobectl: --stack needs a function's name, not an address: stacks are recorded at a function's entry$" \
	-- $CTL probe add kprobe 0xffffffff81100000 --stack
check "ustr argument"    2 "^$" "^rawprobectl: --stack takes the record's string area: not with a str/ustr/strv/ip6/saddr/daddr argument \(--args s32,ustr\)$" \
	-- $CTL probe add jprobe do_sys_openat2 --stack -a s32,ustr
check "str argument named" 2 "^$" "^rawprobectl: --stack takes the record's string area: not with a str/ustr/strv/ip6/saddr/daddr argument \(--args dfd:s32,name:str\)$" \
	-- env RAWPROBECTL_BTF=/nonexistent $CTL probe add jprobe do_sys_openat2 -a dfd:s32,name:str --stack
check "str argument by name" 2 "^$" "^rawprobectl: --stack takes the record's string area: not with a str/ustr/strv/ip6/saddr/daddr argument \(--args dfd:s32,filename:str\)$" \
	-- env RAWPROBECTL_BTF="$("$here/btf-fixture.sh")" $CTL probe add jprobe do_sys_openat2 -a dfd:s32,filename:str --stack
check "batch refused whole" 2 "^$" "vfs_read\+0x8 is not a function's entry" \
	-- $CTL probe add kprobe ksys_read vfs_read+0x8 --stack --dry-run
check "stream -e"        2 "^$" "^rawprobectl: --stack: vfs_read\+0x4 is not a function's entry" \
	-- $CTL stream -e kprobe:vfs_read+0x4 --stack
check "stream: probe first" 2 "^$" "^rawprobectl: --stack applies to a probe: give the probe first$" \
	-- $CTL stream --stack -e kprobe:vfs_read
check "trace: probe first" 2 "^$" "--stack applies to a probe: give the probe first" \
	-- $CTL trace --stack kprobe:vfs_read
check "trace kretprobe"  2 "^$" "^rawprobectl: --stack needs a function's name, not an address" \
	-- $CTL trace kretprobe:0xffffffff81100000 --stack
check "trace: the probe's only" 2 "^$" "vfs_read\+0x4 is not a function's entry" \
	-- $CTL trace kprobe:ksys_read --stack kprobe:vfs_read+0x4 --stack
check "trace: others without" 3 "^$" "not loaded" \
	-- $CTL trace kprobe:ksys_read --stack kprobe:vfs_read+0x4
# hist --stack: every probe of the command records its stack
check "hist: every probe" 2 "^$" "vfs_read\+0x4 is not a function's entry" \
	-- $CTL hist --stack kprobe:ksys_read kprobe:vfs_read+0x4
check "hist: after a probe" 2 "^$" "vfs_read\+0x4 is not a function's entry" \
	-- $CTL hist kprobe:vfs_read+0x4 --stack
check "hist: ok, no module" 3 "^$" "not loaded" -- $CTL hist --stack kprobe:vfs_read -d 1
check "hist --stack --arg" 2 "^$" "^rawprobectl: hist --stack counts stacks: not with --arg, --retval or --linear$" \
	-- $CTL hist --stack --arg 1
check "hist --retval --stack" 2 "^$" "not with --arg, --retval or --linear" -- $CTL hist --retval --stack
check "hist --linear --stack" 2 "^$" "not with --arg, --retval or --linear" -- $CTL hist --stack --linear 10
check "stack is no stream option" 2 "^$" "^rawprobectl: option '--stack' takes no value \(try 'rawprobectl stream --help'\)$" -- $CTL stream --stack=1
check "folded format"    2 "^$" "--format is text, json, csv, folded, perfetto, raw or ctf, not 'flame'" \
	-- $CTL stream -f flame
cat > "$T/comp.sh" <<'SH'
. "$1/completion/rawprobectl"
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _rawprobectl; echo "${COMPREPLY[*]}"; }
comp rawprobectl stream -f fo
comp rawprobectl probe add --sta
comp rawprobectl trace kprobe:vfs_read --sta
comp rawprobectl hist --sta
comp rawprobectl count kprobe:vfs_read -f o
comp rawprobectl count --for
comp rawprobectl agg show 1 --fo
comp rawprobectl stream -f o
SH
check "completion"       0 "^folded --stack --stats --stack --stack openmetrics --format --format  $" "^$" -- bash -c "bash $T/comp.sh $repo | tr '\n' ' '"

# --- text: the callers under each record, innermost first ---
cat > "$T/text.want" <<'EOF'
     9.000010   0     200 dd               kprobe:vfs_read         
        ksys_read+0x6b
        __x64_sys_read+0x19
        do_syscall_64+0x38
        entry_SYSCALL_64_after_hwframe+0x76
     9.000020   1     201 dd               kprobe:vfs_read         
        ksys_read+0x80
        __x64_sys_read+0x19
        do_syscall_64+0x38
        entry_SYSCALL_64_after_hwframe+0x76
     9.000030   0     202 cat              kprobe:vfs_read         
        kernel_read+0x52
        ext4_file_read_iter+0x10 [ext4]
        0xffffffffc0100000
        do_syscall_64+0x38
     9.000040   1     203 dd               kretprobe:vfs_read       = 1 (1500 ns)
        ksys_read+0x6b
        __x64_sys_read+0x19
        do_syscall_64+0x38
        entry_SYSCALL_64_after_hwframe+0x76
     9.000050   0     204 cat              kprobe:vfs_write        
     9.000060   1     205 a;b\x1b          kprobe:vfs_read         
        ksys_read+0x6b
     9.000070   0     206 dd               kprobe:vfs_read         
     9.000080   1     207 cat              jprobe:do_sys_openat2    (-100, 32768)
        do_syscall_64+0x38
     9.000090   0     208 deep             kprobe:vfs_read         
        do_syscall_64+0x1
        do_syscall_64+0x2
        do_syscall_64+0x3
        do_syscall_64+0x4
        do_syscall_64+0x5
        do_syscall_64+0x6
        do_syscall_64+0x7
        do_syscall_64+0x8
        do_syscall_64+0x9
        do_syscall_64+0xa
        do_syscall_64+0xb
        do_syscall_64+0xc
        do_syscall_64+0xd
        do_syscall_64+0xe
        do_syscall_64+0xf
        do_syscall_64+0x10
EOF
out text $CTL stream -r "$T/stack.rpc"
check "text summary"     0 "" "^9 records read from .*stack.rpc, 0 filtered out$" -- $CTL stream -r "$T/stack.rpc"
# what tests/vm/cases/47-stack.sh looks for after dd's record
check "text: the caller next" 0 '^        ksys_read\+0x[0-9a-f]+$' "^$" \
	-- bash -c "$CTL stream -r $T/stack.rpc 2>/dev/null | grep -A1 -m1 ' dd .*kprobe:vfs_read' | tail -1 | grep -E '^[[:space:]]+ksys_read\+0x[0-9a-f]+$'"
check "text without kallsyms" 0 '^        0xffffffff8110046b$' "^$" \
	-- bash -c "RAWPROBE_KALLSYMS=/nonexistent $CTL stream -r $T/stack.rpc 2>/dev/null | sed -n 2p"

# --- JSON: "stack", the callers innermost first ---
check "json schema"      0 "^valid: 9 documents$" "^$" -- bash -c "$CTL -j stream -r $T/stack.rpc | $VALIDATE record"
check "json pretty schema" 0 "^valid: 1 documents$" "^$" -- bash -c "$CTL -p stream -r $T/stack.rpc -c 1 | $VALIDATE record-"
cat > "$T/json.want" <<'EOF'
{"ts_ns":9000010000,"seq":1,"cpu":0,"pid":200,"tgid":200,"comm":"dd","probe_id":1,"probe":"kprobe:vfs_read","kind":"kprobe","addr":"0xffffffff81100000","sym":"vfs_read+0x0","stack":["ksys_read+0x6b","__x64_sys_read+0x19","do_syscall_64+0x38","entry_SYSCALL_64_after_hwframe+0x76"]}
{"ts_ns":9000020000,"seq":2,"cpu":1,"pid":201,"tgid":201,"comm":"dd","probe_id":1,"probe":"kprobe:vfs_read","kind":"kprobe","addr":"0xffffffff81100000","sym":"vfs_read+0x0","stack":["ksys_read+0x80","__x64_sys_read+0x19","do_syscall_64+0x38","entry_SYSCALL_64_after_hwframe+0x76"]}
{"ts_ns":9000030000,"seq":3,"cpu":0,"pid":202,"tgid":202,"comm":"cat","probe_id":1,"probe":"kprobe:vfs_read","kind":"kprobe","addr":"0xffffffff81100000","sym":"vfs_read+0x0","stack":["kernel_read+0x52","ext4_file_read_iter+0x10 [ext4]","0xffffffffc0100000","do_syscall_64+0x38"]}
{"ts_ns":9000040000,"seq":4,"cpu":1,"pid":203,"tgid":203,"comm":"dd","probe_id":2,"probe":"kretprobe:vfs_read","kind":"kretprobe","addr":"0xffffffff81100000","sym":"vfs_read+0x0","stack":["ksys_read+0x6b","__x64_sys_read+0x19","do_syscall_64+0x38","entry_SYSCALL_64_after_hwframe+0x76"],"retval":1,"latency_ns":1500}
{"ts_ns":9000050000,"seq":5,"cpu":0,"pid":204,"tgid":204,"comm":"cat","probe_id":3,"probe":"kprobe:vfs_write","kind":"kprobe","addr":"0xffffffff81100200","sym":"vfs_write+0x0"}
{"ts_ns":9000060000,"seq":6,"cpu":1,"pid":205,"tgid":205,"comm":"a;b\u001b","probe_id":1,"probe":"kprobe:vfs_read","kind":"kprobe","addr":"0xffffffff81100000","sym":"vfs_read+0x0","stack":["ksys_read+0x6b"]}
{"ts_ns":9000070000,"seq":7,"cpu":0,"pid":206,"tgid":206,"comm":"dd","probe_id":1,"probe":"kprobe:vfs_read","kind":"kprobe","addr":"0xffffffff81100000","sym":"vfs_read+0x0","stack":[]}
{"ts_ns":9000080000,"seq":8,"cpu":1,"pid":207,"tgid":207,"comm":"cat","probe_id":4,"probe":"jprobe:do_sys_openat2","kind":"jprobe","addr":"0xffffffff81100800","sym":"do_sys_openat2+0x0","args":[-100,32768],"stack":["do_syscall_64+0x38"]}
{"ts_ns":9000090000,"seq":9,"cpu":0,"pid":208,"tgid":208,"comm":"deep","probe_id":1,"probe":"kprobe:vfs_read","kind":"kprobe","addr":"0xffffffff81100000","sym":"vfs_read+0x0","stack":["do_syscall_64+0x1","do_syscall_64+0x2","do_syscall_64+0x3","do_syscall_64+0x4","do_syscall_64+0x5","do_syscall_64+0x6","do_syscall_64+0x7","do_syscall_64+0x8","do_syscall_64+0x9","do_syscall_64+0xa","do_syscall_64+0xb","do_syscall_64+0xc","do_syscall_64+0xd","do_syscall_64+0xe","do_syscall_64+0xf","do_syscall_64+0x10"]}
EOF
out json $CTL -j stream -r "$T/stack.rpc"
# what 47-stack.sh reads: the caller's name, offsets dropped
check "json: the caller first" 0 "^ksys_read$" "^$" \
	-- bash -c "$CTL -j stream -r $T/stack.rpc -i 2 2>/dev/null | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())[\"stack\"][0].split(\"+\")[0])'"

# --- CSV: one last column, the frames joined by ';' ---
cat > "$T/csv.want" <<'EOF'
ts_ns,seq,cpu,pid,tgid,comm,probe_id,probe,kind,addr,sym,arg0,arg1,arg2,arg3,arg4,arg5,str,retval,latency_ns,stack
9000010000,1,0,200,200,"dd",1,"kprobe:vfs_read",kprobe,0xffffffff81100000,"vfs_read+0x0",,,,,,,,,,"ksys_read+0x6b;__x64_sys_read+0x19;do_syscall_64+0x38;entry_SYSCALL_64_after_hwframe+0x76"
9000020000,2,1,201,201,"dd",1,"kprobe:vfs_read",kprobe,0xffffffff81100000,"vfs_read+0x0",,,,,,,,,,"ksys_read+0x80;__x64_sys_read+0x19;do_syscall_64+0x38;entry_SYSCALL_64_after_hwframe+0x76"
9000030000,3,0,202,202,"cat",1,"kprobe:vfs_read",kprobe,0xffffffff81100000,"vfs_read+0x0",,,,,,,,,,"kernel_read+0x52;ext4_file_read_iter+0x10 [ext4];0xffffffffc0100000;do_syscall_64+0x38"
9000040000,4,1,203,203,"dd",2,"kretprobe:vfs_read",kretprobe,0xffffffff81100000,"vfs_read+0x0",,,,,,,,1,1500,"ksys_read+0x6b;__x64_sys_read+0x19;do_syscall_64+0x38;entry_SYSCALL_64_after_hwframe+0x76"
9000050000,5,0,204,204,"cat",3,"kprobe:vfs_write",kprobe,0xffffffff81100200,"vfs_write+0x0",,,,,,,,,,
9000060000,6,1,205,205,"a;b\x1b",1,"kprobe:vfs_read",kprobe,0xffffffff81100000,"vfs_read+0x0",,,,,,,,,,"ksys_read+0x6b"
9000070000,7,0,206,206,"dd",1,"kprobe:vfs_read",kprobe,0xffffffff81100000,"vfs_read+0x0",,,,,,,,,,
9000080000,8,1,207,207,"cat",4,"jprobe:do_sys_openat2",jprobe,0xffffffff81100800,"do_sys_openat2+0x0",-100,32768,,,,,,,,"do_syscall_64+0x38"
9000090000,9,0,208,208,"deep",1,"kprobe:vfs_read",kprobe,0xffffffff81100000,"vfs_read+0x0",,,,,,,,,,"do_syscall_64+0x1;do_syscall_64+0x2;do_syscall_64+0x3;do_syscall_64+0x4;do_syscall_64+0x5;do_syscall_64+0x6;do_syscall_64+0x7;do_syscall_64+0x8;do_syscall_64+0x9;do_syscall_64+0xa;do_syscall_64+0xb;do_syscall_64+0xc;do_syscall_64+0xd;do_syscall_64+0xe;do_syscall_64+0xf;do_syscall_64+0x10"
EOF
out csv $CTL stream -r "$T/stack.rpc" -f csv
cat > "$T/check_csv.py" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
assert len(rows) == 9 and all(len(r) == 21 for r in rows), rows
assert rows[2]['stack'].split(';')[1] == 'ext4_file_read_iter+0x10 [ext4]'
assert rows[3]['retval'] == '1' and rows[3]['latency_ns'] == '1500'
assert rows[4]['stack'] == rows[6]['stack'] == ''
assert len(rows[8]['stack'].split(';')) == 16
print('csv ok')
PY
check "csv fields"       0 "^csv ok$" "^$" -- bash -c "$CTL stream -r $T/stack.rpc -f csv -o $T/out.csv 2>/dev/null && python3 $T/check_csv.py $T/out.csv"

# --- Perfetto: args.stack as -j has it ---
check "perfetto schema"  0 "^valid: 1 documents$" "^$" -- bash -c "$CTL stream -r $T/stack.rpc -f perfetto 2>/dev/null | $VALIDATE perfetto-"
cat > "$T/perfetto.py" <<'PY'
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))['traceEvents'] if e['ph'] != 'M']
recs = [json.loads(line) for line in open(sys.argv[2])]
assert len(ev) == len(recs) == 9
assert [e['args'].get('stack') for e in ev] == [r.get('stack') for r in recs]
x = [e for e in ev if e['ph'] == 'X']
assert len(x) == 1 and x[0]['args']['stack'][0] == 'ksys_read+0x6b', x
print('perfetto ok')
PY
check "perfetto stacks"  0 "^perfetto ok$" "^$" -- bash -c "$CTL stream -r $T/stack.rpc -f perfetto -o $T/p.json 2>/dev/null && $CTL -j stream -r $T/stack.rpc -o $T/p.jsonl 2>/dev/null && python3 $T/perfetto.py $T/p.json $T/p.jsonl"

# --- folded: a line per record, the command first, the function last ---
cat > "$T/folded.want" <<'EOF'
dd;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_read;ksys_read;vfs_read 1
dd;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_read;ksys_read;vfs_read 1
cat;do_syscall_64;0xffffffffc0100000;ext4_file_read_iter;kernel_read;vfs_read 1
dd;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_read;ksys_read;vfs_read 1
cat;vfs_write 1
a\x3bb\x1b;ksys_read;vfs_read 1
dd;vfs_read 1
cat;do_syscall_64;do_sys_openat2 1
deep;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;vfs_read 1
EOF
out folded $CTL stream -r "$T/stack.rpc" -f folded
check "folded as 47-stack.sh" 0 "^dd;" "^$" \
	-- bash -c "$CTL stream -r $T/stack.rpc -f folded 2>/dev/null | grep -m1 -E '^dd;(.+;)?do_syscall_64;(.+;)?ksys_read;vfs_read [0-9]+$'"
check "folded filters"   0 "^3$" "^$" -- bash -c "$CTL stream -r $T/stack.rpc -f folded --comm cat 2>/dev/null | wc -l"
check "folded to a file" 0 "^$" "^9 records read" -- $CTL stream -r "$T/stack.rpc" -f folded -o "$T/out.folded"
check "folded file"      0 "^$" "^$" -- cmp "$T/out.folded" "$T/folded.want"
check "folded clean"     0 "^$" "^$" -- bash -c "! LC_ALL=C grep -q '[[:cntrl:]]' $T/out.folded"

# --- hist --stack: counts per stack by name, the most seen first ---
cat > "$T/hist.want" <<'EOF'
entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_read;ksys_read;vfs_read 3
do_syscall_64;0xffffffffc0100000;ext4_file_read_iter;kernel_read;vfs_read 1
do_syscall_64;do_sys_openat2 1
do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;vfs_read 1
ksys_read;vfs_read 1
vfs_read 1
vfs_write 1
EOF
out hist $CTL hist -r "$T/stack.rpc" --stack
check "hist stderr"      0 "" "^rawprobectl: hist: 1 records had no stack \(probes without --stack\): counted as their function alone$" \
	-- $CTL hist -r "$T/stack.rpc" --stack
cat > "$T/hist_comm.want" <<'EOF'
dd;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_read;ksys_read;vfs_read 3
a\x3bb\x1b;ksys_read;vfs_read 1
cat;do_syscall_64;0xffffffffc0100000;ext4_file_read_iter;kernel_read;vfs_read 1
cat;do_syscall_64;do_sys_openat2 1
cat;vfs_write 1
dd;vfs_read 1
deep;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;do_syscall_64;vfs_read 1
EOF
out hist_comm $CTL hist -r "$T/stack.rpc" --stack --by comm
check "hist = folded, counted" 0 "^$" "^$" \
	-- bash -c "diff <($CTL stream -r $T/stack.rpc -f folded 2>/dev/null | sed 's/ 1\$//' | sort | uniq -c | awk '{ c = \$1; sub(/^ *[0-9]+ /, \"\"); print \$0, c }' | sort) <(sort $T/hist_comm.want)"
check "hist one probe"   0 "^ksys_read;vfs_read 1$" "^$" -- bash -c "$CTL hist -r $T/stack.rpc --stack --id 1 --pid 205 2>/dev/null"
check "hist no records"  0 "^$" "^rawprobectl: hist: no records$" -- $CTL hist -r "$T/stack.rpc" --stack --pid 1
check "hist json schema" 0 "^valid: 8 documents$" "^$" -- bash -c "$CTL -j hist -r $T/stack.rpc --stack 2>/dev/null | $VALIDATE hist_stack"
check "hist json comm schema" 0 "^valid: 8 documents$" "^$" -- bash -c "$CTL -j hist -r $T/stack.rpc --stack --by comm 2>/dev/null | $VALIDATE hist_stack"
check "hist pretty schema" 0 "^valid: 1 documents$" "^$" -- bash -c "$CTL -p hist -r $T/stack.rpc --stack --id 4 2>/dev/null | $VALIDATE hist_stack-"
check "hist json first"  0 '^\{"probe":"kprobe:vfs_read","value":"stack","function":"vfs_read","stack":\["ksys_read","__x64_sys_read","do_syscall_64","entry_SYSCALL_64_after_hwframe"\],"count":2\}$' "^$" \
	-- bash -c "$CTL -j hist -r $T/stack.rpc --stack 2>/dev/null | head -1"
check "hist json by probe" 0 '^\{"probe":"kretprobe:vfs_read","value":"stack","function":"vfs_read","stack":\["ksys_read",.*"count":1\}$' "^$" \
	-- bash -c "$CTL -j hist -r $T/stack.rpc --stack --id 2 2>/dev/null"
check "hist json comm"   0 '^\{"probe":"kprobe:vfs_read","comm":"a;b\\u001b","value":"stack","function":"vfs_read","stack":\["ksys_read"\],"count":1\}$' "^$" \
	-- bash -c "$CTL -j hist -r $T/stack.rpc --stack --by comm 2>/dev/null | grep 'a;b'"
check "hist json no stack" 0 '^\{"probe":"kprobe:vfs_write","value":"stack","function":"vfs_write","stack":\[\],"count":1\}$' "^$" \
	-- bash -c "$CTL -j hist -r $T/stack.rpc --stack --id 3 2>/dev/null"

# --- a capture keeps the stacks ---
check "raw round trip"   0 "^$" "^$" -- bash -c "$CTL stream -r $T/stack.rpc -f raw -o $T/stack2.rpc 2>/dev/null && cmp <($CTL stream -r $T/stack.rpc 2>/dev/null) <($CTL stream -r $T/stack2.rpc 2>/dev/null) && cmp <($CTL -j stream -r $T/stack.rpc 2>/dev/null) <($CTL -j stream -r $T/stack2.rpc 2>/dev/null)"

# --- ASan: stacks that say more than a record holds, every output ---
cat > "$T/odd.py" <<'PY'
# Stacks of str_len 255 (31 frames' worth: 16 are read), 7 (none whole),
# 255 again with every flag (a string's too) and a string of ';', and 16
# frames that symbolize; a command with the folded format's ';'.
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkcapture import desc, record
out = [b'RPCAP001', desc(1, 1, 'kprobe:vfs_read', [])]
def odd(str_len, flags, fill):
    r = bytearray(record(9, 1, 1, 1, 0, 1, 1, 'x;y', 0xffffffff81100000,
                         stack=[]))
    body = 8
    r[body + 21] = flags                    # flags
    r[body + 120] = str_len                 # str_len
    r[body + 128:body + 256] = fill
    return bytes(r)
out += [odd(255, 0x40, bytes(range(128))), odd(7, 0x40, b'\xff' * 128),
        odd(255, 0x7f, b';' * 128), odd(128, 0x40, struct.pack('<16Q', *[0xffffffff81000400 + i for i in range(16)]))]
open(sys.argv[2], 'wb').write(b''.join(out))
PY
python3 "$T/odd.py" "$here" "$T/odd.rpc"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
for f in text json csv perfetto folded raw; do
	check "asan -f $f"   0 "^$" "^4 records read" -- "$ASAN" stream -r "$T/odd.rpc" -f $f -o "$T/odd.$f"
	check "asan -f $f stack" 0 "^$" "^9 records read" -- "$ASAN" stream -r "$T/stack.rpc" -f $f -o "$T/stack.$f"
done
check "asan ctf"         0 "^$" "^4 records read" -- "$ASAN" stream -r "$T/odd.rpc" -f ctf -o "$T/odd.ctf"
check "asan hist"        0 "" "records read" -- "$ASAN" hist -r "$T/odd.rpc" --stack --by comm
check "asan hist json"   0 "^valid: [0-9]+ documents$" "^$" -- bash -c "$ASAN -j hist -r $T/odd.rpc --stack 2>/dev/null | $VALIDATE hist_stack"
check "odd: 16 frames at most" 0 "^16 0 16 16$" "^$" \
	-- bash -c "$ASAN -j stream -r $T/odd.rpc 2>/dev/null | python3 -c 'import json, sys; print(*[len(json.loads(l).get(\"stack\", [])) for l in sys.stdin])'"
check "odd: json schema" 0 "^valid: 4 documents$" "^$" -- bash -c "$ASAN -j stream -r $T/odd.rpc 2>/dev/null | $VALIDATE record"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
