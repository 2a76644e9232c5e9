/* cli_checkpoint.c - a run's checkpoints in a directory: DIR/program.elf, a
 * copy of the program, and DIR/ckpt-NNNNNNNN.cyc, each the VM's and every
 * profiler's state (cy_checkpoint_cut) with the run's own part: its command
 * line and working directory, the slices run so far, where the guest's
 * stdin, stdout and stderr stood, and the report's chunks. A checkpoint
 * holds the whole memory when the deltas since the last whole one outgrow
 * it, and the files before a whole one are removed then. cyclops resume
 * goes on from the latest (checkpoints_resume). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_run.h"
#include "util/file.h"
#include "util/state_io.h"

#define PROGRAM_COPY "program.elf"
#define NAME_FORMAT  "ckpt-%08llu.cyc"
/* A resume reads at most this many deltas after their whole checkpoint. */
#define MAX_DELTAS 32

/* Where a host file of the guest (its fd 0, 1 or 2) stood: a regular file
 * is put back there when the run goes on (stdin read from there, stdout
 * and stderr cut back to it). */
struct host_file {
	bool regular;
	uint64_t dev, ino, offset;
};

struct checkpoints {
	char *dir;
	uint64_t next_index;  /* the next checkpoint's number, from 1 */
	uint64_t last_whole;  /* the last whole one's number */
	uint64_t whole_bytes; /* its size */
	uint64_t delta_bytes; /* the deltas' sizes since */
	unsigned n_deltas;    /* and how many */
	bool pending;         /* one is due, and waits for an unconstrained block's end */
};

static void host_file_io(struct sio *io, struct host_file *h)
{
	sio_bool(io, &h->regular);
	sio_u64(io, &h->dev);
	sio_u64(io, &h->ino);
	sio_u64(io, &h->offset);
}

/* A regular file's identity and offset; size: its size now. */
static struct host_file host_file_now(int fd, uint64_t *size)
{
	struct host_file h = { 0 };
	struct stat st;
	off_t at;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (at = lseek(fd, 0, SEEK_CUR)) >= 0) {
		h = (struct host_file){ true, (uint64_t)st.st_dev, (uint64_t)st.st_ino,
					(uint64_t)at };
		if (size)
			*size = (uint64_t)st.st_size;
	}
	return h;
}

/* The run's own part ("RUN "): what resume needs before it can make the VM. */
struct run_state {
	char *cwd;
	size_t cwd_len;
	int argc;
	char **argv;
	uint64_t slices, next_index;
	struct host_file files[3];
};

static void run_state_io(struct sio *io, struct run_state *s)
{
	sio_tag(io, "RUN ");
	sio_blob(io, (void **)&s->cwd, &s->cwd_len, PATH_MAX, "bytes of the working directory");
	cli_words_io(io, &s->argc, &s->argv);
	sio_u64(io, &s->slices);
	sio_u64(io, &s->next_index);
	for (int i = 0; i < 3; i++)
		host_file_io(io, &s->files[i]);
}

static char *path_in(const char *dir, const char *name)
{
	char *p = NULL;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static char *checkpoint_path(const char *dir, uint64_t index)
{
	char name[64];

	snprintf(name, sizeof(name), NAME_FORMAT, (unsigned long long)index);
	return path_in(dir, name);
}

int checkpoints_start(struct run *r, const void *elf, size_t size)
{
	const char *dir = r->a.checkpoint_dir;
	struct text_bytes b = { elf, size };
	char *copy;
	int rc;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		cli_error("run: --checkpoint-dir %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!(r->ckpt = calloc(1, sizeof(*r->ckpt))) || !(r->ckpt->dir = strdup(dir))) {
		cli_error("out of host memory");
		return -1;
	}
	r->ckpt->next_index = 1;
	if (r->from_checkpoint)
		return 0;
	if (!(copy = path_in(dir, PROGRAM_COPY))) {
		cli_error("out of host memory");
		return -1;
	}
	rc = text_write_file(copy, text_bytes_body, &b);
	if (rc != 0)
		cli_error("run: cannot write %s: %s", copy, strerror(-rc));
	free(copy);
	return rc ? -1 : 0;
}

void checkpoints_free(struct run *r)
{
	if (!r->ckpt)
		return;
	free(r->ckpt->dir);
	free(r->ckpt);
	r->ckpt = NULL;
}

/* Removes the checkpoints before index (a whole one: they are not needed). */
static void remove_before(const char *dir, uint64_t index)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		unsigned long long k;
		char tail;
		if (sscanf(e->d_name, "ckpt-%8llu.cy%c", &k, &tail) == 2 && tail == 'c' &&
		    k < index) {
			char *p = path_in(dir, e->d_name);
			if (p)
				unlink(p);
			free(p);
		}
	}
	if (d)
		closedir(d);
}

