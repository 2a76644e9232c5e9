/* report.c - the JSON report of a run (--report FILE.json): what ran,
 * how it stopped, and the cycle tracker's results for the whole run and per
 * chunk. It goes to a temporary file that is renamed over FILE.json, so the
 * file is whole or absent. Every field is described in docs/report.md. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/profile.h"
#include "export/report.h"
#include "util/state_io.h"
#include "util/text.h"

struct report {
	FILE *chunks; /* the "chunks" members so far, as JSON text */
	char *text;
	size_t text_len;
	uint64_t n_chunks;
	bool failed; /* out of memory on the way */
};

/* {"name": [cycles, ...], ...} */
static void json_tracker(FILE *f, const cy_tracker_entry *e, size_t n, const char *indent)
{
	if (n == 0) {
		fputs("{}", f);
		return;
	}
	fputs("{", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n%s  ", i ? "," : "", indent);
		text_json_string(f, e[i].name, e[i].name_len);
		fputs(": [", f);
		for (size_t k = 0; k < e[i].count; k++)
			fprintf(f, "%s%llu", k ? ", " : "", (unsigned long long)e[i].cycles[k]);
		fputs("]", f);
	}
	fprintf(f, "\n%s}", indent);
}

/* {"name": {"total": T, "count": C}, ...}, names with report-ends only */
static void json_tracker_report(FILE *f, const cy_tracker_entry *e, size_t n, const char *indent)
{
	bool any = false;

	fputs("{", f);
	for (size_t i = 0; i < n; i++) {
		if (!e[i].report_count)
			continue;
		fprintf(f, "%s\n%s  ", any ? "," : "", indent);
		text_json_string(f, e[i].name, e[i].name_len);
		fprintf(f, ": {\"total\": %llu, \"count\": %llu}",
			(unsigned long long)e[i].report_total,
			(unsigned long long)e[i].report_count);
		any = true;
	}
	fprintf(f, any ? "\n%s}" : "}", indent);
}

static const char *timer_issue_name(cy_timer_issue_kind kind)
{
	switch (kind) {
	case CY_TIMER_UNMATCHED_STOP: return "unmatched_stop";
	case CY_TIMER_NEVER_STOPPED: return "never_stopped";
	case CY_TIMER_LONG_LABEL: return "long_label";
	case CY_TIMER_TOO_MANY_TIMERS: return "too_many_timers";
	case CY_TIMER_TOO_MANY_SLICES: return "too_many_slices";
	case CY_TIMER_TOO_MANY_STEPS: return "too_many_steps";
	}
	return "?";
}

static const char *page_reason(uint8_t reason)
{
	switch (reason) {
	case CY_PAGE_FETCH: return "fetch";
	case CY_PAGE_LOAD: return "load";
	case CY_PAGE_STORE: return "store";
	}
	return "?";
}

static void json_step(FILE *f, cy_vm *vm, const cy_timer_step *s)
{
	const cy_cost_parts *p = &s->parts;
	char text[128];

	fprintf(f, "{\"cycle_before\": %llu, \"cycle_after\": %llu, \"pc\": %u, ",
		(unsigned long long)s->cycle_before, (unsigned long long)s->cycle_after, s->pc);
	if (cy_vm_symbolize(vm, s->pc, text, sizeof(text)) == 0) {
		fputs("\"symbol\": ", f);
		text_json_string(f, text, strlen(text));
	} else {
		fputs("\"symbol\": null", f);
	}
	if (cy_disasm(s->pc, s->bits, text, sizeof(text)) == 0)
		snprintf(text, sizeof(text), "0x%08x", s->bits);
	fputs(", \"insn\": ", f);
	text_json_string(f, text, strlen(text));
	if (s->has_jump)
		fprintf(f, ",\n       \"jump\": {\"from\": %u, \"to\": %u}", s->jump_from,
			s->jump_to);
	else
		fputs(",\n       \"jump\": null", f);
	fputs(", \"writes\": [", f);
	for (uint32_t i = 0; i < s->n_writes && i < CY_TIMER_MAX_WRITES; i++)
		fprintf(f, "%s{\"addr\": %llu, \"size\": %u}", i ? ", " : "",
			(unsigned long long)s->write_addr[i], s->write_size[i]);
	fprintf(f,
		"],\n       \"base\": %u, \"wait\": %u, \"memory\": %u, \"page_in\": %u, "
		"\"page_out\": %u, \"segment\": %u, \"segment_start\": %s,\n       \"pages_in\": [",
		p->base, p->wait, p->memory, p->page_in, p->page_out, p->segment,
		p->segment_start ? "true" : "false");
	for (uint32_t i = 0; i < p->n_page_in && i < CY_MAX_PAGES; i++)
		fprintf(f, "%s{\"page\": %u, \"reason\": \"%s\"}", i ? ", " : "",
			p->page_in_addr[i], page_reason(p->page_in_reason[i]));
	fputs("], \"pages_out\": [", f);
	for (uint32_t i = 0; i < p->n_page_out && i < CY_MAX_PAGES; i++)
		fprintf(f, "%s%u", i ? ", " : "", p->page_out_addr[i]);
	fprintf(f, "], \"n_pages_in\": %u, \"n_pages_out\": %u}", p->n_page_in, p->n_page_out);
}

