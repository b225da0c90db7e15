#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# The names of the functions (BTF_KIND_FUNC) in a raw BTF file, read
# here from the format itself (no libbpf), each once, sorted: what
# 'rawprobectl btf show GLOB' is checked against.
#   btf_funcs.py FILE [BASE]    BASE: the vmlinux BTF a module's splits
import struct
import sys

# bytes after the 12-byte common part, per kind: fixed, per vlen item
EXTRA = {1: (4, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8),
         13: (0, 8), 14: (4, 0), 15: (0, 12), 17: (4, 0), 19: (0, 12)}
FUNC = 12


def sections(path):
    data = open(path, 'rb').read()
    magic, _, _, hdr_len, type_off, type_len, str_off, str_len = \
        struct.unpack_from('<HBBIIIII', data)
    assert magic == 0xeb9f, '%s: not raw BTF' % path
    types = data[hdr_len + type_off:hdr_len + type_off + type_len]
    strs = data[hdr_len + str_off:hdr_len + str_off + str_len]
    return types, strs


def main(argv):
    types, strs = sections(argv[1])
    base = len(sections(argv[2])[1]) if len(argv) > 2 else 0
    names, at = set(), 0
    while at < len(types):
        name_off, info, _ = struct.unpack_from('<III', types, at)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        fixed, per = EXTRA.get(kind, (0, 0))
        at += 12 + fixed + per * vlen
        if kind == FUNC:
            off = name_off - base     # a split BTF's strings follow its base's
            names.add(strs[off:strs.index(b'\0', off)].decode())
    print('\n'.join(sorted(names)))


if __name__ == '__main__':
    sys.exit(main(sys.argv))
