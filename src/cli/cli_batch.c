/* cli_batch.c - "cyclops batch LIST": a cyclops run per line of LIST, shared
 * out among worker processes (--jobs N) or, started by mpirun or srun,
 * among the MPI ranks (cli_channel.h), with one line per run and one
 * summary. Nothing is read from a shared file system on the workers' side:
 * the driver reads each run's program, input files and model file and
 * sends them with the run; the worker runs it in a directory of its own,
 * with the output options pointing there, and sends back the files the run
 * wrote, its guest's stdout and stderr and its figures; the driver writes
 * the files where the line named them. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_channel.h"
#include "cli/cli_options.h"
#include "cli/cli_run.h"
#include "util/file.h"
#include "util/state_io.h"

#define MAX_WORDS CLI_MAX_WORDS
#define MAX_FILES 64
/* Where a worker keeps the program; the run names it by its path in LIST. */
#define PROGRAM_FILE "program.elf"

/* A file travelling with a run: its name in the worker's directory, its
 * bytes (an input), or the path the driver writes it to (an output). */
struct file {
	char *name;
	size_t name_len;
	void *data;
	size_t len;
};

struct batch_job {
	uint64_t index;
	int argc;
	char **argv; /* "run" and the line's words, files renamed */
	size_t n_files;
	struct file files[MAX_FILES]; /* inputs */
};

struct batch_result {
	uint64_t index;
	int32_t status;
	uint64_t instructions, cycles;
	double seconds;
	void *out, *err; /* the guest's stdout and stderr (with cyclops's lines) */
	size_t out_len, err_len;
	size_t n_files;
	struct file files[MAX_FILES]; /* outputs, by their names in the worker */
};

static void file_io(struct sio *io, struct file *f)
{
	sio_blob(io, (void **)&f->name, &f->name_len, 4096, "bytes of a file name");
	sio_blob(io, &f->data, &f->len, SIZE_MAX, "bytes of a file");
}

static void job_io(struct sio *io, struct batch_job *j)
{
	sio_tag(io, "BJOB");
	sio_u64(io, &j->index);
	cli_words_io(io, &j->argc, &j->argv);
	sio_count(io, &j->n_files, MAX_FILES, 16, "files");
	for (size_t i = 0; i < j->n_files && sio_ok(io); i++)
		file_io(io, &j->files[i]);
}

static void result_io(struct sio *io, struct batch_result *r)
{
	sio_tag(io, "BRES");
	sio_u64(io, &r->index);
	sio_i32(io, &r->status);
	sio_u64(io, &r->instructions);
	sio_u64(io, &r->cycles);
	sio_raw(io, &r->seconds, sizeof(r->seconds));
	sio_blob(io, &r->out, &r->out_len, SIZE_MAX, "bytes of stdout");
	sio_blob(io, &r->err, &r->err_len, SIZE_MAX, "bytes of stderr");
	sio_count(io, &r->n_files, MAX_FILES, 16, "files");
	for (size_t i = 0; i < r->n_files && sio_ok(io); i++)
		file_io(io, &r->files[i]);
}

static void free_files(struct file *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].name);
		free(f[i].data);
	}
}

/* The worker: a run in a directory of its own. */

static int write_file(const char *name, const void *p, size_t len)
{
	struct text_bytes b = { p, len };

	return text_write_file(name, text_bytes_body, &b);
}

static void read_into(const char *name, void **data, size_t *len)
{
	static const struct file_rules any = { .max = SIZE_MAX / 2 };
	char why[200];

	*data = NULL;
	*len = 0;
	if (file_read(name, &any, data, len, why, sizeof(why)) != 0) {
		*data = NULL;
		*len = 0;
	}
}

