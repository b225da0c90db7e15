#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# 'rawprobectl btf show "struct NAME"' against pahole on the same BTF.
#   btf_pahole.py text BTFDIR [--module M] [--skip N,...] NAME...
#       each type's text, exactly as 'pahole -F btf -C NAME' prints it
#       (a union's size line aside, which pahole leaves out); NAME...
#       or "-": the names on stdin, one a line
#   btf_pahole.py json BTFDIR [--module M] NAME...
#       the numbers of 'rawprobectl -j': every member's offset, bit
#       offset and size (nested ones too, in order), each hole, the size,
#       the padding and the sums, against those parsed from pahole's text
# Prints "same: N types" or each difference; exit 0 or 1.
import json
import os
import re
import subprocess
import sys

CTL = os.environ.get('RAWPROBECTL') or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'userctl',
    'rawprobectl')
CHUNK = 400     # names per pahole run: -C takes a list, one argument


def pahole(btf, module, names):
    """pahole's text of names, one run per CHUNK names"""
    out = []
    for i in range(0, len(names), CHUNK):
        if module:
            cmd = ['pahole', '-F', 'btf', '--btf_base', os.path.join(btf, 'vmlinux'),
                   '-C', ','.join(names[i:i + CHUNK]), os.path.join(btf, module)]
        else:
            cmd = ['pahole', '-F', 'btf', '-C', ','.join(names[i:i + CHUNK]),
                   os.path.join(btf, 'vmlinux')]
        out.append(subprocess.run(cmd, capture_output=True, text=True,
                                  check=True).stdout)
    return ''.join(out)


def blocks(text):
    """A text of several types: each type's lines, by its "KIND NAME" """
    out, cur = {}, []
    for line in text.splitlines():
        if not cur and not line:
            continue        # the blank line between two of ours
        cur.append(line)
        if line.startswith('}'):
            head = cur[0].split()
            if head[0] == 'typedef':    # "typedef struct {" ... "} NAME;"
                key = 'typedef ' + re.sub(r'.*\s(\w+);$', r'\1', line)
            else:
                key = head[0] + ' ' + head[1]
            out[key] = cur
            cur = []
        elif cur[0].startswith('typedef') and cur[0].endswith(';'):
            out['typedef ' + cur[0].rstrip(';').split()[-1]] = cur
            cur = []
    return out


def ctl(btf, args, json_out=False):
    env = dict(os.environ, RAWPROBECTL_BTF=btf)
    cmd = [CTL] + (['-j'] if json_out else []) + ['btf', 'show'] + args
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode:
        sys.exit('rawprobectl failed (%d): %s' % (r.returncode, r.stderr[:500]))
    return r.stdout


def no_union_size(lines):
    """ours without the size line a union gets and pahole leaves out"""
    if (lines[0].startswith('union ') and len(lines) > 3 and
            lines[-2].startswith('\t/* size: ') and lines[-3] == ''):
        return lines[:-3] + lines[-1:]
    return lines


def text_mode(btf, module, skip, names):
    theirs = blocks(pahole(btf, module, names))
    keys = [k for k in theirs if k.split()[-1] not in skip]
    prefix = module + ':' if module else ''
    ours = blocks(ctl(btf, [k.replace(' ', ' ' + prefix, 1) for k in keys]))
    bad = 0
    for k in keys:
        if no_union_size(ours.get(k, ['(none)'])) != theirs[k]:
            bad += 1
            if bad <= int(os.environ.get("BTF_PAHOLE_SHOW", 5)):
                print('differs: %s' % k)
                mine = no_union_size(ours.get(k, ['(none)']))
                for a, b in zip(theirs[k] + [''] * 99, mine + [''] * 99):
                    if a != b:
                        print('    pahole: %r\n    ours:   %r' % (a, b))
                        break
    if len(keys) < len(names) - len(skip):
        print('pahole printed %d of %d types' % (len(keys), len(names)))
        bad += 1
    print('same: %d types' % (len(keys) - bad) if not bad else
          '%d of %d types differ' % (bad, len(keys)))
    return 1 if bad else 0


