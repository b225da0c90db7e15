#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check uapi/rawprobe.yaml, the YNL spec of the "rawprobe" family.

  tests/ynl/check-spec.py [--spec F] [--header F] [--genl F...] [--cache DIR]

1. schema: the spec is valid against the kernel's own schema (the one its
   "protocol" names, from Debian's linux-source-6.12), that schema is the
   strictest one it fits, and cli.py's spec loader accepts it.
2. header: the kernel's generator (tools/net/ynl/ynl-gen-c.py) renders the
   spec into a uAPI header; gcc compiles that header and uapi/rawprobe.h and
   prints every name's value. Names and values must agree both ways:
   everything the spec defines, and everything section 3 of the header
   defines or names (the netlink part; the ring and record parts are not
   netlink).
3. policy: the generator's per-operation policies, compiled with the same
   stubs as the family's, must match the family's field by field; so must
   the operations table, the family and the multicast group; every
   attribute the family puts in a message must be in a reply or event of
   the same type. "genl.c" below is the family's files, read as one text:
   kmod/genl.c (the family, its operations table and multicast group) and
   the files of its handlers and their policies, kmod/genl_*.c.
4. cli: cli.py's codec (lib/ynl.py) encodes and decodes with the spec, and
   the bytes carry the header's numbers.
5. self-test: mutated copies of the spec, the header and the family's
   files must fail, so that a pass means something.

Output: TAP-style "ok - ..." / "not ok - ..." lines, "# ..." details, and
"N passed, N failed" last; the exit status is 1 if anything failed.

The kernel files come from /usr/src/linux-source-6.12.tar.xz: only
Documentation/netlink/ and tools/net/ynl/ are extracted, into build/ynl/
(tests/ynl/ynl-in-guest.sh runs that cli.py later in the guest).
"""
import argparse
import contextlib
import copy
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml
import jsonschema

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARBALL = os.environ.get('LINUX_SOURCE_TARBALL', '/usr/src/linux-source-6.12.tar.xz')
# What this script and ynl-in-guest.sh use from the kernel tree.
NEEDED = ('Documentation/netlink/genetlink-c.yaml',
          'tools/net/ynl/cli.py', 'tools/net/ynl/ynl-gen-c.py',
          'tools/net/ynl/lib/ynl.py')
SCHEMAS = ('genetlink', 'genetlink-c', 'genetlink-legacy')  # strictest first
BANNER = '3. Generic netlink family'	# where the header's netlink part starts

passed = failed = 0


def report(ok, name, details=(), notes=()):
    global passed, failed
    print(('ok' if ok else 'not ok') + ' - ' + name)
    for line in list(details)[:40]:
        print('#   ' + line)
    for line in notes:
        print('#   note: ' + line)
    if ok:
        passed += 1
    else:
        failed += 1


class Setup(Exception):
    pass


# --- the kernel tree -------------------------------------------------------

def kernel_tree(cache):
    """A tree with NEEDED: YNL_KSRC, an unpacked linux-source, or the cache."""
    for tree in (os.environ.get('YNL_KSRC'), TARBALL[:-len('.tar.xz')], cache):
        if tree and all(os.path.exists(os.path.join(tree, f)) for f in NEEDED):
            stamp = os.path.join(tree, '.source')
            if tree != cache or not os.path.exists(TARBALL):
                return tree
            # re-extract when the package brought a newer tarball
            with contextlib.suppress(OSError):
                if open(stamp).read() == source_id():
                    return tree
    if not os.path.exists(TARBALL):
        raise Setup(f'no {TARBALL}: apt-get install linux-source-6.12 '
                    '(tools/deps.sh --debug-kernel), or set YNL_KSRC')
    top = os.path.basename(TARBALL)[:-len('.tar.xz')]
    tmp = cache + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    print(f'# extracting Documentation/netlink and tools/net/ynl from {TARBALL}')
    subprocess.run(['tar', '-C', tmp, '--strip-components=1', '-xJf', TARBALL,
                    f'{top}/Documentation/netlink', f'{top}/tools/net/ynl'],
                   check=True)
    with open(os.path.join(tmp, '.source'), 'w') as f:
        f.write(source_id())
    shutil.rmtree(cache, ignore_errors=True)
    os.rename(tmp, cache)	# whole or not at all: no half cache
    return cache


def source_id():
    st = os.stat(TARBALL)
    return f'{TARBALL} {st.st_size} {int(st.st_mtime)}\n'


def load_generator(tree):
    """tools/net/ynl/ynl-gen-c.py as a module (its main() is not used)."""
    ynl_dir = os.path.join(tree, 'tools/net/ynl')
    if ynl_dir not in sys.path:
        sys.path.insert(0, ynl_dir)
    spec = importlib.util.spec_from_file_location(
        'ynl_gen_c', os.path.join(ynl_dir, 'ynl-gen-c.py'))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)

    # 6.12's generator cannot render two policies the schema allows and
    # the spec uses; render them as later kernels do (and as genl.c has
    # them): NLA_POLICY_MAX_LEN and NLA_POLICY_NESTED_ARRAY.
    binary_policy = gen.TypeBinary._attr_policy

    def binary_max_len(self, policy):
        if set(self.checks) == {'max-len'}:
            return f"NLA_POLICY_MAX_LEN({self.get_limit_str('max-len')})"
        return binary_policy(self, policy)

    def array_nest(self, policy):
        if self.attr.get('sub-type') == 'nest':
            return f'NLA_POLICY_NESTED_ARRAY({self.nested_render_name}_nl_policy)'
        return gen.Type._attr_policy(self, policy)

    gen.TypeBinary._attr_policy = binary_max_len
    gen.TypeArrayNest._attr_policy = array_nest
    return gen


class Ctx:
    """Paths, the generator and a scratch directory laid out as the kernel's
    (specs/NAME.yaml next to the schemas), so that the generator and
    cli.py's loader find the schema the way they do in a kernel tree."""

    def __init__(self, tree, scratch):
        self.tree = tree
        self.schema_dir = os.path.join(tree, 'Documentation/netlink')
        self.scratch = scratch
        self.gen = load_generator(tree)
        os.makedirs(os.path.join(scratch, 'specs'))
        for s in SCHEMAS + ('netlink-raw',):
            src = os.path.join(self.schema_dir, s + '.yaml')
            if os.path.exists(src):
                os.symlink(src, os.path.join(scratch, s + '.yaml'))
        self.n = 0

    def tmp(self, name):
        self.n += 1
        return os.path.join(self.scratch, f'{self.n}-{name}')

    def spec_file(self, spec_text):
        path = os.path.join(self.scratch, 'specs', f'rawprobe-{self.n}.yaml')
        self.n += 1
        with open(path, 'w') as f:
            f.write(spec_text)
        return path

    def family(self, spec_path):
        return self.gen.Family(spec_path, [])

    def render(self, fam, *parts):
        """Run the generator's renderers on fam; their output as text."""
        out = self.tmp('gen.c')
        cw = self.gen.CodeWriter(self.gen.BaseNlLib(), out)
        for part in parts:
            part(fam, cw)
        cw.close_out_file()
        return open(out).read()