int checkpoints_cut(struct run *r)
{
	struct checkpoints *c = r->ckpt;
	struct run_state rs = { 0 };
	struct sio io, rep, chunks;
	cy_section sec[3];
	size_t n_sec = 0, size;
	uint8_t *blob = NULL;
	cy_checkpoint_info info;
	char err[512], cwd[PATH_MAX], *path;
	int rc;

	if (!cy_vm_can_checkpoint(r->vm)) {
		c->pending = true; /* at the end of the unconstrained block */
		return 0;
	}
	c->pending = false;
	if (!getcwd(cwd, sizeof(cwd))) {
		cli_error("run: checkpoint: the working directory: %s", strerror(errno));
		return -1;
	}
	rs.cwd = cwd;
	rs.cwd_len = strlen(cwd);
	rs.argc = r->a.argc;
	rs.argv = r->a.argv;
	rs.slices = r->slices;
	rs.next_index = c->next_index + 1;
	rs.files[0] = host_file_now(r->opts.stdin_fd, NULL);
	rs.files[1] = host_file_now(r->opts.stdout_fd, NULL);
	rs.files[2] = host_file_now(r->opts.stderr_fd, NULL);
	sio_save_init(&io);
	run_state_io(&io, &rs);
	sec[n_sec++] = (cy_section){ "RUN ", io.buf, io.len };
	sio_save_init(&rep);
	if (r->report) {
		report_state_io(&rep, r->report);
		sec[n_sec++] = (cy_section){ "REPT", rep.buf, rep.len };
	}
	/* the timeline's chunks (a trace profile's) */
	sio_save_init(&chunks);
	if (r->a.n_profiles) {
		profile_chunks_state_io(&chunks, &r->profile);
		sec[n_sec++] = (cy_section){ "PCHK", chunks.buf, chunks.len };
	}
	rc = sio_ok(&io) && sio_ok(&rep) && sio_ok(&chunks) ? 0 : -ENOMEM;
	if (rc == 0)
		rc = cy_checkpoint_cut(r->vm, r->callstack, c->next_index,
				       c->last_whole == 0 || c->delta_bytes > c->whole_bytes ||
					   c->n_deltas >= MAX_DELTAS,
				       sec, n_sec, &blob, &size, &info, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "out of host memory");
	sio_free(&io);
	sio_free(&rep);
	sio_free(&chunks);
	if (rc != 0) {
		cli_error("run: checkpoint %llu: %s", (unsigned long long)c->next_index, err);
		return -1;
	}
	path = checkpoint_path(c->dir, c->next_index);
	struct text_bytes b = { blob, size };
	rc = path ? text_write_file(path, text_bytes_body, &b) : -ENOMEM;
	free(blob);
	if (rc != 0) {
		cli_error("run: cannot write %s: %s", path ? path : c->dir, strerror(-rc));
		free(path);
		return -1;
	}
	free(path);
	if (info.base == 0) {
		c->last_whole = c->next_index;
		c->whole_bytes = size;
		c->delta_bytes = 0;
		c->n_deltas = 0;
		remove_before(c->dir, c->next_index);
	} else {
		c->delta_bytes += size;
		c->n_deltas++;
	}
	c->next_index++;
	return 0;
}

bool checkpoints_due(const struct run *r)
{
	return r->ckpt && (r->ckpt->pending || r->slices % r->slices_per_checkpoint == 0);
}

/* Resuming. */

