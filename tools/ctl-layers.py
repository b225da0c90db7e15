#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rawprobectl's source, by role: check that calls go one way.

Compiles each userctl/ source to an object, maps every undefined symbol
to the file that defines it (nm), and checks:
  - the roles' order: main.c uses commands (cmd/), which use output
    (out/), which prints what resolution (resolve/) made, which uses the
    library (lib/); a file uses its own folder or one below it, never
    one above;
  - commands own only their command: a file of cmd/ uses no other file
    of cmd/ (what commands share is output's or the library's), and
    includes no cmd/ header but its own and cmd/cmd.h, the commands'
    table that main.c dispatches;
  - no circle between files, within a folder too;
  - headers the same way: a file includes headers of its own folder or
    of one below it.
Prints each violation and the totals line; exit 1 if any.

    tools/ctl-layers.py [CC [CFLAGS...]]
"""
import glob, os, re, subprocess, sys, tempfile

RANK = {'lib': 0, 'resolve': 1, 'out': 2, 'cmd': 3, '.': 4}
here = os.path.dirname(os.path.abspath(__file__))
ctl = os.path.join(os.path.dirname(here), 'userctl')


def role(f):
    d = os.path.dirname(f)
    return d if d else '.'


def allowed(a, b):
    """May file a (in its role) use file b?"""
    ra, rb = role(a), role(b)
    if ra == rb:
        return True
    return RANK[rb] < RANK[ra]


def sibling(a, b):
    """Is b another command's file, which command file a may not use?"""
    if role(a) != 'cmd' or role(b) != 'cmd' or b == 'cmd/cmd.h':
        return False
    return (os.path.splitext(os.path.basename(a))[0] !=
            os.path.splitext(os.path.basename(b))[0])


def symbols(cc, cflags, src, tmp):
    obj = os.path.join(tmp, src.replace('/', '_') + '.o')
    subprocess.run([cc, *cflags, '-c', '-o', obj, os.path.join(ctl, src)],
                   check=True)
    out = subprocess.run(['nm', obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undef = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            undef.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBR':
            defined.add(parts[2])
    return defined, undef


def cycles(uses):
    """Every file on a circle, by Tarjan's strongly connected components."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in uses.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(uses):
        if v not in index:
            visit(v)
    return out


def main():
    cc = sys.argv[1] if len(sys.argv) > 1 else 'cc'
    cflags = sys.argv[2:] or [
        '-std=gnu11', '-Werror=implicit-function-declaration', '-I' + ctl,
        '-I' + os.path.join(os.path.dirname(here), 'uapi'),
        *subprocess.run(['pkg-config', '--cflags', 'libnl-genl-3.0', 'libbpf'],
                        capture_output=True, text=True).stdout.split()]
    srcs = sorted(os.path.relpath(p, ctl) for p in
                  glob.glob(os.path.join(ctl, '*.c')) +
                  glob.glob(os.path.join(ctl, '*', '*.c')))
    defs, undefs = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for s in srcs:
            d, u = symbols(cc, cflags, s, tmp)
            undefs[s] = u
            for name in d:
                defs[name] = s
    uses, bad = {}, []
    for s in srcs:
        for name in sorted(undefs[s]):
            t = defs.get(name)
            if not t or t == s:
                continue
            uses.setdefault(s, {}).setdefault(t, []).append(name)
    for s in srcs:
        for t, names in sorted(uses.get(s, {}).items()):
            if not allowed(s, t):
                bad.append('%s uses %s (%s): %s is above or beside it'
                           % (s, t, ', '.join(names[:4]), role(t)))
            elif sibling(s, t):
                bad.append('%s uses %s (%s): a command calls no other '
                           'command; what they share goes to out/ or lib/'
                           % (s, t, ', '.join(names[:4])))
    for f in sorted(glob.glob(os.path.join(ctl, '*.[ch]')) +
                    glob.glob(os.path.join(ctl, '*', '*.[ch]'))):
        rel = os.path.relpath(f, ctl)
        for line in open(f):
            m = re.match(r'#include "([a-z]+/[a-z_]+\.h)"', line)
            if m and not allowed(rel, m.group(1)):
                bad.append('%s includes %s: %s is above or beside it'
                           % (rel, m.group(1), role(m.group(1))))
            elif m and sibling(rel, m.group(1)):
                bad.append('%s includes %s: another command\'s header'
                           % (rel, m.group(1)))
    for comp in cycles({s: set(t) for s, t in uses.items()}):
        bad.append('a circle: ' + ' <-> '.join(comp))
    for b in bad:
        print('not ok - ' + b)
    print('%d passed, %d failed' % (len(srcs) if not bad else 0, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
