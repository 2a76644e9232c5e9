/* profile.c - "--profile FILE": gathers the call-stack profiler's results
 * once (frames, call tree, source lines) and hands them to the writer of
 * each file asked for (profile_write.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "export/profile.h"
#include "util/index_map.h"
#include "util/state_io.h"
#include "util/strset.h"

int profile_attach(struct profile *p, cy_vm *vm, cy_callstack **cs)
{
	bool no_inline = p->no_inline;
	struct src_paths paths = p->paths;

	memset(p, 0, sizeof(*p));
	p->vm = vm;
	p->no_inline = no_inline;
	p->paths = paths;
	return cy_callstack_attach(vm, cs);
}

void profile_free(struct profile *p)
{
	free(p->tree);
	free(p->phys_node);
	free(p->frame_of);
	free(p->frames);
	free(p->first_child);
	free(p->next_sibling);
	free(p->func_store);
	free(p->truncated);
	free(p->chunks);
	free(p->shared_pcs);
	srcinfo_close(p->src);
	program_close(&p->prog);
}

int profile_add_chunk(struct profile *p, uint64_t start, uint64_t end)
{
	if (p->n_chunks == p->cap_chunks) {
		size_t cap = p->cap_chunks ? 2 * p->cap_chunks : 64;
		void *c = realloc(p->chunks, cap * sizeof(*p->chunks));
		if (!c)
			return -ENOMEM;
		p->chunks = c;
		p->cap_chunks = cap;
	}
	p->chunks[p->n_chunks][0] = start;
	p->chunks[p->n_chunks++][1] = end;
	return 0;
}

int profile_chunks_state_io(struct sio *io, struct profile *p)
{
	size_t n = p->n_chunks;

	sio_tag(io, "PCHK");
	sio_count(io, &n, SIZE_MAX / 16, 16, "chunks of the timeline");
	if (io->load && sio_ok(io)) {
		p->n_chunks = 0;
		for (size_t i = 0; i < n && sio_ok(io); i++) {
			uint64_t c[2];
			sio_u64(io, &c[0]);
			sio_u64(io, &c[1]);
			if (sio_ok(io) && profile_add_chunk(p, c[0], c[1]) != 0)
				sio_fail(io, "out of host memory");
		}
		return io->err;
	}
	for (size_t i = 0; i < n; i++) {
		sio_u64(io, &p->chunks[i][0]);
		sio_u64(io, &p->chunks[i][1]);
	}
	return io->err;
}

size_t profile_chain(const struct profile *p, uint32_t pc, const struct src_inline **out,
		     size_t max)
{
	return p->no_inline || !p->src ? 0 : srcinfo_chain(p->src, pc, out, max);
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
	if (l->per_pc)
		note_add(note, sizeof(note),
			 "more than %u pcs on distinct stacks: each function's pcs shared out "
			 "among its stacks in proportion",
			 CY_CALLSTACK_MAX_PCS);
	if (l->calls_full)
		note_add(note, sizeof(note),
			 "more than %u call sites: new ones without a call edge",
			 CY_CALLSTACK_MAX_CALLS);
	p->truncated = strdup(note);
	return p->truncated ? 0 : -ENOMEM;
}

/* The stacks the writers show, built from the profiler's (expand_tree): a
 * node per (parent, frame), a frame per name. */
struct expand {
	struct profile *p;
	struct index_map map; /* (parent + 1, frame) -> node */
	struct strset names;  /* the frames by name */
	size_t cap_frames, cap_frame_of;
	bool failed;
};

static const char *frame_text(const void *owner, size_t i)
{
	return ((const struct profile *)owner)->frames[i].name;
}

/* The frame named name, made (with kind, addr, size, file, line) if new. */
static uint32_t frame_named(struct expand *x, const char *name, cy_frame_kind kind, uint32_t addr,
			    uint32_t size, const char *file, int line)
{
	struct profile *p = x->p;
	size_t slot;
	int64_t f;

	if (x->failed)
		return UINT32_MAX;
	x->names.text = frame_text;
	x->names.owner = p;
	f = strset_find(&x->names, name, p->n_frames, &slot);
	if (f == -2)
		goto out_failed;
	if (f >= 0) {
		struct prof_frame *fr = &p->frames[f];
		if (kind == CY_FRAME_FUNCTION && !fr->size) { /* the function itself */
			fr->addr = addr;
			fr->size = size;
		}
		return (uint32_t)f;
	}
	if (p->n_frames == x->cap_frames) {
		size_t cap = x->cap_frames ? 2 * x->cap_frames : 256;
		struct prof_frame *fr = realloc(p->frames, cap * sizeof(*fr));
		if (!fr)
			goto out_failed;
		p->frames = fr;
		x->cap_frames = cap;
	}
	p->frames[p->n_frames] = (struct prof_frame){
		.name = name, .kind = kind, .addr = addr, .size = size, .file = file, .line = line
	};
	strset_add(&x->names, slot, p->n_frames);
	return (uint32_t)p->n_frames++;
out_failed:
	x->failed = true;
	return UINT32_MAX;
}

