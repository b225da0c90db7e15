#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --format ctf on the host: captures with known records (mkcapture.py)
# converted with `rawprobectl stream -r CAP -f ctf -o DIR`, the packets
# checked against CTF 1.8, then read by babeltrace2, whose events must be
# those of `-f text` and `-f json` of the same capture, field by field
# and in order (ctf_compare.py). Also the output directory's rules, the
# usage errors and a write error. babeltrace2 is a host dependency
# (tools/deps.sh): without it the tests fail. Ends with "N passed, N failed".
#   tests/cli/ctf.sh            RAWPROBECTL=... for another build
AREA=ctf
. "$(dirname "$0")/lib.sh"
ASAN=$repo/build/asan/rawprobectl
COMPARE=$here/ctf_compare.py

# same_with CLI KALLSYMS CAP DIR [FILTERS...]: convert CAP to DIR, read
# it back with babeltrace2, compare with text and JSON output of CAP
same_with() {
	local ctl=$1 ksyms=$2 cap=$3 dir=$4
	shift 4
	RAWPROBE_KALLSYMS=$ksyms "$ctl" stream -r "$cap" "$@" -f ctf -o "$dir" \
		2>/dev/null || return
	babeltrace2 --clock-seconds "$dir" >"$T/bt.txt" || return
	RAWPROBE_KALLSYMS=$ksyms "$CTL" stream -r "$cap" "$@" -f text \
		>"$T/text.txt" 2>/dev/null &&
	RAWPROBE_KALLSYMS=$ksyms "$CTL" stream -r "$cap" "$@" -f json \
		>"$T/json.txt" 2>/dev/null &&
	python3 "$COMPARE" "$T/bt.txt" "$T/text.txt" "$T/json.txt"
}

same() {	# CAP DIR [FILTERS...]
	same_with "$CTL" "$T/kallsyms" "$@"
}

cat > "$T/kallsyms" <<'KSYMS'
ffffffff81000000 T _stext
ffffffff81100000 T vfs_read
ffffffff81100200 T vfs_write
ffffffff81100400 t do_sys_openat2
ffffffff81100500 t do_work
ffffffff81100600 t custom_fn
ffffffff81100800 T __x64_sys_openat
ffffffffc0001000 t ext4_sync_file	[ext4]
KSYMS
export RAWPROBE_KALLSYMS=$T/kallsyms
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
python3 "$here/mkcapture.py" --ctf "$T/ctf.rpc"
python3 "$here/mkcapture.py" --ctf "$T/ctf2.rpc" 2
python3 "$here/mkcapture.py" "$T/cap.rpc"
python3 "$here/mkcapture.py" --escapes "$T/esc.rpc"
python3 "$here/mkcapture.py" --bench 20000 "$T/bench.rpc" "$T/bench.ksyms"
python3 "$here/mkcapture.py" --stack "$T/stack.rpc" "$T/stack.ksyms"

check "babeltrace2 installed (tools/deps.sh)" 0 "^Babeltrace 2" "^$" -- babeltrace2 --version

# --- the output directory ---
check "needs -o"         2 "^$" "--format ctf writes a trace directory: give -o DIR" \
	-- "$CTL" stream -r "$T/ctf.rpc" -f ctf
check "trace needs -o"   2 "^$" "give -o DIR" -- "$CTL" trace kprobe:vfs_read -f ctf
touch "$T/file"
check "-o a file"        2 "^$" "file: not a directory" -- "$CTL" stream -r "$T/ctf.rpc" -f ctf -o "$T/file"
mkdir "$T/foreign" && touch "$T/foreign/notes"
check "-o a foreign dir" 2 "^$" "not empty, and not a trace rawprobectl wrote" \
	-- "$CTL" stream -r "$T/ctf.rpc" -f ctf -o "$T/foreign"
check "foreign dir kept" 0 "^notes$" "^$" -- ls "$T/foreign"
check "-o under nothing" 1 "^$" "nope/tr: No such file or directory" \
	-- "$CTL" stream -r "$T/ctf.rpc" -f ctf -o "$T/nope/tr"
check "help"             0 "ctf \(CTF 1.8 trace directory" "^$" -- "$CTL" stream --help
check "bad format lists ctf" 2 "^$" "raw or ctf" -- "$CTL" stream -f ctf2

# --- the trace: files, metadata, packets ---
check "convert"          0 "^$" "^4000 records read from .*ctf.rpc, 0 filtered out$" \
	-- "$CTL" stream -r "$T/ctf.rpc" -f ctf -o "$T/tr"
