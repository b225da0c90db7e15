#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Write a rawprobectl capture file (--format raw) with known records, for
# the host tests of every output format: tests/cli/mkcapture.py FILE
#
# Layout (userctl/sink.c): "RPCAP001", then items (u32 tag, u32 length,
# payload): 1 = a probe description (struct rp_probe_desc, 240 bytes),
# 2 = a record (struct rawprobe_record, 256 bytes).
import struct
import sys

KPROBE, KRETPROBE, JPROBE = 1, 2, 3
U64, S64, S32, U32, PTR, KSTR, USTR = range(7)
F_ARGS, F_RETVAL, F_STR = 1, 2, 4


def desc(pid, kind, name, types, is_addr=0):
    body = struct.pack('<IBBB6s224s3x', pid, kind, is_addr, len(types),
                       bytes(types), name.encode())
    assert len(body) == 240
    return struct.pack('<II', 1, len(body)) + body


def record(ts, seq, probe, kind, cpu, pid, tgid, comm, addr, args=(),
           retval=None, latency=0, s=None, str_arg=0):
    flags = (F_ARGS if args else 0) | (F_RETVAL if retval is not None else 0)
    flags |= F_STR if s is not None else 0
    a = [x & (2**64 - 1) for x in args] + [0] * (6 - len(args))
    sb = (s or '').encode()
    body = struct.pack('<QQIBBHII16sQ6QqQHBBI128s', ts, seq, probe, kind,
                       flags, cpu, pid, tgid, comm.encode(), addr, *a,
                       retval or 0, latency, len(sb), str_arg, len(args),
                       0, sb)
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


if __name__ == '__main__':
    main(sys.argv[1])