def dump_spec(spec):
    """A spec dict as a file the loaders take (SPDX on the first line)."""
    return ('# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note\n' +
            yaml.safe_dump(spec, sort_keys=False))


# --- 1. schema -------------------------------------------------------------

def schema_errors(ctx, spec, schema_name):
    with open(os.path.join(ctx.schema_dir, schema_name + '.yaml')) as f:
        schema = yaml.safe_load(f)
    # the kernel's schemas say draft-07 in a spelling jsonschema does not know
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    errs = sorted(cls(schema).iter_errors(spec), key=lambda e: list(e.path))
    return ['/'.join(str(p) for p in e.path) + ': ' + e.message for e in errs]


def check_schema(ctx, spec, spec_path):
    proto = spec.get('protocol', 'genetlink')
    errs = schema_errors(ctx, spec, proto)
    report(not errs, f'schema: valid against Documentation/netlink/{proto}.yaml', errs)

    # The strictest schema that fits must be the one declared.
    fits = []
    for s in SCHEMAS:
        probe = copy.deepcopy(spec)
        probe['protocol'] = s
        if not schema_errors(ctx, probe, s):
            fits.append(s)
    ok = bool(fits) and fits[0] == proto
    report(ok, f'schema: {proto} is the strictest schema that fits',
           [f'fits: {", ".join(fits) or "none"}; declared: {proto}'] if not ok else [])

    try:
        from lib import SpecFamily	# cli.py's own loader
        SpecFamily(spec_path, os.path.join(ctx.schema_dir, proto + '.yaml'))
        report(True, "schema: cli.py's loader (lib/nlspec.py) takes the spec")
    except Exception as e:	# noqa: BLE001 - any failure is the finding
        report(False, "schema: cli.py's loader (lib/nlspec.py) takes the spec",
               [f'{type(e).__name__}: {e}'])


# --- C values, by the compiler ---------------------------------------------

def blank_comments(text):
    """Comments become spaces (newlines kept): offsets stay valid."""
    return re.sub(r'/\*.*?\*/|//[^\n]*',
                  lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)


def c_symbols(text):
    """name -> (kind, enum tag, offset) of object-like macros with a value
    and of enum members."""
    code = blank_comments(text)
    syms = {}
    for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+\S', code, re.M):
        syms[m.group(1)] = ('define', None, m.start())
    for m in re.finditer(r'\benum\s+(\w*)\s*\{(.*?)\}', code, re.S):
        for item in m.group(2).split(','):
            mm = re.match(r'\s*([A-Za-z_]\w*)', item)
            if mm:
                syms[mm.group(1)] = ('enum', m.group(1) or None, m.start())
    return syms


