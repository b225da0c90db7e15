#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Output on the host, against the BTF of Debian's 6.12 kernel (the setup
# btf.sh has: btf_setup.sh): captures of field fetches, named probes,
# aliases and casts in every format (text, JSON against the schema, CSV,
# raw, perfetto), --template, return values and arguments typed from
# BTF. No module is needed. Ends with "N passed, N failed".
#   tests/cli/btf_out.sh        RAWPROBECTL=... for another build
AREA=btf
. "$(dirname "$0")/lib.sh"
. "$here/btf_setup.sh"
# --- captures of field fetches: (fault), null, labels of fields ---
python3 "$here/mkcapture.py" --fetch "$T/fetch.rpc"
cat >"$T/fetch.txt" <<'EOF'
     8.000000   0     600 nc               kprobe:vfs_read          (file->f_pos=4096, count=100, file->f_path.dentry->d_name.name="hostname")
     8.000001   0     600 nc               kprobe:vfs_read          (file->f_pos=(fault), count=100, file->f_path.dentry->d_name.name="hostname")
     8.000002   0     600 nc               kprobe:vfs_read          (file->f_pos=0, count=100, file->f_path.dentry->d_name.name=(fault))
     8.000003   0     600 nc               kprobe:inet_release      (sock->state=SS_CONNECTED, sock->type=-1, sock->sk->sk_gso_disabled=1)
     8.000004   0     600 nc               kprobe:inet_release      (sock->state=(fault), sock->type=(fault), sock->sk->sk_gso_disabled=(fault))
     8.000005   0     600 nc               kprobe:__cpuhp_remove_state (invoke=true, state=CPUHP_INVALID)
     8.000006   0     600 nc               kprobe:__cpuhp_remove_state (invoke=1, state=-1)
     8.000007   0     600 nc               kretprobe:inet_release   (sock->state=SS_UNCONNECTED) = 0 (10 ns)
     8.000008   0     600 nc               kretprobe:inet_release   (sock->state=(fault)) = -22 (10 ns)
EOF
same "fetch text"        "$T/fetch.txt" -- $CTL stream -r "$T/fetch.rpc"
sed -e 's/=SS_CONNECTED/=3/' -e 's/=SS_UNCONNECTED/=1/' -e 's/invoke=true, state=CPUHP_INVALID/invoke=1, state=-1/' \
    "$T/fetch.txt" >"$T/fetch-nobtf.txt"
same "fetch without BTF" "$T/fetch-nobtf.txt" -- env RAWPROBECTL_BTF=/nonexistent $CTL stream -r "$T/fetch.rpc"
cat >"$T/fetch.py" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]['args'] == [4096, 100, 0xffff888000002000], recs[0]
assert recs[0]['arg_names'][2] == 'file->f_path.dentry->d_name.name'
assert recs[1]['args'][0] is None and recs[1]['args'][1] == 100, recs[1]
assert recs[2]['args'][2] is None and recs[2]['str_fault'], recs[2]
assert recs[3]['args'] == [3, -1, 1] and recs[4]['args'] == [None] * 3
assert recs[8]['args'] == [None] and recs[8]['retval'] == -22, recs[8]
print('fetch json ok')
PY
check "fetch json"       0 "^fetch json ok$" "^$" \
	-- bash -c "$CTL -j stream -r $T/fetch.rpc -o $T/fetch.json 2>/dev/null && python3 $T/fetch.py $T/fetch.json"
check "fetch csv"        0 '^8000001000,2,0,600,600,"nc",1,"kprobe:vfs_read",kprobe,0xffffffff81100000,"vfs_read\+0x0",,100,,,,,"hostname",,,$' "^$" \
	-- bash -c "$CTL stream -r $T/fetch.rpc -f csv 2>/dev/null | sed -n 3p"
check "fetch perfetto"   0 '"args":\{"cpu":0,"arg0":"\(fault\)","arg1":100,"str":"hostname"\}' "^$" \
	-- bash -c "$CTL stream -r $T/fetch.rpc -f perfetto 2>/dev/null | grep -m1 fault"