/* "timers": the channel timers' tree, steps and warnings; null when off */
static void json_timers(FILE *f, cy_vm *vm)
{
	size_t n, n_steps, n_issues, n_slices;
	const cy_timer *t = cy_vm_timers(vm, &n);
	const cy_timer_step *steps = cy_vm_timer_steps(vm, &n_steps);
	const cy_timer_slice *sl = cy_vm_timer_slices(vm, &n_slices);
	const cy_timer_issue *is = cy_vm_timer_issues(vm, &n_issues);
	uint32_t chan[3];

	if (!t && !cy_vm_timer_threshold(vm)) {
		fputs("null", f);
		return;
	}
	fputs("{\"channels\": ", f);
	if (cy_vm_timer_channels(vm, chan))
		fprintf(f, "{\"message\": %u, \"length\": %u, \"signal\": %u}", chan[0], chan[1],
			chan[2]);
	else
		fputs("null", f);
	fprintf(f, ", \"significant\": %llu,\n   \"tree\": [",
		(unsigned long long)cy_vm_timer_threshold(vm));
	for (size_t i = 0; i < n; i++) {
		size_t shown = 0;
		fprintf(f, "%s\n    {\"label\": ", i ? "," : "");
		text_json_string(f, t[i].label, t[i].label_len);
		fprintf(f,
			", \"depth\": %u, \"parent\": %d, \"count\": %llu, \"cycles\": %llu, "
			"\"instructions\": %llu, \"open\": %s, \"significant_steps\": %llu,\n     "
			"\"steps\": [",
			t[i].depth, t[i].parent, (unsigned long long)t[i].count,
			(unsigned long long)t[i].cycles, (unsigned long long)t[i].instructions,
			t[i].open ? "true" : "false", (unsigned long long)t[i].steps);
		for (size_t k = 0; k < n_steps; k++)
			if (steps[k].timer == (int)i) {
				fputs(shown++ ? ",\n      " : "\n      ", f);
				json_step(f, vm, &steps[k]);
			}
		fputs(shown ? "\n     ]}" : "]}", f);
	}
	fputs(n ? "\n   ],\n   \"slices\": [" : "],\n   \"slices\": [", f);
	for (size_t i = 0; i < n_slices; i++)
		fprintf(f,
			"%s\n    {\"timer\": %d, \"start_cycle\": %llu, \"end_cycle\": %llu, "
			"\"start_instret\": %llu, \"end_instret\": %llu, \"open\": %s}",
			i ? "," : "", sl[i].timer, (unsigned long long)sl[i].start_cycle,
			(unsigned long long)sl[i].end_cycle,
			(unsigned long long)sl[i].start_instret,
			(unsigned long long)sl[i].end_instret, sl[i].open ? "true" : "false");
	fputs(n_slices ? "\n   ],\n   \"warnings\": [" : "],\n   \"warnings\": [", f);
	for (size_t i = 0; i < n_issues; i++) {
		fprintf(f, "%s\n    {\"kind\": \"%s\", \"label\": ", i ? "," : "",
			timer_issue_name(is[i].kind));
		text_json_string(f, is[i].label, is[i].label_len);
		fprintf(f, ", \"count\": %llu, \"cycle\": %llu}", (unsigned long long)is[i].count,
			(unsigned long long)is[i].cycle);
	}
	fputs(n_issues ? "\n   ]}" : "]}", f);
}

