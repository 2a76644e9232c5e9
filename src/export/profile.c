/* profile.c - "--profile FILE": gathers the call-stack profiler's results
 * once (frames, call tree, source lines) and hands them to the writer of
 * each file asked for (profile_write.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "export/profile.h"

int profile_attach(struct profile *p, cy_vm *vm, cy_callstack **cs)
{
	memset(p, 0, sizeof(*p));
	p->vm = vm;
	return cy_callstack_attach(vm, cs);
}

void profile_free(struct profile *p)
{
	free(p->frame_of);
	free(p->frames);
	free(p->first_child);
	free(p->next_sibling);
	free(p->func_store);
	free(p->truncated);
	srcinfo_close(p->src);
}

static const cy_stack_node *sort_nodes; /* for by_name: qsort has no context */

/* By name pointer, then by node: each name's nodes together, its first
 * node first. */
static int by_name(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const char *x = sort_nodes[i].name, *y = sort_nodes[j].name;

	if (x != y)
		return (x > y) - (x < y);
	return (i > j) - (i < j);
}

static int by_value(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

long profile_func_of(const struct profile *p, uint32_t pc)
{
	size_t lo = 0, hi = p->n_funcs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->funcs[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc - p->funcs[lo - 1].addr >= p->funcs[lo - 1].size)
		return -1;
	return (long)lo - 1;
}

/* Inclusive cycles per frame, a frame counted once per stack (recursion):
 * a depth-first walk that knows which frames are on the current path. */
static int frame_totals(struct profile *p)
{
	uint32_t *on_path = calloc(p->n_frames + 1, sizeof(*on_path));
	uint32_t *todo = malloc((p->n_nodes + 1) * sizeof(*todo));
	uint32_t *path = malloc((p->n_nodes + 1) * sizeof(*path));
	size_t n_todo = 0, depth = 0;
	int rc = -ENOMEM;

	if (!on_path || !todo || !path)
		goto out_free;
	for (size_t i = 0; i < p->n_nodes; i++)
		if (p->nodes[i].parent < 0)
			todo[n_todo++] = (uint32_t)i;
	while (n_todo) {
		uint32_t i = todo[--n_todo];
		const cy_stack_node *nd = &p->nodes[i];
		while (depth > nd->depth)
			on_path[p->frame_of[path[--depth]]]--;
		path[depth++] = i;
		struct prof_frame *fr = &p->frames[p->frame_of[i]];
		if (on_path[p->frame_of[i]]++ == 0) {
			fr->cycles += nd->cycles;
			fr->instructions += nd->instructions;
		}
		for (uint32_t c = p->first_child[i]; c != UINT32_MAX; c = p->next_sibling[c])
			todo[n_todo++] = c;
	}
	rc = 0;
out_free:
	free(on_path);
	free(todo);
	free(path);
	return rc;
}

/* Appends "; TEXT" (or TEXT to an empty note). */
static void __attribute__((format(printf, 3, 4)))
note_add(char *note, size_t size, const char *fmt, ...)
{
	size_t len = strlen(note);
	va_list ap;

	if (len)
		len += (size_t)snprintf(note + len, size - len, "; ");
	va_start(ap, fmt);
	if (len < size)
		vsnprintf(note + len, size - len, fmt, ap);
	va_end(ap);
}

/* "more than 1048576 distinct stacks: new ones charged to their caller; ..."
 * for the limits the profiler reached; no parentheses, so that it fits in
 * speedscope's "NAME (truncated: ...)". 0 or -ENOMEM. */
static int truncation_note(struct profile *p, cy_callstack *cs)
{
	const cy_callstack_limits *l = &p->limits;
	char note[512] = "";

	if (!cy_callstack_truncated(cs, &p->limits))
		return 0;
	if (l->nodes_full)
		note_add(note, sizeof(note),
			 "more than %u distinct stacks: new ones charged to their caller",
			 CY_CALLSTACK_MAX_NODES);
	if (l->ecalls_full)
		note_add(note, sizeof(note),
			 "more than %u ecall numbers: new ones charged to their caller",
			 CY_CALLSTACK_MAX_ECALLS);
	if (l->pcs_full)
		note_add(
		    note, sizeof(note),
		    "more than %u distinct pcs: %llu cycles of new ones not in the per-pc costs",
		    CY_CALLSTACK_MAX_PCS, (unsigned long long)l->lost_pc_cycles);
	if (l->calls_full)
		note_add(note, sizeof(note),
			 "more than %u call sites: new ones without a call edge",
			 CY_CALLSTACK_MAX_CALLS);
	p->truncated = strdup(note);
	return p->truncated ? 0 : -ENOMEM;
}

int profile_gather(struct profile *p, cy_callstack *cs, const char *program, int status)
{
	const cy_symbol *syms;
	size_t n_syms;
	uint32_t *order = NULL, *first = NULL;
	int rc = -ENOMEM;

	p->program = program;
	p->status = status;
	p->partial = cy_vm_stop_reason(p->vm) == CY_STOP_EXIT ? NULL : cy_vm_stop_message(p->vm);
	p->cycles = cy_vm_cycles(p->vm);
	p->instructions = cy_vm_instret(p->vm);
	cy_vm_cost_stats(p->vm, &p->stats);
	p->nodes = cy_callstack_nodes(cs, &p->n_nodes);
	p->segments = cy_callstack_segments(cs, &p->n_segments);
	if (!p->segments)
		return -ENOMEM;
	p->pcs = cy_callstack_pcs(cs, &p->n_pcs);
	p->calls = cy_callstack_calls(cs, &p->n_calls);
	if (!p->nodes || !p->pcs || !p->calls || truncation_note(p, cs) != 0)
		return -ENOMEM;
	syms = cy_vm_symbols(p->vm, &n_syms);
	p->func_store = malloc((n_syms + 1) * sizeof(*p->func_store));
	p->frame_of = malloc((p->n_nodes + 1) * sizeof(*p->frame_of));
	p->frames = calloc(p->n_nodes + 1, sizeof(*p->frames));
	p->first_child = malloc((p->n_nodes + 1) * sizeof(uint32_t));
	p->next_sibling = malloc((p->n_nodes + 1) * sizeof(uint32_t));
	order = malloc((p->n_nodes + 1) * sizeof(*order));
	first = malloc((p->n_nodes + 1) * sizeof(*first));
	if (!p->func_store || !p->frame_of || !p->frames || !p->first_child || !p->next_sibling ||
	    !order || !first)
		goto out_free;
	for (size_t i = 0; i < n_syms; i++)
		if (syms[i].size)
			p->func_store[p->n_funcs++] = syms[i];
	p->funcs = p->func_store;
	p->src = srcinfo_open(p->elf_path ? p->elf_path : program);

	/* frames: one per distinct name (the profiler's names are unique
	 * pointers per function, per syscall and per pseudo-frame), numbered
	 * in the order their first nodes were made, so that the files do not
	 * depend on where the names lie in memory */
	for (size_t i = 0; i < p->n_nodes; i++)
		order[i] = (uint32_t)i;
	sort_nodes = p->nodes;
	qsort(order, p->n_nodes, sizeof(*order), by_name);
	for (size_t k = 0; k < p->n_nodes; k++)
		if (k == 0 || p->nodes[order[k]].name != p->nodes[order[k - 1]].name)
			first[p->n_frames++] = order[k];
	qsort(first, p->n_frames, sizeof(*first), by_value);
	for (size_t f = 0; f < p->n_frames; f++) {
		const cy_stack_node *nd = &p->nodes[first[f]];
		struct prof_frame *fr = &p->frames[f];
		fr->name = nd->name;
		fr->kind = nd->kind;
		fr->addr = nd->addr;
		fr->size = nd->size;
		if (nd->kind == CY_FRAME_FUNCTION && p->src)
			srcinfo_line(p->src, nd->addr, &fr->file, &fr->line);
	}
	for (size_t k = 0, f = 0; k < p->n_nodes; k++) {
		const cy_stack_node *nd = &p->nodes[order[k]];
		if (k == 0 || nd->name != p->nodes[order[k - 1]].name) {
			const uint32_t *at =
			    bsearch(&order[k], first, p->n_frames, sizeof(*first), by_value);
			f = (size_t)(at - first);
		}
		p->frame_of[order[k]] = (uint32_t)f;
		p->frames[f].self_cycles += nd->self_cycles;
		p->frames[f].self_instructions += nd->self_instructions;
	}
	/* children lists, in creation order (the order calls first happened) */
	for (size_t i = 0; i < p->n_nodes; i++)
		p->first_child[i] = p->next_sibling[i] = UINT32_MAX;
	for (size_t i = p->n_nodes; i-- > 0;)
		if (p->nodes[i].parent >= 0) {
			p->next_sibling[i] = p->first_child[p->nodes[i].parent];
			p->first_child[p->nodes[i].parent] = (uint32_t)i;
		}
	rc = frame_totals(p);
out_free:
	free(order);
	free(first);
	return rc;
}

size_t profile_stack(const struct profile *p, uint32_t node, uint32_t *out, size_t max)
{
	size_t n = p->nodes[node].depth + 1;

	if (n > max)
		n = max;
	for (size_t k = n; k-- > 0;) {
		out[k] = node;
		node = (uint32_t)p->nodes[node].parent;
	}
	return n;
}

size_t profile_stack_capped(const struct profile *p, uint32_t node, uint32_t *out, size_t *elided)
{
	size_t n = p->nodes[node].depth + 1;

	*elided = 0;
	if (n <= PROFILE_TEXT_DEPTH)
		return profile_stack(p, node, out, n);
	*elided = n - PROFILE_TEXT_HEAD - PROFILE_TEXT_TAIL;
	for (size_t k = PROFILE_TEXT_HEAD + PROFILE_TEXT_TAIL; k-- > PROFILE_TEXT_HEAD;) {
		out[k] = node;
		node = (uint32_t)p->nodes[node].parent;
	}
	for (size_t k = 0; k < *elided; k++)
		node = (uint32_t)p->nodes[node].parent;
	for (size_t k = PROFILE_TEXT_HEAD; k-- > 0;) {
		out[k] = node;
		node = (uint32_t)p->nodes[node].parent;
	}
	return PROFILE_TEXT_HEAD + PROFILE_TEXT_TAIL;
}

void profile_folded_name(FILE *f, const char *name)
{
	/* ';' separates the frames; the rest as on a terminal, so that no
	 * control character ends the line (a byte of ';' is never inside a
	 * UTF-8 sequence, so the pieces stay whole) */
	for (const char *semi; (semi = strchr(name, ';')); name = semi + 1) {
		text_put_printable(f, name, (size_t)(semi - name));
		fputc('_', f);
	}
	text_put_printable(f, name, strlen(name));
}
