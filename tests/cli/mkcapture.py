#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Write a rawprobectl capture file (--format raw) with known records, for
# the host tests of every output format: tests/cli/mkcapture.py FILE
#
# tests/cli/mkcapture.py --escapes FILE writes instead records whose
# command, string and probe name hold terminal escapes, control bytes and
# bytes that are not UTF-8, for the tests of escaping in human output.
#
# tests/cli/mkcapture.py --ctf FILE [CPUS] writes instead, for the CTF
# tests (tests/cli/ctf.sh), 4000 records on CPUS CPUs (4) merged by time,
# some at the same time on several CPUs: every argument type, strings
# (in an argument, of their own, truncated, faulted, every byte value),
# return values, a custom probe whose name needs quoting, a probe with no
# description (gone), enough records for several packets per CPU.
#
# tests/cli/mkcapture.py --bench N FILE [KALLSYMS] writes instead N
# pseudo-random records of a busy machine (4 CPUs merged by time; kprobe,
# kretprobe and jprobe records, with and without arguments and strings,
# comms that need escaping in JSON) for timing the stream's reader and
# formatters, and a matching fake kallsyms for RAWPROBE_KALLSYMS.
#
# tests/cli/mkcapture.py --names FILE writes instead records of probes
# whose arguments have names (--args auto, NAME:TYPE): names in text and
# JSON output, bools and enums by name from BTF (tests/cli/btf.sh, with
# Debian 6.12's BTF), names that do not match BTF's, and names that are
# no identifiers (ignored).
#
# tests/cli/mkcapture.py --fetch FILE writes instead records of probes
# whose arguments are field fetches (--args 'file->f_pos', by name): some
# faulted (the record's fault_mask), enums of fields by name from BTF,
# parameters by name in any order.
#
# tests/cli/mkcapture.py --returns FILE writes instead kretprobe records
# of functions of every return type in Debian 6.12's BTF (tests/cli/btf.sh):
# an enum, a bool, unsigned int (upper bits that are not its), a
# pointer, int in a module, unsigned long, void, and one not in BTF.
#
# tests/cli/mkcapture.py --typed FILE [--no-types] writes instead records
# whose values JSON and CSV type (tests/cli/run.sh without BTF, from the
# types item; tests/cli/btf.sh with Debian 6.12's BTF and --no-types):
# an int function returning -2 in eax alone and sign-extended, a bool
# function's false (0x100: its low byte) and true, a u32 and an s32
# argument with upper register bits set, a bool argument, a pointer
# returning ERR_PTR(-2), and a kretprobe of no known type.
#
# tests/cli/mkcapture.py --stack FILE writes instead records of probes
# with --stack (RAWPROBE_REC_STACK: return addresses in the string area)
# for tests/cli/stack.sh and its kallsyms (STACK_KALLSYMS below): the
# same stack at two call sites of one function, a module's frame, an
# address no function holds, an empty stack, the deepest one, a
# kretprobe's, one with arguments, a command that needs escaping (and
# holds the folded format's ';'), and a record without a stack.
#
# Layout (userctl/out/sink.c): "RPCAP001", then items (u32 tag, u32 length,
# payload): 1 = a probe description (the first 240 bytes of struct
# rp_probe_desc), 2 = a record (struct rawprobe_record, 256 bytes),
# 3 = the argument names of the probe described last with that id (u32
# id, 128 bytes "fd,buf,count" and NULs; 5: names of 128 characters or
# more, in 512 bytes), 4 = its types (u32 id, u8
# return type: 0 unknown, 1 s64, 2 u64, 3 s32, 4 u32, 5 bool, 6 ptr; u8
# bit i: argument i is a bool; 2 bytes 0).
import random
import struct
import sys

KPROBE, KRETPROBE, JPROBE = 1, 2, 3
U64, S64, S32, U32, PTR, KSTR, USTR = range(7)
F_ARGS, F_RETVAL, F_STR, F_TRUNC, F_FAULT = 1, 2, 4, 8, 16
F_STACK = 64


def as_bytes(s):
    """Text as UTF-8; bytes (which need not be UTF-8) as they are."""
    return s if isinstance(s, bytes) else s.encode()