static int run_in_dir(struct batch_job *j, struct batch_result *res)
{
	int pipefd[2], status = 0;
	pid_t pid;

	if (pipe(pipefd) != 0 || (pid = fork()) < 0)
		return -errno;
	if (pid == 0) {
		struct run_stats st = { 0 };
		int in = open("/dev/null", O_RDONLY),
		    out = open("stdout", O_WRONLY | O_CREAT, 0644),
		    err = open("stderr", O_WRONLY | O_CREAT, 0644);
		close(pipefd[0]);
		if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
		    dup2(err, 2) < 0)
			_exit(CY_EXIT_INTERNAL);
		int rc = run_main(j->argc, j->argv, PROGRAM_FILE, &st);
		fflush(NULL);
		if (write(pipefd[1], &st, sizeof(st)) != (ssize_t)sizeof(st))
			_exit(CY_EXIT_INTERNAL);
		_exit(rc);
	}
	close(pipefd[1]);
	struct run_stats st = { 0 };
	ssize_t n = read(pipefd[0], &st, sizeof(st));
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	res->status =
	    WIFEXITED(status) ? WEXITSTATUS(status) : CY_EXIT_SIGNAL_BASE + WTERMSIG(status);
	if (n == (ssize_t)sizeof(st)) {
		res->instructions = st.instructions;
		res->cycles = st.cycles;
		res->seconds = st.seconds;
	}
	return 0;
}

/* A name the driver gave a file: in the run's directory, at most one
 * directory deep, nothing that leads out of it. */
static bool name_ok(const char *name)
{
	int slashes = 0;

	if (!*name || name[0] == '.' || strstr(name, "/."))
		return false;
	for (const char *c = name; *c; c++)
		if (*c == '/')
			slashes++;
	return slashes <= 1 && name[strlen(name) - 1] != '/';
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int batch_job(struct channel *ch, struct batch_job *j)
{
	struct batch_result res = { .index = j->index };
	const char *tmp = getenv("TMPDIR");
	char dir[4096], back[4096];
	struct sio io;
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s/cyclops-batch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!getcwd(back, sizeof(back)) || !mkdtemp(dir) || chdir(dir) != 0)
		return -errno;
	for (size_t i = 0; i < j->n_files && rc == 0; i++) {
		char *slash = strchr(j->files[i].name, '/');
		if (!name_ok(j->files[i].name)) {
			rc = -EINVAL;
			break;
		}
		if (slash) { /* one directory at most: in-N/NAME */
			*slash = '\0';
			mkdir(j->files[i].name, 0777);
			*slash = '/';
		}
		rc = write_file(j->files[i].name, j->files[i].data, j->files[i].len);
	}
	if (rc == 0)
		rc = run_in_dir(j, &res);
	if (rc == 0) {
		read_into("stdout", &res.out, &res.out_len);
		read_into("stderr", &res.err, &res.err_len);
		/* the outputs: every option value the driver named out-N */
		for (int i = 0; i < j->argc && res.n_files < MAX_FILES; i++) {
			const char *w = strchr(j->argv[i], '=');
			w = w ? w + 1 : j->argv[i];
			if (strncmp(w, "out-", 4) != 0 || access(w, F_OK) != 0)
				continue;
			struct file *f = &res.files[res.n_files++];
			f->name = strdup(w);
			f->name_len = strlen(w);
			read_into(w, &f->data, &f->len);
		}
	}
	/* the directory goes, whatever the run left there */
	if (chdir(back) != 0 || nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		rc = rc ? rc : -EIO;
	if (rc == 0) {
		sio_save_init(&io);
		result_io(&io, &res);
		rc = sio_ok(&io) ? ch->send(ch, MSG_RESULT, io.buf, io.len) : io.err;
		sio_free(&io);
	}
	free(res.out);
	free(res.err);
	free_files(res.files, res.n_files);
	return rc;
}

static int batch_worker(struct channel *ch)
{
	for (;;) {
		uint32_t type;
		uint8_t *p;
		size_t len;
		struct sio io;
		struct batch_job j = { 0 };
		int rc;
		if (ch->recv(ch, &type, &p, &len) != 0)
			return 1;
		if (type == MSG_QUIT) {
			free(p);
			return 0;
		}
		sio_load_init(&io, p, len);
		job_io(&io, &j);
		free(p);
		rc = sio_ok(&io) ? batch_job(ch, &j) : io.err;
		if (rc != 0) {
			char msg[300];
			snprintf(msg, sizeof(msg), "batch: line %llu: %s",
				 (unsigned long long)j.index, sio_ok(&io) ? strerror(-rc) : io.why);
			ch->send(ch, MSG_FAILED, msg, strlen(msg) + 1);
		}
		cli_words_free(j.argc, j.argv);
		free_files(j.files, j.n_files);
		if (rc != 0)
			return 1;
	}
}

static int worker_main(struct channel *ch, void *ctx)
{
	(void)ctx;
	return batch_worker(ch);
}

/* The driver. */

/* A line's words: blanks separate them, quotes keep blanks in one. */
static int split_words(const char *line, char ***out, int *n)
{
	char **w = calloc(MAX_WORDS + 1, sizeof(*w));
	const char *s = line;

	*n = 0;
	if (!w)
		return -ENOMEM;
	for (;;) {
		char buf[4096];
		size_t len = 0;
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s || *s == '\n' || (*s == '#' && *n == 0))
			break;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') {
			if (*s == '\'' || *s == '"') {
				char q = *s++;
				while (*s && *s != q && len < sizeof(buf) - 1)
					buf[len++] = *s++;
				if (*s != q) {
					cli_words_free(*n, w);
					return -EINVAL;
				}
				s++;
			} else if (len < sizeof(buf) - 1) {
				buf[len++] = *s++;
			} else {
				s++;
			}
		}
		if (*n == MAX_WORDS || !(w[*n] = strndup(buf, len))) {
			cli_words_free(*n, w);
			return -E2BIG;
		}
		(*n)++;
	}
	*out = w;
	return 0;
}

