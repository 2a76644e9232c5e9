/* cli_run.c - "cyclops run": runs a program, passes its output through,
 * and ends with one summary line on stderr and the guest's exit status;
 * with the cycle tracker, runs in chunks and adds its tree and a report. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_run.h"
#include "cyclops.h"
#include "debug/debug.h"
#include "export/profile.h"
#include "util/file.h"
#include "util/text.h"

/* "64M": bytes with an optional binary K, M or G suffix; 0 if valid. */
static int parse_bytes(const char *text, uint64_t *out)
{
	char *end = NULL;
	uint64_t v;
	unsigned shift = 0;

	if (!text || *text < '0' || *text > '9')
		return -1;
	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno)
		return -1;
	if (*end == 'K' || *end == 'k')
		shift = 10, end++;
	else if (*end == 'M' || *end == 'm')
		shift = 20, end++;
	else if (*end == 'G' || *end == 'g')
		shift = 30, end++;
	if (*end || v > UINT64_MAX >> shift)
		return -1;
	*out = v << shift;
	return 0;
}

/* Every file the run will write can be written, checked before it starts
 * so that a long run's results are not lost at its end; 0 or -1 after a
 * message. */
static int check_outputs(const struct run_args *a)
{
	char err[600];
	int rc = 0;

	if (a->report)
		rc = text_check_output("the report", a->report, err, sizeof(err));
	for (int k = 0; k < a->n_profiles && rc == 0; k++)
		rc = text_check_output("the profile", a->profiles[k], err, sizeof(err));
	if (rc == 0 && a->sample_out)
		rc = text_check_output("the histogram", a->sample_out, err, sizeof(err));
	if (rc == 0 && a->public_values)
		rc = text_check_output("the public values", a->public_values, err, sizeof(err));
	if (rc == 0 && a->signature)
		rc = text_check_output("the signature", a->signature, err, sizeof(err));
	if (rc != 0)
		cli_error("run: %s", err);
	return rc;
}

/* The signature file: a line per granularity bytes of [begin, end), each
 * the bytes in hex from the highest address down (the word's value for 4),
 * as Spike and the riscv-arch-test references write it. */
struct signature {
	const cy_vm *vm;
	uint32_t begin, end;
	unsigned granularity;
};