def desc(pid, kind, name, types, is_addr=0, by_name=0, pair_end=0):
    body = struct.pack('<IBBB6s224sBBx', pid, kind, is_addr, len(types),
                       bytes(types), as_bytes(name), by_name, pair_end)
    assert len(body) == 240
    return struct.pack('<II', 1, len(body)) + body


def names(pid, text):
    body = struct.pack('<I128s', pid, as_bytes(text))
    return struct.pack('<II', 3, len(body)) + body


def long_names(pid, text):
    body = struct.pack('<I512s', pid, as_bytes(text))
    return struct.pack('<II', 5, len(body)) + body


RET_RAW, RET_S64, RET_U64, RET_S32, RET_U32, RET_BOOL, RET_PTR = range(7)


def types(pid, ret, arg_bool=0):
    body = struct.pack('<IBBxx', pid, ret, arg_bool)
    return struct.pack('<II', 4, len(body)) + body


STR_ARG_MULTI = 0xfe


def segments(strs):
    """Several strings' str[] (uapi: struct rawprobe_str_seg each):
    strs is [(arg, flags, bytes)]; returns the bytes and their flags."""
    sb, flags = b'', 0
    for arg, f, b in strs:
        sb += bytes([arg, f, len(b)]) + b + b'\0'
        flags |= f
    assert len(sb) <= 128
    return sb, flags


def record(ts, seq, probe, kind, cpu, pid, tgid, comm, addr, args=(),
           retval=None, latency=0, s=None, str_arg=0, extra=0, faults=0,
           stack=None, strs=None):
    flags = (F_ARGS if args else 0) | (F_RETVAL if retval is not None else 0)
    flags |= (F_STR if s is not None else 0) | extra
    # a field fetch that faulted leaves 0 (uapi/rawprobe.h)
    a = [0 if faults >> i & 1 else x & (2**64 - 1)
         for i, x in enumerate(args)] + [0] * (6 - len(args))
    sb = as_bytes(s or '')
    if strs is not None:        # several strings: segments
        sb, f = segments(strs)
        flags |= f
        str_arg = STR_ARG_MULTI
    if stack is not None:       # u64 return addresses, the caller first
        flags |= F_STACK
        sb = struct.pack('<%dQ' % len(stack), *stack)
    body = struct.pack('<QQIBBHII16sQ6QqQBBBBI128s', ts, seq, probe, kind,
                       flags, cpu, pid, tgid, as_bytes(comm), addr, *a,
                       retval or 0, latency, len(sb), faults, str_arg,
                       len(args), 0, sb)
    assert len(body) == 256
    return struct.pack('<II', 2, len(body)) + body


def main(path):
    out = [b'RPCAP001',
           desc(1, KRETPROBE, 'kretprobe:vfs_read', [U64, PTR, U64]),
           desc(2, JPROBE, 'jprobe:do_sys_openat2', [S32, USTR]),
           desc(3, KPROBE, 'kprobe:0xffffffff81100010', [], is_addr=1)]
    ts, seq = 5_000_000_000, 0
    # vfs_read returns: cat (pid 100) 6 reads, dd (pid 200, tgid 199) 4
    lat = [100, 300, 700, 1500, 3000, 3100, 600, 650, 20000, 1]
    for i, l in enumerate(lat):
        comm, pid, tgid = ('cat', 100, 100) if i < 6 else ('dd', 200, 199)
        ts += 10_000
        seq += 1
        out.append(record(ts, seq, 1, KRETPROBE, i % 2, pid, tgid, comm,
                          0xffffffff81100000, [3, 0xffffffff81100200, 100],
                          retval=100 if i != 3 else -14, latency=l))
    for i in range(3):
        ts += 10_000
        seq += 1
        out.append(record(ts, seq, 2, JPROBE, 0, 100, 100, 'cat',
                          0xffffffff81100400, [-100, 0x7ffd0000], s='/etc/hostname',
                          str_arg=1))
    ts += 10_000
    seq += 1
    out.append(record(ts, seq, 3, KPROBE, 1, 300, 300, 'with,comma"q',
                      0xffffffff81100010))
    with open(path, 'wb') as f:
        f.write(b''.join(out))