/* The node for frame under parent (-1: outermost), made if new. */
static int64_t tree_child(struct expand *x, int64_t parent, uint32_t frame)
{
	struct profile *p = x->p;
	bool added;
	int64_t i;

	if (x->failed || frame == UINT32_MAX)
		return parent;
	i = index_map_get(&x->map, (uint32_t)(parent + 1), frame, (void **)&p->tree,
			  sizeof(*p->tree), &added);
	if (i < 0) {
		x->failed = true;
		return parent;
	}
	if (!added)
		return i;
	if (x->cap_frame_of < x->map.cap) { /* frame_of grows with the tree */
		uint32_t *fo = realloc(p->frame_of, x->map.cap * sizeof(*fo));
		if (!fo) {
			x->failed = true;
			return parent;
		}
		p->frame_of = fo;
		x->cap_frame_of = x->map.cap;
	}
	const struct prof_frame *fr = &p->frames[frame];
	p->tree[i] = (cy_stack_node){ .parent = (int)parent,
				      .depth = parent < 0 ? 0 : p->tree[parent].depth + 1,
				      .kind = fr->kind,
				      .name = fr->name,
				      .addr = fr->addr,
				      .size = fr->size };
	p->frame_of[i] = frame;
	return i;
}

/* The profiler's node nd as a frame. */
static uint32_t phys_frame(struct expand *x, const cy_stack_node *nd)
{
	const char *file = NULL;
	int line = 0;

	if (nd->kind == CY_FRAME_FUNCTION && x->p->src &&
	    !srcinfo_decl(x->p->src, nd->addr, &file, &line))
		srcinfo_line(x->p->src, nd->addr, &file, &line);
	return frame_named(x, nd->name, nd->kind, nd->addr, nd->size, file, line);
}

/* Below node, the functions inlined at pc, outermost first. */
static int64_t inline_chain(struct expand *x, int64_t node, uint32_t pc)
{
	const struct src_inline *chain[SRC_MAX_INLINE];
	size_t n = profile_chain(x->p, pc, chain, SRC_MAX_INLINE);

	while (n--)
		node = tree_child(x, node,
				  frame_named(x, chain[n]->name, CY_FRAME_INLINED, 0, 0,
					      chain[n]->file, chain[n]->line));
	return node;
}

static bool is_code(cy_frame_kind kind)
{
	return kind == CY_FRAME_FUNCTION || kind == CY_FRAME_UNKNOWN;
}

static void tree_charge(struct profile *p, int64_t node, uint64_t cycles, uint64_t insns)
{
	if (node < 0)
		return;
	p->tree[node].self_cycles += cycles;
	p->tree[node].self_instructions += insns;
}

/* Builds p->nodes from the profiler's tree and its (node, pc) costs: the
 * functions inlined at the pc where a frame called its callee, or where it
 * spent its own cycles, become frames between it and them; call sites
 * merge. */
