/* cli_annotate.c - "cyclops annotate": where the cycles went, line by line
 * and instruction by instruction, for the hottest functions. The costs come
 * from a profile (a pprof file cyclops wrote), saved PC histograms, or a
 * run of the program itself; the listing is export/annotate.c's, which
 * cyclops hist shares. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "export/annotate.h"
#include "export/pprof_read.h"

#define DEFAULT_FUNCTIONS 5
#define DEFAULT_MIN_SHARE 1.0

struct annotate_args {
	const char *elf;
	const char *model;
	uint64_t max_cycles;
	uint64_t functions;
	double min_share;
	const char *function; /* only this one */
	struct src_paths paths;
	char **inputs;
	int n_inputs;
	char **guest_argv; /* a run's arguments after the program */
	int guest_argc;
};

/* What a file is, from its first bytes. */
enum input_kind { IN_ELF, IN_SAMPLES, IN_PPROF, IN_NONE };

static enum input_kind input_kind(const char *path)
{
	unsigned char m[8] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n = fd < 0 ? -1 : read(fd, m, sizeof(m));

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return IN_NONE;
	if (n >= 4 && memcmp(m, "\177ELF", 4) == 0)
		return IN_ELF;
	if (n >= 8 && memcmp(m, CY_SAMPLES_MAGIC, 8) == 0)
		return IN_SAMPLES;
	return IN_PPROF; /* gzipped or not: the reader says what is wrong */
}