# A terminal title (OSC ... BEL), a screen clear (CSI), and in the string
# also: UTF-8 to keep, a backslash, DEL, a C1 CSI as UTF-8 (U+009B), the
# same byte alone, a stray continuation byte, 0xff, tab and newline.
ESC_COMM = b'\x1b]0;pwned\x07'
ESC_STRS = [b'/tmp/\x1b[2J',
            b'caf\xc3\xa9 \\ back\x7f\xc2\x9b\x9b\x80\xff\tend\n']
ESC_NAME = b'custom:evil\x1b[31m'


def escapes(path):
    out = [b'RPCAP001',
           desc(1, KRETPROBE, 'kretprobe:vfs_read', [U64]),
           desc(2, JPROBE, 'jprobe:do_sys_openat2', [S32, USTR]),
           desc(3, KPROBE, ESC_NAME, [])]
    ts = 6_000_000_000
    out.append(record(ts, 1, 1, KRETPROBE, 0, 400, 400, ESC_COMM,
                      0xffffffff81100000, [3], retval=0, latency=700))
    for i, s in enumerate(ESC_STRS):
        out.append(record(ts + 1000 * (i + 1), 2 + i, 2, JPROBE, 0, 400, 400,
                          ESC_COMM, 0xffffffff81100400, [-100, 0x7ffd0000],
                          s=s, str_arg=1))
    out.append(record(ts + 5000, 4, 3, KPROBE, 0, 401, 401, 'plain',
                      0xffffffff81100010))
    with open(path, 'wb') as f:
        f.write(b''.join(out))


def named(path):
    out = [b'RPCAP001',
           desc(1, JPROBE, 'jprobe:__x64_sys_openat', [S32, USTR, S32, U32]),
           names(1, 'dfd,filename,flags,mode'),
           desc(2, KRETPROBE, 'kretprobe:vfs_read', [PTR, PTR, U64, PTR]),
           names(2, 'file,buf,count,pos'),
           # a signed enum (CPUHP_INVALID is -1) and a bool
           desc(3, KPROBE, 'kprobe:__cpuhp_remove_state', [S32, U32]),
           names(3, 'state,invoke'),
           desc(4, KPROBE, 'kprobe:cc_platform_has', [U32]),
           names(4, 'attr'),
           # names that are not BTF's: shown, no enum looked up
           desc(5, KPROBE, 'kprobe:cc_platform_has', [U32]),
           names(5, 'other'),
           # not identifiers, not one per argument: ignored
           desc(6, KPROBE, 'kprobe:vfs_write', [U64, U64]),
           names(6, 'a b,\x1b[2J'),
           desc(7, KPROBE, 'kprobe:vfs_write', [U64, U64]),
           names(7, 'one'),
           # a module's function: its split BTF
           desc(8, KPROBE, 'kprobe:ext4:ext4_sync_file', [PTR, S64, S64, S32]),
           names(8, 'file,start,end,datasync'),
           # names of a probe gone: its records only carry numbers
           names(9, 'ghost')]
    ts = 7_000_000_000
    recs = [
        (1, JPROBE, [-100, 0x7ffd0000, 0x8000, 0], dict(s='/etc/hostname', str_arg=1)),
        (2, KRETPROBE, [0xffff888003a1e000, 0x7ffd1000, 4096, 0xffffc90000abc000],
         dict(retval=4096, latency=1500)),
        (3, KPROBE, [-1, 1], {}),
        (3, KPROBE, [0, 0], {}),
        (3, KPROBE, [99999, 2], {}),        # no such enumerator; bool: its low byte
        (4, KPROBE, [2], {}),
        (4, KPROBE, [77], {}),
        (5, KPROBE, [2], {}),
        (6, KPROBE, [1, 2], {}),
        (7, KPROBE, [1, 2], {}),
        (8, KPROBE, [0xffff888003a1e000, 0, -1, 1], {}),
        (9, KPROBE, [5], {}),
    ]
    for i, (probe, kind, args, kw) in enumerate(recs):
        out.append(record(ts + 1000 * i, i + 1, probe, kind, 0, 500, 500, 'cat',
                          0xffffffff81100000, args, **kw))
    with open(path, 'wb') as f:
        f.write(b''.join(out))


