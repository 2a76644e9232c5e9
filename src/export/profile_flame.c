/* profile_flame.c - the flame graph cyclops draws itself (.svg, hover for
 * details, click to zoom) and the self-contained HTML report around it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/profile.h"

#define FLAME_WIDTH   1200
#define FLAME_ROW     17
#define FLAME_MIN_PX  0.1 /* narrower frames are left out of the picture */
#define FLAME_CHAR_PX 7   /* a character of the label font, roughly */
#define TOP_FUNCTIONS 30

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

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Warm colours from the name, so a function keeps its colour; pseudo-frames
 * (paging, ecalls, unknown code) are blue-grey. */
static void frame_colour(const cy_stack_node *nd, char *buf, size_t size)
{
	uint32_t h = 2166136261u;

	for (const char *s = nd->name; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	if (nd->kind != CY_FRAME_FUNCTION)
		snprintf(buf, size, "rgb(%u,%u,%u)", 120 + h % 30, 150 + h % 30, 200 + h % 40);
	else
		snprintf(buf, size, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130,
			 40 + (h >> 16) % 40);
}

/* The zoom: a click on a frame makes it the full width; its ancestors
 * stretch across, frames outside it hide. Works in the .svg and the page. */
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
    "}\n"
    "function cyFlameInit(svg) {\n"
    "  svg.setAttribute('data-frames', svg.querySelectorAll('g.f').length);\n"
    "  svg.addEventListener('click', function (ev) {\n"
    "    var g = ev.target.closest ? ev.target.closest('g.f') : null;\n"
    "    if (g) cyFlameZoom(svg, g);\n"
    "  });\n"
    "}\n";

static unsigned max_depth(const struct profile *p)
{
	unsigned d = 0;

	for (size_t i = 0; i < p->n_nodes; i++)
		if (p->nodes[i].depth > d)
			d = p->nodes[i].depth;
	return d;
}

static void flame_node(FILE *f, const struct profile *p, uint32_t i, uint64_t x, unsigned rows)
{
	const cy_stack_node *nd = &p->nodes[i];
	double scale = p->cycles ? (double)FLAME_WIDTH / (double)p->cycles : 0;
	double px = (double)x * scale, pw = (double)nd->cycles * scale;
	unsigned y = (rows - 1 - nd->depth) * FLAME_ROW;
	size_t chars = pw > 6 ? (size_t)((pw - 6) / FLAME_CHAR_PX) : 0;
	char colour[32];

	if (pw < FLAME_MIN_PX)
		return;
	frame_colour(nd, colour, sizeof(colour));
	fprintf(f, "<g class=\"f\" data-x=\"%llu\" data-w=\"%llu\" data-name=\"",
		(unsigned long long)x, (unsigned long long)nd->cycles);
	xml_text(f, nd->name);
	fputs("\"><title>", f);
	xml_text(f, nd->name);
	fprintf(f, " - %llu cycles (%.2f%%), self %llu, %llu instructions</title>",
		(unsigned long long)nd->cycles, pct(nd->cycles, p->cycles),
		(unsigned long long)nd->self_cycles, (unsigned long long)nd->instructions);
	fprintf(f,
		"<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\" rx=\"2\"/>"
		"<text x=\"%.2f\" y=\"%u\">",
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
	for (uint32_t c = p->first_child[i]; c != UINT32_MAX; c = p->next_sibling[c]) {
		flame_node(f, p, c, x, rows);
		x += p->nodes[c].cycles;
	}
}

void profile_flame_svg(FILE *f, const struct profile *p, bool standalone)
{
	unsigned rows = max_depth(p) + 2; /* the frames and a row for "all" */
	uint64_t x = 0;

	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"flame\" class=\"flame\" "
		"width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" data-width=\"%d\" "
		"font-family=\"monospace\" font-size=\"11\">\n",
		FLAME_WIDTH, rows * FLAME_ROW, FLAME_WIDTH, rows * FLAME_ROW, FLAME_WIDTH);
	if (standalone) {
		fprintf(f,
			"<style>g.f text { pointer-events: none; } g.f:hover rect { stroke: "
			"#000; } g.f { cursor: pointer; }</style>\n<script><![CDATA[\n%s"
			"cyFlameInit(document.documentElement);\n]]></script>\n",
			profile_flame_js);
	}
	/* the root row: the whole run, a click on it zooms out */
	fprintf(f,
		"<g class=\"f\" data-x=\"0\" data-w=\"%llu\" data-name=\"all\"><title>all - %llu "
		"cycles, %llu instructions</title><rect x=\"0\" y=\"%u\" width=\"%d\" "
		"height=\"%u\" fill=\"rgb(200,200,200)\" rx=\"2\"/><text x=\"3\" y=\"%u\">all "
		"(%llu cycles)</text></g>\n",
		(unsigned long long)p->cycles, (unsigned long long)p->cycles,
		(unsigned long long)p->instructions, (rows - 1) * FLAME_ROW, FLAME_WIDTH,
		FLAME_ROW - 1, rows * FLAME_ROW - 5, (unsigned long long)p->cycles);
	for (size_t i = 0; i < p->n_nodes; i++)
		if (p->nodes[i].parent < 0) {
			/* the root row is depth -1: shift the tree up by one */
			flame_node(f, p, (uint32_t)i, x, rows - 1);
			x += p->nodes[i].cycles;
		}
	fputs("</svg>\n", f);
}

int profile_write_svg(FILE *f, const struct profile *p)
{
	profile_flame_svg(f, p, true);
	return 0;
}

static const struct profile *sort_profile;

static int by_self(const void *a, const void *b)
{
	const struct prof_frame *x = &sort_profile->frames[*(const uint32_t *)a];
	const struct prof_frame *y = &sort_profile->frames[*(const uint32_t *)b];
	return (x->self_cycles < y->self_cycles) - (x->self_cycles > y->self_cycles);
}

static int by_total(const void *a, const void *b)
{
	const struct prof_frame *x = &sort_profile->frames[*(const uint32_t *)a];
	const struct prof_frame *y = &sort_profile->frames[*(const uint32_t *)b];
	return (x->cycles < y->cycles) - (x->cycles > y->cycles);
}

static void top_table(FILE *f, const struct profile *p, uint32_t *order, bool self)
{
	sort_profile = p;
	qsort(order, p->n_frames, sizeof(*order), self ? by_self : by_total);
	fprintf(f,
		"<table class=\"top\" id=\"top-%s\"><tr><th>function</th><th>self cycles</th>"
		"<th>self</th><th>inclusive cycles</th><th>inclusive</th><th>source</th></tr>\n",
		self ? "self" : "inclusive");
	for (size_t k = 0; k < p->n_frames && k < TOP_FUNCTIONS; k++) {
		const struct prof_frame *fr = &p->frames[order[k]];
		fputs("<tr><td class=\"name\">", f);
		xml_text(f, fr->name);
		fprintf(f, "</td><td>%llu</td><td>%.2f%%</td><td>%llu</td><td>%.2f%%</td><td>",
			(unsigned long long)fr->self_cycles, pct(fr->self_cycles, p->cycles),
			(unsigned long long)fr->cycles, pct(fr->cycles, p->cycles));
		if (fr->file) {
			xml_text(f, fr->file);
			fprintf(f, ":%d", fr->line);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
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
	fputs("<table id=\"spans\"><tr><th>span</th><th>calls</th><th>total</th><th>min</th>"
	      "<th>max</th><th>share</th></tr>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		char *name = strndup(s[i].name, s[i].name_len);
		fprintf(f, "<tr><td class=\"name\" style=\"padding-left:%uem\">", s[i].depth + 1);
		xml_text(f, name ? name : "?");
		free(name);
		fprintf(f,
			"</td><td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td>"
			"<td>%.2f%%</td></tr>\n",
			(unsigned long long)s[i].count, (unsigned long long)s[i].total,
			(unsigned long long)s[i].min, (unsigned long long)s[i].max,
			pct(s[i].total, p->cycles));
	}
	fputs("</table>\n", f);
}

/* Each of the top functions by self cycles, with the cycles of its pcs. */
static void pc_histogram(FILE *f, const struct profile *p, uint32_t *order)
{
	sort_profile = p;
	qsort(order, p->n_frames, sizeof(*order), by_self);
	fputs("<h2>Cycles per instruction of the top functions</h2>\n", f);
	for (size_t k = 0; k < p->n_frames && k < 10; k++) {
		const struct prof_frame *fr = &p->frames[order[k]];
		if (fr->kind != CY_FRAME_FUNCTION || !fr->self_cycles)
			continue;
		fputs("<details><summary>", f);
		xml_text(f, fr->name);
		fprintf(f,
			" (%llu cycles self)</summary>\n<table class=\"pcs\"><tr><th>pc</th>"
			"<th>instruction</th><th>cycles</th><th>count</th><th></th></tr>\n",
			(unsigned long long)fr->self_cycles);
		for (size_t i = 0; i < p->n_pcs; i++) {
			const cy_pc_cost *c = &p->pcs[i];
			uint32_t bits = 0;
			char text[96] = "";
			if (c->pc - fr->addr >= fr->size)
				continue;
			if (cy_vm_read(p->vm, c->pc, &bits, sizeof(bits)) == 0)
				cy_disasm(c->pc, bits, text, sizeof(text));
			fprintf(f, "<tr><td>%08x</td><td class=\"name\">", c->pc);
			xml_text(f, text);
			fprintf(f,
				"</td><td>%llu</td><td>%llu</td><td><span class=\"bar\" "
				"style=\"width:%.0fpx\"></span></td></tr>\n",
				(unsigned long long)c->cycles, (unsigned long long)c->instructions,
				2.0 * pct(c->cycles, fr->self_cycles));
		}
		fputs("</table></details>\n", f);
	}
}

static const char html_style[] =
    "body { font-family: sans-serif; margin: 1.5em; color: #222; }\n"
    "table { border-collapse: collapse; margin-bottom: 1em; }\n"
    "td, th { padding: 2px 8px; text-align: right; border-bottom: 1px solid #ddd; }\n"
    "td.name, th:first-child { text-align: left; font-family: monospace; }\n"
    "g.f text { pointer-events: none; } g.f:hover rect { stroke: #000; }\n"
    "g.f { cursor: pointer; } .bar { display: inline-block; height: 0.8em; background: #e60; }\n"
    ".cols { display: flex; gap: 2em; flex-wrap: wrap; }\n";

int profile_write_html(FILE *f, const struct profile *p)
{
	uint32_t *order = malloc((p->n_frames + 1) * sizeof(*order));

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_frames; i++)
		order[i] = (uint32_t)i;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>cyclops: ",
	      f);
	xml_text(f, p->program);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>cyclops: ", html_style);
	xml_text(f, p->program);
	fputs("</h1>\n<table id=\"summary\">\n", f);
	fprintf(f, "<tr><th>cycles</th><td id=\"cycles\">%llu</td></tr>\n",
		(unsigned long long)p->cycles);
	fprintf(f, "<tr><th>instructions</th><td>%llu</td></tr>\n",
		(unsigned long long)p->instructions);
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
	if (p->stats.paging || p->stats.reserved)
		fprintf(f,
			"<tr><th>segments</th><td>%llu</td></tr>\n<tr><th>user / paging / "
			"reserved</th><td>%llu / %llu / %llu</td></tr>\n<tr><th>pages in / "
			"out</th><td>%llu / %llu</td></tr>\n",
			(unsigned long long)p->stats.segments, (unsigned long long)p->stats.user,
			(unsigned long long)p->stats.paging, (unsigned long long)p->stats.reserved,
			(unsigned long long)p->stats.pages_in,
			(unsigned long long)p->stats.pages_out);
	fputs("</table>\n<h2>Flame graph</h2>\n<p>Hover for details, click a frame to zoom, "
	      "click <i>all</i> to zoom out.</p>\n",
	      f);
	profile_flame_svg(f, p, false);
	fputs("<div class=\"cols\"><div><h2>Top functions by self cycles</h2>\n", f);
	top_table(f, p, order, true);
	fputs("</div><div><h2>Top functions by inclusive cycles</h2>\n", f);
	top_table(f, p, order, false);
	fputs("</div></div>\n", f);
	span_table(f, p);
	pc_histogram(f, p, order);
	fprintf(f, "<script>\n%scyFlameInit(document.getElementById('flame'));\n</script>\n",
		profile_flame_js);
	fputs("</body></html>\n", f);
	free(order);
	return 0;
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
