// SPDX-License-Identifier: GPL-2.0
/*
 * A merged flame graph (flame.c) as one self-contained SVG, laid out as
 * flamegraph.pl lays it out: 1200 pixels wide, a row of 16 a depth, the
 * root at the bottom. Each frame is a <g class="frame"> whose data-name,
 * data-count, data-start and data-depth say what it is (a test reads
 * them from the DOM) and whose <title> is the hover text. The script at
 * the end zooms on a click, searches (Ctrl-F or the Search button) and
 * takes ?s=REGEX and ?f=NAME in the URL, a search and a zoom to start
 * with.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "lib/escape.h"
#include "out/flame.h"

#define RP_SVG_WIDTH	1200
#define RP_SVG_XPAD	10
#define RP_SVG_FRAME_H	16
#define RP_SVG_FONT	12
#define RP_SVG_FONT_W	0.59	/* a character's width, in font sizes */
#define RP_SVG_TOP	(RP_SVG_FONT * 3)	/* the title's room */
#define RP_SVG_BOTTOM	(RP_SVG_FONT * 2 + 10)	/* the details line's */
/* Narrower frames are left out, as flamegraph.pl does: they cannot be seen */
#define RP_SVG_MIN_W	0.1

/*
 * A name as XML text or attribute: controls and bytes that are not
 * UTF-8 (which no XML parser takes) as "\xHH", as terminal output has
 * them, the folded escapes kept ("\x3b" for a ';'), then XML's five.
 * scratch holds RP_ESCAPED_MAX(n) bytes.
 */
static void rp_svg_name(FILE *out, const char *s, size_t n, char *scratch)
{
	const char *p, *end = rp_put_escaped_keep_bs(scratch, s, n);

	for (p = scratch; p < end; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default: fputc(*p, out);
		}
	}
}

/*
 * flamegraph.pl's "hot" palette, reds to yellows, picked by the name's
 * hash rather than at random: a function keeps its colour from one
 * graph to the next.
 */
static void rp_svg_colour(const char *s, size_t n, unsigned int rgb[3])
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	rgb[0] = 205 + (h & 0xff) * 50 / 255;
	rgb[1] = ((h >> 8) & 0xff) * 230 / 255;
	rgb[2] = ((h >> 16) & 0xff) * 55 / 255;
}

/* The label that fits w pixels: the name, cut with ".." or nothing */
static size_t rp_svg_label(const struct rp_flame_node *n, double w,
			   bool *cut)
{
	size_t chars = (size_t)(w / (RP_SVG_FONT * RP_SVG_FONT_W));

	*cut = false;
	if (chars < 3)
		return 0;
	if (n->len <= chars)
		return n->len;
	*cut = true;
	chars -= 2;
	/* not inside a UTF-8 character */
	while (chars && ((unsigned char)n->name[chars] & 0xc0) == 0x80)
		chars--;
	return chars;
}

static void rp_svg_frame(FILE *out, const struct rp_flame *f,
			 const struct rp_flame_node *n, double height,
			 char *scratch)
{
	/* no sample at all: the root alone, as wide as the graph */
	double wpt = (double)(RP_SVG_WIDTH - 2 * RP_SVG_XPAD) /
		     (double)(f->total ?: 1);
	double x = RP_SVG_XPAD + (double)n->start * wpt;
	double w = f->total ? (double)n->count * wpt :
		   RP_SVG_WIDTH - 2 * RP_SVG_XPAD;
	double y = height - RP_SVG_BOTTOM - (n->depth + 1) * RP_SVG_FRAME_H + 1;
	unsigned int rgb[3];
	size_t label;
	bool cut;

	rp_svg_colour(n->name, n->len, rgb);
	fputs("<g class=\"frame\" data-name=\"", out);
	rp_svg_name(out, n->name, n->len, scratch);
	fprintf(out, "\" data-count=\"%" PRIu64 "\" data-start=\"%" PRIu64
		"\" data-depth=\"%u\"><title>", n->count, n->start, n->depth);
	rp_svg_name(out, n->name, n->len, scratch);
	fprintf(out, " (%" PRIu64 " samples, %.2f%%)</title>"
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		"fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/>"
		"<text x=\"%.1f\" y=\"%.1f\">", n->count,
		100.0 * (double)n->count / (double)(f->total ?: 1), x, y, w,
		RP_SVG_FRAME_H - 1, rgb[0], rgb[1], rgb[2], x + 3,
		y + RP_SVG_FRAME_H / 2.0 + 3.5);
	label = rp_svg_label(n, w, &cut);
	rp_svg_name(out, n->name, label, scratch);
	fprintf(out, "%s</text></g>\n", cut ? ".." : "");
}