def pairs(path):
    """latency --records: a pair's record (an entry probe's with a
    latency: the start's task in the header, the end's in end_task, where
    a kretprobe's record has its return value) beside a kretprobe's."""
    out = [b'RPCAP001',
           desc(1, KPROBE, 'kprobe:tcp_set_state', [U64], pair_end=1),
           desc(2, KRETPROBE, 'kretprobe:vfs_read', [])]
    out.append(record(9_000_000_000, 1, 1, KPROBE, 1, 500, 500, 'curl',
                      0xffffffff81100000, [7], retval=41 << 32 | 42,
                      latency=250_000_000))
    out.append(record(9_000_001_000, 2, 2, KRETPROBE, 0, 600, 600, 'cat',
                      0xffffffff81100400, [], retval=-14, latency=900))
    with open(path, 'wb') as f:
        f.write(b''.join(out))


def fetched(path):
    out = [b'RPCAP001',
           desc(1, KPROBE, 'kprobe:vfs_read', [S64, U64, KSTR], by_name=1),
           names(1, 'file->f_pos,count,file->f_path.dentry->d_name.name'),
           # an enum field (socket_state), a signed short, a bitfield
           desc(2, KPROBE, 'kprobe:inet_release', [U32, S32, U32], by_name=1),
           names(2, 'sock->state,sock->type,sock->sk->sk_gso_disabled'),
           # parameters by name, not in their order: still labelled
           desc(3, KPROBE, 'kprobe:__cpuhp_remove_state', [U32, S32],
                by_name=1),
           names(3, 'invoke,state'),
           # the same names given by position: not the function's
           desc(4, KPROBE, 'kprobe:__cpuhp_remove_state', [U32, S32]),
           names(4, 'invoke,state'),
           desc(5, KRETPROBE, 'kretprobe:inet_release', [U32], by_name=1),
           names(5, 'sock->state')]
    ts = 8_000_000_000
    recs = [
        (1, KPROBE, [4096, 100, 0xffff888000002000],
         dict(s='hostname', str_arg=2)),
        (1, KPROBE, [0, 100, 0xffff888000002000],
         dict(s='hostname', str_arg=2, faults=1)),
        (1, KPROBE, [0, 100, 0],
         dict(str_arg=2, extra=F_FAULT, faults=4)),
        (2, KPROBE, [3, -1, 1], {}),
        (2, KPROBE, [0, 0, 0], dict(faults=7)),
        (3, KPROBE, [1, -1], {}),
        (4, KPROBE, [1, -1], {}),
        (5, KRETPROBE, [1], dict(retval=0, latency=10)),
        (5, KRETPROBE, [0], dict(retval=-22, latency=10, faults=1)),
    ]
    for i, (probe, kind, args, kw) in enumerate(recs):
        out.append(record(ts + 1000 * i, i + 1, probe, kind, 0, 600, 600, 'nc',
                          0xffffffff81100000, args, **kw))
    with open(path, 'wb') as f:
        f.write(b''.join(out))


def aliased(path):
    """Aliases (NAME=PATH) and a cast: NAME shown, PATH's BTF labels;
    names of 128 characters or more in the long item."""
    ip4, be16 = 9, 10
    out = [b'RPCAP001',
           desc(1, KPROBE, 'kprobe:inet_release', [U32, ip4, be16, U64],
                by_name=1),
           long_names(1, 'state=sock->state,'
                      'daddr=sock->sk->__sk_common.skc_daddr,'
                      'dport=sock->sk->__sk_common.skc_dport,'
                      'rx=((struct tcp_sock *)sock->sk)->bytes_received'),
           desc(2, KPROBE, 'kprobe:__cpuhp_remove_state', [U32, S32],
                by_name=1),
           names(2, 'on=invoke,st=state')]
    recs = [(1, [1, 0x0100007f, 0x5000, 12345]), (2, [1, -1]),
            (2, [0, 0])]
    for i, (probe, args) in enumerate(recs):
        out.append(record(9_000_000_000 + 1000 * i, i + 1, probe, KPROBE, 0,
                          700, 700, 'nc', 0xffffffff81100000, args))
    with open(path, 'wb') as f:
        f.write(b''.join(out))