def compile_run(ctx, source, what):
    src = ctx.tmp(what + '.c')
    exe = src[:-2]
    with open(src, 'w') as f:
        f.write(source)
    cc = subprocess.run(['gcc', '-std=gnu11', '-O0', '-w', '-I', os.path.join(REPO, 'uapi'),
                         '-o', exe, src], capture_output=True, text=True)
    if cc.returncode:
        raise Setup(f'gcc failed on {what}:\n' + cc.stderr[-3000:])
    return subprocess.run([exe], capture_output=True, text=True, check=True).stdout


def c_values(ctx, header_path, names):
    """name -> int or str, as gcc evaluates them after including the header."""
    lines = ['#include <stdio.h>', f'#include "{header_path}"',
             'static void p_i(const char *n, long long v) { printf("%s\\ti\\t%lld\\n", n, v); }',
             'static void p_s(const char *n, const char *v) { printf("%s\\ts\\t%s\\n", n, v); }',
             '#define P(x) _Generic((x), char *: p_s, const char *: p_s, default: p_i)(#x, (x))',
             'int main(void)', '{']
    lines += [f'\tP({n});' for n in sorted(names)]
    lines += ['\treturn 0;', '}']
    vals = {}
    for line in compile_run(ctx, '\n'.join(lines) + '\n', 'values').splitlines():
        name, kind, val = line.split('\t', 2)
        vals[name] = int(val) if kind == 'i' else val
    return vals


def header_view(ctx, header_path):
    """The header's symbols, their values, and the names in its netlink
    part: defined after the banner, members of the enums it names, and
    anything else of the header it names (bounds such as MAX_ARGS)."""
    text = open(header_path).read()
    syms = c_symbols(text)
    vals = c_values(ctx, header_path, syms)
    start = text.find(BANNER)
    if start < 0:
        raise Setup(f'{header_path}: no "{BANNER}" banner')
    part = text[start:]
    tags = {t for _, t, _ in syms.values() if t and re.search(rf'\benum\s+{t}\b', part)}
    scope = {n for n, (_, tag, off) in syms.items()
             if off > start or tag in tags or re.search(rf'\b{n}\b', part)}
    return syms, vals, scope


def spec_view(ctx, fam):
    text = ctx.render(fam, ctx.gen.render_uapi)
    path = ctx.tmp('rawprobe-from-spec.h')
    with open(path, 'w') as f:
        f.write(text)
    syms = c_symbols(text)
    return syms, c_values(ctx, path, syms)


def header_diff(ctx, fam, header_path):
    """group -> (problems, count): the spec's rendering against the header."""
    hsyms, hvals, scope = header_view(ctx, header_path)
    ssyms, svals = spec_view(ctx, fam)
    family = {fam.fam_key, fam.ver_key} | {
        ctx.gen.c_upper(g.get('c-define-name', f"{fam.ident_name}-mcgrp-{g['name']}"))
        for g in fam.mcgrps['list']}

    def group(n):
        for syms in (hsyms, ssyms):
            if n in syms and syms[n][1]:
                return 'enum ' + syms[n][1]
        return 'family name, version, multicast group' if n in family else 'constants and flags'

    out = {}

    def add(n, problem=None):
        probs, count = out.setdefault(group(n), ([], [0]))
        count[0] += 1
        if problem:
            probs.append(problem)

    for n, v in svals.items():
        if n not in hvals:
            base = re.fullmatch(r'(\w+)_MAX', n)
            if base and '__' + n in hvals and '__' + n in svals:
                continue	# render-max's extra X_MAX; the header has __X_MAX
            add(n, f'{n} = {v!r}: in the spec, not in the header')
            continue
        hk, ht, _ = hsyms[n]
        sk, st, _ = ssyms[n]
        if hvals[n] != v:
            add(n, f'{n}: header {hvals[n]!r}, spec {v!r}')
        elif ht != st and (ht or st):
            # a #define may be an unnamed enum member, never a typed one
            add(n, f'{n}: header {hk} {ht or ""}, spec {sk} {st or ""}'.replace('  ', ' '))
        else:
            add(n)
    for n in sorted(scope - set(svals)):
        add(n, f'{n} = {hvals[n]!r}: in the header, not in the spec')
    return {g: (p, c[0]) for g, (p, c) in out.items()}


def check_header(ctx, fam, header_path):
    for g, (probs, count) in sorted(header_diff(ctx, fam, header_path).items()):
        report(not probs, f'header: {g} ({count} names)', probs)


# --- 3. policies, operations, replies --------------------------------------