static int signature_body(FILE *f, void *ctx)
{
	const struct signature *s = ctx;
	uint8_t line[16];

	for (uint32_t at = s->begin; at < s->end; at += s->granularity) {
		if (cy_vm_read(s->vm, at, line, s->granularity) != 0)
			return -EFAULT;
		for (unsigned i = s->granularity; i-- > 0;)
			fprintf(f, "%02x", line[i]);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

static int write_signature(const cy_vm *vm, const struct run_args *a)
{
	struct signature s = { vm, 0, 0,
			       a->signature_granularity ? (unsigned)a->signature_granularity : 4 };
	int rc;

	cy_vm_signature(vm, &s.begin, &s.end); /* checked before the run */
	/* a region that does not end on a line is padded to one, as Spike does */
	s.end = s.begin + (s.end - s.begin + s.granularity - 1) / s.granularity * s.granularity;
	rc = text_write_file(a->signature, signature_body, &s);
	if (rc != 0)
		cli_error("run: cannot write the signature to '%s': %s", a->signature,
			  strerror(-rc));
	return rc;
}

/* --guest-saves[=FILES[,SIZE]]; 0 or -1 after a message. */
static int parse_guest_saves(struct run_args *a, const char *v)
{
	const char *comma = v ? strchr(v, ',') : NULL;
	char files[32];

	a->guest_saves = true;
	if (!v)
		return 0;
	if ((size_t)(comma ? comma - v : (ptrdiff_t)strlen(v)) >= sizeof(files))
		goto bad;
	snprintf(files, sizeof(files), "%.*s", (int)(comma ? comma - v : (ptrdiff_t)strlen(v)), v);
	if (cli_parse_count(files, &a->guest_save_files) != 0 || a->guest_save_files == 0 ||
	    a->guest_save_files > UINT32_MAX)
		goto bad;
	if (comma &&
	    (parse_bytes(comma + 1, &a->guest_save_bytes) != 0 || a->guest_save_bytes == 0))
		goto bad;
	return 0;
bad:
	cli_error("run: --guest-saves=FILES[,SIZE] needs a positive number of files and a "
		  "positive size such as 16M, got '%s'",
		  v);
	return -1;
}

/* --profile FILE and --format FMT; 0 or -1 after a message. */
static int parse_profile(struct run_args *a, const char *o, const char *v)
{
	int fmt;

	if (strncmp(o, "--format", 8) == 0) {
		if (!v || (fmt = profile_format_named(v)) < 0) {
			cli_error("run: --format needs one of %s, got '%s'", profile_format_list(),
				  v ? v : "");
			return -1;
		}
		a->next_format = fmt;
		return 0;
	}
	if (!v || !*v) {
		cli_error("run: --profile needs a file name");
		return -1;
	}
	fmt = a->next_format >= 0 ? a->next_format : profile_format_of_path(v);
	if (fmt < 0) {
		cli_error("run: --profile %s: unknown format; name the file with one of %s, or "
			  "give --format",
			  v, profile_format_list());
		return -1;
	}
	if (a->n_profiles == MAX_PROFILES) {
		cli_error("run: at most %d --profile files", MAX_PROFILES);
		return -1;
	}
	a->profiles[a->n_profiles] = v;
	a->profile_formats[a->n_profiles++] = (enum profile_format)fmt;
	a->next_format = -1;
	return 0;
}

/* A positive count for --name (suffixes as cli_parse_count); 0, or -1
 * after "run: --name needs WHAT, got 'V'". */
static int need_count(const char *name, const char *v, uint64_t *out, const char *what)
{
	if (v && cli_parse_count(v, out) == 0 && *out > 0)
		return 0;
	cli_error("run: --%s needs %s, got '%s'", name, what, v ? v : "");
	return -1;
}

/* A non-empty value for --name into *out; 0, or -1 after "run: --name
 * needs WHAT". */
static int need_text(const char *name, const char *v, const char **out, const char *what)
{
	*out = v;
	if (v && *v)
		return 0;
	cli_error("run: --%s needs %s", name, what);
	return -1;
}

/* The value of option o checked by its own rules; 0, or -1 after a message. */
static int parse_option(struct run_args *a, int id, const char *o, const char *v)
{
	switch (id) {
	case RUN_QUIET: a->quiet = true; break;
	case RUN_MAX_CYCLES:
		return need_count("max-cycles", v, &a->max_cycles, "a positive number");
	case RUN_MAX_MEMORY:
		if (parse_bytes(v, &a->max_memory) != 0 || a->max_memory == 0) {
			cli_error("run: --max-memory needs a positive size such as 64M, got '%s'",
				  v ? v : "");
			return -1;
		}
		break;
	case RUN_GUEST_SAVES: return parse_guest_saves(a, v);
	case RUN_SIGNATURE: return need_text("signature", v, &a->signature, "a file name");
	case RUN_SIGNATURE_GRANULARITY:
		if (!v || cli_parse_count(v, &a->signature_granularity) != 0 ||
		    a->signature_granularity == 0 || a->signature_granularity > 16 ||
		    (a->signature_granularity & (a->signature_granularity - 1))) {
			cli_error(
			    "run: --signature-granularity needs 1, 2, 4, 8 or 16 bytes, got '%s'",
			    v ? v : "");
			return -1;
		}
		break;
	case RUN_MODEL: return need_text("model", v, &a->model, "a model name or file");
	case RUN_SEGMENT_PO2:
		if (!v || cli_parse_count(v, &a->segment_po2) != 0 || a->segment_po2 < 13 ||
		    a->segment_po2 > 24) {
			cli_error("run: --segment-po2 needs a number from 13 to 24, got '%s'",
				  v ? v : "");
			return -1;
		}
		break;
	case RUN_CYCLE_TRACKER: a->tracker = v ? TRACK_QUIET : TRACK_ON; break;
	case RUN_REPORT: return need_text("report", v, &a->report, "a file name");
	case RUN_CHUNK_CYCLES:
		return need_count("chunk-cycles", v, &a->chunk_cycles, "a positive number");
	case RUN_COUNTERS:
		a->counters = true;
		a->counters_build =
		    v && strcmp(v, "asic") == 0 ? CY_COUNTERS_ASIC : CY_COUNTERS_FPGA;
		break;
	case RUN_ABI:
		if (!v || cy_abi_parse_version(v, &a->abi, &a->abi_version) != 0) {
			cli_error("run: --abi needs linux, sp1, sp1@v3..sp1@v6, pico, pico@v1, "
				  "risc0 or auto, got '%s'",
				  v ? v : "");
			return -1;
		}
		break;
	case RUN_INPUT:
		if (!v) {
			cli_error("run: --input needs u32:N, u64:N, hex:BYTES, str:TEXT or a file");
			return -1;
		}
		a->inputs[a->n_inputs++] = v;
		break;
	case RUN_PUBLIC_VALUES:
		return need_text("public-values", v, &a->public_values, "a file name");
	case RUN_PLATFORM:
		if (!v || cy_platform_parse(v, &a->platform) != 0) {
			cli_error("run: --platform needs linux, bare or auto, got '%s'",
				  v ? v : "");
			return -1;
		}
		break;
	case RUN_RAM: return need_text("ram", v, &a->ram, "ADDR:SIZE such as 0x80000000:64M");
	case RUN_ENGINE:
		if (!v || (strcmp(v, "interp") != 0 && strcmp(v, "reference") != 0 &&
			   strcmp(v, "jit") != 0)) {
			cli_error("run: --engine needs jit, interp or reference, got '%s'",
				  v ? v : "");
			return -1;
		}
		a->reference = strcmp(v, "reference") == 0;
		a->engine = strcmp(v, "jit") == 0 ? CY_ENGINE_JIT : CY_ENGINE_INTERP;
		break;
	case RUN_UART: {
		char *end = NULL;
		if (v)
			a->uart_base = strtoull(v, &end, 0);
		if (!v || !*v || *end || a->uart_base == 0 || a->uart_base > UINT32_MAX - 8) {
			cli_error("run: --uart needs a non-zero 32-bit address, got '%s'",
				  v ? v : "");
			return -1;
		}
		break;
	}
	case RUN_TIMERS: a->timers = true; break;
	case RUN_SIGNIFICANT:
		a->timers = true;
		return need_count("significant", v, &a->significant, "a positive number of cycles");
	case RUN_PROFILE: return parse_profile(a, "--profile", v);
	case RUN_FORMAT: return parse_profile(a, "--format", v);
	case RUN_NO_INLINE: a->no_inline = true; break;
	case RUN_SOURCE_ROOT: return need_text("source-root", v, &a->paths.root, "a directory");
	case RUN_TRIM_PATH: return need_text("trim-path", v, &a->paths.trim, "a path prefix");
	case RUN_SAMPLE:
	case RUN_SAMPLE_OUT:
	case RUN_OUT_DIR:
		return cli_parse_sample_option(id, o, v, &a->sample, &a->sample_interval,
					       &a->sample_out, &a->out_dir);
	case RUN_CHECKPOINT_EVERY:
		return need_count("checkpoint-every", v, &a->checkpoint_every,
				  "a positive number of cycles");
	case RUN_CHECKPOINT_DIR:
		return need_text("checkpoint-dir", v, &a->checkpoint_dir, "a directory");
	case RUN_JOBS:
		if (need_count("jobs", v, &a->jobs, "a positive number of worker processes") != 0)
			return -1;
		if (a->jobs > 4096) {
			cli_error("run: --jobs %llu: at most 4096 workers",
				  (unsigned long long)a->jobs);
			return -1;
		}
		break;
	case RUN_MPI: a->mpi = true; break;
	case RUN_GDB: {
		char err[400];
		bool loopback;
		if (!v || debug_check_address(v, &loopback, err, sizeof(err)) != 0) {
			cli_error("run: %s", v ? err : "--gdb needs [HOST:]PORT");
			return -1;
		}
		a->gdb = v;
		break;
	}
	case RUN_GDB_HISTORY:
		if (parse_bytes(v, &a->gdb_history) != 0) {
			cli_error(
			    "run: --gdb-history needs a size such as 512M (0: none), got '%s'",
			    v ? v : "");
			return -1;
		}
		break;
	}
	return 0;
}

/* Warns of each guest argument that is a cyclops option: it reaches the
 * guest (as valgrind and qemu do it), which may not be what was meant. */
static void warn_late_options(const struct run_args *a)
{
	for (int k = 1; k < a->guest_argc; k++)
		if (cli_find_option(&cli_run_command, a->guest_argv[k]))
			cli_error("warning: %s is after the program, so it goes to the guest; "
				  "cyclops's options come before %s (put -- before the guest's "
				  "arguments to say they are the guest's)",
				  a->guest_argv[k], a->program);
}

/* Options that only make sense together, or not at all; 0 or -1 after a
 * message. */
static int check_combinations(const struct run_args *a)
{
	if (a->next_format >= 0) {
		cli_error("run: --format applies to a --profile after it, and none follows");
		return -1;
	}
	if (a->chunk_cycles && !a->report) {
		cli_error("run: --chunk-cycles sets the report's chunks, and there is no "
			  "--report FILE.json");
		return -1;
	}
	if (a->checkpoint_every && !a->checkpoint_dir && !a->jobs && !a->mpi) {
		cli_error("run: --checkpoint-every needs --checkpoint-dir DIR to write them to, or "
			  "--jobs N or --mpi to profile them");
		return -1;
	}
	if ((a->jobs || a->mpi) && a->checkpoint_dir) {
		cli_error("run: --checkpoint-dir cannot go with %s: a chunked run's checkpoints "
			  "are its fast pass's, which hold no profiles to resume",
			  a->mpi ? "--mpi" : "--jobs");
		return -1;
	}
	if (a->gdb && (a->jobs || a->mpi || a->checkpoint_dir)) {
		const char *other = a->jobs ? "--jobs" : "--checkpoint-dir";
		cli_error("run: --gdb debugs one process from the start: it cannot go with %s",
			  a->mpi ? "--mpi" : other);
		return -1;
	}
	if (a->jobs && a->mpi) {
		cli_error("run: --jobs and --mpi: under mpirun the ranks are the workers");
		return -1;
	}
	if ((a->jobs || a->mpi) && a->guest_saves) {
		cli_error(
		    "run: --guest-saves cannot go with %s: the guest's saves need the "
		    "histogram as it stands in the middle of the run, which a chunked run has "
		    "only when its chunks are merged",
		    a->mpi ? "--mpi" : "--jobs");
		return -1;
	}
	return 0;
}

int run_parse(struct run *r, int argc, char **argv)
{
	struct run_args *a = &r->a;
	int i, id;
	bool dashes = false;
	const char **inputs = a->inputs;

	memset(a, 0, sizeof(*a));
	a->inputs = inputs;
	a->next_format = -1;
	a->gdb_history = DEBUG_DEFAULT_HISTORY;
	a->argc = argc - 1;
	a->argv = argv + 1;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i], *v;
		if (strcmp(o, "--") == 0) {
			i++;
			break;
		}
		id = cli_next_option(&cli_run_command, argc, argv, &i, &v);
		if (id < 0)
			return -1;
		if (id == RUN_HELP) {
			cli_print_help(stdout, &cli_run_command);
			return 1;
		}
		if (parse_option(a, id, o, v) != 0)
			return -1;
	}
	if (check_combinations(a) != 0)
		return -1;
	if (i >= argc) {
		cli_error("run: no program given (see cyclops run --help)");
		return -1;
	}
	a->program = argv[i++];
	if (i < argc && strcmp(argv[i], "--") == 0) {
		i++;
		dashes = true;
	}
	/* the guest's argv[0] is the program path, as a shell would give it;
	 * the command line itself stays as given (a checkpoint keeps it) */
	a->guest_argc = argc - i + 1;
	if (!(a->guest_argv = calloc((size_t)a->guest_argc + 1, sizeof(*a->guest_argv)))) {
		cli_error("out of host memory");
		return -1;
	}
	a->guest_argv[0] = (char *)a->program;
	for (int k = 1; k < a->guest_argc; k++)
		a->guest_argv[k] = argv[i + k - 1];
	if (!dashes && !a->quiet)
		warn_late_options(a);
	return 0;
}