def returns(path):
    fns = ['it_real_fn', 'cc_platform_has', 'jiffies_to_msecs', 'filp_open',
           'ext4:ext4_sync_file', 'nr_free_buffer_pages', 'kfree',
           'vfs_read', 'no_such_fn_rp']
    out = [b'RPCAP001'] + [desc(i + 1, KRETPROBE, 'kretprobe:' + f, [])
                           for i, f in enumerate(fns)]
    recs = [(1, 0), (1, 1), (1, 7), (2, 0x100), (2, 1),
            (3, 0xdeadbeef00000004), (4, 0xffff888003a1e000), (4, -2),
            (5, 0xffffffff), (5, 0), (6, -1), (7, 5), (8, -14),
            (9, 0xffffffff)]
    for i, (probe, ret) in enumerate(recs):
        ret = ret - 2**64 if ret >= 2**63 else ret
        out.append(record(7_500_000_000 + 1000 * i, i + 1, probe, KRETPROBE,
                          0, 500, 500, 'cat', 0xffffffff81100000,
                          retval=ret, latency=10))
    with open(path, 'wb') as f:
        f.write(b''.join(out))


def typed(path, keep_types=True):
    probes = [
        (1, KRETPROBE, 'kretprobe:vfs_fstatat', [S32, PTR], 'dfd,filename',
         RET_S32, 0),
        (2, KRETPROBE, 'kretprobe:cc_platform_has', [U32], 'attr',
         RET_BOOL, 0),
        (3, KPROBE, 'kprobe:__cpuhp_remove_state', [S32, U32],
         'state,invoke', RET_RAW, 0b10),
        (4, KRETPROBE, 'kretprobe:filp_open', [], '', RET_PTR, 0),
        (5, KRETPROBE, 'kretprobe:no_such_fn_rp', [], '', RET_RAW, 0)]
    out = [b'RPCAP001']
    for pid, kind, name, argtypes, argnames, ret, bools in probes:
        out.append(desc(pid, kind, name, argtypes))
        if argnames:
            out.append(names(pid, argnames))
        if keep_types and (ret != RET_RAW or bools):
            out.append(types(pid, ret, bools))
    recs = [
        # int -2 in eax only (the register's upper half 0), then all of it
        (1, [0xffffffff_ffffff9c, 0x7ffd0000], dict(retval=0xfffffffe)),
        (1, [-100, 0x7ffd0000], dict(retval=-2)),
        # bool false in al under other bits, then true; a u32 enum's
        # upper register bits
        (2, [0xdeadbeef_00000002], dict(retval=0x100)),
        (2, [2], dict(retval=1)),
        # an s32 of -1 in the low half, a bool: its low byte
        (3, [0x00000000_ffffffff, 0x101], {}),
        (3, [0, 0x200], {}),
        (4, [], dict(retval=-2)),
        (5, [], dict(retval=0xfffffffe)),
    ]
    for i, (probe, args, kw) in enumerate(recs):
        kind = KPROBE if probe == 3 else KRETPROBE
        if 'retval' in kw:
            kw['latency'] = 10
            r = kw['retval']
            kw['retval'] = r - 2**64 if r >= 2**63 else r
        out.append(record(7_600_000_000 + 1000 * i, i + 1, probe, kind, 0,
                          700 + i % 2, 700, 'typed', 0xffffffff81100000,
                          args, **kw))
    with open(path, 'wb') as f:
        f.write(b''.join(out))