check "one file per CPU" 0 "^channel0_0 channel0_1 channel0_2 channel0_3 metadata $" "^$" \
	-- bash -c "ls $T/tr | tr '\n' ' '"
cat > "$T/tsdl" <<'TSDL'
/* CTF 1.8 */
	tracer_name = "rawprobectl";
	name = "monotonic";
	freq = 1000000000;
	offset = 0;
	map = clock.monotonic.value;
		uint32_t magic;
		uint64_clock_monotonic_t timestamp_begin;
		uint32_t cpu_id;
		uint32_t id;
		uint64_clock_monotonic_t timestamp;
	name = "kretprobe:vfs_read";
	name = "custom:say \"hi\" \\\\ \\x1b[0m";
	name = "?";
TSDL
check "metadata TSDL"    0 "^14$" "^$" -- bash -c "grep -Fxf $T/tsdl $T/tr/metadata | sort -u | wc -l"
cat > "$T/packets.py" <<'PY'
# Every packet of every stream file: header and context as CTF 1.8 and
# the metadata say (magic, trace UUID, stream class 0, the CPU as stream
# instance and cpu_id, sizes that add up, time and sequence in order).
import os, re, struct, sys, uuid
d = sys.argv[1]
meta = open(os.path.join(d, 'metadata')).read()
u = uuid.UUID(re.search(r'uuid = "([0-9a-f-]+)"', meta).group(1)).bytes
packets = 0
for f in sorted(os.listdir(d)):
    if f == 'metadata':
        continue
    cpu, data, off, last, seq = int(f.split('_')[1]), open(os.path.join(d, f), 'rb').read(), 0, 0, 0
    while off < len(data):
        magic, pu, sid, inst, tb, te, content, size, pseq, cid = \
            struct.unpack_from('<I16sIQQQQQQI', data, off)
        assert magic == 0xc1fc1fc1 and pu == u and sid == 0, (f, off)
        assert inst == cpu == cid and pseq == seq, (f, off, inst, cid, pseq)
        assert content == size and size % 8 == 0 and size > 76 * 8, (f, off)
        assert last <= tb <= te, (f, off, last, tb, te)
        off, last, seq, packets = off + size // 8, te, seq + 1, packets + 1
    assert off == len(data), f
print('packets ok: %d in %d streams' % (packets, len(os.listdir(d)) - 1))
PY
check "packets"          0 "^packets ok: ([89]|[1-9][0-9]+) in 4 streams$" "^$" -- python3 "$T/packets.py" "$T/tr"
check "babeltrace2 reads it" 0 "^4000$" "^$" -- bash -c "babeltrace2 $T/tr | wc -l"
check "babeltrace2 fields" 0 '^\[00:00:07\.[0-9]{9}\] \(\+[0-9?.]+\) kretprobe:vfs_read: \{ cpu_id = [0-3] \}, \{ probe_id = 1, kind = \( "kretprobe" : container = 2 \), seq = [0-9]+, pid = [0-9]+, tgid = [0-9]+, comm = "([^"\\]|\\.)*", addr = 0xFFFFFFFF81100000, sym = "vfs_read\+0x0" \}, \{ arg0 = 0x[0-9A-F]+, arg1 = 0x[0-9A-F]+, arg1_sym = "(vfs_write\+0x0)?", arg2 = [0-9]+, retval = -?[0-9]+, latency_ns = [0-9]+ \}' "^$" \
	-- bash -c "babeltrace2 $T/tr | grep -m1 kretprobe"

# --- babeltrace2 against text and JSON output, event by event ---
check "same as text/json: every shape" 0 "^ctf ok: 4000 events$" "^$" -- same "$T/ctf.rpc" "$T/tr"
check "same as text/json: capture"     0 "^ctf ok: 14 events$" "^$" -- same "$T/cap.rpc" "$T/cap"
check "same as text/json: escapes"     0 "^ctf ok: 4 events$" "^$" -- same "$T/esc.rpc" "$T/esc"
check "same as text/json: filters"     0 "^ctf ok: [1-9][0-9]+ events$" "^$" -- same "$T/ctf.rpc" "$T/filt" --cpu 2 -i 2
check "filtered: one CPU" 0 "^channel0_2 metadata $" "^$" -- bash -c "ls $T/filt | tr '\n' ' '"
# field fetches that faulted (fault_mask): argN_fetch_fault, text's (fault)
check "fetch faults: metadata" 0 "^arg0 arg1 arg2 $" "^$" \
	-- bash -c "grep -oE '^\s+uint8_t arg[0-9]_fetch_fault;$' $T/tr/metadata | grep -o 'arg[0-9]' | sort -u | tr '\n' ' '"