check "fetch hist"       0 "arg0: count 2, sum 4096, avg 2048, min 0, max 4096" "^$" -- bash -c "$CTL hist -r $T/fetch.rpc --arg 0 --id 1 2>/dev/null"
check "fetch raw round trip" 0 "^$" "^$" -- bash -c "$CTL stream -r $T/fetch.rpc -f raw -o $T/fetch2.rpc 2>/dev/null && cmp <($CTL stream -r $T/fetch.rpc 2>/dev/null) <($CTL stream -r $T/fetch2.rpc 2>/dev/null)"

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
check "names csv columns" 0 "^ts_ns,seq,cpu,pid,tgid,comm,probe_id,probe,kind,addr,sym,arg0,arg1,arg2,arg3,arg4,arg5,str,retval,latency_ns,stack$" "^$" \
	-- bash -c "$CTL stream -r $T/names.rpc -f csv 2>/dev/null | head -1"
check "names raw round trip" 0 "^$" "^$" -- bash -c "$CTL stream -r $T/names.rpc -f raw -o $T/names2.rpc 2>/dev/null && cmp <($CTL stream -r $T/names.rpc 2>/dev/null) <($CTL stream -r $T/names2.rpc 2>/dev/null) && cmp <($CTL -j stream -r $T/names.rpc 2>/dev/null) <($CTL -j stream -r $T/names2.rpc 2>/dev/null)"
check "names perfetto"   0 "valid: 1 documents" "^$" -- bash -c "$CTL stream -r $T/names.rpc -f perfetto 2>/dev/null | $VALIDATE perfetto-"
check "names hist"       0 "do_sys_openat2|__x64_sys_openat, arg0: count 1" "^$" -- bash -c "$CTL hist -r $T/names.rpc --arg 0 --id 1 2>/dev/null"

# --- captures of aliases (NAME=PATH, a cast): NAME shown, enums and bools
# labelled by PATH's BTF, names past 127 characters in their long item ---
python3 "$here/mkcapture.py" --aliases "$T/alias.rpc"
cat >"$T/alias.txt" <<'EOF'
     9.000000   0     700 nc               kprobe:inet_release      (state=SS_UNCONNECTED, daddr=127.0.0.1, dport=80, rx=12345)
     9.000001   0     700 nc               kprobe:__cpuhp_remove_state (on=true, st=CPUHP_INVALID)
     9.000002   0     700 nc               kprobe:__cpuhp_remove_state (on=false, st=CPUHP_OFFLINE)
EOF
same "alias text"        "$T/alias.txt" -- $CTL stream -r "$T/alias.rpc"
check "alias json"       0 '"arg_names":\["state","daddr","dport","rx"\]' "^$" -- bash -c "$CTL -j stream -r $T/alias.rpc 2>/dev/null | head -1"
check "alias json valid" 0 "valid: 3 documents" "^$" -- bash -c "$CTL -j stream -r $T/alias.rpc 2>/dev/null | $VALIDATE record"
check "alias template"   0 "^SS_UNCONNECTED 127.0.0.1:80 12345 -$" "^$" \
	-- bash -c "$CTL stream -r $T/alias.rpc -c 1 --template '{state} {daddr}:{dport} {rx} {st}' 2>/dev/null"
check "alias raw round trip" 0 "^$" "^$" -- bash -c "$CTL stream -r $T/alias.rpc -f raw -o $T/alias2.rpc 2>/dev/null && cmp <($CTL stream -r $T/alias.rpc 2>/dev/null) <($CTL stream -r $T/alias2.rpc 2>/dev/null)"

# --- --template: a line per record from its fields, labels and strings
# as text shows them (strings unquoted), widths, "-" for what a record
# has not ---
cat >"$T/names-tmpl.txt" <<'EOF'
    500 cat              jprobe:__x64_sys_openat  /etc/hostname -100 - -
    500 cat              kretprobe:vfs_read       - - 4096 1 {x}
    500 cat              kprobe:__cpuhp_remove_state CPUHP_INVALID/true - - -
EOF
same "template text"     "$T/names-tmpl.txt" -- bash -c "$CTL stream -r $T/names.rpc -c 1 --template '{pid:7} {comm:-16} {probe:-24} {filename} {dfd} {retval} {str}' 2>/dev/null; \
	$CTL stream -r $T/names.rpc --id 2 --template '{pid:7} {comm:-16} {probe:-24} {filename} {dfd} {retval} {latency_us} {{x}}' 2>/dev/null; \
	$CTL stream -r $T/names.rpc --id 3 -c 1 --template '{pid:7} {comm:-16} {probe} {state}/{invoke} {arg5} {latency} {str}' 2>/dev/null"
check "template widths"  0 "^\[ -100\]\[/etc/hostname     \]\[.7\.000000\]$" "^$" \
	-- bash -c "$CTL stream -r $T/names.rpc -c 1 --template '[{arg0:5}][{filename:-18}][\\t{ts}]' 2>/dev/null"