struct line {
	struct batch_job job;
	char *text;     /* as LIST has it, for the messages */
	char **outputs; /* by out-N: the path the driver writes it to */
	size_t n_outputs;
};

/* An input file for the run: read now, sent with it under name. */
static int add_input(struct line *l, const char *path, const char *name, char *err, size_t err_size)
{
	static const struct file_rules any = { .max = SIZE_MAX / 2 };
	struct file *f;
	char why[300];

	if (l->job.n_files == MAX_FILES)
		return snprintf(err, err_size, "more than %d files", MAX_FILES), -1;
	f = &l->job.files[l->job.n_files];
	if (file_read(path, &any, &f->data, &f->len, why, sizeof(why)) != 0)
		return snprintf(err, err_size, "%s: %s", path, why), -1;
	f->name = strdup(name);
	f->name_len = strlen(name);
	l->job.n_files++;
	return 0;
}

/* Whether an --input spec is a file (not u32:, u64:, hex:, str:). */
static bool input_is_file(const char *spec)
{
	static const char *const kinds[] = { "u32:", "u64:", "hex:", "str:" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strncmp(spec, kinds[i], strlen(kinds[i])) == 0)
			return false;
	return true;
}

/* Renames a line's files for the worker: its program, input files and
 * model file become files sent with it, its outputs out-N files sent
 * back. 0 or -1 with the reason in err. */
