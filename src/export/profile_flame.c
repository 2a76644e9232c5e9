/* profile_flame.c - the flame graph cyclops draws itself (.svg, hover for
 * details, click to zoom) and the self-contained HTML report around it:
 * summary, flame graph (search, reset, details, recursion folded), the
 * functions in a sortable table, the cycle tracker's spans, and the
 * hottest functions' annotated source and instructions. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/annotate.h"
#include "export/profile.h"
#include "util/index_map.h"
#include "util/text.h"

#define FLAME_WIDTH   1200
#define FLAME_ROW     17
#define FLAME_MIN_PX  0.1 /* narrower frames are left out of the picture */
#define FLAME_CHAR_PX 7   /* a character of the label font, roughly */
#define TABLE_ROWS    200 /* functions in the report's table */
#define ANNOTATED     5   /* hottest functions annotated in the report */

/* Names, file names, spans and messages are untrusted bytes: the file
 * stays well-formed XML whatever they hold (text_put_xml). */
static void xml_text(FILE *f, const char *s) { text_put_xml(f, s, strlen(s)); }

/* The bytes of s's first n characters (a byte that is not UTF-8 counts as
 * one), so that a label is cut between characters. */
static size_t chars_prefix(const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t len = strlen(s), at = 0;

	for (; n && at < len; n--) {
		size_t k = text_utf8_len(p + at, len - at);
		at += k ? k : 1;
	}
	return at;
}

/* v with thousands separators: "1,234,567". */
static const char *count(uint64_t v, char buf[32])
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), k = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = 0;
	return buf;
}

/* Warm colours from the name, so a function keeps its colour; inlined
 * functions a little paler; pseudo-frames (paging, ecalls, unknown code)
 * blue-grey. */