static const char *stop_name(cy_stop stop)
{
	switch (stop) {
	case CY_STOP_NONE: return "running";
	case CY_STOP_EXIT: return "exit";
	case CY_STOP_FAULT: return "fault";
	case CY_STOP_CYCLE_LIMIT: return "cycle_limit";
	case CY_STOP_INTERRUPTED: return "interrupted";
	}
	return "?";
}

static const char *issue_name(cy_tracker_issue_kind kind)
{
	switch (kind) {
	case CY_TRACKER_UNMATCHED_END: return "unmatched_end";
	case CY_TRACKER_RESTARTED: return "restarted";
	case CY_TRACKER_NEVER_ENDED: return "never_ended";
	case CY_TRACKER_UNLISTED: return "unlisted";
	case CY_TRACKER_DROPPED: return "dropped";
	}
	return "?";
}

struct report *report_new(void)
{
	struct report *r = calloc(1, sizeof(*r));

	if (r && !(r->chunks = open_memstream(&r->text, &r->text_len))) {
		free(r);
		return NULL;
	}
	return r;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	if (r->chunks)
		fclose(r->chunks);
	free(r->text);
	free(r);
}

/* The chunks so far, in a checkpoint (util/state_io.h): a restore into a
 * new report writes them again. */
int report_state_io(struct sio *io, struct report *r)
{
	size_t len = 0;
	void *text = NULL;

	sio_tag(io, "REPT");
	if (!io->load) {
		fflush(r->chunks);
		len = r->text_len;
		text = r->text;
	}
	sio_u64(io, &r->n_chunks);
	sio_bool(io, &r->failed);
	sio_blob(io, &text, &len, SIZE_MAX, "bytes of the report's chunks");
	if (io->load && sio_ok(io) && len && fwrite(text, 1, len, r->chunks) != len)
		sio_fail(io, "out of host memory");
	if (io->load)
		free(text);
	return io->err;
}

int report_add_chunk(struct report *r, const cy_chunk_report *c)
{
	FILE *f = r->chunks;

	fprintf(f,
		"%s\n    {\"index\": %llu, \"start_cycle\": %llu, \"end_cycle\": %llu, "
		"\"done\": %s,\n     \"cycle_tracker\": ",
		r->n_chunks ? "," : "", (unsigned long long)c->index,
		(unsigned long long)c->start_cycle, (unsigned long long)c->end_cycle,
		c->done ? "true" : "false");
	json_tracker(f, c->cycle_tracker, c->n_cycle_tracker, "     ");
	fputs(",\n     \"cycle_tracker_report\": ", f);
	json_tracker_report(f, c->cycle_tracker, c->n_cycle_tracker, "     ");
	fputs("}", f);
	r->n_chunks++;
	if (ferror(f))
		r->failed = true;
	return r->failed ? -ENOMEM : 0;
}

/* zkVM guests: the ABI, the syscall counts, the public values and the
 * committed words (docs/zkvm.md). */
