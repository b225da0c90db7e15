#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# Checks of rawprobectl's flame graphs against folded stacks, with an
# oracle of its own: equal stacks added up, one frame per distinct
# prefix, siblings by name, each frame as wide as the stacks through it.
#   flame_check.py svg FOLDED SVG        the SVG rawprobectl wrote
#   flame_check.py dom FOLDED DOM [--search RE] [--zoom NAME]
#                                        Chromium's --dump-dom of it: the
#                                        frames drawn, after its script ran
#   flame_check.py speedscope FOLDED JSON
#   flame_check.py png PNG               a screenshot: a picture, not blank
#   flame_check.py leaf FOLDED FUNC      every folded stack ends in FUNC
#   flame_check.py leaves SVG            the SVG's leaf frames: "NAME COUNT"
#                                        a name, their counts added up
# Prints "ok: ..." or the first difference; exit 0 or 1.
import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = '{http://www.w3.org/2000/svg}'
WIDTH, XPAD, MIN_W = 1200, 10, 0.1


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def folded(path):
    """{stack tuple: count}, as flamegraph.pl reads: the count last."""
    rows = {}
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        m = re.match(r'^(.*?)[ \t]+(\d+)\s*$', line)
        if m and int(m.group(2)):
            key = tuple(m.group(1).split(';')) if m.group(1) else ()
            rows[key] = rows.get(key, 0) + int(m.group(2))
    return rows


def frames(rows):
    """[(name, depth, start, count)], parents first, siblings by name."""
    out = [['all', 0, 0, sum(rows.values())]]
    open_, start = [], 0
    for stack in sorted(rows):
        n = rows[stack]
        keep = 0
        while (keep < len(open_) and keep < len(stack) and
               open_[keep][0] == stack[keep]):
            keep += 1
        open_ = open_[:keep]
        for d, name in enumerate(stack[keep:], keep):
            node = [name, d + 1, start, 0]
            out.append(node)
            open_.append(node)
        for node in open_:
            node[3] += n
        start += n
    return [tuple(f) for f in out]


def drawn(expect, total):
    """What the SVG draws: frames narrower than 0.1 px are left out."""
    wpt = (WIDTH - 2 * XPAD) / max(total, 1)
    return [f for i, f in enumerate(expect) if not i or f[3] * wpt >= MIN_W]


def svg_frames(root):
    out = []
    for g in root.iter(SVG + 'g'):
        if 'frame' not in g.get('class', '').split():
            continue
        out.append((g, (g.get('data-name'), int(g.get('data-depth')),
                        int(g.get('data-start')), int(g.get('data-count')))))
    return out


def check_geometry(g, f, total, x0, w0, span=None):
    """rect at x0 + start * scale, count * scale wide (scale: w0 for the
    span drawn, all of total but for a zoom); the hover title."""
    name, depth, start, count = f
    rect, title = g.find(SVG + 'rect'), g.find(SVG + 'title').text
    scale = w0 / (span or total)
    x, w = float(rect.get('x')), float(rect.get('width'))
    if abs(w - count * scale) > 0.06 or abs(x - (x0 + start * scale)) > 0.06:
        fail('%s at x=%s w=%s, want %.1f %.1f' %
             (name, x, w, x0 + start * scale, count * scale))
    want = '%s (%d samples, %.2f%%)' % (name, count, 100.0 * count / total)
    if title != want:
        fail('title %r, want %r' % (title, want))


def cmd_svg(fold, path, dom=False, search=None, zoom=None):
    rows = folded(fold)
    total = sum(rows.values())
    want = drawn(frames(rows), total)
    root = ET.parse(path).getroot()
    if int(root.get('data-total')) != total:
        fail('data-total %s, want %d' % (root.get('data-total'), total))
    got = svg_frames(root)
    if [f for _, f in got] != want:
        for a, b in zip([f for _, f in got], want):
            if a != b:
                fail('frame %r, want %r' % (a, b))
        fail('%d frames, want %d' % (len(got), len(want)))
    if got[0][1][3] != total or float(got[0][0].find(SVG + 'rect')
                                      .get('width')) != WIDTH - 2 * XPAD:
        fail('the root is not the whole width')
    if zoom:
        return check_zoom(root, got, zoom, total)
    for g, f in got:
        check_geometry(g, f, total, XPAD, WIDTH - 2 * XPAD)
    if search:
        check_search(root, got, search, total)
    print('ok: %d frames, %d samples%s' %
          (len(got), total, ' (after the script)' if dom else ''))


def check_search(root, got, regex, total):
    """Matches magenta, the others not; "Matched:" the share, once each."""
    spans, end, share = [], -1, 0
    for g, (name, _, start, count) in got:
        hit = re.search(regex, name) is not None
        magenta = g.find(SVG + 'rect').get('fill') == 'rgb(230,0,230)'
        if hit != magenta:
            fail('%s: matched %s but magenta %s' % (name, hit, magenta))
        if hit:
            spans.append((start, count))
    for s, c in sorted(spans, key=lambda p: (p[0], -p[1])):
        if s + c > end:
            share += s + c - max(s, end)
            end = s + c
    text = [t.text for t in root.iter(SVG + 'text') if t.get('id') == 'matched']
    want = 'Matched: %.2f%%' % (100.0 * share / total)
    if text != [want]:
        fail('matched %r, want %r' % (text, want))