static void frame_colour(const cy_stack_node *nd, char *buf, size_t size)
{
	uint32_t h = 2166136261u;

	for (const char *s = nd->name; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	if (nd->kind == CY_FRAME_INLINED)
		snprintf(buf, size, "rgb(%u,%u,%u)", 225 + h % 30, 150 + (h >> 8) % 80,
			 90 + (h >> 16) % 40);
	else if (nd->kind != CY_FRAME_FUNCTION)
		snprintf(buf, size, "rgb(%u,%u,%u)", 120 + h % 30, 150 + h % 30, 200 + h % 40);
	else
		snprintf(buf, size, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130,
			 40 + (h >> 16) % 40);
}

/* The page's script. cyFlameZoom: a click on a frame makes it the full
 * width, its ancestors stretch across, frames outside it hide (the .svg
 * and both pages use it). The report adds the details pane, the search,
 * the reset, the recursion toggle, the tables' sorting and a self-test
 * (#selftest:search=NAME) that does each and writes what it saw into the
 * page, for headless browsers. */
const char profile_flame_js[] =
    "function cyFlameZoom(svg, g) {\n"
    "  var W = +svg.getAttribute('data-width');\n"
    "  var x0 = +g.getAttribute('data-x'), w0 = +g.getAttribute('data-w');\n"
    "  var gs = svg.querySelectorAll('g.f');\n"
    "  for (var i = 0; i < gs.length; i++) {\n"
    "    var e = gs[i], x = +e.getAttribute('data-x'), w = +e.getAttribute('data-w');\n"
    "    var nx = (x - x0) / w0 * W, nw = w / w0 * W;\n"
    "    if (nx < 0) { nw += nx; nx = 0; }\n"
    "    if (nx + nw > W) nw = W - nx;\n"
    "    var r = e.querySelector('rect'), t = e.querySelector('text');\n"
    "    if (nw < 0.1 || x + w <= x0 || x >= x0 + w0) { e.style.display = 'none'; continue; }\n"
    "    e.style.display = '';\n"
    "    r.setAttribute('x', nx.toFixed(2)); r.setAttribute('width', nw.toFixed(2));\n"
    "    t.setAttribute('x', (nx + 3).toFixed(2));\n"
    "    var name = e.getAttribute('data-name'), n = Math.floor((nw - 6) / 7);\n"
    "    t.textContent = n < 3 ? '' : (name.length <= n ? name : name.substring(0, n - 2) + "
    "'..');\n"
    "  }\n"
    "  svg.setAttribute('data-zoom', g.getAttribute('data-name'));\n"
    "}\n"
    "function cyComma(v) { return String(v).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ','); }\n"
    "function cyDetails(svg, g) {\n"
    "  var d = document.getElementById('details');\n"
    "  if (!d) return;\n"
    "  var all = +svg.querySelector('g.f').getAttribute('data-w') || 1;\n"
    "  var w = +g.getAttribute('data-w'), s = g.getAttribute('data-self');\n"
    "  var src = g.getAttribute('data-src');\n"
    "  d.textContent = g.getAttribute('data-name') + ': ' + cyComma(w) + ' cycles (' +\n"
    "    (100 * w / all).toFixed(2) + '%)' + (s !== null ? ', self ' + cyComma(s) : '') +\n"
    "    (src ? ', ' + src : '');\n"
    "}\n"
    "function cyFlameInit(svg) {\n"
    "  svg.setAttribute('data-frames', svg.querySelectorAll('g.f').length);\n"
    "  svg.addEventListener('click', function (ev) {\n"
    "    var g = ev.target.closest ? ev.target.closest('g.f') : null;\n"
    "    if (g) { cyFlameZoom(svg, g); cyDetails(svg, g); }\n"
    "  });\n"
    "  svg.addEventListener('mouseover', function (ev) {\n"
    "    var g = ev.target.closest ? ev.target.closest('g.f') : null;\n"
    "    if (g) cyDetails(svg, g);\n"
    "  });\n"
    "}\n"
    "function cyShown() {\n"
    "  var fold = document.getElementById('fold');\n"
    "  return document.getElementById(fold && fold.checked ? 'flame-folded' : 'flame');\n"
    "}\n"
    "function cySearch(text) {\n"
    "  var svg = cyShown(), gs = svg.querySelectorAll('g.f'), n = 0, w = 0, end = -1;\n"
    "  var all = +gs[0].getAttribute('data-w') || 1, q = text.toLowerCase();\n"
    "  for (var i = 1; i < gs.length; i++) {\n"
    "    var e = gs[i], hit = q !== '' && e.getAttribute('data-name').toLowerCase().indexOf(q) >= "
    "0;\n"
    "    e.classList.toggle('match', hit);\n"
    "    if (!hit) continue;\n"
    "    n++;\n"
    "    var x = +e.getAttribute('data-x');\n"
    "    if (x >= end) { w += +e.getAttribute('data-w'); end = x + +e.getAttribute('data-w'); }\n"
    "  }\n"
    "  var m = document.getElementById('matched');\n"
    "  if (m) m.textContent = q === '' ? '' : n + ' frames, ' + (100 * w / all).toFixed(2) + '% of "
    "the run';\n"
    "  return { frames: n, cycles: w };\n"
    "}\n"
    "function cyReset() {\n"
    "  var svg = cyShown();\n"
    "  cyFlameZoom(svg, svg.querySelector('g.f'));\n"
    "  var s = document.getElementById('search');\n"
    "  if (s) { s.value = ''; cySearch(''); }\n"
    "}\n"
    "function cyFold() {\n"
    "  var on = document.getElementById('fold').checked;\n"
    "  document.getElementById('flame').style.display = on ? 'none' : '';\n"
    "  document.getElementById('flame-folded').style.display = on ? '' : 'none';\n"
    "  var s = document.getElementById('search');\n"
    "  cySearch(s ? s.value : '');\n"
    "}\n"
    "function cySort(th) {\n"
    "  var table = th.closest('table'), col = th.cellIndex;\n"
    "  var down = th.getAttribute('data-order') !== 'desc';\n"
    "  var ths = table.querySelectorAll('th');\n"
    "  for (var i = 0; i < ths.length; i++) ths[i].removeAttribute('data-order');\n"
    "  th.setAttribute('data-order', down ? 'desc' : 'asc');\n"
    "  var rows = Array.prototype.slice.call(table.tBodies[0].rows);\n"
    "  rows.sort(function (a, b) {\n"
    "    var x = a.cells[col], y = b.cells[col];\n"
    "    var vx = x.getAttribute('data-v'), vy = y.getAttribute('data-v');\n"
    "    var c = vx !== null ? (+vx) - (+vy) : x.textContent.localeCompare(y.textContent);\n"
    "    return down ? -c : c;\n"
    "  });\n"
    "  for (var k = 0; k < rows.length; k++) table.tBodies[0].appendChild(rows[k]);\n"
    "}\n"
    "function cySelfTest(term) {\n"
    "  var out = {}, th = document.querySelector('#functions th.self');\n"
    "  cySort(th);\n"
    "  out.sorted_desc = Array.prototype.map.call(document.querySelectorAll('#functions tbody "
    "tr'),\n"
    "    function (r) { return +r.cells[th.cellIndex].getAttribute('data-v'); });\n"
    "  cySort(th);\n"
    "  out.sorted_asc = Array.prototype.map.call(document.querySelectorAll('#functions tbody "
    "tr'),\n"
    "    function (r) { return +r.cells[th.cellIndex].getAttribute('data-v'); });\n"
    "  document.getElementById('search').value = term;\n"
    "  out.search = cySearch(term);\n"
    "  var svg = document.getElementById('flame'), g = svg.querySelector('g.f.match');\n"
    "  if (g) {\n"
    "    cyFlameZoom(svg, g); cyDetails(svg, g);\n"
    "    out.zoomed_width = +g.querySelector('rect').getAttribute('width');\n"
    "    out.details = document.getElementById('details').textContent;\n"
    "  }\n"
    "  cyReset();\n"
    "  out.reset_width = +svg.querySelector('g.f rect').getAttribute('width');\n"
    "  document.getElementById('fold').checked = true; cyFold();\n"
    "  out.folded_frames = Array.prototype.filter.call(\n"
    "    document.querySelectorAll('#flame-folded g.f'),\n"
    "    function (e) { return e.getAttribute('data-name') === term; }).length;\n"
    "  out.unfolded_frames = Array.prototype.filter.call(\n"
    "    document.querySelectorAll('#flame g.f'),\n"
    "    function (e) { return e.getAttribute('data-name') === term; }).length;\n"
    "  document.getElementById('fold').checked = false; cyFold();\n"
    "  document.getElementById('selftest').textContent = JSON.stringify(out);\n"
    "}\n";

/* A tree to draw: the profile's, or the same with recursion folded. */
struct flame_tree {
	const cy_stack_node *nodes;
	size_t n;
	const uint32_t *first_child, *next_sibling, *frame_of;
};

static unsigned max_depth(const struct flame_tree *t)
{
	unsigned d = 0;

	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].depth > d)
			d = t->nodes[i].depth;
	return d;
}