double run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A --profile asks for the trace, the one format that shows the calls'
 * spans. */
static bool wants_trace(const struct run_args *a)
{
	for (int k = 0; k < a->n_profiles; k++)
		if (a->profile_formats[k] == PF_TRACE)
			return true;
	return false;
}

/* What cyclops prints after the run starts on a line of its own: a guest
 * whose output ended in the middle of a line, on stderr or on a stdout
 * that is the same file or terminal, gets the newline it left out. */
static void end_guest_line(const cy_vm *vm)
{
	struct stat o, e;
	int fd;

	if (cy_vm_output_ends_line(vm, &fd))
		return;
	if (fd == 2 || (fstat(1, &o) == 0 && fstat(2, &e) == 0 &&
			((o.st_dev == e.st_dev && o.st_ino == e.st_ino) ||
			 (isatty(1) && isatty(2) && o.st_rdev == e.st_rdev))))
		fputc('\n', stderr);
}

static void print_summary(const cy_vm *vm, double seconds)
{
	uint64_t insns = cy_vm_instret(vm);
	cy_cost_stats st;
	char model[80] = "";

	cy_vm_cost_stats(vm, &st);
	if (strcmp(st.model, "unit") != 0)
		snprintf(model, sizeof(model), " (%s)", st.model);
	fprintf(stderr, "cyclops: %llu instructions, %llu cycles%s, %.3f s, %.1f MIPS\n",
		(unsigned long long)insns, (unsigned long long)cy_vm_cycles(vm), model, seconds,
		seconds > 0 ? (double)insns / seconds / 1e6 : 0.0);
	if (st.paging || st.reserved)
		fprintf(stderr,
			"cyclops: %llu segments, %llu cycles = %llu user (%.1f%%) + %llu paging "
			"(%.1f%%) + %llu reserved (%.1f%%); %llu pages in, %llu out\n",
			(unsigned long long)st.segments, (unsigned long long)st.cycles,
			(unsigned long long)st.user, text_percent(st.user, st.cycles),
			(unsigned long long)st.paging, text_percent(st.paging, st.cycles),
			(unsigned long long)st.reserved, text_percent(st.reserved, st.cycles),
			(unsigned long long)st.pages_in, (unsigned long long)st.pages_out);
	if (st.memory)
		fprintf(
		    stderr,
		    "cyclops: memory rows %llu cycles (%.1f%%): %llu first touches of registers "
		    "and 8-byte words in %llu chunk%s, %llu clock bumps, %llu state bumps\n",
		    (unsigned long long)st.memory, text_percent(st.memory, st.cycles),
		    (unsigned long long)st.touches, (unsigned long long)st.chunks,
		    st.chunks == 1 ? "" : "s", (unsigned long long)st.clock_bumps,
		    (unsigned long long)st.state_bumps);
}

