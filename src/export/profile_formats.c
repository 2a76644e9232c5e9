/* profile_formats.c - the text profile formats: speedscope's JSON,
 * callgrind's format (KCachegrind, callgrind_annotate) and Chrome trace
 * events (Perfetto). docs/profiles.md says what each holds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/profile.h"

static void json_str(FILE *f, const char *s) { text_json_string(f, s, strlen(s)); }

/* One sampled profile: a sample per stack that spent some of the value. */
static void speedscope_profile(FILE *f, const struct profile *p, uint32_t *stack, bool insns,
			       uint32_t elided_frame)
{
	uint64_t total = insns ? p->instructions : p->cycles;
	bool first = true;

	fprintf(f, "    {\"type\": \"sampled\", \"name\": \"%s\", \"unit\": \"none\", ",
		insns ? "instructions" : "cycles");
	fprintf(f, "\"startValue\": 0, \"endValue\": %llu,\n     \"samples\": [",
		(unsigned long long)total);
	for (size_t i = 0; i < p->n_nodes; i++) {
		uint64_t v = insns ? p->nodes[i].self_instructions : p->nodes[i].self_cycles;
		if (!v)
			continue;
		size_t elided, n = profile_stack_capped(p, (uint32_t)i, stack, &elided);
		fputs(first ? "[" : ", [", f);
		for (size_t k = 0; k < n; k++) {
			if (elided && k == PROFILE_TEXT_HEAD)
				fprintf(f, ", %u", elided_frame);
			fprintf(f, "%s%u", k ? ", " : "", p->frame_of[stack[k]]);
		}
		fputs("]", f);
		first = false;
	}
	fputs("],\n     \"weights\": [", f);
	first = true;
	for (size_t i = 0; i < p->n_nodes; i++) {
		uint64_t v = insns ? p->nodes[i].self_instructions : p->nodes[i].self_cycles;
		if (!v)
			continue;
		fprintf(f, "%s%llu", first ? "" : ", ", (unsigned long long)v);
		first = false;
	}
	fputs("]}", f);
}

int profile_write_speedscope(FILE *f, const struct profile *p)
{
	uint32_t *stack = malloc((p->n_nodes + 1) * sizeof(*stack));

	if (!stack)
		return -ENOMEM;
	fputs("{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\",\n", f);
	fputs(" \"exporter\": \"cyclops " CY_VERSION "\",\n \"name\": ", f);
	if (p->partial || p->truncated) { /* the file has no other place a viewer shows */
		char *name = NULL;
		/* "PROGRAM (truncated: NOTE) (partial: REASON)", either or both */
		if (asprintf(&name, "%s%s%s%s%s%s%s", p->program,
			     p->truncated ? " (truncated: " : "", p->truncated ? p->truncated : "",
			     p->truncated ? ")" : "", p->partial ? " (partial: " : "",
			     p->partial ? p->partial : "", p->partial ? ")" : "") < 0) {
			free(stack);
			return -ENOMEM;
		}
		json_str(f, name);
		free(name);
	} else {
		json_str(f, p->program);
	}
	fputs(",\n \"activeProfileIndex\": 0,\n \"shared\": {\"frames\": [", f);
	for (size_t i = 0; i < p->n_frames; i++) {
		fputs(i ? ",\n   {\"name\": " : "\n   {\"name\": ", f);
		json_str(f, p->frames[i].name);
		if (p->frames[i].file) {
			fputs(", \"file\": ", f);
			json_str(f, p->frames[i].file);
			fprintf(f, ", \"line\": %d", p->frames[i].line);
		}
		fputs("}", f);
	}
	/* the frame that stands for the middle of a stack too deep to write */
	for (size_t i = 0; i < p->n_nodes; i++) {
		if (p->nodes[i].depth + 1 > PROFILE_TEXT_DEPTH) {
			fprintf(f, "%s   {\"name\": \"[frames elided]\"}",
				p->n_frames ? ",\n" : "\n");
			break;
		}
	}
	fputs("]},\n \"profiles\": [\n", f);
	speedscope_profile(f, p, stack, false, (uint32_t)p->n_frames);
	fputs(",\n", f);
	speedscope_profile(f, p, stack, true, (uint32_t)p->n_frames);
	fputs("\n ]\n}\n", f);
	free(stack);
	return 0;
}

static int line_of(const struct profile *p, uint32_t pc, const char **file)
{
	int line = 0;

	*file = NULL;
	if (!p->src || !srcinfo_line(p->src, pc, file, &line))
		return 0;
	return line;
}