/*
 * What the page does. Positions are recomputed from each frame's
 * data-start and data-count, so a zoom never drifts.
 */
static const char rp_svg_script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"(function () {\n"
"\"use strict\";\n"
"var svg = document.documentElement, W = +svg.getAttribute(\"data-width\"),\n"
"    X0 = +svg.getAttribute(\"data-xpad\"), FW = +svg.getAttribute(\"data-char\"),\n"
"    frames = Array.prototype.slice.call(document.querySelectorAll(\"g.frame\")),\n"
"    details = document.getElementById(\"details\"),\n"
"    unzoom = document.getElementById(\"unzoom\"),\n"
"    search = document.getElementById(\"search\"),\n"
"    matched = document.getElementById(\"matched\"),\n"
"    root = frames[0], total = num(root, \"count\"), re = null;\n"
"function num(g, k) { return +g.getAttribute(\"data-\" + k); }\n"
"function frameOf(e) { return e.closest ? e.closest(\"g.frame\") : null; }\n"
"function fit(g, x, w) {\n"
"  var r = g.querySelector(\"rect\"), t = g.querySelector(\"text\"),\n"
"      name = g.getAttribute(\"data-name\"), n = Math.floor(w / FW);\n"
"  r.setAttribute(\"x\", x.toFixed(1));\n"
"  r.setAttribute(\"width\", w.toFixed(1));\n"
"  t.setAttribute(\"x\", (x + 3).toFixed(1));\n"
"  t.textContent = n < 3 ? \"\" : name.length <= n ? name :\n"
"                  name.slice(0, n - 2) + \"..\";\n"
"}\n"
"function zoom(z) {\n"
"  var s0 = num(z, \"start\"), c0 = num(z, \"count\"), d0 = num(z, \"depth\");\n"
"  if (!c0) return;\n"
"  frames.forEach(function (g) {\n"
"    var s = num(g, \"start\"), c = num(g, \"count\"), d = num(g, \"depth\");\n"
"    g.classList.remove(\"hide\", \"parent\");\n"
"    if (d < d0 && s <= s0 && s + c >= s0 + c0) {\n"
"      g.classList.add(\"parent\");\n"
"      fit(g, X0, W);\n"
"    } else if (d >= d0 && s >= s0 && s + c <= s0 + c0) {\n"
"      fit(g, X0 + (s - s0) * W / c0, c * W / c0);\n"
"    } else {\n"
"      g.classList.add(\"hide\");\n"
"    }\n"
"  });\n"
"  unzoom.classList.toggle(\"hide\", z === root);\n"
"}\n"
"/* the matched share: a match inside a match counts once */\n"
"function share(spans) {\n"
"  var sum = 0, end = -1;\n"
"  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
"  spans.forEach(function (p) {\n"
"    if (p[0] + p[1] <= end) return;\n"
"    sum += p[0] + p[1] - Math.max(p[0], end);\n"
"    end = p[0] + p[1];\n"
"  });\n"
"  return 100 * sum / total;\n"
"}\n"
"function find(term) {\n"
"  var spans = [];\n"
"  try { re = term ? new RegExp(term) : null; } catch (e) {\n"
"    re = null; matched.textContent = \"bad regular expression\"; return;\n"
"  }\n"
"  frames.forEach(function (g) {\n"
"    var r = g.querySelector(\"rect\"), hit;\n"
"    if (!r.hasAttribute(\"data-fill\"))\n"
"      r.setAttribute(\"data-fill\", r.getAttribute(\"fill\"));\n"
"    hit = re !== null && re.test(g.getAttribute(\"data-name\"));\n"
"    g.classList.toggle(\"match\", hit);\n"
"    r.setAttribute(\"fill\", hit ? \"rgb(230,0,230)\" : r.getAttribute(\"data-fill\"));\n"
"    if (hit) spans.push([num(g, \"start\"), num(g, \"count\")]);\n"
"  });\n"
"  matched.textContent = re ? \"Matched: \" + share(spans).toFixed(2) + \"%\" : \"\";\n"
"  search.textContent = re ? \"Reset Search\" : \"Search\";\n"
"}\n"
"function ask() {\n"
"  if (re) return find(null);\n"
"  var t = window.prompt(\"Search for (a regular expression):\", \"\");\n"
"  if (t) find(t);\n"
"}\n"
"svg.addEventListener(\"click\", function (e) {\n"
"  var g = frameOf(e.target);\n"
"  if (g) zoom(g);\n"
"  else if (e.target === unzoom) zoom(root);\n"
"  else if (e.target === search) ask();\n"
"});\n"
"svg.addEventListener(\"mouseover\", function (e) {\n"
"  var g = frameOf(e.target);\n"
"  if (g) details.textContent = g.querySelector(\"title\").textContent;\n"
"});\n"
"svg.addEventListener(\"mouseout\", function () { details.textContent = \" \"; });\n"
"window.addEventListener(\"keydown\", function (e) {\n"
"  if ((e.ctrlKey || e.metaKey) && e.key === \"f\") { e.preventDefault(); ask(); }\n"
"  else if (e.key === \"Escape\") { zoom(root); find(null); }\n"
"});\n"
"(function () {\n"
"  var q = new URLSearchParams(window.location.search), f = q.get(\"f\"), z;\n"
"  if (f !== null) {\n"
"    z = frames.filter(function (g) { return g.getAttribute(\"data-name\") === f; });\n"
"    if (z.length) zoom(z[0]);\n"
"  }\n"
"  if (q.get(\"s\")) find(q.get(\"s\"));\n"
"})();\n"
"})();\n"
"]]></script>\n";