static void json_zkvm(FILE *f, cy_vm *vm)
{
	size_t n, pv_len;
	const cy_syscall_count *c = cy_vm_syscall_counts(vm, &n);
	const uint8_t *pv = cy_vm_public_values(vm, &pv_len);
	cy_commits cm;

	const cy_proof_digests *proofs;
	const char *from;
	unsigned version;

	fprintf(f, ",\n  \"abi\": \"%s\"", cy_abi_name(cy_vm_abi(vm)));
	if (cy_vm_abi(vm) == CY_ABI_LINUX)
		return;
	version = cy_vm_abi_version(vm, &from);
	fprintf(f, ",\n  \"abi_version\": %u,\n  \"abi_version_from\": \"%s\"", version,
		from ? from : "");
	fputs(",\n  \"syscalls\": {", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f,
			"%s\n    \"%s\": {\"code\": \"0x%08x\", \"count\": %llu, "
			"\"extra_cycles\": %u}",
			i ? "," : "", c[i].name, c[i].code, (unsigned long long)c[i].count,
			c[i].extra_cycles);
	fputs(n ? "\n  }" : "}", f);
	fputs(",\n  \"public_values\": \"", f);
	for (size_t i = 0; i < pv_len; i++)
		fprintf(f, "%02x", pv[i]);
	cy_vm_commits(vm, &cm);
	fputs("\",\n  \"committed_digest\": [", f);
	for (int i = 0; i < 8; i++)
		fprintf(f, cm.digest_set >> i & 1 ? "%s%u" : "%snull", i ? ", " : "", cm.digest[i]);
	fputs("],\n  \"deferred_proofs_digest\": [", f);
	for (int i = 0; i < 8; i++)
		fprintf(f, cm.deferred_set >> i & 1 ? "%s%u" : "%snull", i ? ", " : "",
			cm.deferred[i]);
	fputs("],\n  \"verified_proofs\": [", f);
	proofs = cy_vm_verified_proofs(vm, &n);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n    {\"vkey\": [", i ? "," : "");
		for (int k = 0; k < 8; k++)
			fprintf(f, "%s%u", k ? ", " : "", proofs[i].vkey[k]);
		fputs("], \"pv_digest\": [", f);
		for (int k = 0; k < 8; k++)
			fprintf(f, "%s%u", k ? ", " : "", proofs[i].pv_digest[k]);
		fputs("]}", f);
	}
	fputs(n ? "\n  ]" : "]", f);
}
/* The "counters" member: the rows cy_vm_counters gives. */
static void report_json_counters(FILE *f, const cy_vm *vm)
{
	cy_counter rows[CY_MAX_COUNTERS];
	size_t n = cy_vm_counters(vm, rows, CY_MAX_COUNTERS);

	if (n > CY_MAX_COUNTERS)
		n = CY_MAX_COUNTERS;
	fprintf(f, "  \"counters_build\": \"%s\",\n  \"counters\": [", cy_vm_counters_build(vm));
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n    {\"name\": \"%s\", \"csr\": %u, \"value\": %llu, \"events\": [",
			i ? "," : "", rows[i].name, rows[i].csr, (unsigned long long)rows[i].value);
		for (unsigned e = 0, k = 0; e < 32; e++) {
			const char *name = cy_counter_event_name(e);
			if ((rows[i].events & (1u << e)) && name)
				fprintf(f, "%s\"%s\"", k++ ? ", " : "", name);
		}
		fputs("]}", f);
	}
	fputs(n ? "\n  ],\n" : "],\n", f);
}

/* The "misaligned" member: the total, and every pc that made one with its
 * function and source line (the sites by pc), then the same by function. */
static void json_misaligned(FILE *f, cy_vm *vm, const char *program)
{
	const cy_misaligned_site *sites;
	size_t n;
	uint64_t lost, total = cy_vm_misaligned(vm, &sites, &n, &lost);
	struct srcinfo *src = n ? srcinfo_open(program, &(struct src_paths){ 0 }, false) : NULL;
	struct {
		char name[128];
		uint64_t count;
	} *funcs = n ? calloc(n, sizeof(*funcs)) : NULL;
	size_t n_funcs = 0;

	fprintf(f, ",\n  \"misaligned\": {\"total\": %llu, \"lost\": %llu, \"sites\": [",
		(unsigned long long)total, (unsigned long long)lost);
	for (size_t i = 0; i < n; i++) {
		char sym[128] = "";
		const char *file;
		int line;
		cy_vm_symbolize(vm, sites[i].pc, sym, sizeof(sym));
		fprintf(f, "%s\n    {\"pc\": %u, \"count\": %llu, \"at\": ", i ? "," : "",
			sites[i].pc, (unsigned long long)sites[i].count);
		text_json_string(f, sym, strlen(sym));
		if (src && srcinfo_line(src, sites[i].pc, &file, &line)) {
			fputs(", \"file\": ", f);
			text_json_string(f, file, strlen(file));
			fprintf(f, ", \"line\": %d}", line);
		} else {
			fputs(", \"file\": null, \"line\": null}", f);
		}
		/* the function: the symbol without its +offset; the sites are by
		 * pc, so a function's sites are next to each other */
		char *plus = strrchr(sym, '+');
		if (plus && plus[1] == '0' && plus[2] == 'x')
			*plus = '\0';
		if (!funcs)
			continue;
		if (!n_funcs || strcmp(funcs[n_funcs - 1].name, sym) != 0)
			snprintf(funcs[n_funcs++].name, sizeof(funcs[0].name), "%s", sym);
		funcs[n_funcs - 1].count += sites[i].count;
	}
	fputs(n ? "\n  ], \"functions\": [" : "], \"functions\": [", f);
	for (size_t k = 0; k < n_funcs; k++) {
		fprintf(f, "%s\n    {\"function\": ", k ? "," : "");
		text_json_string(f, funcs[k].name, strlen(funcs[k].name));
		fprintf(f, ", \"count\": %llu}", (unsigned long long)funcs[k].count);
	}
	fputs(n_funcs ? "\n  ]}" : "]}", f);
	free(funcs);
	if (src)
		srcinfo_close(src);
}