/* A name or other text to the end of a callgrind line: printable as on a
 * terminal, so that no newline in it starts a forged line, and a leading
 * "(" escaped, as "(N)" there would be read as a compressed name. */
static void callgrind_text(FILE *f, const char *s)
{
	if (*s == '(') {
		fputs("\\x28", f);
		s++;
	}
	text_put_printable(f, s, strlen(s));
	fputc('\n', f);
}

/* The function a pc's own cost goes to: the innermost function inlined
 * there, or the symbol's. */
struct cg_fn {
	const char *name, *file;
	uint32_t inlined; /* its inlined subroutine, UINT32_MAX: the symbol */
};

static struct cg_fn cg_fn_at(const struct profile *p, uint32_t pc)
{
	uint32_t e = p->no_inline ? UINT32_MAX : srcinfo_inline_at(p->src, pc);
	long func = profile_func_of(p, pc);
	struct cg_fn fn = { func >= 0 ? p->funcs[func].name : "[unknown]", NULL, e };
	int line;

	if (e != UINT32_MAX) {
		const struct src_inline *in = srcinfo_inline(p->src, e);
		fn.name = in->name;
		fn.file = in->file;
	} else if (func >= 0) {
		line_of(p, p->funcs[func].addr, &fn.file);
	}
	(void)line;
	return fn;
}

static void callgrind_fn(FILE *f, const char *prefix, const char *name, const char *file)
{
	fprintf(f, "%sfl=", prefix);
	callgrind_text(f, file ? file : "???");
	fprintf(f, "%sfn=", prefix);
	callgrind_text(f, name);
}

/* An inlined subroutine's share: its pcs' costs (with the ones inlined
 * into it), the first of its pcs that ran and how often that one did. */
struct cg_inline {
	uint64_t cycles, instructions, entries;
	uint32_t first_pc;
	bool seen;
};

/* The calls into the inlined functions: in the function they are inlined
 * into, at their call's line, the inclusive cost, and as many calls as
 * their first instruction ran (a call that is not one has no count). */
static int callgrind_inlines(FILE *f, const struct profile *p)
{
	size_t n = 0;
	struct cg_inline *in;

	while (srcinfo_inline(p->src, (uint32_t)n))
		n++;
	if (!n || p->no_inline)
		return 0;
	in = calloc(n, sizeof(*in));
	if (!in)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_pcs; i++) {
		const cy_pc_cost *c = &p->pcs[i];
		for (uint32_t e = srcinfo_inline_at(p->src, c->pc); e != UINT32_MAX;
		     e = srcinfo_inline(p->src, e)->parent) {
			if (!in[e].seen) {
				in[e].seen = true;
				in[e].first_pc = c->pc;
				in[e].entries = c->instructions;
			}
			in[e].cycles += c->cycles;
			in[e].instructions += c->instructions;
		}
	}
	for (size_t e = 0; e < n; e++) {
		const struct src_inline *si = srcinfo_inline(p->src, (uint32_t)e);
		const char *caller, *caller_file, *file;
		int line;
		if (!in[e].seen)
			continue;
		if (si->parent != UINT32_MAX) {
			caller = srcinfo_inline(p->src, si->parent)->name;
			caller_file = srcinfo_inline(p->src, si->parent)->file;
		} else {
			long func = profile_func_of(p, in[e].first_pc);
			caller = func >= 0 ? p->funcs[func].name : "[unknown]";
			line_of(p, func >= 0 ? p->funcs[func].addr : in[e].first_pc, &caller_file);
		}
		fputc('\n', f);
		callgrind_fn(f, "", caller, caller_file);
		if (si->call_file && si->call_file != caller_file) {
			fputs("fi=", f);
			callgrind_text(f, si->call_file);
		}
		callgrind_fn(f, "c", si->name, si->file);
		line = line_of(p, in[e].first_pc, &file);
		fprintf(f, "calls=%llu 0x%x %d\n", (unsigned long long)in[e].entries,
			in[e].first_pc, line);
		fprintf(f, "0x%x %d %llu %llu\n", in[e].first_pc, si->call_line,
			(unsigned long long)in[e].cycles, (unsigned long long)in[e].instructions);
	}
	free(in);
	return 0;
}