NLA_TYPES = ['NLA_UNSPEC', 'NLA_U8', 'NLA_U16', 'NLA_U32', 'NLA_U64', 'NLA_STRING',
             'NLA_FLAG', 'NLA_MSECS', 'NLA_NESTED', 'NLA_NESTED_ARRAY', 'NLA_NUL_STRING',
             'NLA_BINARY', 'NLA_S8', 'NLA_S16', 'NLA_S32', 'NLA_S64', 'NLA_BITFIELD32',
             'NLA_REJECT', 'NLA_BE16', 'NLA_BE32', 'NLA_SINT', 'NLA_UINT']

# Stand-ins for <net/netlink.h>: each policy macro records which check it is.
POLICY_STUBS = r'''
#include <limits.h>
#include <stdio.h>
#include "rawprobe.h"
typedef __u32 u32;
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KSYM_NAME_LEN	512			/* since 6.1 */
#define MODULE_NAME_LEN	(64 - sizeof(unsigned long))
enum { %s };
struct netlink_range_validation { unsigned long long min, max; };
struct netlink_range_validation_signed { long long min, max; };
struct nla_policy {
	int type; int v; long long min, max; unsigned long long mask; long long len;
	const struct nla_policy *nested;
	const struct netlink_range_validation *range;
};
#define NLA_POLICY_RANGE(t, a, b)	{ .type = t, .v = 'R', .min = a, .max = b }
#define NLA_POLICY_MIN(t, a)		{ .type = t, .v = 'm', .min = a }
#define NLA_POLICY_MAX(t, b)		{ .type = t, .v = 'M', .max = b }
#define NLA_POLICY_MASK(t, k)		{ .type = t, .v = 'K', .mask = k }
#define NLA_POLICY_FULL_RANGE(t, r)	{ .type = t, .v = 'F', .range = r }
#define NLA_POLICY_NESTED(p)		{ .type = NLA_NESTED, .nested = p }
#define NLA_POLICY_NESTED_ARRAY(p)	{ .type = NLA_NESTED_ARRAY, .nested = p }
#define NLA_POLICY_MAX_LEN(n)		{ .type = NLA_BINARY, .len = n }
#define NLA_POLICY_EXACT_LEN(n)		{ .type = NLA_BINARY, .v = 'E', .len = n }
''' % ', '.join(NLA_TYPES)

RE_RANGE = re.compile(r'(?:static\s+)?(?:const\s+)?struct\s+netlink_range_validation\w*'
                      r'\s+\w+\s*=\s*\{.*?\};', re.S)
# a macro that policies expand (entries shared by several policies)
RE_POLICY_MACRO = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]*((?:[^\n]*\\\n)*[^\n]*)',
                             re.M)
RE_POLICY = re.compile(r'(?:static\s+)?(?:const\s+)?struct\s+nla_policy\s+(\w+)\s*'
                       r'\[[^\]]*\]\s*=\s*\{.*?\};', re.S)
RE_OPS = re.compile(r'struct\s+genl_(?:split_)?ops\s+\w+\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};', re.S)
RE_FIELDS = re.compile(r'\.(\w+)\s*=\s*([^,\n]+?)\s*(?:,|\n|$)')


def policies(ctx, text, what):
    """The nla_policy arrays of a C text: name -> {attr index: check}."""
    code = blank_comments(text)
    names = [m.group(1) for m in RE_POLICY.finditer(code)]
    src = [POLICY_STUBS]
    src += [m.group(0) for m in RE_POLICY_MACRO.finditer(code)
            if re.search(r'\bNLA_|\.type\s*=', m.group(2))]
    src += [m.group(0) for m in RE_RANGE.finditer(code)]
    src += [m.group(0) for m in RE_POLICY.finditer(code)]
    src.append('static const struct nla_policy *all[] = { %s };' %
               ', '.join(names + ['0']))
    src.append(r'''
static int which(const struct nla_policy *p)
{
	int i;

	for (i = 0; all[i]; i++)
		if (all[i] == p)
			return i;
	return -1;
}

static void dump(int idx, const struct nla_policy *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (p[i].type || p[i].v)
			printf("%d %d %d %d %lld %lld %llu %lld %d %llu %llu\n", idx, i,
			       p[i].type, p[i].v, p[i].min, p[i].max, p[i].mask,
			       p[i].len, p[i].nested ? which(p[i].nested) : -1,
			       p[i].range ? p[i].range->min : 0,
			       p[i].range ? p[i].range->max : 0);
}

int main(void)
{''')
    src += [f'\tdump({i}, {n}, ARRAY_SIZE({n}));' for i, n in enumerate(names)]
    src.append('\treturn 0;\n}\n')
    raw = {i: {} for i in range(len(names))}
    for line in compile_run(ctx, '\n'.join(src), what).splitlines():
        idx, attr, typ, v, lo, hi, mask, ln, nested, rlo, rhi = map(int, line.split())
        raw[idx][attr] = (typ, v, lo, hi, mask, ln, nested, rlo, rhi)

    def norm(idx, seen=()):
        out = {}
        for attr, (typ, v, lo, hi, mask, ln, nested, rlo, rhi) in raw[idx].items():
            e = {'type': NLA_TYPES[typ]}
            if v in (ord('R'), ord('F')):
                e['range'] = (lo, hi) if v == ord('R') else (rlo, rhi)
            elif v == ord('m'):
                e['min'] = lo
            elif v == ord('M'):
                e['max'] = hi
            elif v == ord('K'):
                e['mask'] = mask
            elif v == ord('E'):
                e['exact-len'] = ln
            if ln and v != ord('E'):
                e['len'] = ln
            if nested >= 0 and nested not in seen:
                e['nested'] = norm(nested, seen + (idx,))
            out[attr] = e
        return out
    return {n: norm(i) for i, n in enumerate(names)}