/* Misaligned data accesses, when there were any: "cyclops: 11 misaligned
 * data accesses at 2 pcs; most at 0x00010234 <main+0x12> (mis.c:5): 10". */
static void print_misaligned(cy_vm *vm, const char *program)
{
	const cy_misaligned_site *sites;
	size_t n, top = 0;
	uint64_t total = cy_vm_misaligned(vm, &sites, &n, NULL);
	char sym[128] = "", shown[160], where[300] = "";
	struct srcinfo *src;
	const char *file;
	int line;

	if (!total)
		return;
	if (!n) {
		fprintf(stderr, "cyclops: %llu misaligned data accesses\n",
			(unsigned long long)total);
		return;
	}
	for (size_t i = 1; i < n; i++)
		if (sites[i].count > sites[top].count)
			top = i;
	cy_vm_symbolize(vm, sites[top].pc, sym, sizeof(sym));
	text_printable(shown, sizeof(shown), sym);
	if ((src = srcinfo_open(program, &(struct src_paths){ 0 }, false)) != NULL) {
		if (srcinfo_line(src, sites[top].pc, &file, &line)) {
			char f[200];
			text_printable(f, sizeof(f), file);
			snprintf(where, sizeof(where), " (%s:%d)", f, line);
		}
		srcinfo_close(src);
	}
	fprintf(
	    stderr,
	    "cyclops: %llu misaligned data access%s at %zu pc%s; most at 0x%08x%s%s%s%s: %llu\n",
	    (unsigned long long)total, total == 1 ? "" : "es", n, n == 1 ? "" : "s", sites[top].pc,
	    *shown ? " <" : "", shown, *shown ? ">" : "", where,
	    (unsigned long long)sites[top].count);
}