static int prepare(struct line *l, char **w, int n, char *err, size_t err_size)
{
	char **argv = calloc((size_t)n + 4, sizeof(*argv));
	int i, outs = 0, ins = 0;
	bool sample = false, sample_out = false;

	if (!argv || !(l->outputs = calloc(MAX_FILES, sizeof(*l->outputs))))
		return snprintf(err, err_size, "out of host memory"), -1;
	l->job.argv = argv; /* freed with the line, whatever happens below */
	argv[l->job.argc++] = strdup("run");
	for (i = 0; i < n && w[i][0] == '-' && strcmp(w[i], "--") != 0; i++) {
		const struct cli_option *o = cli_find_option(&cli_run_command, w[i]);
		const char *eq = strchr(w[i], '='), *v = NULL;
		char name[48];
		if (!o)
			return snprintf(err, err_size, "unknown option '%s'", w[i]), -1;
		if (o->arg == CLI_ARG_REQUIRED)
			v = eq ? eq + 1 : i + 1 < n ? w[++i] : NULL;
		else if (eq)
			v = eq + 1;
		switch (o->id) {
		case RUN_REPORT:
		case RUN_PROFILE:
		case RUN_SAMPLE_OUT:
		case RUN_PUBLIC_VALUES:
		case RUN_SIGNATURE:
			if (!v || l->n_outputs == MAX_FILES)
				return snprintf(err, err_size, "--%s needs a file", o->name), -1;
			/* the extension stays: it may say a profile's format */
			const char *base = strrchr(v, '/') ? strrchr(v, '/') + 1 : v;
			const char *ext = strchr(base, '.') ? strchr(base, '.') : "";
			snprintf(name, sizeof(name), "out-%d%.16s", ++outs, ext);
			l->outputs[l->n_outputs++] = strdup(v);
			sample_out |= o->id == RUN_SAMPLE_OUT;
			if (asprintf(&argv[l->job.argc++], "--%s=%s", o->name, name) < 0)
				return -1;
			continue;
		case RUN_INPUT:
		case RUN_MODEL:
			if (v && (o->id == RUN_INPUT ? input_is_file(v) : strchr(v, '/') != NULL)) {
				/* a model is named by its file's name */
				const char *base = strrchr(v, '/') ? strrchr(v, '/') + 1 : v;
				if (o->id == RUN_MODEL)
					snprintf(name, sizeof(name), "in-%d/%.20s", ++ins, base);
				else
					snprintf(name, sizeof(name), "in-%d", ++ins);
				if (add_input(l, v, name, err, err_size) != 0)
					return -1;
				if (asprintf(&argv[l->job.argc++], "--%s=%s", o->name, name) < 0)
					return -1;
				continue;
			}
			break;
		case RUN_SAMPLE: sample = true; break;
		case RUN_GUEST_SAVES:
		case RUN_OUT_DIR:
		case RUN_CHECKPOINT_DIR:
		case RUN_CHECKPOINT_EVERY:
		case RUN_JOBS:
		case RUN_MPI:
		case RUN_HELP:
			return snprintf(err, err_size, "--%s is not for a batch line", o->name), -1;
		default: break;
		}
		if (v && asprintf(&argv[l->job.argc++], "--%s=%s", o->name, v) < 0)
			return -1;
		else if (!v)
			argv[l->job.argc++] = strdup(w[i]);
	}
	if (sample && !sample_out) { /* the histogram, where run would save it */
		l->outputs[l->n_outputs++] = strdup("cyclops.samples");
		if (asprintf(&argv[l->job.argc++], "--sample-out=out-%d", ++outs) < 0)
			return -1;
	}
	if (i < n && strcmp(w[i], "--") == 0)
		i++;
	if (i >= n)
		return snprintf(err, err_size, "no program"), -1;
	if (add_input(l, w[i], PROGRAM_FILE, err, err_size) != 0)
		return -1;
	argv[l->job.argc++] = strdup(w[i]);
	argv[l->job.argc++] = strdup("--");
	for (i++; i < n; i++)
		argv[l->job.argc++] = strdup(w[i]);
	for (int j = 0; j < l->job.argc; j++)
		if (!argv[j])
			return snprintf(err, err_size, "out of host memory"), -1;
	return 0;
}

static void free_lines(struct line *lines, long n)
{
	for (long i = 0; i < n; i++) {
		cli_words_free(lines[i].job.argc, lines[i].job.argv);
		free_files(lines[i].job.files, lines[i].job.n_files);
		free(lines[i].text);
		for (size_t k = 0; k < lines[i].n_outputs; k++)
			free(lines[i].outputs[k]);
		free(lines[i].outputs);
	}
	free(lines);
}

