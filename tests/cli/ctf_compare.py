#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Compare what babeltrace2 reads from a --format ctf trace with what
# rawprobectl prints of the same capture, event by event and in order:
#   ctf_compare.py BT TEXT JSON
# BT: `babeltrace2 --clock-seconds DIR`; TEXT and JSON: `rawprobectl
# stream -r CAP` with -f text and -f json. Each babeltrace2 event is
# printed again as a rawprobectl text line (the same escaping, columns
# and argument formats), which must be the line text output has; the
# fields text output does not show (time in ns, sequence, process, probe
# id, kind, address and symbol, fault flags) must be the JSON record's.
# A stack (a sequence of strings in CTF) is the lines under the record's
# in text output and JSON's "stack".
# Prints "ctf ok: N events", or the first differences and exits 1.
#
# Everything is handled as bytes (latin-1 strings): babeltrace2 prints
# bytes past ASCII as they are, JSON output gives them as \u00XX each.
import json
import re
import sys

# --- babeltrace2's text sink (sink.text.pretty) ---

BT_ESC = {'\\': '\\', "'": "'", '"': '"', '?': '?', '0': '\0', 'a': '\a',
          'b': '\b', 'e': '\x1b', 'f': '\f', 'n': '\n', 'r': '\r',
          't': '\t', 'v': '\v'}


def bt_string(s, i):
    """The quoted string at s[i], unescaped; and the index past it."""
    assert s[i] == '"', s[i:]
    out, i = [], i + 1
    while s[i] != '"':
        if s[i] != '\\':
            out.append(s[i])
            i += 1
        elif s[i + 1] == 'x':
            out.append(chr(int(s[i + 2:i + 4], 16)))
            i += 4
        else:
            out.append(BT_ESC[s[i + 1]])
            i += 2
    return ''.join(out), i + 1


def bt_array(s, i):
    """[ [0] = v, [1] = w ] (or [ ]) at s[i]: a list of the values."""
    assert s.startswith('[ ', i), s[i:]
    out, i = [], i + 2
    while not s.startswith(']', i):
        m = re.compile(r'\[(\d+)\] = ').match(s, i)
        assert int(m.group(1)) == len(out), s[i:]
        v, i = bt_value(s, m.end())
        out.append(v)
        if s.startswith(', ', i):
            i += 2
        else:
            assert s.startswith(' ', i), s[i:]
            i += 1
    return out, i + 1


def bt_value(s, i):
    if s[i] == '"':
        return bt_string(s, i)
    if s[i] == '[':             # a sequence: the stack's frames
        return bt_array(s, i)
    if s[i] == '(':             # enumeration: ( "label" : container = N )
        label, i = bt_string(s, i + 2)
        m = re.compile(r' : container = (-?\d+) \)').match(s, i)
        return (label, int(m.group(1))), m.end()
    m = re.compile(r'-?(0x[0-9A-F]+|\d+)').match(s, i)
    v = m.group(0)
    return (('hex', int(v, 16)) if 'x' in v else int(v)), m.end()


def bt_struct(s, i):
    """{ key = value, ... } at s[i]: an ordered list of (key, value)."""
    assert s.startswith('{ ', i), s[i:]
    fields, i = [], i + 2
    while True:
        m = re.compile(r'(\w+) = ').match(s, i)
        v, i = bt_value(s, m.end())
        fields.append((m.group(1), v))
        if s.startswith(' }', i):
            return fields, i + 2
        assert s.startswith(', ', i), s[i:]
        i += 2


def bt_event(line):
    m = re.compile(r'\[(\d+)\.(\d{9})\] (?:\(\+[^)]*\) )?').match(line)
    i = line.index(': { cpu_id = ', m.end())
    ev = {'ts': int(m.group(1)) * 10**9 + int(m.group(2)),
          'name': line[m.end():i]}
    i += 2
    structs = []
    while i < len(line):
        st, i = bt_struct(line, i)
        structs.append(st)
        if line.startswith(', ', i):
            i += 2
    assert i == len(line), line[i:]
    ev['cpu'] = dict(structs[0])['cpu_id']
    ev['ctx'] = dict(structs[1])
    ev['fields'] = structs[2] if len(structs) > 2 else []
    return ev

# --- rawprobectl's text output (userctl/out/format.c, escape.c) ---


def utf8_len(b, i):
    """As rp_utf8_len(): a valid sequence that is no C1 control, or 0."""
    c = b[i]
    n = 2 if 0xc2 <= c <= 0xdf else 3 if 0xe0 <= c <= 0xef else \
        4 if 0xf0 <= c <= 0xf4 else 0
    try:
        u = bytes(b[i:i + n]).decode('utf-8')
    except UnicodeDecodeError:
        return 0
    return n if n and len(u) == 1 and not 0x80 <= ord(u) <= 0x9f else 0


def esc(s):
    """rp_put_escaped() of a latin-1 string of bytes."""
    b, out, i = s.encode('latin-1'), [], 0
    while i < len(b):
        c = b[i]
        if 0x20 <= c < 0x7f and c != 0x5c:
            out.append(chr(c))
            i += 1
            continue
        n = utf8_len(b, i) if c >= 0x80 else 0
        if n:
            out.append(b[i:i + n].decode('latin-1'))
            i += n
        elif c in b'\\\n\t\r':
            out.append('\\' + {0x5c: '\\', 10: 'n', 9: 't', 13: 'r'}[c])
            i += 1
        else:
            out.append('\\x%02x' % c)
            i += 1
    return ''.join(out)