/* The bare platform's traps: "cyclops: bare: 3 exceptions, 10 interrupts". */
static void print_machine(const cy_vm *vm)
{
	cy_machine_stats ms;

	cy_vm_machine_stats(vm, &ms);
	fprintf(stderr, "cyclops: bare: %llu exceptions, %llu interrupts\n",
		(unsigned long long)ms.exceptions, (unsigned long long)ms.interrupts);
}

/* Queues the --input frames, in order; 0 or a message already printed. */
static int push_inputs(cy_vm *vm, const struct run_args *a)
{
	char err[300];

	if (a->n_inputs && cy_vm_abi(vm) == CY_ABI_LINUX) {
		cli_error("run: --input is for zkVM guests (--abi sp1|pico|risc0); %s uses the "
			  "linux ABI",
			  a->program);
		return -1;
	}
	for (int i = 0; i < a->n_inputs; i++) {
		uint8_t *frame = NULL;
		size_t len = 0;
		int rc = cy_input_encode(a->inputs[i], &frame, &len, err, sizeof(err));
		if (rc == 1)
			rc = cli_read_file(a->inputs[i], &frame, &len, err, sizeof(err));
		if (rc == 0 && cy_vm_push_input(vm, frame, len) != 0) {
			snprintf(err, sizeof(err), "out of host memory");
			rc = -1;
		}
		free(frame);
		if (rc != 0) {
			cli_error("run: %s", err);
			return -1;
		}
	}
	return 0;
}

/* Set by the signal handler (on_interrupt): the outputs are being written,
 * and a signal asked to skip the ones not yet begun. */
static volatile sig_atomic_t writing_outputs, skip_outputs;

bool run_skipping(void) { return skip_outputs; }

/* The public values shown in hex in the summary; the file has them all. */
#define PUBLIC_VALUES_SHOWN 256

/* A zkVM guest's outputs: public values (hex), committed words and syscall
 * counts on stderr; the raw public values in a file if asked. */
