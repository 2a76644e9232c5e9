/* profile_pprof.c - the pprof profile (.pb.gz): the protocol buffer of
 * github.com/google/pprof's proto/profile.proto, encoded by hand, gzipped
 * with zlib. Sample types "cycles" and "instructions"; one location per
 * guest address with its source lines (the functions inlined there, the
 * innermost first), one sample per stack and pc. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/pb_write.h"
#include "export/profile.h"
#include "util/index_map.h"

/* What the samples point at, written as they are first needed: functions
 * by (name, file), locations by code address, pseudo-frame or function
 * (the cycles the per-pc table left out). */
struct pprof {
	const struct profile *p;
	struct pbuf *b, m, sub;
	struct strings st;
	struct index_map funcs, locs;
	void *func_ids, *loc_ids; /* index_map's arrays; the index is the id - 1 */
	uint32_t *stack;
	size_t n_stack, cap_stack;
	char build_id[2 * CY_ELF_ID_MAX + 1]; /* the string table points at it */
	bool failed;
};

enum loc_kind { LOC_CODE = 1, LOC_PSEUDO, LOC_FUNCTION };

static uint64_t pprof_func(struct pprof *w, const char *name, const char *file, int start_line)
{
	int64_t n = str_add(&w->st, name), fl = file ? str_add(&w->st, file) : 0;
	bool added;
	int64_t i = index_map_get(&w->funcs, (uint32_t)n, (uint32_t)fl, &w->func_ids, 1, &added);

	if (i < 0) {
		w->failed = true;
		return 0;
	}
	if (added) {
		pb_uint(&w->m, FUNCTION_ID, (uint64_t)i + 1);
		pb_uint(&w->m, FUNCTION_NAME, (uint64_t)n);
		pb_uint(&w->m, FUNCTION_SYSTEM_NAME, (uint64_t)n);
		pb_uint(&w->m, FUNCTION_FILENAME, (uint64_t)fl);
		pb_uint(&w->m, FUNCTION_START_LINE, (uint64_t)(start_line > 0 ? start_line : 0));
		pb_sub(w->b, PROFILE_FUNCTION, &w->m);
	}
	return (uint64_t)i + 1;
}

static void pprof_line(struct pprof *w, uint64_t func, int line)
{
	pb_uint(&w->sub, LINE_FUNCTION_ID, func);
	pb_uint(&w->sub, LINE_LINE, (uint64_t)(line > 0 ? line : 0));
	pb_sub(&w->m, LOCATION_LINE, &w->sub);
}

/* The mapping (1-based) that holds pc, 0 if none. */
static uint64_t mapping_of(const struct profile *p, uint32_t pc)
{
	for (size_t i = 0; i < p->prog.n_segs; i++)
		if (pc - p->prog.segs[i].vaddr < p->prog.segs[i].memsz)
			return i + 1;
	return p->prog.n_segs ? 0 : 1;
}

/* Location ids: a code address with its lines, the innermost inlined
 * function first and the symbol's function last (pprof's order). */
static uint64_t pprof_loc(struct pprof *w, enum loc_kind kind, uint32_t key, const char *name)
{
	const struct profile *p = w->p;
	bool added;
	int64_t i = index_map_get(&w->locs, kind, key, &w->loc_ids, 1, &added);

	if (i < 0) {
		w->failed = true;
		return 0;
	}
	if (!added)
		return (uint64_t)i + 1;
	pb_uint(&w->m, LOCATION_ID, (uint64_t)i + 1);
	if (kind == LOC_CODE) {
		const struct src_inline *chain[SRC_MAX_INLINE];
		size_t n = profile_chain(p, key, chain, SRC_MAX_INLINE);
		long fn = profile_func_of(p, key);
		const char *file = NULL, *outer = fn >= 0 ? p->funcs[fn].name : "[unknown]";
		const char *ffile = NULL;
		int line = 0, fline = 0;
		if (p->src)
			srcinfo_line(p->src, key, &file, &line);
		/* pprof -list shows a function's lines from its start line */
		if (fn >= 0 && p->src && !srcinfo_decl(p->src, p->funcs[fn].addr, &ffile, &fline))
			srcinfo_line(p->src, p->funcs[fn].addr, &ffile, &fline);
		pb_uint(&w->m, LOCATION_MAPPING_ID, mapping_of(p, key));
		pb_uint(&w->m, LOCATION_ADDRESS, key);
		/* pprof_func writes into m's sibling buffers: keep the location's
		 * fields apart until its lines are known */
		struct pbuf loc = w->m;
		w->m = (struct pbuf){ 0 };
		uint64_t ids[SRC_MAX_INLINE + 1];
		int lines[SRC_MAX_INLINE + 1];
		for (size_t k = 0; k <= n; k++) {
			const char *fname = k < n ? chain[k]->name : outer;
			const char *lfile = k ? chain[k - 1]->call_file : file;
			int start = k < n ? chain[k]->line : fline;
			lines[k] = k ? chain[k - 1]->call_line : line;
			ids[k] = pprof_func(w, fname, lfile, start);
		}
		free(w->m.data);
		w->m = loc;
		for (size_t k = 0; k <= n; k++)
			pprof_line(w, ids[k], lines[k]);
	} else {
		struct pbuf loc = w->m;
		w->m = (struct pbuf){ 0 };
		uint64_t id = pprof_func(w, name, NULL, 0);
		free(w->m.data);
		w->m = loc;
		pprof_line(w, id, 0);
	}
	pb_sub(w->b, PROFILE_LOCATION, &w->m);
	return (uint64_t)i + 1;
}