check "fetch faults: events" 0 "do_work: .* arg0 = 0x0, arg0_fetch_fault = 1, arg1 = -1, arg2 = 0x0, arg2_fetch_fault = 1, str = " "^$" \
	-- bash -c "babeltrace2 $T/tr | grep -m1 arg0_fetch_fault"
check "same as text/json: 20000 records" 0 "^ctf ok: 20000 events$" "^$" \
	-- same_with "$CTL" "$T/bench.ksyms" "$T/bench.rpc" "$T/bench"
check "same as text/json: ASan build" 0 "^ctf ok: 4000 events$" "^$" \
	-- same_with "$ASAN" "$T/kallsyms" "$T/ctf.rpc" "$T/asan"
# kernel stacks (--stack): a sequence of the frames' strings, as JSON's
check "same as text/json: stacks" 0 "^ctf ok: 9 events$" "^$" \
	-- same_with "$ASAN" "$T/stack.ksyms" "$T/stack.rpc" "$T/stack"
check "stacks: metadata" 0 "^3$" "^$" \
	-- bash -c "grep -c -Fx \$'\\t\\tstring stack[stack_len];' $T/stack/metadata"
check "stacks: events"   0 '^\[9\.000040000\] .* kretprobe:vfs_read: .*\{ retval = 1, latency_ns = 1500, stack_len = 4, stack = \[ \[0\] = "ksys_read\+0x6b", \[1\] = "__x64_sys_read\+0x19", \[2\] = "do_syscall_64\+0x38", \[3\] = "entry_SYSCALL_64_after_hwframe\+0x76" \] \}$' "^$" \
	-- bash -c "babeltrace2 --clock-seconds $T/stack | grep kretprobe"

# --- a directory reused, an empty trace, records out of the ordinary ---
check "reuses its own trace" 0 "^ctf ok: [1-9][0-9]+ events$" "^$" -- same "$T/ctf2.rpc" "$T/tr"
check "old CPUs gone"    0 "^channel0_0 channel0_1 metadata $" "^$" -- bash -c "ls $T/tr | tr '\n' ' '"
check "empty trace"      0 "^$" "^$" -- bash -c "$CTL stream -r $T/ctf.rpc --pid 99999 -f ctf -o $T/empty 2>/dev/null && test -s $T/empty/metadata && babeltrace2 $T/empty"
cat > "$T/odd.py" <<'PY'
# A record with too many arguments, a string with no NUL and too long a
# length, fault bits past its arguments, CPU 65535, an unknown kind, time
# going back on one CPU, and a probe with no description.
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkcapture import desc
out = [b'RPCAP001', desc(1, 1, b'kprobe:odd\xff', [4] * 6)]
def rec(ts, cpu, flags, nargs, str_arg, str_len, faults=0, probe=1):
    body = struct.pack('<QQIBBHII16sQ6QqQBBBBI128s', ts, 1, probe, 9, flags,
                       cpu, 1, 1, b'X' * 16, 0xffffffff81100010,
                       *([0xffffffff81100200] * 6), -1, 1, str_len, faults,
                       str_arg, nargs, 0, b'A' * 128)
    return struct.pack('<II', 2, len(body)) + body
out += [rec(10, 65535, 0xff, 200, 3, 255, 0xff),
        rec(5, 65535, 0x1f, 7, 6, 200, 0xc0),
        rec(20, 0, 0x07, 6, 250, 0), rec(21, 0, 0x15, 6, 2, 5, 0x24, probe=7)]
open(sys.argv[2], 'wb').write(b''.join(out))
PY
python3 "$T/odd.py" "$here" "$T/odd.rpc"
check "odd records"      0 "^4$" "^$" -- bash -c "$ASAN stream -r $T/odd.rpc -f ctf -o $T/odd 2>/dev/null && babeltrace2 $T/odd | wc -l"
check "write error"      1 "^$" "big: cannot write the trace: File too large" \
	-- bash -c "trap '' XFSZ; ulimit -f 40; $CTL stream -r $T/bench.rpc -f ctf -o $T/big 2>&1 >/dev/null | grep -v 'records read' >&2; exit \${PIPESTATUS[0]}"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