int profile_write_callgrind(FILE *f, const struct profile *p)
{
	struct cg_fn current = { NULL, NULL, 0 };
	const char *current_file = NULL;
	size_t e = 0;

	fputs("# callgrind format\nversion: 1\ncreator: cyclops " CY_VERSION "\n", f);
	/* the stop message and the note are cyclops's own lines, printable
	 * (vm_describe_at escapes the ELF's names in them) */
	if (p->partial)
		fprintf(f, "desc: Partial: %s\n", p->partial);
	if (p->truncated)
		fprintf(f, "desc: Truncated: %s\n", p->truncated);
	fputs("cmd: ", f);
	callgrind_text(f, p->program);
	fprintf(f, "positions: instr line\nevents: Cycles Instructions\nsummary: %llu %llu\n\nob=",
		(unsigned long long)p->cycles, (unsigned long long)p->instructions);
	callgrind_text(f, p->program);
	for (size_t i = 0; i < p->n_pcs; i++) {
		const cy_pc_cost *c = &p->pcs[i];
		struct cg_fn fn = cg_fn_at(p, c->pc);
		const char *file;
		int line = line_of(p, c->pc, &file);
		if (!current.name || fn.name != current.name || fn.file != current.file ||
		    strcmp(fn.name, "[unknown]") == 0) {
			fputc('\n', f);
			callgrind_fn(f, "", fn.name, fn.file);
			current = fn;
			current_file = fn.file;
		}
		if (file && file != current_file) { /* a line of another file (a header's) */
			fputs("fi=", f);
			callgrind_text(f, file);
			current_file = file;
		}
		fprintf(f, "0x%x %d %llu %llu\n", c->pc, line, (unsigned long long)c->cycles,
			(unsigned long long)c->instructions);
		/* the calls made from this pc, with their inclusive costs */
		for (; e < p->n_calls && p->calls[e].call_pc <= c->pc; e++) {
			const cy_call_edge *ce = &p->calls[e];
			if (ce->call_pc != c->pc)
				continue;
			long callee = ce->callee ? profile_func_of(p, ce->callee) : -1;
			const char *cfile = NULL;
			if (callee >= 0)
				line_of(p, p->funcs[callee].addr, &cfile);
			callgrind_fn(f, "c", callee >= 0 ? p->funcs[callee].name : "[unknown]",
				     cfile);
			fprintf(f, "calls=%llu 0x%x %d\n", (unsigned long long)ce->calls,
				ce->callee, line_of(p, ce->callee, &cfile));
			fprintf(f, "0x%x %d %llu %llu\n", c->pc, line,
				(unsigned long long)ce->cycles,
				(unsigned long long)ce->instructions);
		}
	}
	if (callgrind_inlines(f, p) != 0)
		return -ENOMEM;
	if (p->limits.lost_pc_cycles || p->limits.lost_pc_instructions)
		/* the pcs past the limit, so that the costs add up */
		fprintf(f, "\nfl=???\nfn=[pcs past the limit]\n0x0 0 %llu %llu\n",
			(unsigned long long)p->limits.lost_pc_cycles,
			(unsigned long long)p->limits.lost_pc_instructions);
	fprintf(f, "\ntotals: %llu %llu\n", (unsigned long long)p->cycles,
		(unsigned long long)p->instructions);
	return 0;
}

/* Chrome trace events on the run's clock: a cycle is a nanosecond, at a
 * nominal 1 GHz (docs/decisions.md, "Time is virtual"), so ts and dur are
 * microseconds with three decimals and displayTimeUnit is "ns": viewers
 * show cycles as nanoseconds. One track (tid) for each kind of span. */
enum trace_track {
	TRACK_RUN = 1,
	TRACK_CHUNKS,
	TRACK_SEGMENTS,
	TRACK_SPANS,
	TRACK_TIMERS,
	TRACK_CALLS,
};

static const char *const track_names[] = {
	[TRACK_RUN] = "run",           [TRACK_CHUNKS] = "chunks",
	[TRACK_SEGMENTS] = "segments", [TRACK_SPANS] = "cycle-tracker spans",
	[TRACK_TIMERS] = "timers",     [TRACK_CALLS] = "calls",
};

static void trace_time(FILE *f, const char *key, uint64_t cycles)
{
	fprintf(f, ", \"%s\": %llu.%03llu", key, (unsigned long long)(cycles / 1000),
		(unsigned long long)(cycles % 1000));
}