/* The frames of node i and below, children from their parent's start. A
 * stack of nodes, not recursion: a guest's stacks can be deep. */
static void flame_nodes(FILE *f, const struct profile *p, const struct flame_tree *t, uint32_t root,
			uint64_t x0, unsigned rows, uint64_t *xs, uint32_t *todo)
{
	double scale = p->cycles ? (double)FLAME_WIDTH / (double)p->cycles : 0;
	size_t n = 0;

	todo[n++] = root;
	xs[root] = x0;
	while (n) {
		uint32_t i = todo[--n];
		const cy_stack_node *nd = &t->nodes[i];
		uint64_t x = xs[i];
		double px = (double)x * scale, pw = (double)nd->cycles * scale;
		unsigned y = (rows - 1 - nd->depth) * FLAME_ROW;
		size_t chars = pw > 6 ? (size_t)((pw - 6) / FLAME_CHAR_PX) : 0;
		char colour[32];
		if (pw < FLAME_MIN_PX)
			continue;
		const struct prof_frame *fr = &p->frames[t->frame_of[i]];
		frame_colour(nd, colour, sizeof(colour));
		fprintf(f, "<g class=\"f\" data-x=\"%llu\" data-w=\"%llu\" data-self=\"%llu\"",
			(unsigned long long)x, (unsigned long long)nd->cycles,
			(unsigned long long)nd->self_cycles);
		if (fr->file) {
			fputs(" data-src=\"", f);
			xml_text(f, fr->file);
			fprintf(f, ":%d\"", fr->line);
		}
		fputs(" data-name=\"", f);
		xml_text(f, nd->name);
		fputs("\"><title>", f);
		xml_text(f, nd->name);
		fprintf(f, " - %llu cycles (%.2f%%), self %llu, %llu instructions%s</title>",
			(unsigned long long)nd->cycles, text_percent(nd->cycles, p->cycles),
			(unsigned long long)nd->self_cycles, (unsigned long long)nd->instructions,
			nd->kind == CY_FRAME_INLINED ? " (inlined)" : "");
		fprintf(f,
			"<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\" "
			"rx=\"2\"/><text x=\"%.2f\" y=\"%u\">",
			px, y, pw, FLAME_ROW - 1, colour, px + 3, y + FLAME_ROW - 5);
		if (chars >= 3) {
			size_t len = strlen(nd->name), fits = chars_prefix(nd->name, chars);
			if (fits == len) {
				xml_text(f, nd->name);
			} else {
				text_put_xml(f, nd->name, chars_prefix(nd->name, chars - 2));
				fputs("..", f);
			}
		}
		fputs("</text></g>\n", f);
		/* the children, pushed last first so that the first comes out first */
		size_t first = n;
		for (uint32_t c = t->first_child[i]; c != UINT32_MAX; c = t->next_sibling[c]) {
			xs[c] = x;
			x += t->nodes[c].cycles;
			todo[n++] = c;
		}
		for (size_t a = first, b = n; b > a + 1; a++, b--) {
			uint32_t tmp = todo[a];
			todo[a] = todo[b - 1];
			todo[b - 1] = tmp;
		}
	}
}