/* The checkpoint index in dir: the latest (largest), or 0 if none. */
static uint64_t latest_index(const char *dir, char *err, size_t err_size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t best = 0;

	if (!d) {
		snprintf(err, err_size, "%s: %s", dir, strerror(errno));
		return 0;
	}
	while ((e = readdir(d))) {
		unsigned long long k;
		char tail;
		if (sscanf(e->d_name, "ckpt-%8llu.cy%c", &k, &tail) == 2 && tail == 'c' &&
		    strlen(e->d_name) == 17 && k > best)
			best = k;
	}
	closedir(d);
	if (!best)
		snprintf(err, err_size, "%s: no checkpoint there (ckpt-*.cyc)", dir);
	return best;
}

static const struct file_rules checkpoint_rules = {
	.max = (size_t)1 << 44,
	.magic = "CYCKPT\r\n",
	.magic_len = 8,
	.not_magic = "not a cyclops checkpoint",
};

/* Reads and checks checkpoint index of dir. */
static int open_index(const char *dir, uint64_t index, cy_checkpoint **ck, char *err,
		      size_t err_size)
{
	char *path = checkpoint_path(dir, index), why[300];
	void *data = NULL;
	size_t size;
	int rc;

	if (!path)
		return -ENOMEM;
	rc = file_read(path, &checkpoint_rules, &data, &size, why, sizeof(why));
	if (rc != 0)
		snprintf(err, err_size, "%s: %s", path, why);
	else
		rc = cy_checkpoint_open(data, size, path, ck, err, err_size);
	free(data);
	free(path);
	return rc;
}

/* Puts the guest's host files back where the checkpoint had them, when
 * they are the same files (and hold as much): stdin is read on from there,
 * and stdout and stderr are cut back to it (appended to: >>), so that they
 * end as an uninterrupted run's would. */
static void restore_host_files(const struct run *r, const struct host_file *files)
{
	int fds[3] = { r->opts.stdin_fd, r->opts.stdout_fd, r->opts.stderr_fd };

	for (int i = 0; i < 3; i++) {
		uint64_t size = 0;
		struct host_file now = host_file_now(fds[i], &size);
		if (!files[i].regular || !now.regular || now.dev != files[i].dev ||
		    now.ino != files[i].ino || size < files[i].offset)
			continue;
		if (i > 0 && ftruncate(fds[i], (off_t)files[i].offset) != 0)
			continue;
		lseek(fds[i], (off_t)files[i].offset, SEEK_SET);
	}
}