/* One complete event: name (len bytes) on track, from start to end. */
static void trace_event(FILE *f, enum trace_track track, const char *name, size_t len,
			uint64_t start, uint64_t end, const char *args)
{
	fprintf(f, ",\n  {\"ph\": \"X\", \"pid\": 1, \"tid\": %d, \"name\": ", track);
	text_json_string(f, name, len);
	trace_time(f, "ts", start);
	trace_time(f, "dur", end - start);
	fprintf(f, ", \"args\": {\"cycles\": %llu%s%s}}", (unsigned long long)(end - start),
		args ? ", " : "", args ? args : "");
}

int profile_write_trace(FILE *f, const struct profile *p)
{
	const cy_span *spans;
	const cy_span_instance *inst;
	const cy_timer *timers;
	const cy_timer_slice *slices;
	size_t n_spans, n_inst, n_timers, n_slices;
	char args[64];

	fputs("{\"displayTimeUnit\": \"ns\",\n \"otherData\": {\"clock\": \"1 cycle = 1 ns (ts and "
	      "dur in microseconds)\", \"cycles\": ",
	      f);
	fprintf(f, "%llu, \"instructions\": %llu, \"call_threshold\": %llu, \"model\": ",
		(unsigned long long)p->cycles, (unsigned long long)p->instructions,
		(unsigned long long)p->call_threshold);
	json_str(f, p->stats.model);
	if (p->partial) {
		fputs(", \"partial\": ", f);
		json_str(f, p->partial);
	}
	if (p->truncated) {
		fputs(", \"truncated\": ", f);
		json_str(f, p->truncated);
	}
	fputs("},\n \"traceEvents\": [\n  {\"ph\": \"M\", \"pid\": 1, \"name\": \"process_name\", "
	      "\"args\": {\"name\": ",
	      f);
	json_str(f, p->program);
	fputs("}}", f);
	for (int t = TRACK_RUN; t <= TRACK_CALLS; t++)
		fprintf(
		    f,
		    ",\n  {\"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"name\": \"thread_name\", "
		    "\"args\": {\"name\": \"%s\"}},\n  {\"ph\": \"M\", \"pid\": 1, \"tid\": %d, "
		    "\"name\": \"thread_sort_index\", \"args\": {\"sort_index\": %d}}",
		    t, track_names[t], t, t);
	snprintf(args, sizeof(args), "\"instructions\": %llu", (unsigned long long)p->instructions);
	trace_event(f, TRACK_RUN, "run", 3, 0, p->cycles, args);
	for (size_t i = 0; i < p->n_chunks; i++) {
		char name[32];
		int n = snprintf(name, sizeof(name), "chunk %zu", i);
		trace_event(f, TRACK_CHUNKS, name, (size_t)n, p->chunks[i][0], p->chunks[i][1],
			    NULL);
	}
	for (size_t i = 0; i < p->n_segments; i++) {
		char name[32];
		uint64_t end = i + 1 < p->n_segments ? p->segments[i + 1] : p->cycles;
		int n = snprintf(name, sizeof(name), "segment %zu", i);
		trace_event(f, TRACK_SEGMENTS, name, (size_t)n, p->segments[i], end, NULL);
	}
	spans = cy_vm_tracker_spans(p->vm, &n_spans);
	inst = cy_vm_tracker_instances(p->vm, &n_inst);
	for (size_t i = 0; inst && i < n_inst; i++) {
		const cy_span *sp = &spans[inst[i].span];
		trace_event(f, TRACK_SPANS, sp->name, sp->name_len, inst[i].start, inst[i].end,
			    inst[i].open ? "\"open\": true" : NULL);
	}
	timers = cy_vm_timers(p->vm, &n_timers);
	slices = cy_vm_timer_slices(p->vm, &n_slices);
	for (size_t i = 0; timers && slices && i < n_slices; i++) {
		const cy_timer *t = &timers[slices[i].timer];
		snprintf(args, sizeof(args), "\"instructions\": %llu%s",
			 (unsigned long long)(slices[i].end_instret - slices[i].start_instret),
			 slices[i].open ? ", \"open\": true" : "");
		trace_event(f, TRACK_TIMERS, t->label, t->label_len, slices[i].start_cycle,
			    slices[i].end_cycle, args);
	}
	/* the calls that took call_threshold cycles or more, as they nest */
	for (size_t i = 0; i < p->n_call_spans; i++) {
		const cy_call_span *c = &p->call_spans[i];
		const char *name = p->phys[c->node].name;
		trace_event(f, TRACK_CALLS, name, strlen(name), c->start, c->end,
			    c->open ? "\"open\": true" : NULL);
	}
	fputs("\n ]\n}\n", f);
	return 0;
}