static void flame_svg(FILE *f, const struct profile *p, const struct flame_tree *t, const char *id,
		      bool standalone, bool hidden)
{
	unsigned rows = max_depth(t) + 2; /* the frames and a row for "all" */
	uint64_t x = 0, *xs = calloc(t->n + 1, sizeof(*xs));
	uint32_t *todo = calloc(t->n + 1, sizeof(*todo));

	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" class=\"flame\" "
		"%s viewBox=\"0 0 %d %u\" data-width=\"%d\" font-family=\"monospace\" "
		"font-size=\"11\"%s>\n",
		id, standalone ? "width=\"1200\"" : "preserveAspectRatio=\"xMinYMin meet\"",
		FLAME_WIDTH, rows * FLAME_ROW, FLAME_WIDTH,
		hidden ? " style=\"display: none\"" : "");
	if (standalone) {
		fprintf(f,
			"<style>g.f text { pointer-events: none; } g.f:hover rect { stroke: "
			"#000; } g.f { cursor: pointer; }</style>\n<script><![CDATA[\n%s"
			"cyFlameInit(document.documentElement);\n]]></script>\n",
			profile_flame_js);
	}
	/* the root row: the whole run, a click on it zooms out */
	char buf[32];
	fprintf(f,
		"<g class=\"f\" data-x=\"0\" data-w=\"%llu\" data-name=\"all\"><title>all - %llu "
		"cycles, %llu instructions</title><rect x=\"0\" y=\"%u\" width=\"%d\" "
		"height=\"%u\" fill=\"rgb(200,200,200)\" rx=\"2\"/><text x=\"3\" y=\"%u\">all "
		"(%s cycles)</text></g>\n",
		(unsigned long long)p->cycles, (unsigned long long)p->cycles,
		(unsigned long long)p->instructions, (rows - 1) * FLAME_ROW, FLAME_WIDTH,
		FLAME_ROW - 1, rows * FLAME_ROW - 5, count(p->cycles, buf));
	for (size_t i = 0; xs && todo && i < t->n; i++)
		if (t->nodes[i].parent < 0) {
			/* the root row is depth -1: shift the tree up by one */
			flame_nodes(f, p, t, (uint32_t)i, x, rows - 1, xs, todo);
			x += t->nodes[i].cycles;
		}
	fputs("</svg>\n", f);
	free(xs);
	free(todo);
}

static struct flame_tree profile_tree(const struct profile *p)
{
	return (struct flame_tree){ p->nodes, p->n_nodes, p->first_child, p->next_sibling,
				    p->frame_of };
}