static int expand_tree(struct profile *p)
{
	struct expand x = { .p = p };
	uint64_t(*sum)[2] = calloc(p->n_phys + 1, sizeof(*sum));
	int rc = -ENOMEM;

	p->phys_node = malloc((p->n_phys + 1) * sizeof(*p->phys_node));
	x.map.max = UINT32_MAX - 1;
	if (!sum || !p->phys_node || index_map_rehash(&x.map, 1024) != 0)
		goto out_free;
	for (size_t i = 0; i < p->n_phys; i++) {
		const cy_stack_node *nd = &p->phys[i];
		int64_t base = nd->parent < 0 ? -1 : (int64_t)p->phys_node[nd->parent];
		if (nd->parent >= 0 && nd->call_pc && is_code(nd->kind) &&
		    p->phys[nd->parent].kind == CY_FRAME_FUNCTION)
			base = inline_chain(&x, base, nd->call_pc);
		p->phys_node[i] = (uint32_t)tree_child(&x, base, phys_frame(&x, nd));
	}
	for (size_t k = 0; k < p->n_node_pcs; k++) {
		const cy_node_pc_cost *c = &p->node_pcs[k];
		const cy_stack_node *nd = &p->phys[c->node];
		int64_t leaf;
		if (nd->kind == CY_FRAME_FUNCTION) {
			leaf = inline_chain(&x, p->phys_node[c->node], c->pc);
		} else if (is_code(nd->kind) || nd->parent < 0 ||
			   p->phys[nd->parent].kind != CY_FRAME_FUNCTION) {
			leaf = p->phys_node[c->node];
		} else { /* a pseudo-frame, below the functions inlined at its pc */
			leaf = inline_chain(&x, p->phys_node[nd->parent], c->pc);
			leaf = tree_child(&x, leaf, phys_frame(&x, nd));
		}
		tree_charge(p, leaf, c->cycles, c->instructions);
		sum[c->node][0] += c->cycles;
		sum[c->node][1] += c->instructions;
	}
	/* what the per-pc table left out (past its limit) stays on the frame */
	for (size_t i = 0; i < p->n_phys; i++)
		tree_charge(p, p->phys_node[i], p->phys[i].self_cycles - sum[i][0],
			    p->phys[i].self_instructions - sum[i][1]);
	if (x.failed)
		goto out_free;
	p->nodes = p->tree;
	p->n_nodes = x.map.n;
	for (size_t i = 0; i < p->n_nodes; i++) {
		p->tree[i].cycles = p->tree[i].self_cycles;
		p->tree[i].instructions = p->tree[i].self_instructions;
	}
	for (size_t i = p->n_nodes; i-- > 0;) /* children come after their parents */
		if (p->tree[i].parent >= 0) {
			p->tree[p->tree[i].parent].cycles += p->tree[i].cycles;
			p->tree[p->tree[i].parent].instructions += p->tree[i].instructions;
		}
	for (size_t i = 0; i < p->n_nodes; i++) {
		p->frames[p->frame_of[i]].self_cycles += p->tree[i].self_cycles;
		p->frames[p->frame_of[i]].self_instructions += p->tree[i].self_instructions;
	}
	rc = 0;
out_free:
	free(sum);
	strset_free(&x.names);
	index_map_free(&x.map);
	return rc;
}

/* Past the (stack, pc) table's limit the profiler kept costs per pc
 * only: each function node's self cycles (and instructions) are shared out
 * among its function's pcs in proportion to theirs, the remainders to the
 * largest fractions, so that every node still adds up. */