# The kallsyms of tests/cli/stack.sh (RAWPROBE_KALLSYMS)
STACK_KALLSYMS = """\
ffffffff81000000 T _stext
ffffffff81000100 T entry_SYSCALL_64_after_hwframe
ffffffff81000400 T do_syscall_64
ffffffff81100000 T vfs_read
ffffffff81100200 T vfs_write
ffffffff81100300 T kernel_read
ffffffff81100400 T ksys_read
ffffffff81100500 T __x64_sys_read
ffffffff81100800 t do_sys_openat2
ffffffff81200000 D some_data
ffffffffc0001000 t ext4_file_read_iter\t[ext4]
"""
VFS_READ, KSYS_READ, SYS_READ = 0xffffffff81100000, 0xffffffff81100400, \
    0xffffffff81100500
DO_SYSCALL, ENTRY = 0xffffffff81000400, 0xffffffff81000100
KERNEL_READ, EXT4_READ = 0xffffffff81100300, 0xffffffffc0001000
NOWHERE = 0xffffffffc0100000    # past the last function: no name
READ_STACK = [KSYS_READ + 0x6b, SYS_READ + 0x19, DO_SYSCALL + 0x38,
              ENTRY + 0x76]


def stacks(path, ksyms=None):
    out = [b'RPCAP001',
           desc(1, KPROBE, 'kprobe:vfs_read', []),
           desc(2, KRETPROBE, 'kretprobe:vfs_read', []),
           desc(3, KPROBE, 'kprobe:vfs_write', []),
           desc(4, JPROBE, 'jprobe:do_sys_openat2', [S32, U32])]
    recs = [
        (1, KPROBE, 'dd', VFS_READ, dict(stack=READ_STACK)),
        # another call site in ksys_read: one stack by name
        (1, KPROBE, 'dd', VFS_READ,
         dict(stack=[KSYS_READ + 0x80] + READ_STACK[1:])),
        (1, KPROBE, 'cat', VFS_READ,
         dict(stack=[KERNEL_READ + 0x52, EXT4_READ + 0x10, NOWHERE,
                     DO_SYSCALL + 0x38])),
        (2, KRETPROBE, 'dd', VFS_READ,
         dict(stack=READ_STACK, retval=1, latency=1500)),
        (3, KPROBE, 'cat', 0xffffffff81100200, {}),
        (1, KPROBE, 'a;b\x1b', VFS_READ, dict(stack=READ_STACK[:1])),
        (1, KPROBE, 'dd', VFS_READ, dict(stack=[])),
        (4, JPROBE, 'cat', 0xffffffff81100800,
         dict(args=[-100, 0x8000], stack=[DO_SYSCALL + 0x38])),
        (1, KPROBE, 'deep', VFS_READ,
         dict(stack=[DO_SYSCALL + i for i in range(1, 17)])),
    ]
    for i, (probe, kind, comm, addr, kw) in enumerate(recs):
        out.append(record(9_000_000_000 + 10_000 * (i + 1), i + 1, probe,
                          kind, i % 2, 200 + i, 200 + i, comm, addr,
                          str_arg=0xff, **kw))
    with open(path, 'wb') as f:
        f.write(b''.join(out))
    if ksyms:
        with open(ksyms, 'w') as f:
            f.write(STACK_KALLSYMS)


CTF_COMMS = [('cat', 100, 100), ('dd', 200, 199), ('kworker/0:1 x', 7, 7),
             ('with,comma"q', 300, 300), ('caf\xe9\t\x1b', 301, 301)]
CTF_STRS = ['/etc/hostname', '', 'a"b\\c\n', bytes(range(1, 128)),
            bytes(range(128, 256)), 'x' * 127]