def text_args(fields):
    """" (a, b)" and the string of its own, from the class's fields."""
    f, out, own = dict(fields), [], ''
    trunc = '...' if f.get('str_truncated') else ''
    for k, v in fields:
        if not re.fullmatch(r'arg\d', k):
            continue
        if f.get(k + '_fetch_fault'):   # a field fetch hit a bad pointer
            out.append('(fault)')
        elif isinstance(v, str) and k + '_truncated' in f:  # of several
            out.append('"%s"%s' % (esc(v), '...' if f[k + '_truncated']
                                   else ''))
        elif isinstance(v, str):
            out.append('"%s"%s' % (esc(v), trunc))
        elif f.get(k + '_fault'):
            out.append('<fault>')
        elif isinstance(v, tuple):
            sym = f.get(k + '_sym')
            out.append('0x%x' % v[1] + (' <%s>' % esc(sym) if sym else ''))
        else:
            out.append(str(v))
    if 'str' in f:
        own = ' "%s"%s' % (esc(f['str']), trunc)
    return (' (' + ', '.join(out) + ')' if out else '') + own


def text_line(ev):
    """The line rp_record_text() writes for the record ev came from."""
    c, f = ev['ctx'], dict(ev['fields'])
    line = '%6d.%06d %3d %7d %-16s %-24s' % (
        ev['ts'] // 10**9, ev['ts'] // 1000 % 10**6, ev['cpu'], c['pid'],
        esc(c['comm']), ev['name'])
    # raw-address probes and gone ones show the address's symbol
    if (ev['name'] == '?' or re.search(r':0x[0-9a-f]+$', ev['name'])) \
            and c['sym']:
        line += ' <%s>' % esc(c['sym'])
    line += text_args(ev['fields'])
    if 'retval' in f:
        line += ' = %d (%d ns)' % (f['retval'], f['latency_ns'])
    # the callers, one a line under the record's
    return ''.join([line] + ['\n        ' + esc(fr)
                             for fr in f.get('stack', [])])

# --- what JSON output has and text output does not ---


def json_diffs(ev, rec):
    c, f = ev['ctx'], dict(ev['fields'])
    want = {'ts_ns': ev['ts'], 'cpu': ev['cpu'], 'seq': c['seq'],
            'pid': c['pid'], 'tgid': c['tgid'], 'comm': c['comm'],
            'probe_id': c['probe_id'], 'kind': c['kind'][0],
            'addr': '0x%x' % c['addr'][1], 'sym': c['sym'] or None,
            'probe': None if ev['name'] == '?' else ev['name'],
            'str_fault': any(k.endswith('fault') and
                             not k.endswith('fetch_fault') for k in f) or None,
            'retval': f.get('retval'), 'latency_ns': f.get('latency_ns'),
            'stack': f.get('stack')}
    got = {k: rec.get(k) for k in want}
    if got['probe'] is not None:    # names are escaped in the metadata
        got['probe'] = esc(got['probe'])
    args = [(k, v) for k, v in ev['fields'] if re.fullmatch(r'arg\d', k)]
    if args or 'args' in rec:
        # the string argument: JSON has the pointer, CTF the string
        ja = rec.get('args', [])
        # a faulted fetch: JSON's null, CTF's 0 and argN_fetch_fault
        want['args'] = [None if isinstance(v, str) or f.get(k + '_fetch_fault')
                        else v[1] if isinstance(v, tuple) else v
                        for k, v in args]
        got['args'] = [None if isinstance(v, str) else w
                       for (k, v), w in zip(args, ja)] \
            if len(ja) == len(args) else ja
    strs = [v for k, v in ev['fields']
            if k == 'str' or (re.fullmatch(r'arg\d', k) and isinstance(v, str))]
    if any(k.endswith('_truncated') and k != 'str_truncated' for k in f) \
            or 'strs' in rec:
        # several strings: JSON's strs, CTF's argN and argN_truncated (a
        # faulted one: argN_fault, the pointer, and null in strs)
        want['strs'] = [
            {'arg': int(k[3:]), 'str': v if isinstance(v, str) else None,
             'truncated': bool(f.get(k + '_truncated'))}
            for k, v in ev['fields'] if re.fullmatch(r'arg\d', k) and
            (isinstance(v, str) or f.get(k + '_fault'))]
        got['strs'] = rec.get('strs')
    elif strs or 'str' in rec:
        want['str'], got['str'] = strs[0] if strs else None, rec.get('str')
        want['str_truncated'] = bool(f.get('str_truncated'))
        got['str_truncated'] = rec.get('str_truncated')
    return ['%s: ctf %r, json %r' % (k, want[k], got[k])
            for k in want if want[k] != got[k]]


def text_records(lines):
    """A record's line with its stack's lines under it (indented by 8;
    a record's line starts with at most 5 spaces), as one string."""
    out = []
    for line in lines:
        if out and re.match(r' {8}\S', line):
            out[-1] += '\n' + line
        else:
            out.append(line)
    return out


def main(bt_path, text_path, json_path):
    def lines(p):
        return open(p, encoding='latin-1', newline='\n').read() \
            .split('\n')[:-1]
    bt = [bt_event(line) for line in lines(bt_path)]
    text = text_records(lines(text_path))
    recs = [json.loads(line) for line in lines(json_path)]
    bad = []
    if not len(bt) == len(text) == len(recs):
        bad.append('events: babeltrace2 %d, text %d, json %d' %
                   (len(bt), len(text), len(recs)))
    for i, (ev, line, rec) in enumerate(zip(bt, text, recs)):
        mine = text_line(ev)
        if mine != line:
            bad.append('event %d:\n  text:       %r\n  babeltrace: %r' %
                       (i, line, mine))
        bad += ['event %d: %s' % (i, d) for d in json_diffs(ev, rec)]
    if bad:
        print('\n'.join(bad[:10]))
        sys.exit(1)
    print('ctf ok: %d events' % len(bt))


if __name__ == '__main__':
    main(*sys.argv[1:4])