def policy_diff(want, got, attr_name, where=''):
    """Problems (genl.c's policy `want` against the spec's `got`) and notes:
    genl.c may narrow a flags mask or a range per operation, YNL cannot."""
    probs, notes = [], []
    for a in sorted(set(want) | set(got)):
        name = where + attr_name(a)
        if a not in got:
            probs.append(f'{name}: in genl.c\'s policy, not in the spec\'s request')
            continue
        if a not in want:
            probs.append(f'{name}: in the spec\'s request, not in genl.c\'s policy')
            continue
        w, g = dict(want[a]), dict(got[a])
        wn, gn = w.pop('nested', None), g.pop('nested', None)
        if 'mask' in w and 'mask' in g and w['mask'] != g['mask'] and \
                not w['mask'] & ~g['mask']:
            notes.append(f'{name}: genl.c accepts mask 0x{w["mask"]:x} of the '
                         f'spec\'s 0x{g["mask"]:x} here')
            w['mask'] = g['mask']
        if 'range' in w and 'range' in g and w['range'] != g['range'] and \
                g['range'][0] <= w['range'][0] <= w['range'][1] <= g['range'][1]:
            notes.append(f'{name}: genl.c accepts {w["range"][0]}..{w["range"][1]} '
                         f'of the spec\'s {g["range"][0]}..{g["range"][1]} here')
            w['range'] = g['range']
        if w != g:
            probs.append(f'{name}: genl.c {w}, spec {g}')
        if (wn is None) != (gn is None):
            probs.append(f'{name}: nested policy in one only')
        elif wn is not None:
            p, n = policy_diff(wn, gn, attr_name, name + '.')
            probs += p
            notes += n
    return probs, notes


def ops_table(text):
    """(cmd, 'do'|'dump') -> fields of the ops entry serving it."""
    m = RE_OPS.search(blank_comments(text))
    if not m:
        raise Setup('no genl ops table found')
    table = {}
    for entry in re.findall(r'\{(.*?)\}', m.group(1), re.S):
        f = dict(RE_FIELDS.findall(entry))
        for mode, cb in (('do', 'doit'), ('dump', 'dumpit')):
            if cb in f:
                table[(f['cmd'], mode)] = f
    return table


def render_policies(fam, cw, gen):
    """The kernel source parts of `ynl-gen-c.py --mode kernel --source`."""
    gen.print_kernel_policy_ranges(fam, cw)
    for _, struct in sorted(fam.pure_nested_structs.items()):
        if struct.request:
            gen.print_req_policy(cw, struct)
    for _, op in fam.ops.items():
        for mode in ('do', 'dump'):
            if mode in op and 'request' in op[mode]:
                ri = gen.RenderInfo(cw, fam, 'kernel', op, mode)
                gen.print_req_policy(cw, ri.struct['request'], ri=ri)
    gen.print_kernel_op_table(fam, cw)