static int print_zkvm(cy_vm *vm, const struct run_args *a)
{
	size_t n, pv_len;
	const cy_syscall_count *c = cy_vm_syscall_counts(vm, &n);
	const uint8_t *pv = cy_vm_public_values(vm, &pv_len);
	const cy_proof_digests *proofs;
	size_t n_proofs;
	cy_commits cm;
	int rc = 0;

	if (a->public_values && !skip_outputs) {
		struct text_bytes b = { pv, pv_len };
		if (text_write_file(a->public_values, text_bytes_body, &b) != 0) {
			cli_error("run: %s: cannot write the public values", a->public_values);
			rc = -1;
		}
	}
	if (a->quiet)
		return rc;
	if (cy_vm_abi(vm) == CY_ABI_RISC0) /* RISC Zero's public values are its journal */
		fprintf(stderr, "cyclops: risc0 journal (%zu bytes): ", pv_len);
	else
		fprintf(stderr,
			"cyclops: %s@v%u public values (%zu bytes): ", cy_abi_name(cy_vm_abi(vm)),
			cy_vm_abi_version(vm, NULL), pv_len);
	for (size_t i = 0; i < pv_len && i < PUBLIC_VALUES_SHOWN; i++)
		fprintf(stderr, "%02x", pv[i]);
	if (pv_len > PUBLIC_VALUES_SHOWN)
		fprintf(stderr, "... (%zu more%s)", pv_len - PUBLIC_VALUES_SHOWN,
			a->public_values ? "" : "; --public-values FILE has them all");
	cy_vm_commits(vm, &cm);
	if (cm.digest_set || cm.deferred_set) {
		fputs(cy_vm_abi(vm) == CY_ABI_RISC0 ? "\ncyclops: output digest:"
						    : "\ncyclops: committed digest:",
		      stderr);
		for (int i = 0; i < 8; i++)
			fprintf(stderr, cm.digest_set >> i & 1 ? " %08x" : " -", cm.digest[i]);
		if (cm.deferred_set) {
			fputs("; deferred proofs:", stderr);
			for (int i = 0; i < 8; i++)
				fprintf(stderr, cm.deferred_set >> i & 1 ? " %08x" : " -",
					cm.deferred[i]);
		}
	}
	proofs = cy_vm_verified_proofs(vm, &n_proofs);
	for (size_t i = 0; i < n_proofs; i++) {
		fprintf(stderr, "\ncyclops: proof %zu to verify: vkey", i + 1);
		for (int k = 0; k < 8; k++)
			fprintf(stderr, " %08x", proofs[i].vkey[k]);
		fputs("; public values digest", stderr);
		for (int k = 0; k < 8; k++)
			fprintf(stderr, " %08x", proofs[i].pv_digest[k]);
	}
	fputs("\ncyclops: syscalls:", stderr);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s %s %llu", i ? "," : "", c[i].name,
			(unsigned long long)c[i].count);
	fputc('\n', stderr);
	return rc;
}

/* SIGINT, SIGTERM and SIGHUP stop the guest at the next slice boundary
 * (cy_vm_interrupt) so that everything asked for is still written; a
 * second one ends cyclops at once (SA_RESETHAND). */
static cy_vm *volatile interrupt_vm;
static volatile sig_atomic_t interrupt_signal;

static void say(const char *msg, size_t len)
{
	if (write(2, msg, len) < 0) {
		/* nothing more can be said */
	}
}

/* Three steps, each asked for by one more signal:
 * 1. the first, while the guest runs, stops it and lets everything asked
 *    for be written, marked partial;
 * 2. the next one, or a first one while the outputs are written, lets the
 *    file being written finish and skips the rest;
 * 3. one more ends cyclops at once, the file being filled removed.
 * The exit status is 128 + the signal's number in each case. */
static void on_interrupt(int signo)
{
	static const char finishing[] = "cyclops: stopping after the file being written; the rest "
					"are skipped (one more signal stops at once)\n";
	static const char now[] = "cyclops: stopped at once; the files written before are whole, "
				  "the one being written is removed\n";

	if (skip_outputs) {
		text_remove_pending();
		say(now, sizeof(now) - 1);
		_exit(CY_EXIT_SIGNAL_BASE + signo);
	}
	if (interrupt_signal || writing_outputs) {
		skip_outputs = 1;
		interrupt_signal = signo;
		say(finishing, sizeof(finishing) - 1);
		return;
	}
	interrupt_signal = signo;
	if (interrupt_vm)
		cy_vm_interrupt(interrupt_vm, signo);
}

void run_catch_interrupts(cy_vm *vm)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sa.sa_flags = 0; /* no SA_RESTART: a guest's blocked read returns */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		sigaction(signals[i], &sa, NULL);
	/* a closed pipe is the guest's write error, not the end of cyclops */
	signal(SIGPIPE, SIG_IGN);
	interrupt_vm = vm;
	if (interrupt_signal) /* one came before the handler knew the VM */
		cy_vm_interrupt(vm, interrupt_signal);
}

/* The progress line (struct progress, cli_run.h). */
#define PROGRESS_AFTER 1.0  /* seconds before the first line */
#define PROGRESS_EVERY 0.25 /* seconds between lines */

void progress_init(struct progress *p, bool quiet)
{
	p->on = !quiet && isatty(STDERR_FILENO);
	p->shown = false;
	p->start = run_now();
	p->next = p->start + PROGRESS_AFTER;
}

bool progress_due(struct progress *p)
{
	double now = run_now();

	if (!p->on || now < p->next)
		return false;
	p->next = now + PROGRESS_EVERY;
	p->shown = true;
	return true;
}

void progress_show(struct progress *p, const cy_vm *vm)
{
	double secs = run_now() - p->start;

	if (!progress_due(p))
		return;
	fprintf(stderr, "\r\033[Kcyclops: %llu cycles, %.1f MIPS, %.1f s",
		(unsigned long long)cy_vm_cycles(vm),
		secs > 0 ? (double)cy_vm_instret(vm) / secs / 1e6 : 0.0, secs);
	fflush(stderr);
}