check "template time"    0 "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}$" "^$" \
	-- bash -c "$CTL stream -r $T/names.rpc -c 1 --template '{time:%Y-%m-%d %H:%M}' 2>/dev/null"
check "template open"    2 "^$" "--template '\{pid': a '\{' without its '\}'" -- $CTL stream -r "$T/names.rpc" --template '{pid'
check "template close"   2 "^$" "a '\}' without its '\{' \(a literal one is '\}\}'\)" -- $CTL stream -r "$T/names.rpc" --template 'a}b'
check "template width"   2 "^$" "'x7' is no width \(\[-\]0\.\.256\)" -- $CTL stream -r "$T/names.rpc" --template '{pid:x7}'
check "template field"   2 "^$" "'1x' is no field \(time, ts, cpu" -- $CTL stream -r "$T/names.rpc" --template '{1x}'
check "template fields"  2 "^$" "more than 64 fields" -- $CTL stream -r "$T/names.rpc" --template "$(printf '{pid}%.0s' $(seq 65))"
# NAME/N: an integer argument divided (tcplife's KB); a label, a string
# or an address as it is; only arguments divide
check "template divide"  0 "^12 12345 127.0.0.1 SS_UNCONNECTED -100 -50$" "^$" \
	-- bash -c "$CTL stream -r $T/alias.rpc -c 1 --template '{rx/1024} {rx/1} {daddr/2} {state/2}' 2>/dev/null | tr '\n' ' '; $CTL stream -r $T/names.rpc -c 1 --template '{dfd/1} {arg0/2}' 2>/dev/null"
check "template divide 0" 2 "^$" "'0' divides by no number \(NAME/N, N a positive integer\)" -- $CTL stream -r "$T/names.rpc" --template '{arg0/0}'
check "template divide pid" 2 "^$" "'pid/2': only an argument divides" -- $CTL stream -r "$T/names.rpc" --template '{pid/2}'
check "template json"    2 "^$" "--template writes text lines: not with --format json" -- $CTL stream -r "$T/names.rpc" --template '{pid}' -f json

# --- kretprobes' return values typed from BTF ---
python3 "$here/mkcapture.py" --returns "$T/returns.rpc"
cat >"$T/returns.txt" <<'EOF'
     7.500000   0     500 cat              kretprobe:it_real_fn     = HRTIMER_NORESTART (10 ns)
     7.500001   0     500 cat              kretprobe:it_real_fn     = HRTIMER_RESTART (10 ns)
     7.500002   0     500 cat              kretprobe:it_real_fn     = 7 (10 ns)
     7.500003   0     500 cat              kretprobe:cc_platform_has = false (10 ns)
     7.500004   0     500 cat              kretprobe:cc_platform_has = true (10 ns)
     7.500005   0     500 cat              kretprobe:jiffies_to_msecs = 4 (10 ns)
     7.500006   0     500 cat              kretprobe:filp_open      = 0xffff888003a1e000 (10 ns)
     7.500007   0     500 cat              kretprobe:filp_open      = 0xfffffffffffffffe (10 ns)
     7.500008   0     500 cat              kretprobe:ext4:ext4_sync_file = -1 (10 ns)
     7.500009   0     500 cat              kretprobe:ext4:ext4_sync_file = 0 (10 ns)
     7.500010   0     500 cat              kretprobe:nr_free_buffer_pages = 18446744073709551615 (10 ns)
     7.500011   0     500 cat              kretprobe:kfree          = 5 (10 ns)
     7.500012   0     500 cat              kretprobe:vfs_read       = -14 (10 ns)
     7.500013   0     500 cat              kretprobe:no_such_fn_rp  = 4294967295 (10 ns)
EOF
same "returns text"      "$T/returns.txt" -- $CTL stream -r "$T/returns.rpc"
same "returns text, ASan" "$T/returns.txt" -- env ASAN_OPTIONS=detect_leaks=1:exitcode=99 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=98 "$repo/build/asan/rawprobectl" stream -r "$T/returns.rpc"
# without BTF: the register, signed, as before; with it, JSON has the
# register in retval_raw where retval reads otherwise
echo "0 1 7 256 1 -2401053092612145148 -131391578578944 -2 4294967295 0 -1 5 -14 4294967295" >"$T/returns-raw.txt"
same "returns without BTF" "$T/returns-raw.txt" \
	-- bash -c "RAWPROBECTL_BTF=/nonexistent $CTL stream -r $T/returns.rpc 2>/dev/null | sed -E 's/.* = (-?[0-9]+) \\(10 ns\\)\$/\\1/' | paste -sd' '"