def policy_problems(ctx, fam, genl_text, hvals):
    """test name -> (problems, notes), genl.c against the spec."""
    gen_text = ctx.render(fam, lambda f, cw: render_policies(f, cw, ctx.gen))
    kpol = policies(ctx, genl_text, 'genl-policies')
    spol = policies(ctx, gen_text, 'spec-policies')
    kops, sops = ops_table(genl_text), ops_table(gen_text)
    by_val = {a.value: a.name for a in next(iter(fam.ops.values())).attr_set.attrs.values()}
    attr_name = lambda v: by_val.get(v, f'attribute {v}')	# noqa: E731
    out = {}

    # the table: same commands, modes and dump start hook
    probs = []
    for key in sorted(set(kops) | set(sops)):
        cmd, mode = key
        if key not in sops:
            probs.append(f'{cmd} {mode}: in genl.c, not in the spec')
        elif key not in kops:
            probs.append(f'{cmd} {mode}: in the spec, not in genl.c')
        elif mode == 'dump' and kops[key].get('start') != sops[key].get('start'):
            probs.append(f'{cmd} {mode}: start {kops[key].get("start")} in genl.c, '
                         f'{sops[key].get("start")} in the spec (dump pre)')
        elif ('GENL_ADMIN_PERM' in kops[key].get('flags', '')) != \
                ('GENL_ADMIN_PERM' in sops[key].get('flags', '')):
            probs.append(f'{cmd} {mode}: GENL_ADMIN_PERM in one only (admin-perm)')
    out['policy: operations table (commands, do/dump, dump start)'] = (probs, [])

    for key in sorted(set(kops) & set(sops)):
        cmd, mode = key
        op = next(o for o in fam.ops.values() if o.enum_name == cmd)
        want = kpol.get(kops[key].get('policy'), {})
        got = spol.get(sops[key].get('policy'), {})	# no request: no attributes
        if kops[key].get('policy') and kops[key]['policy'] not in kpol:
            out[f'policy: {op.name} {mode}'] = ([f'policy {kops[key]["policy"]} not found'], [])
            continue
        out[f'policy: {op.name} {mode}'] = policy_diff(want, got, attr_name)

    # the family and its multicast group
    code = blank_comments(genl_text)
    probs, notes = [], []
    fm = re.search(r'struct\s+genl_family\s+\w+[^=;]*=\s*\{(.*?)\};', code, re.S)
    ff = dict(RE_FIELDS.findall(fm.group(1))) if fm else {}
    if ff.get('name') != fam.fam_key:
        probs.append(f'family name: genl.c {ff.get("name")}, spec {fam.fam_key}')
    if ff.get('version') != fam.ver_key:
        probs.append(f'family version: genl.c {ff.get("version")}, spec {fam.ver_key}')
    gm = re.search(r'struct\s+genl_multicast_group\s+\w+\s*\[\]\s*=\s*\{(.*?)\n\};', code, re.S)
    kgroups = {}
    for entry in re.findall(r'\{(.*?)\}', gm.group(1) if gm else '', re.S):
        f = dict(RE_FIELDS.findall(entry))
        name = f.get('name', '').strip()
        kgroups[hvals.get(name, name.strip('"'))] = f.get('flags', '')
    sgroups = {g['name'] for g in fam.mcgrps['list']}
    if set(kgroups) != sgroups:
        probs.append(f'multicast groups: genl.c {sorted(kgroups)}, spec {sorted(sgroups)}')
    for g, flags in kgroups.items():
        if flags:
            notes.append(f'group "{g}" needs {flags}: a 6.12 spec cannot say so')
    out['policy: family name, version and multicast group'] = (probs, notes)

    out['replies: genl.c puts each attribute with the spec\'s type'] = \
        put_problems(fam, code)
    return out


PUT_TYPES = {'u8': {'u8'}, 'u16': {'u16'}, 'u32': {'u32'}, 'u64_64bit': {'u64'},
             's32': {'s32'}, 's64_64bit': {'s64'}, 's64': {'s64'},
             'string': {'string'},
             'flag': {'flag'}, '': {'binary'}, 'nest': {'nest', 'indexed-array'}}


def put_problems(fam, code):
    """Every attribute genl.c writes is in some reply or event, with the
    type it is written as (and a pad attribute for 64-bit values); every
    attribute of a reply or event is written somewhere."""
    by_c = {}
    for s in fam.attr_sets.values():
        if not s.subset_of:
            for a in s.attrs.values():
                by_c[a.enum_name] = (s, a)
    shown = set()
    for op in fam.msgs.values():
        for mode in ('do', 'dump'):
            shown |= set(op.get(mode, {}).get('reply', {}).get('attributes', []))
        shown |= set(op.get('event', {}).get('attributes', []))
    top = next(iter(fam.ops.values())).attr_set
    for s in fam.attr_sets.values():	# a nest in a reply shows all of its set
        if not s.subset_of and s is not top and any(
                a['type'] == 'nest' and a.name in shown and
                a['nested-attributes'] == s.name for a in top.attrs.values()):
            shown |= {f'{s.name}.{a}' for a in s.attrs}
    for s in fam.attr_sets.values():	# a subset nested in a reply: its own
        if s.subset_of and any(
                a['type'] == 'nest' and a.name in shown and
                a['nested-attributes'] == s.name for a in top.attrs.values()):
            shown |= set(s.attrs)
    probs, written = [], set()
    # nla_put*(skb, ATTR, args), nla_reserve(skb, ATTR, len) (binary) and
    # nla_nest_start(skb, ATTR); args may hold two levels of parentheses
    puts = re.finditer(r'\bnla_(?:put(?:_(\w+?))?|reserve|nest_start(?:_noflag)?)\s*\(\s*[^,()]+,\s*'
                       r'(RAWPROBE_\w+)\s*([^()]*(?:\((?:[^()]|\([^()]*\))*\)[^()]*)*)\)', code)
    for m in puts:
        how = m.group(1) or ''
        if m.group(0).startswith('nla_nest_start'):
            how = 'nest'
        cname = m.group(2)
        if cname not in by_c:
            probs.append(f'{cname}: written by genl.c, no such attribute in the spec')
            continue
        s, a = by_c[cname]
        key = a.name if s is top else f'{s.name}.{a.name}'
        written.add(key)
        if a['type'] not in PUT_TYPES.get(how, set()):
            probs.append(f'{key}: nla_put_{how or "(binary)"} in genl.c, {a["type"]} in the spec')
        if key not in shown:
            probs.append(f'{key}: written by genl.c, in no reply or event of the spec')
        if how.endswith('_64bit') or how == 's64':	# nla_put_s64 pads too
            pad = m.group(3).split(',')[-1].strip()
            if pad not in by_c or by_c[pad][1]['type'] != 'pad' or by_c[pad][0] is not s:
                probs.append(f'{key}: padded with {pad}, not a pad attribute of its set')
    types = {(a.name if s is top else f'{s.name}.{a.name}'): a['type']
             for s, a in by_c.values()}
    for key in sorted(k for k in shown - written if types.get(k) not in ('unused', 'pad')):
        probs.append(f'{key}: in a reply or event of the spec, never written by genl.c')
    return probs, []