def ctf_record(rng, ts, cpu, seq):
    comm, pid, tgid = rng.choice(CTF_COMMS)
    r = rng.randrange(9)
    if r == 0:                  # vfs_read returns: u64, ptr, u32
        return record(ts, seq, 1, KRETPROBE, cpu, pid, tgid, comm,
                      0xffffffff81100000,
                      [rng.randrange(2**64), rng.choice([0xffffffff81100200,
                                                        0xffff888000001000]),
                       rng.randrange(2**32)],
                      retval=rng.choice([0, 4096, -14, -(2**63), 2**63 - 1]),
                      latency=rng.randrange(10**7))
    if r == 1:                  # openat: s32, then the string
        s = rng.choice(CTF_STRS)
        return record(ts, seq, 2, JPROBE, cpu, pid, tgid, comm,
                      0xffffffff81100400, [-100, 0x7ffd0000 + seq], s=s,
                      str_arg=1, extra=F_TRUNC if len(s) == 127 else 0)
    if r == 2:                  # openat whose string faulted (its pointer too)
        return record(ts, seq, 2, JPROBE, cpu, pid, tgid, comm,
                      0xffffffff81100400, [-100, 0x10], str_arg=1,
                      extra=F_FAULT, faults=2 if seq % 3 == 0 else 0)
    if r == 3:                  # a raw address: no arguments
        return record(ts, seq, 3, KPROBE, cpu, pid, tgid, comm,
                      0xffffffff81100010)
    if r == 4:                  # s64, s32, u64 and a string of its own
        return record(ts, seq, 4, KPROBE, cpu, pid, tgid, comm,  # field
                      0xffffffff81100500, [-(2**63), -1, 2**64 - 1],
                      s=rng.choice(CTF_STRS), str_arg=0xff,  # fetches
                      faults=5 if seq % 5 == 0 else 0)       # faulted
    if r == 5:                  # a custom probe: a fault of no argument
        return record(ts, seq, 5, 4, cpu, pid, tgid, comm,
                      0xffffffff81100600, [rng.randrange(2**64), 0],
                      str_arg=0xff, extra=F_FAULT)
    if r == 6:                  # the same probe, another shape
        return record(ts, seq, 5, 4, cpu, pid, tgid, comm,
                      0xffffffff81100600, s='own', retval=-1, latency=5)
    if r == 7:                  # several strings: a tty's name, the buffer
        name = rng.choice(['pts0', '', 'ptm1'])
        buf = as_bytes(rng.choice(CTF_STRS))[:100]
        return record(ts, seq, 7, KPROBE, cpu, pid, tgid, comm,
                      0xffffffff81100900, [0xffff888000002000, 0x7ffd0000, 5],
                      strs=[(0, F_STR, as_bytes(name)),
                            (1, F_STR | (F_TRUNC if len(buf) == 100 else 0),
                             buf)] if seq % 7 else
                      [(0, F_STR, b'pts0'), (1, F_FAULT, b'')])
    return record(ts, seq, 6, KPROBE, cpu, pid, tgid, comm,  # gone probe
                  0xffffffff81100700, [1, 2])


def ctf(path, cpus=4):
    rng = random.Random(17)
    out = [b'RPCAP001',
           desc(1, KRETPROBE, 'kretprobe:vfs_read', [U64, PTR, U32]),
           desc(2, JPROBE, 'jprobe:do_sys_openat2', [S32, USTR]),
           desc(3, KPROBE, 'kprobe:0xffffffff81100010', [], is_addr=1),
           desc(4, KPROBE, 'kprobe:do_work', [S64, S32, U64]),
           desc(5, 4, 'custom:say "hi" \\ \x1b[0m', [U64, KSTR]),
           desc(7, KPROBE, 'kprobe:pty_write', [KSTR, KSTR, U64])]
    recs, seqs, ts = [], [0] * cpus, 7_000_000_000
    for i in range(4000):
        ts += rng.choice([0, 0, 1, 999, 12345])  # some at the same time
        cpu = rng.randrange(cpus)
        seqs[cpu] += 1
        recs.append((ts, cpu, seqs[cpu]))
    recs.sort()                 # as the stream merges: (ts, cpu, seq)
    out += [ctf_record(rng, *r) for r in recs]
    with open(path, 'wb') as f:
        f.write(b''.join(out))


BENCH_TEXT = 0xffffffff81000000
BENCH_SYMS = 120000             # about a distribution kernel's kallsyms
BENCH_COMMS = [('getpgid_loop', 500), ('', 1), ('kworker/1:2H-kb', 77),
               ('sh "quoted"\\', 901), ('tab\tand\x01ctl', 902),
               ('caf\xe9', 903)]