/* LIST's lines as jobs; the number of them, or -1 after a message. */
static long read_list(const char *path, struct line **out)
{
	static const struct file_rules list_rules = { .max = 64u << 20, .streams = true };
	char *text, why[300], err[600];
	size_t size;
	struct line *lines = NULL;
	long n = 0, cap = 0, lineno = 0;

	if (file_read(path, &list_rules, (void **)&text, &size, why, sizeof(why)) != 0) {
		cli_error("batch: %s: %s", path, why);
		return -1;
	}
	text[size] = '\0';
	for (char *s = text, *nl; *s; s = nl ? nl + 1 : s + strlen(s)) {
		char **w;
		int nw;
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		if (split_words(s, &w, &nw) != 0) {
			cli_error("batch: %s:%ld: an unclosed quote, or too long", path, lineno);
			goto out_fail;
		}
		if (nw == 0) {
			cli_words_free(nw, w);
			continue;
		}
		if (n == cap) {
			struct line *more =
			    realloc(lines, (size_t)(cap = cap ? 2 * cap : 16) * sizeof(*lines));
			if (!more) {
				cli_words_free(nw, w);
				goto out_fail;
			}
			lines = more;
		}
		struct line *l = &lines[n++];
		memset(l, 0, sizeof(*l));
		l->job.index = (uint64_t)n;
		l->text = strdup(s);
		int rc = prepare(l, w, nw, err, sizeof(err));
		cli_words_free(nw, w);
		if (rc != 0) {
			cli_error("batch: %s:%ld: %s", path, lineno, err);
			goto out_fail;
		}
	}
	free(text);
	*out = lines;
	if (n == 0)
		cli_error("batch: %s: no line to run", path);
	return n ? n : -1;
out_fail:
	free(text);
	free_lines(lines, n);
	return -1;
}

/* A run's result: its files written where its line named them, its output
 * into the output directory, a line for people. 0, or 1 when it failed. */
static int take_result(struct line *lines, long n, const char *out_dir, bool quiet,
		       const struct batch_result *res, struct batch_result *sum)
{
	struct line *l = &lines[res->index - 1];
	int failed = res->status != 0;

	for (size_t i = 0; i < res->n_files; i++) {
		long k = strtol(res->files[i].name + 4, NULL, 10);
		if (k < 1 || (size_t)k > l->n_outputs)
			continue;
		if (write_file(l->outputs[k - 1], res->files[i].data, res->files[i].len) != 0) {
			cli_error("batch: line %llu: cannot write %s",
				  (unsigned long long)res->index, l->outputs[k - 1]);
			failed = 1;
		}
	}
	if (out_dir) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%llu.stdout", out_dir,
			 (unsigned long long)res->index);
		failed |= write_file(path, res->out, res->out_len) != 0;
		snprintf(path, sizeof(path), "%s/%llu.stderr", out_dir,
			 (unsigned long long)res->index);
		failed |= write_file(path, res->err, res->err_len) != 0;
	}
	if (!quiet)
		fprintf(stderr,
			"cyclops: batch: %llu/%ld %s: status %d, %llu instructions, %llu "
			"cycles, %.3f s\n",
			(unsigned long long)res->index, n, l->text, res->status,
			(unsigned long long)res->instructions, (unsigned long long)res->cycles,
			res->seconds);
	sum->instructions += res->instructions;
	sum->cycles += res->cycles;
	sum->seconds += res->seconds;
	return failed;
}