def genl_sources(paths):
    """The family's files as one text, genl.c first: the policies, the
    operations table, the family and every nla_put, wherever they are."""
    paths = sorted(paths, key=lambda p: (os.path.basename(p) != 'genl.c', p))
    if not paths:
        raise Setup('no kmod/genl*.c: nothing to read the policies from')
    return ''.join(open(p).read() + '\n' for p in paths)


def check_policies(ctx, fam, genl_text, hvals):
    for name, (probs, notes) in policy_problems(ctx, fam, genl_text,
                                                hvals).items():
        report(not probs, name, probs, notes)


# --- 4. cli.py's codec -----------------------------------------------------

def check_cli_codec(ctx, spec_path, proto, hvals):
    """Encode a probe message with lib/ynl.py as cli.py does, check its
    bytes against the header's numbers, decode it back."""
    from lib import ynl
    name = "cli: lib/ynl.py encodes and decodes a probe with the header's numbers"
    try:
        fam = ynl.YnlFamily.__new__(ynl.YnlFamily)	# no socket, no kernel
        ynl.SpecFamily.__init__(fam, spec_path,
                                os.path.join(ctx.schema_dir, proto + '.yaml'))
        fam.process_unknown = False
        fam.include_raw = False
        msg = {'probe-id': 7, 'kind': 'kretprobe', 'state': 'armed',
               'flags': ['persistent', 'syscall'], 'symbol': 'vfs_read',
               'nargs': 2, 'argtypes': bytes([0, 6]), 'maxactive': 64,
               'probed-addr': 0xffffffff81234560, 'filter-comm': 'bash',
               'stats': {'hits': 10, 'records': 8, 'lost-ring': 2, 'filtered': 3}}
        raw = b''.join(fam._add_attr('rawprobe', k, v, None) for k, v in msg.items())
        attrs = {a.type & 0x3fff: a.raw for a in ynl.NlAttrs(raw)}
        expect = {
            'RAWPROBE_A_KIND': bytes([hvals['RAWPROBE_KIND_KRETPROBE']]),
            'RAWPROBE_A_STATE': bytes([hvals['RAWPROBE_STATE_ARMED']]),
            'RAWPROBE_A_FLAGS': (hvals['RAWPROBE_F_PERSISTENT'] |
                                 hvals['RAWPROBE_F_SYSCALL']).to_bytes(4, sys.byteorder),
            'RAWPROBE_A_ARGTYPES': bytes([hvals['RAWPROBE_ARG_U64'], hvals['RAWPROBE_ARG_USTR']]),
            'RAWPROBE_A_SYMBOL': b'vfs_read\0',
        }
        probs = [f'{c}: {attrs.get(hvals[c])!r}, expected {b!r}'
                 for c, b in expect.items() if attrs.get(hvals[c]) != b]
        stats = {a.type: a.raw for a in ynl.NlAttrs(attrs.get(hvals['RAWPROBE_A_STATS'], b''))}
        if stats.get(hvals['RAWPROBE_STAT_LOST_RING']) != (2).to_bytes(8, sys.byteorder):
            probs.append('RAWPROBE_STAT_LOST_RING not where the header puts it')
        back = fam._decode(ynl.NlAttrs(raw), 'rawprobe')
        want = dict(msg, flags={'persistent', 'syscall'}, argtypes=[0, 6],
                    **{'probed-addr': hex(msg['probed-addr'])})
        if back != want:
            probs.append(f'decoded {back}')
        report(not probs, name, probs)
    except Exception as e:	# noqa: BLE001
        report(False, name, [f'{type(e).__name__}: {e}'])