def bench_kallsyms(path):
    with open(path, 'w') as f:
        for i in range(BENCH_SYMS):
            f.write('%x t bench_fn_%d\n' % (BENCH_TEXT + i * 0x100, i))
        f.write('%x T __x64_sys_getpgid\n' % (BENCH_TEXT + BENCH_SYMS * 0x100))


def bench_record(rng, ts, seq, cpu):
    comm, pid = rng.choice(BENCH_COMMS) if rng.random() < 0.1 \
        else BENCH_COMMS[0]
    sysaddr = BENCH_TEXT + BENCH_SYMS * 0x100
    r = rng.random()
    if r < 0.55:                # the getpgid loop: no arguments
        return record(ts, seq, 1, KPROBE, cpu, pid, pid, comm, sysaddr)
    if r < 0.85:                # vfs_read returns, typed arguments
        ret = rng.choice([0, 4096, -14, -(2**63), 2**63 - 1])
        return record(ts, seq, 2, KRETPROBE, cpu, pid, pid, comm,
                      BENCH_TEXT + 0x1230,
                      [rng.randrange(2**64), BENCH_TEXT + rng.randrange(2**20),
                       rng.randrange(1 << 17)],
                      retval=ret, latency=rng.randrange(10**7))
    if r < 0.97:                # openat with a path
        path = rng.choice(['/etc/hostname', '', 'a"b\\c\n', 'x' * 127])
        return record(ts, seq, 3, JPROBE, cpu, pid, pid, comm,
                      BENCH_TEXT + 0x4560, [-100, 0x7ffd0000 + seq], s=path,
                      str_arg=1, extra=F_TRUNC if len(path) == 127 else 0)
    own, fault = r < 0.98, r >= 0.99    # a string of its own, a fault
    return record(ts, seq, 4, KPROBE, cpu, pid, pid, comm,      # raw address
                  BENCH_TEXT + 0x7890, [2**64 - 1, 0, 1, 2, 3, 4],
                  s='own' if own else None, str_arg=2 if fault else 0xff,
                  extra=F_FAULT if fault else 0)


def bench(n, path, ksyms=None):
    rng = random.Random(1)
    out = [b'RPCAP001',
           desc(1, KPROBE, 'kprobe:__x64_sys_getpgid', []),
           desc(2, KRETPROBE, 'kretprobe:bench_fn_18', [U64, PTR, U32]),
           desc(3, JPROBE, 'jprobe:bench_fn_69', [S32, USTR]),
           desc(4, KPROBE, 'kprobe:0xffffffff81007890', [S64] * 6,
                is_addr=1)]
    ts, seqs = 12_345_000_000_000, [0, 0, 0, 0]
    with open(path, 'wb') as f:
        f.write(b''.join(out))
        out = []
        for i in range(n):
            ts += rng.randrange(1, 2000)
            cpu = rng.randrange(4)
            seqs[cpu] += 1 + (rng.random() < 0.001)     # a gap now and then
            out.append(bench_record(rng, ts, seqs[cpu], cpu))
            if len(out) == 65536:
                f.write(b''.join(out))
                out = []
        f.write(b''.join(out))
    if ksyms:
        bench_kallsyms(ksyms)


if __name__ == '__main__':
    if sys.argv[1] == '--bench':
        bench(int(sys.argv[2]), *sys.argv[3:5])
    elif sys.argv[1] == '--ctf':
        ctf(sys.argv[2], *map(int, sys.argv[3:4]))
    elif sys.argv[1] == '--escapes':
        escapes(sys.argv[2])
    elif sys.argv[1] == '--names':
        named(sys.argv[2])
    elif sys.argv[1] == '--aliases':
        aliased(sys.argv[2])
    elif sys.argv[1] == '--pairs':
        pairs(sys.argv[2])
    elif sys.argv[1] == '--fetch':
        fetched(sys.argv[2])
    elif sys.argv[1] == '--returns':
        returns(sys.argv[2])
    elif sys.argv[1] == '--typed':
        typed(sys.argv[2], sys.argv[3:4] != ['--no-types'])
    elif sys.argv[1] == '--stack':
        stacks(*sys.argv[2:4])
    else:
        main(sys.argv[1])