static void rp_svg_head(FILE *out, const struct rp_flame *f, double height,
			char *scratch)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"data-total=\"%" PRIu64 "\" data-width=\"%d\" data-xpad=\"%d\" "
		"data-char=\"%.2f\">\n", RP_SVG_WIDTH, height, RP_SVG_WIDTH,
		height, f->total, RP_SVG_WIDTH - 2 * RP_SVG_XPAD, RP_SVG_XPAD,
		RP_SVG_FONT * RP_SVG_FONT_W);
	fprintf(out, "<style>\n"
		"text { font-family: Verdana, sans-serif; font-size: %dpx; "
		"fill: #000; }\n"
		"#title { font-size: %dpx; text-anchor: middle; }\n"
		"#unzoom, #search { cursor: pointer; }\n"
		"#search, #matched { text-anchor: end; }\n"
		"g.frame { cursor: pointer; }\n"
		"g.frame text { pointer-events: none; }\n"
		"g.frame:hover rect { stroke: #000; stroke-width: 0.5; }\n"
		"g.parent { opacity: 0.5; }\n"
		".hide { display: none; }\n"
		"</style>\n", RP_SVG_FONT, RP_SVG_FONT + 5);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%.0f\" "
		"fill=\"#f8f8f0\"/>\n<text id=\"title\" x=\"%d\" y=\"%d\">",
		RP_SVG_WIDTH, height, RP_SVG_WIDTH / 2, RP_SVG_FONT * 2);
	rp_svg_name(out, f->title, strlen(f->title), scratch);
	fprintf(out, "</text>\n"
		"<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"%d\">Reset Zoom</text>\n"
		"<text id=\"search\" x=\"%d\" y=\"%d\">Search</text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%.0f\"> </text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%.0f\"></text>\n",
		RP_SVG_XPAD, RP_SVG_FONT * 2, RP_SVG_WIDTH - RP_SVG_XPAD,
		RP_SVG_FONT * 2, RP_SVG_XPAD, height - RP_SVG_FONT,
		RP_SVG_WIDTH - RP_SVG_XPAD, height - RP_SVG_FONT);
}

int rp_flame_svg(const struct rp_flame *f, FILE *out)
{
	double height = (f->depth + 1) * RP_SVG_FRAME_H + RP_SVG_TOP +
			RP_SVG_BOTTOM;
	double wpt = f->total ? (double)(RP_SVG_WIDTH - 2 * RP_SVG_XPAD) /
				(double)f->total : 0;
	size_t i, max = strlen(f->title);
	char *scratch;

	for (i = 0; i < f->nnodes; i++)
		max = f->nodes[i].len > max ? f->nodes[i].len : max;
	scratch = malloc(RP_ESCAPED_MAX(max) + 1);
	if (!scratch)
		return -ENOMEM;
	rp_svg_head(out, f, height, scratch);
	fputs("<g id=\"frames\">\n", out);
	for (i = 0; i < f->nnodes; i++)
		if (!i || (double)f->nodes[i].count * wpt >= RP_SVG_MIN_W)
			rp_svg_frame(out, f, &f->nodes[i], height, scratch);
	fputs("</g>\n", out);
	fputs(rp_svg_script, out);
	fputs("</svg>\n", out);
	free(scratch);
	return 0;
}