MEMBER = re.compile(r'/\*\s+(\d+)(?::\s*(\d+))?\s+(\d+)\s+\*/$')
HOLE = re.compile(r'/\* XXX (\d+) (byte|bit)s? hole, try to pack \*/')
SUM = re.compile(r'/\* (size|sum members|padding|bit_padding): (\d+)')


def parse(lines):
    """pahole's numbers: members (offset, bit offset, size) in order, with a
    nested type's after its members; holes; summary values"""
    members, holes, sums = [], [], {}
    for line in lines:
        m = MEMBER.search(line)
        if m:
            members.append((int(m.group(1)), int(m.group(2) or 0),
                            int(m.group(3)), bool(m.group(2))))
        m = HOLE.search(line)
        if m:
            holes.append((m.group(2), int(m.group(1))))
        for m in SUM.finditer(line):
            sums[m.group(1)] = int(m.group(2))
        m = re.search(r'sum holes: (\d+)', line)
        if m:
            sums['sum holes'] = int(m.group(1))
    return members, holes, sums


def flatten(ms, members, holes):
    """our JSON in pahole's order: a nested type's members, then it"""
    for m in ms:
        nested = m.get('members')
        if nested is not None:
            flatten(nested, members, holes)
        members.append((m['offset'], m.get('bit_offset', 0), m['size'],
                        'bit_size' in m))
        # a member's holes are said after it (and after a nested type)
        for h in m.get('_holes', []):
            holes.append(h)


def ours_parsed(doc):
    def mark(d):
        # which member each hole follows (None: before the first)
        for h in d.get('holes', []):
            ms = d['members']
            target = ms[h['index']] if h['index'] is not None else ms[0]
            if h.get('bits'):
                target.setdefault('_holes', []).append(('bit', h['bits']))
            if h.get('size'):
                target.setdefault('_holes', []).append(('byte', h['size']))
        for m in d.get('members', []):
            if 'members' in m:
                mark(m)
    mark(doc)
    members, holes = [], []
    flatten(doc['members'], members, holes)
    sums = {'size': doc['size']}
    if doc['kind'] == 'struct':
        sums['padding'] = doc['padding']
        sums['bit_padding'] = doc['bit_padding']
        # pahole says the sums only with holes, and each only if not 0
        if (doc['sum_holes'] or doc['sum_bit_holes']) and doc['sum_members']:
            sums['sum members'] = doc['sum_members']
        if doc['sum_holes']:
            sums['sum holes'] = doc['sum_holes']
    return members, holes, sums


def json_mode(btf, module, names):
    theirs = blocks(pahole(btf, module, names))
    prefix = module + ':' if module else ''
    bad = 0
    for k, lines in list(theirs.items()):
        if len(lines) == 1:     # "typedef struct seqcount seqcount_t;"
            del theirs[k]
            continue
        doc = json.loads(ctl(btf, [k.replace(' ', ' ' + prefix, 1)], True))
        if 'members' not in doc:    # a typedef of no struct or union
            del theirs[k]
            continue
        tm, th, ts = parse(lines)
        om, oh, os_ = ours_parsed(doc)
        # pahole says padding only when there is some
        os_ = {s: v for s, v in os_.items() if v or not s.endswith('padding')}
        if doc['kind'] == 'union':
            ts['size'] = doc['size']    # pahole has no size line for unions
        if (tm, th, ts) != (om, oh, os_):
            bad += 1
            print('differs: %s' % k)
            for what, a, b in (('members', tm, om), ('holes', th, oh),
                               ('sums', ts, os_)):
                if a != b:
                    print('    %s: pahole %s\n    %s  ours   %s' %
                          (what, str(a)[:300], ' ' * len(what), str(b)[:300]))
    print('same numbers: %d types' % len(theirs) if not bad else
          '%d of %d types differ' % (bad, len(theirs)))
    return 1 if bad else 0


def main(argv):
    mode, btf, rest = argv[1], argv[2], argv[3:]
    module, skip = None, set()
    while rest and rest[0].startswith('--'):
        if rest[0] == '--module':
            module = rest[1]
        elif rest[0] == '--skip':
            skip = set(rest[1].split(','))
        rest = rest[2:]
    names = sys.stdin.read().split() if rest == ['-'] else rest
    if mode == 'text':
        return text_mode(btf, module, skip, names)
    return json_mode(btf, module, names)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