void progress_erase(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}

/* The VM calls this before it writes the guest's output: the line goes
 * first, so that the output starts in column 0 and is not overwritten. */
static void progress_before_output(void *ctx)
{
	struct progress *p = ctx;

	if (p->shown) {
		progress_erase(p);
		fflush(stderr);
	}
}

int run_options(struct run *r)
{
	struct run_args *a = &r->a;
	cy_opts *opts = &r->opts;
	char err[512];

	if (a->report && a->tracker == TRACK_OFF)
		a->tracker = TRACK_ON; /* the report is the tracker's results */
	if (!r->worker && check_outputs(a) != 0)
		return -1;
	cy_opts_init(opts);
	opts->max_cycles = a->max_cycles;
	opts->max_memory = a->max_memory;
	opts->argc = a->guest_argc;
	opts->argv = (const char *const *)a->guest_argv;
	opts->quiet = a->quiet;
	opts->reference = a->reference;
	opts->engine = a->engine;
	/* the debugger needs the interpreter's accounting edges, and forks
	 * snapshots: no translation tier (and none of its threads) */
	if (a->gdb && opts->engine == CY_ENGINE_JIT) {
		cli_error("run: --gdb runs the interpreter: it cannot be used with --engine jit");
		return -1;
	}
	if (a->gdb)
		opts->engine = CY_ENGINE_INTERP;
	opts->model = a->model;
	opts->segment_po2 = (uint32_t)a->segment_po2;
	opts->cycle_tracker = a->tracker != TRACK_OFF;
	opts->cycle_tracker_quiet = a->tracker == TRACK_QUIET;
	if (a->chunk_cycles)
		opts->chunk_cycles = a->chunk_cycles;
	opts->counters_build = a->counters_build;
	opts->abi = a->abi;
	opts->abi_version = a->abi_version;
	opts->timers = a->timers;
	opts->significant = a->significant;
	opts->sample = a->sample;
	opts->sample_interval = a->sample_interval;
	opts->out_dir = a->out_dir;
	opts->guest_saves = a->guest_saves;
	opts->guest_save_files = (uint32_t)a->guest_save_files;
	opts->guest_save_bytes = a->guest_save_bytes;
	opts->platform = a->platform;
	opts->ram = a->ram;
	opts->uart_base = (uint32_t)a->uart_base;
	r->progress.shown = false;
	opts->before_output = progress_before_output;
	opts->output_ctx = &r->progress;
	if (cy_opts_check(opts, err, sizeof(err)) != 0) {
		cli_error("run: %s", err);
		return -1;
	}
	/* checkpoints fall between the report's chunks: a whole number of them */
	uint64_t every = a->checkpoint_every ? a->checkpoint_every : DEFAULT_CHECKPOINT_EVERY;
	r->slices_per_checkpoint = (every + opts->chunk_cycles - 1) / opts->chunk_cycles;
	return 0;
}

int run_create(struct run *r, const void *elf, size_t size, const char *elf_path)
{
	struct run_args *a = &r->a;
	char err[512];

	r->elf_path = elf_path;
	if (cy_vm_create_from_bytes(&r->vm, elf, size, a->program, &r->opts, err, sizeof(err)) !=
	    0) {
		cli_error("%s", err);
		return CY_EXIT_BAD_PROGRAM;
	}
	if (a->signature && cy_vm_signature(r->vm, &(uint32_t){ 0 }, &(uint32_t){ 0 }) != 0) {
		cli_error("run: --signature: %s has no begin_signature and end_signature symbols "
			  "(in that order)",
			  a->program);
		return CY_EXIT_USAGE;
	}
	if (!r->from_checkpoint && push_inputs(r->vm, a) != 0)
		return CY_EXIT_USAGE;
	if (a->report && !(r->report = report_new())) {
		cli_error("out of host memory");
		return CY_EXIT_INTERNAL;
	}
	r->profile.no_inline = a->no_inline;
	r->profile.paths = a->paths;
	if (a->n_profiles) {
		int rc = r->cs_mode == CY_CALLSTACK_WHOLE
			     ? profile_attach(&r->profile, r->vm, &r->callstack)
			     : cy_callstack_attach_mode(r->vm, r->cs_mode, &r->stack_only);
		if (rc != 0) {
			cli_error("out of host memory");
			return CY_EXIT_INTERNAL;
		}
		/* only the trace shows the longest calls: without one the
		 * profiler keeps none (a chunk's worker reads the same
		 * command line, so the chunks keep what the run keeps) */
		if (r->callstack)
			cy_callstack_keep_spans(r->callstack, wants_trace(a));
		r->profile.vm = r->vm;
		if (strcmp(elf_path, a->program) != 0)
			r->profile.elf_path = elf_path;
	}
	/* "monitor profile" reads a call-stack profile even without --profile */
	if (a->gdb && !r->callstack && cy_callstack_attach(r->vm, &r->callstack) != 0) {
		cli_error("out of host memory");
		return CY_EXIT_INTERNAL;
	}
	return 0;
}