int checkpoints_resume(struct run *r, const char *dir, uint64_t max_cycles, bool max_cycles_set)
{
	cy_checkpoint *chain[MAX_DELTAS + 2] = { 0 }, *ck;
	struct run_state rs = { 0 };
	struct sio io;
	size_t n_chain = 0, len;
	const void *p;
	char err[600], *elf_path = NULL, *abs_dir = NULL, **argv = NULL;
	void *elf = NULL;
	size_t elf_size;
	uint64_t index = latest_index(dir, err, sizeof(err));
	cy_checkpoint_info info;
	int rc = CY_EXIT_BAD_PROGRAM, status;

	if (!index)
		goto out_message;
	/* the chain back to a whole checkpoint, newest first */
	for (uint64_t k = index;;) {
		if (n_chain == sizeof(chain) / sizeof(chain[0])) {
			snprintf(err, sizeof(err),
				 "%s: more than %zu checkpoints since a whole one", dir, n_chain);
			goto out_message;
		}
		if (open_index(dir, k, &chain[n_chain], err, sizeof(err)) != 0)
			goto out_message;
		cy_checkpoint_get_info(chain[n_chain++], &info);
		if (info.index != k) {
			snprintf(err, sizeof(err), "%s: checkpoint %llu is named %llu", dir,
				 (unsigned long long)info.index, (unsigned long long)k);
			goto out_message;
		}
		if (info.base == 0)
			break;
		if (info.base >= k) {
			snprintf(err, sizeof(err), "%s: checkpoint %llu is a delta of %llu", dir,
				 (unsigned long long)k, (unsigned long long)info.base);
			goto out_message;
		}
		k = info.base;
	}
	ck = chain[0];
	p = cy_checkpoint_section(ck, "RUN ", &len);
	sio_load_init(&io, p, len);
	if (p)
		run_state_io(&io, &rs);
	if (!p || !sio_ok(&io) || io.left || rs.argc < 1) {
		snprintf(err, sizeof(err), "%s/" NAME_FORMAT ": its run: %s", dir,
			 (unsigned long long)index, p ? io.why : "missing");
		goto out_message;
	}
	if (!(abs_dir = realpath(dir, NULL)) || !(elf_path = path_in(abs_dir, PROGRAM_COPY))) {
		snprintf(err, sizeof(err), "%s: %s", dir, strerror(errno));
		goto out_message;
	}
	if (chdir(rs.cwd) != 0) {
		snprintf(err, sizeof(err), "the run's working directory %s: %s", rs.cwd,
			 strerror(errno));
		goto out_message;
	}
	/* the run as it was started: its own options */
	argv = calloc((size_t)rs.argc + 2, sizeof(*argv));
	if (!argv || !(r->a.inputs = calloc((size_t)rs.argc + 1, sizeof(*r->a.inputs)))) {
		snprintf(err, sizeof(err), "out of host memory");
		goto out_message;
	}
	argv[0] = "run";
	memcpy(argv + 1, rs.argv, (size_t)rs.argc * sizeof(*argv));
	r->from_checkpoint = true;
	status = run_parse(r, rs.argc + 1, argv);
	if (status != 0 || run_options(r) != 0) {
		snprintf(err, sizeof(err), "%s: the run's command line is refused (above)", dir);
		goto out_message;
	}
	r->a.max_cycles = r->opts.max_cycles = max_cycles_set ? max_cycles : 0;
	if (file_read(elf_path, &file_rules_elf, &elf, &elf_size, err, sizeof(err)) != 0) {
		char why[300];
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, sizeof(err), "%s: %s", elf_path, why);
		goto out_message;
	}
	if ((status = run_create(r, elf, elf_size, elf_path)) != 0) {
		rc = status;
		goto out;
	}
	r->a.checkpoint_dir = abs_dir;
	if (checkpoints_start(r, elf, elf_size) != 0)
		goto out;
	/* memory from the whole checkpoint on, then everything else */
	for (size_t i = n_chain; i-- > 0;)
		if (cy_vm_restore_memory(r->vm, chain[i], err, sizeof(err)) != 0)
			goto out_message;
	if (cy_vm_restore_state(r->vm, r->callstack, ck, err, sizeof(err)) != 0)
		goto out_message;
	if (r->report) {
		p = cy_checkpoint_section(ck, "REPT", &len);
		sio_load_init(&io, p, len);
		if (p)
			report_state_io(&io, r->report);
		if (!p || !sio_ok(&io) || io.left) {
			snprintf(err, sizeof(err), "%s/" NAME_FORMAT ": its report: %s", dir,
				 (unsigned long long)index, p ? io.why : "missing");
			goto out_message;
		}
	}
	if (r->a.n_profiles) {
		p = cy_checkpoint_section(ck, "PCHK", &len);
		sio_load_init(&io, p, len);
		if (p)
			profile_chunks_state_io(&io, &r->profile);
		if (!p || !sio_ok(&io) || io.left) {
			snprintf(err, sizeof(err), "%s/" NAME_FORMAT ": its profile's chunks: %s",
				 dir, (unsigned long long)index, p ? io.why : "missing");
			goto out_message;
		}
	}
	restore_host_files(r, rs.files);
	r->slices = rs.slices;
	r->ckpt->next_index = rs.next_index;
	rc = 0;
	goto out;
out_message:
	cli_error("resume: %s", err);
out:
	for (size_t i = 0; i < n_chain; i++)
		cy_checkpoint_close(chain[i]);
	/* the command line's strings stay with the run: its arguments point
	 * into them (run_free frees them) */
	r->saved_argv = rs.argv;
	r->saved_argc = rs.argc;
	r->saved_run_argv = argv;
	r->saved_dir = abs_dir;
	r->saved_elf_path = elf_path;
	free(rs.cwd);
	free(elf);
	return rc;
}