# --- 5. self-tests ---------------------------------------------------------

def self_tests(ctx, spec, header_path, genl_text):
    def spec_family(mutate):
        s = copy.deepcopy(spec)
        mutate(s)
        return s, ctx.family(ctx.spec_file(dump_spec(s)))

    def has_problems(diff):
        return any(p for p, _ in diff.values())

    # a. two attributes swapped: every value after them moves
    def swap(s):
        attrs = s['attribute-sets'][0]['attributes']
        i = next(i for i, a in enumerate(attrs) if a['name'] == 'offset')
        attrs[i], attrs[i + 1] = attrs[i + 1], attrs[i]
    _, fam = spec_family(swap)
    report(has_problems(header_diff(ctx, fam, header_path)),
           'self-test: a spec with two attributes swapped fails the header check')

    # b. the multicast group renamed
    _, fam = spec_family(lambda s: s['mcast-groups']['list'][0].update(name='event'))
    report(has_problems(header_diff(ctx, fam, header_path)),
           'self-test: a spec with the group renamed fails the header check')

    # c. the header gains an attribute the spec lacks
    text = open(header_path).read()
    hdr = ctx.tmp('rawprobe.h')
    with open(hdr, 'w') as f:
        f.write(text.replace('\t__RAWPROBE_A_MAX,', '\tRAWPROBE_A_NEW_THING,\n\t__RAWPROBE_A_MAX,'))
    fam = ctx.family(ctx.spec_file(dump_spec(spec)))
    report(text != open(hdr).read() and has_problems(header_diff(ctx, fam, hdr)),
           'self-test: a header with a new attribute fails the header check')

    # d. a bound the kernel does not have
    def longer_symbol(s):
        for a in s['attribute-sets'][0]['attributes']:
            if a['name'] == 'symbol':
                a['checks']['max-len'] = 512
    _, fam = spec_family(longer_symbol)
    hvals = header_view(ctx, header_path)[1]
    probs = policy_problems(ctx, fam, genl_text, hvals)
    report(any(p for p, _ in probs.values()),
           'self-test: a spec with symbol max-len 512 fails the policy check')

    # e. genl.c writes an attribute as another type than the spec says
    fam = ctx.family(ctx.spec_file(dump_spec(spec)))
    genl = genl_text
    bad = genl.replace('nla_put_u8(skb, RAWPROBE_A_STATE', 'nla_put_u32(skb, RAWPROBE_A_STATE')
    probs = policy_problems(ctx, fam, bad, hvals)
    report(bad != genl and any(p for p, _ in probs.values()),
           'self-test: genl.c writing state as u32 fails the reply check')

    # f. a key the schema does not know
    s = copy.deepcopy(spec)
    s['attribute-sets'][0]['attributes'][1]['max'] = 3
    report(bool(schema_errors(ctx, s, spec.get('protocol', 'genetlink'))),
           'self-test: a spec with an unknown key fails the schema')


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--spec', default=os.path.join(REPO, 'uapi/rawprobe.yaml'))
    ap.add_argument('--header', default=os.path.join(REPO, 'uapi/rawprobe.h'))
    ap.add_argument('--genl', nargs='+', metavar='F',
                    default=glob.glob(os.path.join(REPO, 'kmod/genl*.c')),
                    help="the family's files (default: kmod/genl*.c)")
    ap.add_argument('--cache', default=os.path.join(REPO, 'build/ynl'))
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix='rp-ynl.') as scratch:
        try:
            ctx = Ctx(kernel_tree(os.path.abspath(args.cache)), scratch)
            print(f'# kernel files: {ctx.tree}')
            with open(args.spec) as f:
                spec_text = f.read()
            spec = yaml.safe_load(spec_text)
            spec_path = ctx.spec_file(spec_text)
            proto = spec.get('protocol', 'genetlink')

            check_schema(ctx, spec, spec_path)
            try:
                fam = ctx.family(spec_path)
                ctx.render(fam, ctx.gen.render_uapi)
                report(True, 'generator: ynl-gen-c.py renders the spec')
            except Exception as e:	# noqa: BLE001
                report(False, 'generator: ynl-gen-c.py renders the spec',
                       [f'{type(e).__name__}: {e}'])
                raise Setup('nothing more to check without the generator')
            check_header(ctx, fam, os.path.abspath(args.header))
            hvals = header_view(ctx, os.path.abspath(args.header))[1]
            genl_text = genl_sources(args.genl)
            check_policies(ctx, fam, genl_text, hvals)
            check_cli_codec(ctx, spec_path, proto, hvals)
            self_tests(ctx, spec, os.path.abspath(args.header), genl_text)
        except (Setup, subprocess.CalledProcessError, OSError, yaml.YAMLError) as e:
            report(False, 'setup', str(e).splitlines())
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