void profile_flame_svg(FILE *f, const struct profile *p, bool standalone)
{
	struct flame_tree t = profile_tree(p);

	flame_svg(f, p, &t, "flame", standalone, false);
}

int profile_write_svg(FILE *f, const struct profile *p)
{
	profile_flame_svg(f, p, true);
	return 0;
}

/* The tree with recursion folded: a frame called by itself is merged into
 * its caller (f;f;f is f), its cycles with it. */
struct folded {
	struct flame_tree t;
	cy_stack_node *nodes;
	uint32_t *first_child, *next_sibling, *frame_of;
};

static int fold_tree(const struct profile *p, struct folded *out)
{
	struct index_map map = { .max = UINT32_MAX - 1 };
	uint32_t *to = malloc((p->n_nodes + 1) * sizeof(*to));
	size_t frame_cap = 0; /* out->frame_of's length */
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!to || index_map_rehash(&map, 1024) != 0)
		goto out_free;
	for (size_t i = 0; i < p->n_nodes; i++) {
		const cy_stack_node *nd = &p->nodes[i];
		int64_t parent = nd->parent < 0 ? -1 : (int64_t)to[nd->parent];
		bool added;
		if (parent >= 0 && out->frame_of[parent] == p->frame_of[i]) {
			to[i] = (uint32_t)parent; /* recursion: its caller's node */
			out->nodes[parent].self_cycles += nd->self_cycles;
			out->nodes[parent].self_instructions += nd->self_instructions;
			continue;
		}
		int64_t k = index_map_get(&map, (uint32_t)(parent + 1), p->frame_of[i],
					  (void **)&out->nodes, sizeof(*out->nodes), &added);
		if (k < 0)
			goto out_free;
		if (added && frame_cap < map.cap) { /* the map grew: so does frame_of */
			uint32_t *fo = realloc(out->frame_of, map.cap * sizeof(*fo));
			if (!fo)
				goto out_free;
			out->frame_of = fo;
			frame_cap = map.cap;
		}
		if (added) {
			out->nodes[k] = *nd;
			out->nodes[k].parent = (int)parent;
			out->nodes[k].depth = parent < 0 ? 0 : out->nodes[parent].depth + 1;
			out->nodes[k].self_cycles = out->nodes[k].self_instructions = 0;
			out->frame_of[k] = p->frame_of[i];
		}
		out->nodes[k].self_cycles += nd->self_cycles;
		out->nodes[k].self_instructions += nd->self_instructions;
		to[i] = (uint32_t)k;
	}
	size_t n = map.n;
	out->first_child = malloc((n + 1) * sizeof(uint32_t));
	out->next_sibling = malloc((n + 1) * sizeof(uint32_t));
	if (!out->first_child || !out->next_sibling)
		goto out_free;
	for (size_t i = 0; i < n; i++) {
		out->nodes[i].cycles = out->nodes[i].self_cycles;
		out->nodes[i].instructions = out->nodes[i].self_instructions;
		out->first_child[i] = out->next_sibling[i] = UINT32_MAX;
	}
	for (size_t i = n; i-- > 0;)
		if (out->nodes[i].parent >= 0) {
			cy_stack_node *pa = &out->nodes[out->nodes[i].parent];
			pa->cycles += out->nodes[i].cycles;
			pa->instructions += out->nodes[i].instructions;
			out->next_sibling[i] = out->first_child[out->nodes[i].parent];
			out->first_child[out->nodes[i].parent] = (uint32_t)i;
		}
	out->t = (struct flame_tree){ out->nodes, n, out->first_child, out->next_sibling,
				      out->frame_of };
	rc = 0;
out_free:
	free(to);
	index_map_free(&map);
	return rc;
}

static void fold_free(struct folded *f)
{
	free(f->nodes);
	free(f->first_child);
	free(f->next_sibling);
	free(f->frame_of);
}

static const struct profile *sort_profile;

static int by_self(const void *a, const void *b)
{
	const struct prof_frame *x = &sort_profile->frames[*(const uint32_t *)a];
	const struct prof_frame *y = &sort_profile->frames[*(const uint32_t *)b];
	return (x->self_cycles < y->self_cycles) - (x->self_cycles > y->self_cycles);
}