same "returns json raw"  "$T/returns-raw.txt" \
	-- bash -c "$CTL -j stream -r $T/returns.rpc 2>/dev/null | python3 -c 'import json, sys; print(*[json.loads(l).get(\"retval_raw\", json.loads(l)[\"retval\"]) for l in sys.stdin])'"
same "returns json without BTF" "$T/returns-raw.txt" \
	-- bash -c "RAWPROBECTL_BTF=/nonexistent $CTL -j stream -r $T/returns.rpc 2>/dev/null | python3 -c 'import json, sys; print(*[json.loads(l)[\"retval\"] for l in sys.stdin])'"
# typed: an enum's number, a bool, u32, a pointer unsigned, int, unsigned
# long, void and no BTF as the register
echo "0 1 7 false true 4 18446612682130972672 18446744073709551614 -1 0 18446744073709551615 5 -14 4294967295" >"$T/returns-json.txt"
same "returns json typed" "$T/returns-json.txt" \
	-- bash -c "$CTL -j stream -r $T/returns.rpc 2>/dev/null | python3 -c 'import json, sys; print(*[json.dumps(json.loads(l)[\"retval\"]) for l in sys.stdin])'"
echo "0 1 7 false true 4 0xffff888003a1e000 0xfffffffffffffffe -1 0 18446744073709551615 5 -14 4294967295" >"$T/returns-csv.txt"
same "returns csv typed" "$T/returns-csv.txt" \
	-- bash -c "$CTL stream -r $T/returns.rpc -f csv 2>/dev/null | sed 1d | cut -d, -f19 | paste -sd' '"
check "returns json schema" 0 "valid: 14 documents" "^$" -- bash -c "$CTL -j stream -r $T/returns.rpc 2>/dev/null | $VALIDATE record"

# --- values typed from BTF where the capture kept no types: as the
# capture that kept them reads without BTF (tests/cli/run.sh), and
# enums by name in text; kept by -f raw for a replay without BTF ---
python3 "$here/mkcapture.py" --typed "$T/typed.rpc"
python3 "$here/mkcapture.py" --typed "$T/untyped.rpc" --no-types
check "typed from BTF json" 0 "^$" "^$" \
	-- bash -c "cmp <($CTL -j stream -r $T/untyped.rpc 2>/dev/null) <(RAWPROBECTL_BTF=/nonexistent $CTL -j stream -r $T/typed.rpc 2>/dev/null)"
check "typed from BTF csv" 0 "^$" "^$" \
	-- bash -c "$CTL stream -r $T/untyped.rpc -f csv 2>/dev/null | sed 1d | cut -d, -f12-20 | diff $here/typed.csv -"
check "typed from BTF values" 0 '^-2 -2 false true \[-1, true\] \[0, false\] 18446744073709551614 4294967294$' "^$" \
	-- bash -c "$CTL -j stream -r $T/untyped.rpc 2>/dev/null | python3 -c 'import json, sys; print(*[json.dumps(r[\"retval\"] if \"retval\" in r else r[\"args\"]) for r in map(json.loads, sys.stdin)])'"
check "typed from BTF u32" 0 '"args":\[2\],"arg_names":\["attr"\],"retval":false,"retval_raw":256,' "^$" \
	-- bash -c "$CTL -j stream -r $T/untyped.rpc 2>/dev/null | sed -n 3p"
check "typed from BTF schema" 0 "valid: 8 documents" "^$" -- bash -c "$CTL -j stream -r $T/untyped.rpc 2>/dev/null | $VALIDATE record"
check "typed from BTF text" 0 "\(attr=CC_ATTR_GUEST_MEM_ENCRYPT\) = false .*\(state=CPUHP_INVALID, invoke=true\)" "^$" \
	-- bash -c "$CTL stream -r $T/untyped.rpc 2>/dev/null | tr '\n' ' '"
check "typed kept by raw" 0 "^$" "^$" \
	-- bash -c "$CTL stream -r $T/untyped.rpc -f raw -o $T/kept.rpc 2>/dev/null && cmp <($CTL -j stream -r $T/untyped.rpc 2>/dev/null) <(RAWPROBECTL_BTF=/nonexistent $CTL -j stream -r $T/kept.rpc 2>/dev/null)"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