static int share_pcs(struct profile *p)
{
	size_t n = 0, cap = 0;
	uint64_t *rest = NULL; /* the remainders of the shares, UINT64_MAX: used */

	for (size_t i = 0; i < p->n_phys; i++) {
		const cy_stack_node *nd = &p->phys[i];
		long fn = nd->kind == CY_FRAME_FUNCTION ? profile_func_of(p, nd->addr) : -1;
		size_t lo = 0, hi = p->n_pcs;
		if (fn < 0 || !nd->self_cycles)
			continue;
		while (lo < hi) { /* the function's first pc */
			size_t mid = lo + (hi - lo) / 2;
			if (p->pcs[mid].pc < p->funcs[fn].addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (hi = lo;
		     hi < p->n_pcs && p->pcs[hi].pc - p->funcs[fn].addr < p->funcs[fn].size;)
			hi++;
		uint64_t tc = 0, ti = 0;
		for (size_t k = lo; k < hi; k++) {
			tc += p->pcs[k].cycles;
			ti += p->pcs[k].instructions;
		}
		if (!tc || hi == lo)
			continue;
		if (n + (hi - lo) > cap) {
			cap = 2 * (n + (hi - lo));
			cy_node_pc_cost *c = realloc(p->shared_pcs, cap * sizeof(*c));
			if (c)
				p->shared_pcs = c;
			uint64_t *r = realloc(rest, cap * sizeof(*r));
			if (r)
				rest = r;
			if (!c || !r) {
				free(rest);
				return -ENOMEM;
			}
		}
		for (int pass = 0; pass < 2; pass++) { /* cycles, then instructions */
			uint64_t whole = pass ? nd->self_instructions : nd->self_cycles;
			uint64_t of = pass ? ti : tc, given = 0;
			for (size_t k = lo; k < hi; k++) {
				uint64_t part = pass ? p->pcs[k].instructions : p->pcs[k].cycles;
				unsigned __int128 x = (unsigned __int128)whole * part;
				uint64_t v = of ? (uint64_t)(x / of) : 0;
				if (!pass)
					p->shared_pcs[n + k - lo] =
					    (cy_node_pc_cost){ (uint32_t)i, p->pcs[k].pc, v, 0 };
				else
					p->shared_pcs[n + k - lo].instructions = v;
				rest[n + k - lo] = of ? (uint64_t)(x % of) : 0;
				given += v;
			}
			/* what the floors left: one each to the largest remainders */
			while (given < whole) {
				size_t best = n;
				for (size_t k = n; k < n + (hi - lo); k++)
					if (rest[k] != UINT64_MAX &&
					    (rest[best] == UINT64_MAX || rest[k] > rest[best]))
						best = k;
				if (rest[best] == UINT64_MAX)
					break;
				rest[best] = UINT64_MAX;
				if (pass)
					p->shared_pcs[best].instructions++;
				else
					p->shared_pcs[best].cycles++;
				given++;
			}
		}
		size_t k = n;
		for (size_t j = n; j < n + (hi - lo); j++)
			if (p->shared_pcs[j].cycles || p->shared_pcs[j].instructions)
				p->shared_pcs[k++] = p->shared_pcs[j];
		n = k;
	}
	free(rest);
	p->node_pcs = p->shared_pcs ? p->shared_pcs : (const cy_node_pc_cost *)"";
	p->n_node_pcs = n;
	return 0;
}

int profile_gather(struct profile *p, cy_callstack *cs, const char *program, int status)
{
	const cy_symbol *syms;
	size_t n_syms;
	const char *elf = p->elf_path ? p->elf_path : program;
	int rc;

	p->program = program;
	p->status = status;
	p->partial = cy_vm_stop_reason(p->vm) == CY_STOP_EXIT ? NULL : cy_vm_stop_message(p->vm);
	p->cycles = cy_vm_cycles(p->vm);
	p->instructions = cy_vm_instret(p->vm);
	cy_vm_cost_stats(p->vm, &p->stats);
	p->phys = cy_callstack_nodes(cs, &p->n_phys);
	p->segments = cy_callstack_segments(cs, &p->n_segments);
	if (!p->segments)
		return -ENOMEM;
	p->pcs = cy_callstack_pcs(cs, &p->n_pcs);
	p->calls = cy_callstack_calls(cs, &p->n_calls);
	if (!p->phys || !p->pcs || !p->calls || truncation_note(p, cs) != 0)
		return -ENOMEM;
	p->call_spans = cy_callstack_call_spans(cs, &p->n_call_spans, &p->call_threshold);
	/* after cy_callstack_pcs: its copy is the one this call replaces */
	p->node_pcs = cy_callstack_node_pcs(cs, &p->n_node_pcs);
	if (!p->call_spans || !p->node_pcs)
		return -ENOMEM;
	/* the profiler's functions, which name its frames (the entry's
	 * label among them) */
	syms = cy_callstack_functions(cs, &n_syms);
	p->func_store = malloc((n_syms + 1) * sizeof(*p->func_store));
	if (!p->func_store)
		return -ENOMEM;
	if (n_syms)
		memcpy(p->func_store, syms, n_syms * sizeof(*syms));
	p->n_funcs = n_syms;
	p->funcs = p->func_store;
	if (p->limits.per_pc && share_pcs(p) != 0)
		return -ENOMEM;
	p->src = srcinfo_open(elf, &p->paths, !p->no_inline);
	{
		char err[256];
		if (program_open(&p->prog, elf, err, sizeof(err)) != 0)
			memset(&p->prog, 0, sizeof(p->prog)); /* pprof maps the whole space */
	}
	if ((rc = expand_tree(p)) != 0)
		return rc;
	/* children lists, in creation order (the order calls first happened) */
	p->first_child = malloc((p->n_nodes + 1) * sizeof(uint32_t));
	p->next_sibling = malloc((p->n_nodes + 1) * sizeof(uint32_t));
	if (!p->first_child || !p->next_sibling)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_nodes; i++)
		p->first_child[i] = p->next_sibling[i] = UINT32_MAX;
	for (size_t i = p->n_nodes; i-- > 0;)
		if (p->nodes[i].parent >= 0) {
			p->next_sibling[i] = p->first_child[p->nodes[i].parent];
			p->first_child[p->nodes[i].parent] = (uint32_t)i;
		}
	return frame_totals(p);
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