/* A cell with a number: its value for sorting, shown with separators. */
static void num_cell(FILE *f, uint64_t v)
{
	char buf[32];
	fprintf(f, "<td data-v=\"%llu\">%s</td>", (unsigned long long)v, count(v, buf));
}

static void pct_cell(FILE *f, uint64_t part, uint64_t whole)
{
	fprintf(f, "<td data-v=\"%.4f\">%.2f%%</td>", text_percent(part, whole),
		text_percent(part, whole));
}

/* Every frame (the first TABLE_ROWS by self cycles), sortable by each
 * column. */
static void functions_table(FILE *f, const struct profile *p, uint32_t *order)
{
	sort_profile = p;
	qsort(order, p->n_frames, sizeof(*order), by_self);
	fputs("<table class=\"sortable\" id=\"functions\"><thead><tr>"
	      "<th onclick=\"cySort(this)\">function</th>"
	      "<th class=\"self\" onclick=\"cySort(this)\">self cycles</th>"
	      "<th onclick=\"cySort(this)\">self</th>"
	      "<th class=\"incl\" onclick=\"cySort(this)\">inclusive cycles</th>"
	      "<th onclick=\"cySort(this)\">inclusive</th>"
	      "<th onclick=\"cySort(this)\">instructions</th>"
	      "<th onclick=\"cySort(this)\">source</th></tr></thead><tbody>\n",
	      f);
	for (size_t k = 0; k < p->n_frames && k < TABLE_ROWS; k++) {
		const struct prof_frame *fr = &p->frames[order[k]];
		fputs("<tr><td class=\"name\">", f);
		xml_text(f, fr->name);
		if (fr->kind == CY_FRAME_INLINED)
			fputs(" <i>(inlined)</i>", f);
		fputs("</td>", f);
		num_cell(f, fr->self_cycles);
		pct_cell(f, fr->self_cycles, p->cycles);
		num_cell(f, fr->cycles);
		pct_cell(f, fr->cycles, p->cycles);
		num_cell(f, fr->instructions);
		fputs("<td class=\"name\">", f);
		if (fr->file) {
			xml_text(f, fr->file);
			fprintf(f, ":%d", fr->line);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (p->n_frames > TABLE_ROWS)
		fprintf(f, "<p>%zu more functions, each with fewer self cycles.</p>\n",
			p->n_frames - TABLE_ROWS);
}

static void span_table(FILE *f, const struct profile *p)
{
	size_t n;
	const cy_span *s = cy_vm_tracker_spans(p->vm, &n);

	fputs("<h2>Cycle tracker</h2>\n", f);
	if (!n) {
		fputs("<p>No spans (run with <code>--cycle-tracker</code> to read the guest's "
		      "cycle-tracker lines).</p>\n",
		      f);
		return;
	}
	fputs("<table id=\"spans\"><thead><tr><th>span</th><th>calls</th><th>total</th>"
	      "<th>min</th><th>max</th><th>share</th></tr></thead><tbody>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		char *name = strndup(s[i].name, s[i].name_len);
		fprintf(f, "<tr><td class=\"name\" style=\"padding-left:%uem\">", s[i].depth + 1);
		xml_text(f, name ? name : "?");
		free(name);
		fputs("</td>", f);
		num_cell(f, s[i].count);
		num_cell(f, s[i].total);
		num_cell(f, s[i].min);
		num_cell(f, s[i].max);
		pct_cell(f, s[i].total, p->cycles);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* The hottest functions' source lines and instructions, as cyclops
 * annotate lists them (written to memory, then as the page's text). */
static int annotated(FILE *f, const struct profile *p)
{
	struct annot_pc *pcs = calloc(p->n_pcs + 1, sizeof(*pcs));
	struct annot an = { 0 };
	size_t n_hot = 0, *hot = NULL;
	int rc = -ENOMEM;

	if (!pcs)
		return -ENOMEM;
	fputs("<h2>Hottest functions, line by line</h2>\n", f);
	if (!p->prog.elf) {
		fputs("<p>The program could not be read again: no listing.</p>\n", f);
		free(pcs);
		return 0;
	}
	for (size_t i = 0; i < p->n_pcs; i++)
		pcs[i] =
		    (struct annot_pc){ p->pcs[i].pc, p->pcs[i].cycles, p->pcs[i].instructions };
	an = (struct annot){ .pg = &p->prog,
			     .src = p->src,
			     .unit = "cycles",
			     .unit2 = "instructions",
			     .total = p->cycles,
			     .total2 = p->instructions,
			     .pcs = pcs,
			     .n_pcs = p->n_pcs };
	if (annotate_prepare(&an) != 0 || !(hot = annotate_hot(&an, &n_hot)))
		goto out_free;
	fputs("<p>Each source line with its cycles, instructions and share of the run (the lines "
	      "of the functions inlined into it too), then the instructions, each with its "
	      "cycles and share of the function.</p>\n",
	      f);
	for (size_t i = 0; i < n_hot && i < ANNOTATED; i++) {
		char *text = NULL, buf[32];
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);
		if (!m)
			goto out_free;
		annotate_source(m, &an, hot[i]);
		fputc('\n', m);
		annotate_disasm(m, &an, hot[i]);
		fclose(m);
		fprintf(f, "<details class=\"annotated\"%s><summary>", i ? "" : " open");
		xml_text(f, p->prog.funcs[hot[i]].name);
		fprintf(f, ": %s cycles (%.2f%%)</summary>\n<pre>", count(an.func_v[hot[i]], buf),
			text_percent(an.func_v[hot[i]], p->cycles));
		/* a line at a time: text_put_xml writes a newline as the text \x0a */
		for (char *line = text, *nl; line && line < text + len; line = nl ? nl + 1 : NULL) {
			nl = memchr(line, '\n', (size_t)(text + len - line));
			text_put_xml(f, line, nl ? (size_t)(nl - line) : strlen(line));
			fputc('\n', f);
		}
		fputs("</pre></details>\n", f);
		free(text);
	}
	rc = 0;
out_free:
	free(hot);
	annotate_free(&an);
	free(pcs);
	return rc;
}

static const char html_style[] =
    "body { font-family: sans-serif; margin: 1.5em; color: #222; }\n"
    "table { border-collapse: collapse; margin-bottom: 1em; }\n"
    "td, th { padding: 2px 8px; text-align: right; border-bottom: 1px solid #ddd; }\n"
    "td.name, th:first-child { text-align: left; font-family: monospace; }\n"
    "table.sortable th { cursor: pointer; user-select: none; }\n"
    "th[data-order=desc]::after { content: ' \\25BE'; } th[data-order=asc]::after { content: ' "
    "\\25B4'; }\n"
    "svg.flame { width: 100%; height: auto; display: block; }\n"
    "g.f text { pointer-events: none; } g.f:hover rect { stroke: #000; }\n"
    "g.f { cursor: pointer; } g.f.match rect { fill: rgb(230,0,230); }\n"
    ".toolbar { display: flex; gap: 1em; align-items: center; flex-wrap: wrap; margin: 0.5em 0; }\n"
    "#details { font-family: monospace; min-height: 1.4em; padding: 4px; background: #f4f4f4; "
    "overflow-wrap: anywhere; }\n"
    "pre { overflow-x: auto; background: #fafafa; padding: 0.5em; font-size: 12px; }\n"
    "details.annotated summary { font-family: monospace; cursor: pointer; }\n"
    "#selftest { display: none; }\n";

int profile_write_html(FILE *f, const struct profile *p)
{
	uint32_t *order = malloc((p->n_frames + 1) * sizeof(*order));
	struct flame_tree t = profile_tree(p);
	struct folded folded;
	char buf[32];
	int rc = -ENOMEM;

	if (!order || fold_tree(p, &folded) != 0) {
		free(order);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->n_frames; i++)
		order[i] = (uint32_t)i;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>cyclops: ",
	      f);
	xml_text(f, p->program);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>cyclops: ", html_style);
	xml_text(f, p->program);
	fputs("</h1>\n<table id=\"summary\">\n", f);
	fprintf(f, "<tr><th>cycles</th><td id=\"cycles\" data-v=\"%llu\">%s</td></tr>\n",
		(unsigned long long)p->cycles, count(p->cycles, buf));
	fprintf(f, "<tr><th>instructions</th><td>%s</td></tr>\n", count(p->instructions, buf));
	fputs("<tr><th>cost model</th><td>", f);
	xml_text(f, p->stats.model);
	fprintf(f, "</td></tr>\n<tr><th>exit status</th><td>%d</td></tr>\n", p->status);
	if (p->partial) {
		fputs("<tr><th>partial</th><td id=\"partial\">", f);
		xml_text(f, p->partial);
		fputs("</td></tr>\n", f);
	}
	if (p->truncated) {
		fputs("<tr><th>truncated</th><td id=\"truncated\">", f);
		xml_text(f, p->truncated);
		fputs("</td></tr>\n", f);
	}
	if (p->stats.paging || p->stats.reserved) {
		fprintf(f, "<tr><th>segments</th><td>%s</td></tr>\n",
			count(p->stats.segments, buf));
		fprintf(f, "<tr><th>user / paging / reserved</th><td>%s / ",
			count(p->stats.user, buf));
		fprintf(f, "%s / ", count(p->stats.paging, buf));
		fprintf(f, "%s</td></tr>\n", count(p->stats.reserved, buf));
		fprintf(f, "<tr><th>pages in / out</th><td>%s / ", count(p->stats.pages_in, buf));
		fprintf(f, "%s</td></tr>\n", count(p->stats.pages_out, buf));
	}
	fputs("</table>\n<h2>Flame graph</h2>\n"
	      "<div class=\"toolbar\"><label>Search <input id=\"search\" type=\"search\" "
	      "oninput=\"cySearch(this.value)\" placeholder=\"a function\"></label>"
	      "<span id=\"matched\"></span>"
	      "<button id=\"reset\" onclick=\"cyReset()\">Reset zoom</button>"
	      "<label><input id=\"fold\" type=\"checkbox\" onchange=\"cyFold()\"> Fold "
	      "recursion</label></div>\n"
	      "<div id=\"details\">Hover over a frame for its cycles; click to zoom.</div>\n",
	      f);
	flame_svg(f, p, &t, "flame", false, false);
	flame_svg(f, p, &folded.t, "flame-folded", false, true);
	fputs("<h2>Functions</h2>\n<p>Click a column's head to sort by it.</p>\n", f);
	functions_table(f, p, order);
	span_table(f, p);
	if (annotated(f, p) != 0)
		goto out_free;
	fprintf(f,
		"<pre id=\"selftest\"></pre>\n<script>\n%s"
		"cyFlameInit(document.getElementById('flame'));\n"
		"cyFlameInit(document.getElementById('flame-folded'));\n"
		"(function () {\n"
		"  var m = /^#selftest:search=(.*)$/.exec(location.hash);\n"
		"  if (m) cySelfTest(decodeURIComponent(m[1]));\n"
		"})();\n</script>\n",
		profile_flame_js);
	fputs("</body></html>\n", f);
	rc = 0;
out_free:
	fold_free(&folded);
	free(order);
	return rc;
}

/* "main;work;leaf 120" per stack that spent cycles itself; a stack deeper
 * than PROFILE_TEXT_DEPTH with "[N frames elided]" in its middle. */
int profile_write_folded(FILE *f, const struct profile *p)
{
	uint32_t *stack = malloc((p->n_nodes + 1) * sizeof(*stack));

	if (!stack)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_nodes; i++) {
		if (!p->nodes[i].self_cycles)
			continue;
		size_t elided, n = profile_stack_capped(p, (uint32_t)i, stack, &elided);
		for (size_t k = 0; k < n; k++) {
			if (k)
				fputc(';', f);
			if (elided && k == PROFILE_TEXT_HEAD)
				fprintf(f, "[%zu frames elided];", elided);
			profile_folded_name(f, p->nodes[stack[k]].name);
		}
		fprintf(f, " %llu\n", (unsigned long long)p->nodes[i].self_cycles);
	}
	free(stack);
	return 0;
}