int run_finish(struct run *r, cy_stop stop)
{
	struct run_args *a = &r->a;
	cy_vm *vm = r->vm;
	char err[512];
	int status;

	writing_outputs = 1;
	if (stop != CY_STOP_EXIT || !a->quiet || r->opts.cycle_tracker || a->counters ||
	    r->opts.timers)
		end_guest_line(vm);
	switch (stop) {
	case CY_STOP_EXIT: status = cy_vm_exit_code(vm); break;
	case CY_STOP_CYCLE_LIMIT:
		cli_error("%s", cy_vm_stop_message(vm));
		status = CY_EXIT_CYCLE_LIMIT;
		break;
	case CY_STOP_FAULT:
		cli_error("%s", cy_vm_stop_message(vm));
		status =
		    cy_vm_fault(vm) == CY_FAULT_HOST || cy_vm_fault(vm) == CY_FAULT_MEMORY_LIMIT
			? CY_EXIT_INTERNAL
			: CY_EXIT_FAULT;
		break;
	case CY_STOP_INTERRUPTED:
		cli_error("%s", cy_vm_stop_message(vm));
		/* as a shell reports it; a checkpoint that could not be written
		 * stopped it without a signal */
		if (r->gdb_killed) /* GDB's kill is SIGKILL's */
			status = CY_EXIT_SIGNAL_BASE + SIGKILL;
		else
			status = interrupt_signal ? CY_EXIT_SIGNAL_BASE + interrupt_signal
						  : CY_EXIT_INTERNAL;
		break;
	default: status = CY_EXIT_INTERNAL; break;
	}
	if (r->opts.cycle_tracker)
		cli_print_tracker(stderr, vm, cli_use_colour(stderr));
	if (a->counters)
		cli_print_counters(stderr, vm, cli_use_colour(stderr));
	if (r->opts.timers)
		cli_print_timers(stderr, vm, cli_use_colour(stderr));
	if (!a->quiet)
		print_summary(vm, run_now() - r->t0);
	if (!a->quiet)
		print_misaligned(vm, r->elf_path ? r->elf_path : a->program);
	if (!a->quiet && cy_vm_platform(vm) == CY_PLATFORM_BARE)
		print_machine(vm);
	if (cy_vm_abi(vm) != CY_ABI_LINUX && print_zkvm(vm, a) != 0 && status == 0)
		status = CY_EXIT_INTERNAL;
	/* what was measured before a fault is written out too */
	if (a->signature && !skip_outputs && write_signature(vm, a) != 0 && status == 0)
		status = CY_EXIT_INTERNAL;
	if ((a->sample || a->sample_out) && !skip_outputs &&
	    cli_save_samples(vm, a->sample_out, a->out_dir, a->quiet) != 0 && status == 0)
		status = CY_EXIT_INTERNAL;
	if (r->report && !skip_outputs &&
	    report_write(r->report, a->report, a->program, vm, status, err, sizeof(err)) != 0) {
		cli_error("run: %s", err);
		if (status == 0)
			status = CY_EXIT_INTERNAL;
	}
	if (a->n_profiles) {
		if (profile_gather(&r->profile, r->callstack, a->program, status) != 0) {
			cli_error("run: out of host memory for the profile");
			status = status ? status : CY_EXIT_INTERNAL;
		} else {
			for (int k = 0; k < a->n_profiles && !skip_outputs; k++)
				if (profile_write(&r->profile, a->profiles[k],
						  a->profile_formats[k], err, sizeof(err)) != 0) {
					cli_error("run: %s", err);
					if (status == 0)
						status = CY_EXIT_INTERNAL;
				}
		}
	}
	if (skip_outputs) /* a signal cut the writing short: say so in the status */
		status = CY_EXIT_SIGNAL_BASE + interrupt_signal;
	interrupt_vm = NULL; /* the handlers stay until cyclops exits */
	return status;
}

void run_free(struct run *r)
{
	if (r->a.n_profiles)
		profile_free(&r->profile);
	for (int i = 0; r->saved_argv && i < r->saved_argc; i++)
		free(r->saved_argv[i]);
	free(r->saved_argv);
	free(r->saved_run_argv);
	free(r->saved_dir);
	free(r->saved_elf_path);
	r->saved_argv = r->saved_run_argv = NULL;
	r->saved_dir = r->saved_elf_path = NULL;
	report_free(r->report);
	cy_callstack_free(r->callstack);
	cy_callstack_free(r->stack_only);
	r->stack_only = NULL;
	cy_vm_destroy(r->vm);
	r->report = NULL;
	r->callstack = NULL;
	r->vm = NULL;
}