static void write_body(FILE *f, struct report *r, const char *program, cy_vm *vm, int status)
{
	cy_stop stop = cy_vm_stop_reason(vm);
	size_t n_entries, n_spans, n_issues;
	const cy_tracker_entry *e = cy_vm_cycle_tracker(vm, &n_entries);
	const cy_span *s;
	const cy_tracker_issue *is;

	fprintf(f, "{\n  \"cyclops\": \"%s\",\n  \"program\": ", CY_VERSION);
	text_json_string(f, program, strlen(program));
	fprintf(f, ",\n  \"instructions\": %llu,\n  \"cycles\": %llu,\n  \"stop\": \"%s\",\n",
		(unsigned long long)cy_vm_instret(vm), (unsigned long long)cy_vm_cycles(vm),
		stop_name(stop));
	if (stop == CY_STOP_EXIT)
		fprintf(f, "  \"exit_code\": %d,\n", cy_vm_exit_code(vm));
	else
		fputs("  \"exit_code\": null,\n", f);
	/* partial: the guest did not run to its end, so every total below is
	 * what was measured up to the stop the message names */
	fprintf(f, "  \"status\": %d,\n  \"partial\": %s,\n  \"message\": ", status,
		stop == CY_STOP_EXIT ? "false" : "true");
	if (stop != CY_STOP_EXIT)
		text_json_string(f, cy_vm_stop_message(vm), strlen(cy_vm_stop_message(vm)));
	else
		fputs("null", f);
	json_zkvm(f, vm);
	json_misaligned(f, vm, program);
	fputs(",\n  \"cycle_tracker\": ", f);
	json_tracker(f, e, n_entries, "  ");
	fputs(",\n  \"cycle_tracker_report\": ", f);
	json_tracker_report(f, e, n_entries, "  ");

	s = cy_vm_tracker_spans(vm, &n_spans);
	fputs(",\n  \"spans\": [", f);
	for (size_t i = 0; i < n_spans; i++) {
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		text_json_string(f, s[i].name, s[i].name_len);
		fprintf(f,
			", \"depth\": %u, \"parent\": %d, \"count\": %llu, \"total\": %llu, "
			"\"min\": %llu, \"max\": %llu, \"open\": %s}",
			s[i].depth, s[i].parent, (unsigned long long)s[i].count,
			(unsigned long long)s[i].total, (unsigned long long)s[i].min,
			(unsigned long long)s[i].max, s[i].open ? "true" : "false");
	}
	fputs(n_spans ? "\n  ],\n" : "],\n", f);

	is = cy_vm_tracker_issues(vm, &n_issues);
	fputs("  \"warnings\": [", f);
	for (size_t i = 0; i < n_issues; i++) {
		fprintf(f, "%s\n    {\"kind\": \"%s\", \"name\": ", i ? "," : "",
			issue_name(is[i].kind));
		text_json_string(f, is[i].name, is[i].name_len);
		fprintf(f, ", \"count\": %llu, \"cycle\": %llu}", (unsigned long long)is[i].count,
			(unsigned long long)is[i].cycle);
	}
	fputs(n_issues ? "\n  ],\n" : "],\n", f);
	report_json_counters(f, vm);
	fputs("  \"timers\": ", f);
	json_timers(f, vm);
	fputs(",\n", f);

	fflush(r->chunks);
	fputs("  \"chunks\": [", f);
	fwrite(r->text, 1, r->text_len, f);
	fputs(r->n_chunks ? "\n  ]\n}\n" : "]\n}\n", f);
}

/* write_body's arguments, for text_write_file */
struct report_body {
	struct report *r;
	const char *program;
	cy_vm *vm;
	int status;
};

static int report_body(FILE *f, void *ctx)
{
	struct report_body *b = ctx;

	write_body(f, b->r, b->program, b->vm, b->status);
	return 0;
}

int report_write(struct report *r, const char *path, const char *program, cy_vm *vm, int status,
		 char *err, size_t err_size)
{
	struct report_body b = { r, program, vm, status };
	int rc = r->failed ? -ENOMEM : text_write_file(path, report_body, &b);

	if (rc != 0)
		snprintf(err, err_size, "cannot write the report to '%s': %s", path, strerror(-rc));
	return rc;
}