static int drive_batch(struct workers *ws, struct line *lines, long n, const char *out_dir,
		       bool quiet)
{
	struct batch_result sum = { 0 };
	long next = 0, done = 0, failed = 0;
	double t0 = run_now();
	int *busy = calloc((size_t)ws->n, sizeof(*busy)), status = 0;

	if (!busy)
		return CY_EXIT_INTERNAL;
	while (done < n) {
		for (int w = 0; w < ws->n && next < n; w++) {
			struct sio io;
			if (busy[w])
				continue;
			sio_save_init(&io);
			job_io(&io, &lines[next++].job);
			if (!sio_ok(&io) || ws->send(ws, w, MSG_JOB, io.buf, io.len) != 0) {
				sio_free(&io);
				status = CY_EXIT_INTERNAL;
				goto out;
			}
			sio_free(&io);
			busy[w] = 1;
		}
		int w;
		uint32_t type;
		uint8_t *p;
		size_t len;
		int rc = ws->poll(ws, -1, &w, &type, &p, &len);
		if (rc < 0 || (rc == 1 && type == MSG_FAILED)) {
			cli_error("%s", rc < 0 ? "batch: a worker is gone" : (char *)p);
			if (rc == 1)
				free(p);
			status = CY_EXIT_INTERNAL;
			goto out;
		}
		if (rc == 0)
			continue;
		struct batch_result res = { 0 };
		struct sio io;
		sio_load_init(&io, p, len);
		result_io(&io, &res);
		free(p);
		if (!sio_ok(&io) || res.index < 1 || (long)res.index > n) {
			cli_error("batch: a worker's result is not one (%s)", io.why);
			status = CY_EXIT_INTERNAL;
		} else {
			failed += take_result(lines, n, out_dir, quiet, &res, &sum);
		}
		free(res.out);
		free(res.err);
		free_files(res.files, res.n_files);
		busy[w] = 0;
		done++;
		if (status)
			goto out;
	}
	fprintf(stderr,
		"cyclops: batch: %ld runs, %ld failed; %llu instructions, %llu cycles; %.3f s of "
		"runs on %d workers in %.3f s\n",
		n, failed, (unsigned long long)sum.instructions, (unsigned long long)sum.cycles,
		sum.seconds, ws->n, run_now() - t0);
	status = failed ? 1 : 0;
out:
	free(busy);
	return status;
}

int cli_batch(int argc, char **argv)
{
	const char *out_dir = NULL;
	uint64_t jobs = 1;
	bool quiet = false;
	struct line *lines = NULL;
	struct workers *ws;
	int i, id, status, rank = 0, ranks = 1;
	long n;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *v;
		if ((id = cli_next_option(&cli_batch_command, argc, argv, &i, &v)) < 0)
			return CY_EXIT_USAGE;
		switch (id) {
		case BATCH_HELP: cli_print_help(stdout, &cli_batch_command); return 0;
		case BATCH_QUIET: quiet = true; break;
		case BATCH_OUT_DIR: out_dir = v; break;
		case BATCH_JOBS:
			if (!v || cli_parse_count(v, &jobs) != 0 || jobs == 0 || jobs > 4096) {
				cli_error("batch: --jobs needs 1 to 4096 workers, got '%s'",
					  v ? v : "");
				return CY_EXIT_USAGE;
			}
			break;
		}
	}
	if (i + 1 != argc) {
		cli_error("batch: %s (see cyclops batch --help)",
			  i >= argc ? "no LIST given" : "one LIST, please");
		return CY_EXIT_USAGE;
	}
	if (mpi_launched()) {
		if (!mpi_available()) {
			cli_error("batch: started by an MPI launcher, but this cyclops was built "
				  "without MPI: every rank would run the whole list (run it with "
				  "--jobs N instead, or rebuild with libopenmpi-dev)");
			return CY_EXIT_USAGE;
		}
		if (mpi_start(&rank, &ranks) != 0)
			return CY_EXIT_INTERNAL;
		if (rank != 0) {
			status = batch_worker(channel_mpi(rank));
			mpi_stop();
			return status;
		}
		if (ranks < 2) {
			mpi_stop();
			cli_error("batch: under MPI it needs at least 2 ranks (rank 0 drives)");
			return CY_EXIT_USAGE;
		}
	}
	if (out_dir && mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
		cli_error("batch: --out-dir %s: %s", out_dir, strerror(errno));
		status = CY_EXIT_USAGE;
		goto out;
	}
	/* read first: a line that cannot run is refused before any does */
	if ((n = read_list(argv[i], &lines)) < 0) {
		status = CY_EXIT_USAGE;
		goto out;
	}
	ws = ranks > 1 ? workers_mpi(ranks) : workers_fork((int)jobs, worker_main, NULL);
	if (!ws) {
		status = CY_EXIT_INTERNAL;
		goto out_free;
	}
	status = drive_batch(ws, lines, n, out_dir, quiet);
	for (int w = 0; w < ws->n; w++)
		ws->send(ws, w, MSG_QUIT, NULL, 0);
	ws->close(ws);
out_free:
	free_lines(lines, n);
out:
	if (ranks > 1)
		mpi_stop();
	return status;
}