static int by_pc(const void *a, const void *b)
{
	const struct annot_pc *x = a, *y = b;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

/* Sorts pcs and merges the rows of one pc. */
static size_t merge_pcs(struct annot_pc *pcs, size_t n)
{
	size_t k = 0;

	if (!n)
		return 0;
	qsort(pcs, n, sizeof(*pcs), by_pc);
	for (size_t i = 0; i < n; i++) {
		if (k && pcs[k - 1].pc == pcs[i].pc) {
			pcs[k - 1].v += pcs[i].v;
			pcs[k - 1].v2 += pcs[i].v2;
		} else {
			pcs[k++] = pcs[i];
		}
	}
	return k;
}

/* A pprof profile: each sample's cost goes to the address of its first
 * location that has one (a pseudo-frame's, [ecall write], has none: its
 * cycles are the instruction's below it). The ELF: --elf, or the file the
 * profile's mapping names; its identity must be the mapping's build ID. */
static int from_pprof(const struct annotate_args *a, const char *path, struct program *pg,
		      struct annot *an, struct annot_pc **out)
{
	struct pprof_data d;
	char err[512], id[2 * CY_ELF_ID_MAX + 1];
	int cyc, ins, rc = -1;
	size_t n = 0;

	if (pprof_read(&d, path, err, sizeof(err)) != 0) {
		cli_error("annotate: %s", err);
		return -1;
	}
	cyc = pprof_type(&d, "cycles");
	ins = pprof_type(&d, "instructions");
	if (cyc < 0)
		cyc = 0; /* another profiler's: its first sample type */
	const char *elf = a->elf ? a->elf : d.n_mappings ? d.mappings[0].file : NULL;
	if (!elf || !*elf) {
		cli_error("annotate: %s names no program: give it with --elf", path);
		goto out_free;
	}
	if (program_open(pg, elf, err, sizeof(err)) != 0) {
		cli_error("annotate: %s (the program of %s; --elf gives another)", err, path);
		goto out_free;
	}
	program_build_id(pg, id, sizeof(id));
	for (size_t i = 0; i < d.n_mappings; i++)
		if (*d.mappings[i].build_id && strcmp(d.mappings[i].build_id, id) != 0) {
			cli_error("annotate: %s: taken from another program (build ID %s), not %s "
				  "(%s)",
				  path, d.mappings[i].build_id, elf, id);
			goto out_free;
		}
	*out = calloc(d.n_samples + 1, sizeof(**out));
	if (!*out) {
		cli_error("out of host memory");
		goto out_free;
	}
	for (size_t i = 0; i < d.n_samples; i++) {
		const struct pprof_sample *s = &d.samples[i];
		int64_t v = s->values[cyc], v2 = ins >= 0 ? s->values[ins] : 0;
		an->total += (uint64_t)v;
		an->total2 += (uint64_t)v2;
		for (size_t k = 0; k < s->n_locations; k++) {
			const struct pprof_location *l = &d.locations[s->locations[k]];
			if (!l->address)
				continue;
			(*out)[n++] =
			    (struct annot_pc){ (uint32_t)l->address, (uint64_t)v, (uint64_t)v2 };
			break;
		}
	}
	an->unit = d.types[cyc];
	an->unit2 = ins >= 0 ? "instructions" : NULL;
	/* the unit's name outlives d */
	an->unit = strcmp(an->unit, "cycles") == 0 ? "cycles" : "samples";
	an->n_pcs = merge_pcs(*out, n);
	rc = 0;
out_free:
	pprof_free(&d);
	return rc;
}

static int from_samples(const struct annotate_args *a, struct program *pg, struct annot *an,
			struct annot_pc **out)
{
	char err[512];
	cy_samples *s;
	size_t n = 0;

	if (!a->elf) {
		cli_error("annotate: histograms need --elf PROGRAM.elf (the program they were "
			  "taken from)");
		return -1;
	}
	if (program_open(pg, a->elf, err, sizeof(err)) != 0) {
		cli_error("annotate: %s", err);
		return -1;
	}
	if (cli_load_samples("annotate", pg, a->inputs, a->n_inputs, &s) != 0)
		return -1;
	size_t cap = s->n_other + 1;
	for (size_t i = 0; i < s->n_ranges; i++)
		cap += (s->ranges[i].end - s->ranges[i].start) / 2;
	*out = calloc(cap, sizeof(**out));
	if (!*out) {
		cy_samples_free(s);
		cli_error("out of host memory");
		return -1;
	}
	for (size_t i = 0; i < s->n_ranges; i++)
		for (uint32_t pc = s->ranges[i].start; pc < s->ranges[i].end; pc += 2)
			if (s->ranges[i].counts[(pc - s->ranges[i].start) / 2])
				(*out)[n++] = (struct annot_pc){
					pc, s->ranges[i].counts[(pc - s->ranges[i].start) / 2], 0
				};
	for (size_t i = 0; i < s->n_other; i++)
		if (s->other_pc[i] != CY_SAMPLES_OVERFLOW_PC)
			(*out)[n++] = (struct annot_pc){ s->other_pc[i], s->other_count[i], 0 };
	an->unit = "samples";
	an->total = s->total;
	an->n_pcs = merge_pcs(*out, n);
	cy_samples_free(s);
	return 0;
}

/* A run of the program under the call-stack profiler; its output goes to
 * stderr, so that stdout is the listing's. Returns the guest's status
 * (or cyclops's own for a stop), -1 if it could not run. */
static int from_run(const struct annotate_args *a, const char *elf, struct program *pg,
		    struct annot *an, struct annot_pc **out)
{
	cy_opts opts;
	cy_vm *vm;
	cy_callstack *cs = NULL;
	struct profile p = { .paths = a->paths };
	char err[512];
	int saved = dup(STDOUT_FILENO), status;
	cy_stop stop;

	if (program_open(pg, elf, err, sizeof(err)) != 0) {
		cli_error("annotate: %s", err);
		close(saved);
		return -1;
	}
	cy_opts_init(&opts);
	opts.model = a->model;
	opts.max_cycles = a->max_cycles;
	opts.quiet = true;
	opts.argc = a->guest_argc;
	opts.argv = (const char *const *)a->guest_argv;
	if (cy_opts_check(&opts, err, sizeof(err)) != 0) {
		cli_error("annotate: %s", err);
		close(saved);
		return -1;
	}
	if (cy_vm_create_from_file(&vm, elf, &opts, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		close(saved);
		return -1;
	}
	if (profile_attach(&p, vm, &cs) != 0) {
		cli_error("out of host memory");
		cy_vm_destroy(vm);
		close(saved);
		return -1;
	}
	cy_callstack_keep_spans(cs, false); /* no timeline here */
	fflush(stdout);
	dup2(STDERR_FILENO, STDOUT_FILENO);
	stop = cy_vm_run(vm, UINT64_MAX);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	status = stop == CY_STOP_EXIT          ? cy_vm_exit_code(vm)
		 : stop == CY_STOP_CYCLE_LIMIT ? CY_EXIT_CYCLE_LIMIT
					       : CY_EXIT_FAULT;
	if (stop != CY_STOP_EXIT) /* what ran before it is annotated */
		cli_error("%s", cy_vm_stop_message(vm));
	if (profile_gather(&p, cs, elf, status) != 0) {
		cli_error("annotate: out of host memory for the profile");
		status = -1;
		goto out_free;
	}
	*out = calloc(p.n_pcs + 1, sizeof(**out));
	if (!*out) {
		status = -1;
		goto out_free;
	}
	for (size_t i = 0; i < p.n_pcs; i++)
		(*out)[i] =
		    (struct annot_pc){ p.pcs[i].pc, p.pcs[i].cycles, p.pcs[i].instructions };
	an->n_pcs = p.n_pcs;
	an->unit = "cycles";
	an->unit2 = "instructions";
	an->total = p.cycles;
	an->total2 = p.instructions;
out_free:
	profile_free(&p);
	cy_vm_destroy(vm);
	cy_callstack_free(cs);
	return status;
}

static int parse_args(int argc, char **argv, struct annotate_args *a)
{
	char *end;

	a->functions = DEFAULT_FUNCTIONS;
	a->min_share = DEFAULT_MIN_SHARE;
	for (int i = 1; i < argc; i++) {
		const char *v;
		int id;
		if (strcmp(argv[i], "--") == 0) { /* a run's arguments follow its program */
			a->guest_argc = argc - i;
			a->guest_argv = argv + i;
			break;
		}
		if (argv[i][0] != '-' || !argv[i][1]) {
			a->inputs[a->n_inputs++] = argv[i];
			continue;
		}
		id = cli_next_option(&cli_annotate_command, argc, argv, &i, &v);
		if (id < 0)
			return -1;
		switch (id) {
		case ANNOTATE_HELP: cli_print_help(stdout, &cli_annotate_command); return 1;
		case ANNOTATE_ELF:
		case ANNOTATE_MODEL:
		case ANNOTATE_FUNCTION:
		case ANNOTATE_TRIM_PATH:
		case ANNOTATE_SOURCE_ROOT:
			if (!v || !*v) {
				cli_error("annotate: %s needs a value", argv[i]);
				return -1;
			}
			*(id == ANNOTATE_ELF         ? &a->elf
			  : id == ANNOTATE_MODEL     ? &a->model
			  : id == ANNOTATE_FUNCTION  ? &a->function
			  : id == ANNOTATE_TRIM_PATH ? &a->paths.trim
						     : &a->paths.root) = v;
			break;
		case ANNOTATE_FUNCTIONS:
			if (!v || cli_parse_count(v, &a->functions) != 0) {
				cli_error("annotate: --functions needs a number, got '%s'",
					  v ? v : "");
				return -1;
			}
			break;
		case ANNOTATE_MIN_SHARE:
			a->min_share = v ? strtod(v, &end) : -1;
			if (!v || !*v || *end || !(a->min_share >= 0 && a->min_share <= 100)) {
				cli_error("annotate: --min-share needs a percentage from 0 to 100, "
					  "got '%s'",
					  v ? v : "");
				return -1;
			}
			break;
		case ANNOTATE_MAX_CYCLES:
			if (!v || cli_parse_count(v, &a->max_cycles) != 0 || !a->max_cycles) {
				cli_error(
				    "annotate: --max-cycles needs a positive number, got '%s'",
				    v ? v : "");
				return -1;
			}
			break;
		}
	}
	if (a->n_inputs == 0) {
		cli_error("annotate: no profile, histogram or program given (see cyclops "
			  "annotate --help)");
		return -1;
	}
	return 0;
}

int cli_annotate(int argc, char **argv)
{
	struct annotate_args a = { 0 };
	struct program pg = { 0 };
	struct annot an = { 0 };
	struct annot_pc *pcs = NULL;
	size_t *hot = NULL, n_hot = 0;
	int status = CY_EXIT_USAGE, rc;
	enum input_kind kind;

	a.inputs = calloc((size_t)argc + 1, sizeof(*a.inputs));
	if (!a.inputs) {
		cli_error("out of host memory");
		return CY_EXIT_INTERNAL;
	}
	rc = parse_args(argc, argv, &a);
	if (rc != 0) {
		status = rc > 0 ? 0 : CY_EXIT_USAGE;
		goto out_free;
	}
	kind = input_kind(a.inputs[0]);
	if (kind == IN_ELF && a.n_inputs == 1) {
		/* a run: the program's own arguments after -- */
		if (a.guest_argc) {
			a.guest_argv[0] = a.inputs[0];
		} else {
			a.guest_argv = &a.inputs[0];
			a.guest_argc = 1;
		}
		status = from_run(&a, a.inputs[0], &pg, &an, &pcs);
		if (status < 0) {
			status = 1;
			goto out_free;
		}
	} else if (kind == IN_NONE) {
		cli_error("annotate: %s: %s", a.inputs[0], strerror(errno));
		status = 1;
		goto out_free;
	} else if (kind == IN_PPROF && a.n_inputs == 1) {
		status = from_pprof(&a, a.inputs[0], &pg, &an, &pcs) == 0 ? 0 : 1;
	} else if (kind == IN_SAMPLES) {
		status = from_samples(&a, &pg, &an, &pcs) == 0 ? 0 : 1;
	} else {
		cli_error("annotate: one profile or program, or histograms with --elf: %s is %s",
			  a.inputs[1] ? a.inputs[1] : a.inputs[0],
			  kind == IN_ELF ? "a second program" : "a second profile");
		goto out_free;
	}
	if (!pg.elf || (status && !pcs))
		goto out_free;
	an.pg = &pg;
	an.pcs = pcs;
	an.colour = cli_use_colour(stdout);
	an.src = srcinfo_open(pg.path, &a.paths, true);
	if (annotate_prepare(&an) != 0 || !(hot = annotate_hot(&an, &n_hot))) {
		cli_error("out of host memory");
		status = CY_EXIT_INTERNAL;
		goto out_free;
	}
	fprintf(stdout, "%s: %llu %s", pg.path, (unsigned long long)an.total, an.unit);
	if (an.unit2)
		fprintf(stdout, ", %llu %s", (unsigned long long)an.total2, an.unit2);
	fputs("\n\n", stdout);
	annotate_table(stdout, &an, hot, n_hot, a.min_share, SIZE_MAX);
	if (a.function) {
		int fn = program_func_named(&pg, a.function);
		if (fn < 0) {
			cli_error("annotate: %s has no function %s", pg.path, a.function);
			status = status ? status : 1;
			goto out_free;
		}
		hot[0] = (size_t)fn;
		n_hot = 1;
	}
	for (size_t i = 0; i < n_hot && i < a.functions; i++) {
		const struct prog_func *fn = &pg.funcs[hot[i]];
		if (!a.function && i &&
		    100.0 * (double)an.func_v[hot[i]] < a.min_share * (double)an.total)
			break;
		fprintf(stdout, "\n%s", an.colour ? "\033[1m" : "");
		text_put_printable(stdout, fn->name, strlen(fn->name));
		fprintf(stdout, ": %llu %s (%.2f%%)", (unsigned long long)an.func_v[hot[i]],
			an.unit, text_percent(an.func_v[hot[i]], an.total));
		if (an.unit2)
			fprintf(stdout, ", %llu %s", (unsigned long long)an.func_v2[hot[i]],
				an.unit2);
		fprintf(stdout, ", 0x%08x..0x%08x%s\n", fn->start, fn->end,
			an.colour ? "\033[0m" : "");
		annotate_source(stdout, &an, hot[i]);
		fputc('\n', stdout);
		annotate_disasm(stdout, &an, hot[i]);
	}
	if (fflush(stdout) != 0 && !status)
		status = 1;
out_free:
	free(hot);
	annotate_free(&an);
	srcinfo_close(an.src);
	program_close(&pg);
	free(pcs);
	free(a.inputs);
	return status;
}