static void stack_push(struct pprof *w, uint64_t loc)
{
	if (w->n_stack == w->cap_stack) {
		size_t cap = w->cap_stack ? 2 * w->cap_stack : 256;
		uint32_t *s = realloc(w->stack, cap * sizeof(*s));
		if (!s) {
			w->failed = true;
			return;
		}
		w->stack = s;
		w->cap_stack = cap;
	}
	w->stack[w->n_stack++] = (uint32_t)loc;
}

/* The call sites above node: each frame's call in its caller. */
static void stack_callers(struct pprof *w, uint32_t node)
{
	const struct profile *p = w->p;

	for (const cy_stack_node *nd = &p->phys[node]; nd->parent >= 0; nd = &p->phys[nd->parent])
		stack_push(w, nd->call_pc
				  ? pprof_loc(w, LOC_CODE, nd->call_pc, NULL)
				  : pprof_loc(w, LOC_FUNCTION,
					      (uint32_t)str_add(&w->st, p->phys[nd->parent].name),
					      p->phys[nd->parent].name));
}

static bool is_pseudo(cy_frame_kind kind)
{
	return kind != CY_FRAME_FUNCTION && kind != CY_FRAME_UNKNOWN;
}

static void pprof_sample(struct pprof *w, uint64_t cycles, uint64_t insns)
{
	if (!cycles && !insns)
		return;
	for (size_t k = 0; k < w->n_stack; k++)
		pb_varint(&w->sub, w->stack[k]);
	pb_sub(&w->m, SAMPLE_LOCATION_ID, &w->sub);
	pb_varint(&w->sub, cycles);
	pb_varint(&w->sub, insns);
	pb_sub(&w->m, SAMPLE_VALUE, &w->sub);
	pb_sub(w->b, PROFILE_SAMPLE, &w->m);
}

static void pprof_mappings(struct pprof *w, int64_t s_prog)
{
	const struct profile *p = w->p;
	int64_t s_id;

	if (!p->prog.n_segs) { /* one mapping for the whole space */
		pb_uint(&w->m, MAPPING_ID, 1);
		pb_uint(&w->m, MAPPING_MEMORY_START, 0);
		pb_uint(&w->m, MAPPING_MEMORY_LIMIT, 0x100000000ull);
		pb_uint(&w->m, MAPPING_FILENAME, (uint64_t)s_prog);
		pb_uint(&w->m, MAPPING_HAS_FUNCTIONS, 1);
		pb_uint(&w->m, MAPPING_HAS_FILENAMES, 1);
		pb_uint(&w->m, MAPPING_HAS_LINE_NUMBERS, 1);
		pb_uint(&w->m, MAPPING_HAS_INLINE_FRAMES, 1);
		pb_sub(w->b, PROFILE_MAPPING, &w->m);
		return;
	}
	program_build_id(&p->prog, w->build_id, sizeof(w->build_id));
	s_id = str_add(&w->st, w->build_id);
	for (size_t i = 0; i < p->prog.n_segs; i++) {
		const struct prog_segment *sg = &p->prog.segs[i];
		pb_uint(&w->m, MAPPING_ID, i + 1);
		pb_uint(&w->m, MAPPING_MEMORY_START, sg->vaddr);
		pb_uint(&w->m, MAPPING_MEMORY_LIMIT, (uint64_t)sg->vaddr + sg->memsz);
		pb_uint(&w->m, MAPPING_FILE_OFFSET, sg->offset);
		pb_uint(&w->m, MAPPING_FILENAME, (uint64_t)s_prog);
		pb_uint(&w->m, MAPPING_BUILD_ID, (uint64_t)s_id);
		pb_uint(&w->m, MAPPING_HAS_FUNCTIONS, 1);
		pb_uint(&w->m, MAPPING_HAS_FILENAMES, 1);
		pb_uint(&w->m, MAPPING_HAS_LINE_NUMBERS, 1);
		pb_uint(&w->m, MAPPING_HAS_INLINE_FRAMES, 1);
		pb_sub(w->b, PROFILE_MAPPING, &w->m);
	}
}