def check_zoom(root, got, name, total):
    """The first frame of that name is the whole width; its ancestors too
    (faded), its descendants scaled to it, the rest hidden."""
    z = next(f for _, f in got if f[0] == name)
    _, d0, s0, c0 = z
    shown = 0
    for g, f in got:
        _, d, s, c = f
        cls = g.get('class').split()
        inside = d >= d0 and s >= s0 and s + c <= s0 + c0
        above = d < d0 and s <= s0 and s + c >= s0 + c0
        if inside:
            check_geometry(g, (f[0], d, s - s0, c), total, XPAD,
                           WIDTH - 2 * XPAD, c0)
            shown += 1
        elif above and 'parent' not in cls:
            fail('%r above the zoomed frame is not faded' % (f,))
        elif not inside and not above and 'hide' not in cls:
            fail('%r is outside the zoomed frame, not hidden' % (f,))
    unzoom = [t for t in root.iter(SVG + 'text') if t.get('id') == 'unzoom']
    if 'hide' in unzoom[0].get('class', ''):
        fail('"Reset Zoom" still hidden')
    print('ok: zoomed on %s, %d frames scaled' % (name, shown))


def cmd_speedscope(fold, path):
    rows = folded(fold)
    doc = json.load(open(path))
    if doc.get('$schema') != 'https://www.speedscope.app/file-format-schema.json':
        fail('$schema %r' % doc.get('$schema'))
    names = [f['name'] for f in doc['shared']['frames']]
    if len(set(names)) != len(names):
        fail('a frame named twice in shared.frames')
    if len(doc['profiles']) != 1:
        fail('%d profiles' % len(doc['profiles']))
    p = doc['profiles'][0]
    if (p['type'], p['unit'], p['startValue']) != ('sampled', 'none', 0):
        fail('profile %r' % ({k: p[k] for k in ('type', 'unit', 'startValue')},))
    if len(p['samples']) != len(p['weights']):
        fail('%d samples, %d weights' % (len(p['samples']), len(p['weights'])))
    got = {}
    for s, w in zip(p['samples'], p['weights']):
        key = tuple(names[i] for i in s)
        got[key] = got.get(key, 0) + w
    if got != rows:
        diff = set(got.items()) ^ set(rows.items())
        fail('samples differ from the folded stacks: %r' % sorted(diff)[:4])
    if p['endValue'] != sum(rows.values()) or sum(p['weights']) != p['endValue']:
        fail('endValue %s, weights %s, folded %s' %
             (p['endValue'], sum(p['weights']), sum(rows.values())))
    if set(names) != {f for s in rows for f in s}:
        fail('frames are not the stacks\' names')
    print('ok: %d stacks, %d frames, %d samples' %
          (len(rows), len(names), p['endValue']))


def png_pixels(path):
    """(width, height, rows of (r, g, b)): 8-bit RGB or RGBA, unfiltered."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        fail('not a PNG')
    pos, idat, ihdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype = ihdr[:4]
    if depth != 8 or ctype not in (2, 6):
        fail('PNG of depth %d, colour type %d' % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, None, []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        prev = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else
                                      b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def cmd_png(path):
    """More than one colour, and the palette's reds to yellows on it."""
    w, h, rows = png_pixels(path)
    colours = {p for r in rows for p in r}
    hot = sum(1 for r in rows for (red, g, b) in r
              if red >= 205 and b <= 55 and g <= 230)
    if len(colours) < 8 or hot < w:
        fail('%dx%d, %d colours, %d frame pixels: blank' %
             (w, h, len(colours), hot))
    print('ok: %dx%d, %d colours, %d frame pixels' % (w, h, len(colours), hot))


def cmd_leaf(fold, func):
    rows = folded(fold)
    bad = [s for s in rows if not s or s[-1] != func]
    if not rows or bad:
        fail('%d stacks, not ending in %s: %r' % (len(rows), func, bad[:2]))
    print('ok: %d stacks end in %s' % (len(rows), func))


def cmd_leaves(path):
    """A leaf: no frame one deeper starts within its span."""
    got = [f for _, f in svg_frames(ET.parse(path).getroot())]
    leaves = {}
    for name, d, s, c in got:
        if not any(d2 == d + 1 and s <= s2 < s + c for _, d2, s2, _ in got):
            leaves[name] = leaves.get(name, 0) + c
    for name in sorted(leaves):
        print(name, leaves[name])


def main(argv):
    if argv[1] in ('svg', 'dom'):
        opts = dict(zip(argv[4::2], argv[5::2]))
        cmd_svg(argv[2], argv[3], argv[1] == 'dom', opts.get('--search'),
                opts.get('--zoom'))
    elif argv[1] == 'speedscope':
        cmd_speedscope(argv[2], argv[3])
    elif argv[1] == 'png':
        cmd_png(argv[2])
    elif argv[1] == 'leaves':
        cmd_leaves(argv[2])
    elif argv[1] == 'leaf':
        cmd_leaf(argv[2], argv[3])
    else:
        fail('unknown check %r' % argv[1])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