int profile_write_pprof(FILE *f, const struct profile *p)
{
	struct pbuf b = { 0 };
	struct pprof w = { .p = p, .b = &b };
	uint64_t(*sum)[2] = calloc(p->n_phys + 1, sizeof(*sum));
	char *path = realpath(p->program, NULL);
	char *comments[2] = { NULL, NULL };
	int rc = -ENOMEM;

	w.st.out = &b;
	w.funcs.max = w.locs.max = UINT32_MAX - 1;
	if (!sum || index_map_rehash(&w.funcs, 1024) != 0 || index_map_rehash(&w.locs, 1024) != 0)
		goto out_free;
	str_add(&w.st, ""); /* string 0 is the empty string */
	int64_t s_cycles = str_add(&w.st, "cycles"), s_insns = str_add(&w.st, "instructions");
	int64_t s_count = str_add(&w.st, "count");
	int64_t s_prog = str_add(&w.st, path ? path : p->program);
	value_type(&b, &w.m, PROFILE_SAMPLE_TYPE, s_cycles, s_count);
	value_type(&b, &w.m, PROFILE_SAMPLE_TYPE, s_insns, s_count);
	value_type(&b, &w.m, PROFILE_PERIOD_TYPE, s_cycles, s_count);
	pb_uint(&b, PROFILE_PERIOD, 1);
	pb_uint(&b, PROFILE_DEFAULT_SAMPLE_TYPE, (uint64_t)s_cycles);
	/* pprof -comments shows them */
	if (p->partial && asprintf(&comments[0], "partial: %s", p->partial) < 0)
		goto out_free;
	if (p->truncated && asprintf(&comments[1], "truncated: %s", p->truncated) < 0)
		goto out_free;
	for (int k = 0; k < 2; k++)
		if (comments[k])
			pb_uint(&b, PROFILE_COMMENT, (uint64_t)str_add(&w.st, comments[k]));
	pprof_mappings(&w, s_prog);

	/* a sample per (stack, pc), the leaf first; a stack's pcs come one
	 * after the other, and share the locations above the pc (looked up
	 * once: written when first used, they are then in the same order) */
	uint32_t last_node = UINT32_MAX;
	size_t code_at = 0;
	for (size_t k = 0; k < p->n_node_pcs && !w.failed; k++) {
		const cy_node_pc_cost *c = &p->node_pcs[k];
		const cy_stack_node *nd = &p->phys[c->node];
		uint32_t code_node = c->node;
		if (c->node == last_node) {
			w.stack[code_at] = (uint32_t)pprof_loc(&w, LOC_CODE, c->pc, NULL);
		} else {
			w.n_stack = 0;
			if (is_pseudo(nd->kind) && nd->parent >= 0) {
				stack_push(&w,
					   pprof_loc(&w, LOC_PSEUDO,
						     (uint32_t)str_add(&w.st, nd->name), nd->name));
				code_node = (uint32_t)nd->parent;
			}
			code_at = w.n_stack;
			stack_push(&w, pprof_loc(&w, LOC_CODE, c->pc, NULL));
			stack_callers(&w, code_node);
			last_node = c->node;
		}
		if (w.failed)
			break;
		pprof_sample(&w, c->cycles, c->instructions);
		sum[c->node][0] += c->cycles;
		sum[c->node][1] += c->instructions;
	}
	/* what the per-pc table left out (past its limit), on the frame */
	for (size_t i = 0; i < p->n_phys && !w.failed; i++) {
		const cy_stack_node *nd = &p->phys[i];
		uint64_t cycles = nd->self_cycles - sum[i][0];
		uint64_t insns = nd->self_instructions - sum[i][1];
		if (!cycles && !insns)
			continue;
		w.n_stack = 0;
		stack_push(&w, pprof_loc(&w, is_pseudo(nd->kind) ? LOC_PSEUDO : LOC_FUNCTION,
					 (uint32_t)str_add(&w.st, nd->name), nd->name));
		stack_callers(&w, (uint32_t)i);
		pprof_sample(&w, cycles, insns);
	}
	rc = b.failed || w.m.failed || w.sub.failed || w.failed || w.st.failed ? -ENOMEM
									       : gzip_out(f, &b);
out_free:
	free(sum);
	free(path);
	free(comments[0]);
	free(comments[1]);
	free(w.stack);
	free(b.data);
	free(w.m.data);
	free(w.sub.data);
	strings_free(&w.st);
	free(w.func_ids);
	free(w.loc_ids);
	index_map_free(&w.funcs);
	index_map_free(&w.locs);
	return rc;
}
