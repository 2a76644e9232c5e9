/* jit.c - the translation tier's driver. The interpreter runs first, in
 * slices; the pc where a slice ends is a sample of where the time goes.
 * When a function (a symbol's range) has been sampled often enough, the
 * blocks of it that have been decoded become a region: its description
 * (flat, jit.h) is hashed, and the shared object of that hash is loaded
 * from the on-disk cache, or compiled by a background thread
 * (jit_gen.c) while the interpreter goes on. A loaded region is entered
 * from the interpreter through the first instruction of each of its
 * blocks, whose handler becomes jit_enter; it runs until it leaves its
 * blocks, the budget ends or something needs the interpreter. Everything
 * here is the run's own thread's but the compiler queue. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/account.h"
#include "core/block.h"
#include "core/exec.h"
#include "core/jit.h"
#include "core/symbols.h"
#include "core/vm.h"
#include "util/file.h"

/* The interpreter's slices between two samples, in cycles (shorter when
 * CYCLOPS_JIT_EAGER asks for every function at once: the tests' short
 * guests are translated too). */
#define JIT_SLICE       (1u << 16)
#define JIT_EAGER_SLICE 256u
/* Samples of a function before its region is made (about 2 M cycles of
 * it), and the cycles the run must have lasted (interpreted and
 * translated) before anything is compiled: a short run ends before a
 * compilation would pay. A region
 * found in the on-disk cache is loaded at its function's first sample
 * (looked for again at JIT_PROBE, when more of it may have run). */
#define JIT_PROBE     4
#define JIT_THRESHOLD 32
#define JIT_MIN_RUN   (UINT64_C(1) << 25)
/* A function whose region, made again, keeps coming out as the one loaded
 * (the interpreter runs code of it no region can hold: an ecall, or a
 * callee of its own) waits up to JIT_THRESHOLD << JIT_MAX_BACKOFF samples
 * before it is made again: each try describes the whole region. */
#define JIT_MAX_BACKOFF 10
/* At most this many regions are loaded; past it the least recently used
 * one is unloaded (its blocks go back to the interpreter). */
#define JIT_MAX_REGIONS 512
/* A region without a symbol: the 4 KiB around its pc. */
#define JIT_PAGE 4096u
/* A region holds, besides its function, the functions it calls directly
 * (one level: not their callees) that are at most JIT_CALLEE_SIZE bytes,
 * JIT_CALLEES of them at most: a call and its return are then a goto and
 * the switch on the entries, not two trips through the driver (sha256's
 * compression function, called per 64-byte block; keccak's memset). */
#define JIT_CALLEES     8
#define JIT_CALLEE_SIZE 2048u
/* An interpreted stretch that ends by entering translated code counts as
 * at least this many cycles towards the next sample: the trip through the
 * driver and the interpreter costs about as much, so the code between two
 * translated regions (a loop calling a translated function) gets its own
 * region, which the trips' few cycles would never earn. */
#define JIT_HOP_CYCLES 128u
/* Compilations waiting at once. */
#define JIT_QUEUE 8
/* Files the on-disk cache keeps; past it the oldest half goes. */
#define JIT_CACHE_FILES 4096

struct region {
	void *dl;
	void (*fn)(struct jit_frame *);
	uint8_t *desc; /* our copy: blocks re-checked after a cache flush */
	size_t desc_size;
	uint64_t used;     /* when it last ran (jit.clock) */
	uint32_t verified; /* the cache generation it was checked against */
	int mode;          /* JIT_PLAIN, JIT_ACCT, ... (below) */
	/* its blocks as the cache holds them now (valid for `verified`) */
	struct block **blocks;
	uint64_t *misaligned; /* by instruction index (jit_frame.misaligned) */
	/* the variants by phases: the runs by phase since the last fold
	 * (jit_frame.phases), made with the region; dirty: entered since */
	uint64_t *phases;
	bool phases_dirty;
	bool dead;
	bool exported; /* handed out by jit_regions_take */
};

/* What translated code is made for: the plain interpreter's configuration,
 * or the accounting interpreter's (profilers subscribed), whole, lean
 * (JIT_DESC_LEAN: none of them folds counts, waits for a clock or wants
 * partial runs), whole but for the deadline (JIT_DESC_NO_DEADLINE: none
 * of them waits for a clock) or whole but for the counts
 * (JIT_DESC_NO_COUNTS: none of them folds counts); the two with deadlines
 * also by phases (JIT_DESC_PHASES: acct.phases). */
enum {
	JIT_NONE = -1,
	JIT_PLAIN = 0,
	JIT_ACCT = 1,
	JIT_LEAN = 2,
	JIT_COUNTS = 3,
	JIT_SAMPLES = 4,
	JIT_ACCT_PHASES = 5,
	JIT_SAMPLES_PHASES = 6,
};
_Static_assert(JIT_PHASES_MAX == ACCT_PHASES_MAX, "a phase table row holds every phase");

/* The description's flags for a region of mode. */
static uint32_t desc_flags(int mode)
{
	switch (mode) {
	case JIT_ACCT: return JIT_DESC_ACCT;
	case JIT_LEAN: return JIT_DESC_ACCT | JIT_DESC_LEAN;
	case JIT_COUNTS: return JIT_DESC_ACCT | JIT_DESC_NO_DEADLINE;
	case JIT_SAMPLES: return JIT_DESC_ACCT | JIT_DESC_NO_COUNTS;
	case JIT_ACCT_PHASES: return JIT_DESC_ACCT | JIT_DESC_PHASES;
	case JIT_SAMPLES_PHASES: return JIT_DESC_ACCT | JIT_DESC_NO_COUNTS | JIT_DESC_PHASES;
	default: return 0;
	}
}

/* A function's samples (heat map, keyed by the region's start). */
struct heat {
	uint32_t lo, hi;
	uint32_t samples;
	uint8_t state; /* HEAT_* */
	bool symbol;   /* [lo, hi) is a symbol's, else a page */
	uint8_t mode;  /* the variant its samples are for (JIT_*) */
	/* the loaded region proved to lack code the run keeps interpreting
	 * (sample): the one the index names is not taken again for it */
	bool outgrown;
	/* how often a region made again came out as the loaded one: the
	 * samples before the next try double each time (JIT_MAX_BACKOFF) */
	uint8_t backoff;
};

enum { HEAT_COLD, HEAT_QUEUED, HEAT_LOADED, HEAT_FAILED };

/* A compilation, shared by the run and the worker. */
struct job {
	uint8_t *desc;
	size_t size;
	uint32_t heat; /* index into heat */
	int mode;
	char path[PATH_MAX];
	int rc;
	char why[200];
	bool done;
};

/* What the worker thread shares with the run; freed by whichever of the
 * two lets go last (a run ends while the worker is in the compiler). */
struct shared {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct job *queue[JIT_QUEUE];
	int n_queued;
	struct job *done[JIT_QUEUE + 1];
	int n_done;
	bool running, abandoned;
	int refs;
	struct mem mem; /* a copy of the guest's (the worker may outlive the run):
			 * where it is, to keep it out of the compiler process */
};

/* entry_of's memory of the entries it found, by pc (a power of two) */
#define ENTRY_MEMO 256

struct entry_memo {
	uint32_t pc, mode, i;
};

struct jit {
	struct index_map entries; /* (block pc, mode) -> entry[i] */
	int32_t *entry;           /* the region that starts a block there */
	/* (pc, mode) -> i + 1 (0: none) of keys found in entries, which keeps
	 * its keys and their indexes for good: a region that calls a function
	 * of another region comes through the driver at every call and
	 * return (sort: 1.3 M times), which finds the entry here */
	struct entry_memo entry_memo[ENTRY_MEMO];
	struct index_map heat_map;
	struct heat *heat;
	struct region *regions;
	size_t n_regions, cap_regions;
	uint64_t clock;
	uint64_t interpreted; /* cycles the interpreter ran */
	struct shared *shared;
	pthread_t worker;
	bool eager;         /* CYCLOPS_JIT_EAGER: compile at once, and wait */
	size_t max_regions; /* JIT_MAX_REGIONS, or less (CYCLOPS_JIT_MAX_REGIONS, tests) */
	bool explicit_jit;  /* --engine jit: a compiler that fails is an error */
	char cache_dir[PATH_MAX];
	bool cache_temporary, cache_tried;
	uint64_t compiled, loaded;
	uint64_t taken;          /* compilations another process did meanwhile (a lock) */
	uint64_t translated;     /* cycles run in translated code */
	uint64_t entered;        /* calls of translated code */
	uint64_t since_sample;   /* cycles interpreted since the last sample */
	bool min_run;            /* the run has lasted JIT_MIN_RUN cycles */
	uint32_t seen[2 * 2048]; /* discover()'s set of pcs */
	/* discover()'s ranges: the function's, then its callees' taken in */
	struct jit_range {
		uint32_t lo, hi;
		bool leaf; /* it calls nothing */
	} ranges[1 + JIT_CALLEES];
	unsigned n_ranges;
	uint32_t calls[4 * JIT_CALLEES]; /* the blocks of the function that call */
	unsigned n_calls;
	bool refreshing; /* region_ready is decoding its blocks */
	bool no_compile; /* jit_compile_off: regions from the cache only */
};

static void shared_release(struct shared *s)
{
	bool last;

	pthread_mutex_lock(&s->lock);
	last = --s->refs == 0;
	pthread_mutex_unlock(&s->lock);
	if (!last)
		return;
	for (int i = 0; i < s->n_queued; i++) {
		free(s->queue[i]->desc);
		free(s->queue[i]);
	}
	for (int i = 0; i < s->n_done; i++) {
		free(s->done[i]->desc);
		free(s->done[i]);
	}
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->wake);
	free(s);
}

static int publish(const char *tmp, const char *path, char *why, size_t why_size);
static bool intact(const char *path);
static int compile_apart(const uint8_t *desc, size_t size, const char *path, const struct mem *mem,
			 char *why, size_t why_size);

/* The worker: compiles the queued regions one by one (compile_apart). */
static void *worker(void *arg)
{
	struct shared *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->n_queued && !s->abandoned)
			pthread_cond_wait(&s->wake, &s->lock);
		if (s->abandoned)
			break;
		struct job *j = s->queue[0];
		memmove(s->queue, s->queue + 1, --s->n_queued * sizeof(*s->queue));
		pthread_mutex_unlock(&s->lock);

		j->rc = compile_apart(j->desc, j->size, j->path, &s->mem, j->why, sizeof(j->why));

		pthread_mutex_lock(&s->lock);
		j->done = true;
		s->done[s->n_done++] = j;
	}
	s->running = false;
	pthread_mutex_unlock(&s->lock);
	shared_release(s);
	return NULL;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The compiler process (compile_apart): compiles into a temporary file
 * that publish() renames into the cache, tells its reason for a failure on
 * descriptor 3, and removes its scratch directory. */
static _Noreturn void compiler_process(const uint8_t *desc, size_t size, const char *path,
				       const char *scratch, int report)
{
	char why[200] = "", tmp[PATH_MAX + 32], lock[PATH_MAX + 32];
	int null = open("/dev/null", O_RDWR), rc = -1, locked;

	setpgid(0, 0); /* Ctrl-C is for the run; its assembler and linker go with it */
	if (null >= 0 && dup2(report, 3) == 3 && fcntl(3, F_SETFD, FD_CLOEXEC) == 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		close_range(4, ~0u, 0);
		setenv("TMPDIR", scratch, 1);
		/* one compilation of a region at a time, whichever process asks
		 * (a chunked run's workers on a cold cache ask at once): the
		 * others wait for it and take its file */
		snprintf(lock, sizeof(lock), "%s.lock", path);
		locked = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		while (locked >= 0 && flock(locked, LOCK_EX) != 0 && errno == EINTR)
			;
		if (intact(path)) {
			rc = 2; /* made meanwhile by another process */
		} else {
			snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
			rc = jit_gen_compile(desc, size, tmp, why, sizeof(why));
			if (rc == 0)
				rc = publish(tmp, path, why, sizeof(why));
			unlink(tmp);
		}
		if (locked >= 0)
			close(locked); /* the file stays: the cache's trim takes it */
		if (rc != 0 && write(3, why, strlen(why)) < 0)
			rc = -1;
	}
	nftw(scratch, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	_exit(rc == 0 || rc == 2 ? rc : 1);
}

/* Compiles a region into the cache file path, in a child process. GCC is a
 * program that expects to exit: libgccjit keeps memory it never frees (tens
 * of KiB a compilation) and, on some errors (a signal interrupting its wait
 * for the assembler), calls exit(); in a child none of that reaches the run.
 * The child starts with every signal blocked, /dev/null as its stdio and no
 * other descriptor of the run's (a pipe that the run's reader waits on is
 * not kept open), without the guest's memory (so the run's stores cost no
 * copy-on-write faults), in a process group of its own, with a scratch
 * TMPDIR it removes. When the run ends first, the child still finishes and
 * publishes its file, for the next run: it has nothing of the run's left to
 * disturb. Returns 0, or 1 when another process compiled the region
 * meanwhile (the file is there all the same), or -1 with why. */
static int compile_apart(const uint8_t *desc, size_t size, const char *path, const struct mem *mem,
			 char *why, size_t why_size)
{
	const char *tmpdir = getenv("TMPDIR");
	char scratch[PATH_MAX];
	sigset_t all, old;
	int fds[2], status = 0;
	size_t got = 0;
	pid_t pid;

	snprintf(scratch, sizeof(scratch), "%s/cyclops-gcc.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(scratch)) {
		snprintf(why, why_size, "%s: %s", scratch, strerror(errno));
		return -1;
	}
	if (pipe2(fds, O_CLOEXEC) != 0) {
		snprintf(why, why_size, "a pipe for the compiler: %s", strerror(errno));
		rmdir(scratch);
		return -1;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	mem_fork_copies(mem, false);
	pid = fork();
	if (pid == 0)
		compiler_process(desc, size, path, scratch, fds[1]);
	mem_fork_copies(mem, true);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	if (pid < 0) {
		snprintf(why, why_size, "the compiler process: %s", strerror(errno));
		close(fds[0]);
		rmdir(scratch);
		return -1;
	}
	for (;;) { /* its reason, until it exits */
		ssize_t n = read(fds[0], why + got, why_size - 1 - got);
		if (n > 0 && (got += (size_t)n) < why_size - 1)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	why[got] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 2))
		return WEXITSTATUS(status) / 2;
	if (WIFSIGNALED(status))
		snprintf(why, why_size, "the compiler process was killed by signal %d",
			 WTERMSIG(status));
	else if (!got)
		snprintf(why, why_size, "the compiler process failed (status %d)",
			 WEXITSTATUS(status));
	return -1;
}

/* The compilations still queued when the run ends go on after it, for the
 * next run, one at a time, as the one at work does: a short run queues
 * more regions than it lasts to compile (sort, 49 M cycles, gained one a
 * run). They are compiled by a process of the run's grandchild, so that
 * nobody need reap it, with none of the run's descriptors (a reader of the
 * run's output sees its end when the run ends) and without the guest's
 * memory. */
static void compile_after(struct job **jobs, int n, const struct mem *mem)
{
	sigset_t all, old;
	int status;
	pid_t pid;

	if (!n)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	mem_fork_copies(mem, false);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || setsid() < 0 || fork() != 0) /* the parent goes at once */
			_exit(0);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		close_range(3, ~0u, 0);
		for (int i = 0; i < n; i++) {
			char why[200];
			compile_apart(jobs[i]->desc, jobs[i]->size, jobs[i]->path, mem, why,
				      sizeof(why));
		}
		_exit(0);
	}
	mem_fork_copies(mem, true);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* A compilation's outcome (compile_apart's) in the run's figures. */
static int count_compile(struct jit *j, int rc)
{
	if (rc == 0)
		j->compiled++;
	else if (rc == 1)
		j->taken++;
	return rc;
}

/* FNV-1a's step over 8-byte words, each product's high bits folded down,
 * and over the bytes at the end: about 1.5 bytes a cycle where FNV-1a's
 * bytes took 4 cycles each. A stream hashed in pieces (multiples of 8
 * bytes but the last) hashes as its whole. */
#define HASH_START UINT64_C(0xcbf29ce484222325)

static uint64_t hash_step(uint64_t h, const uint8_t *p, size_t n)
{
	uint64_t w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * UINT64_C(0x100000001b3);
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

/* A region description's hash, the name of its file in the cache (which
 * holds the description too, compared before the file is used: two
 * descriptions of one hash cannot mix up). Every probe of the cache
 * hashes one, a short run's too. */
static uint64_t hash_bytes(const uint8_t *p, size_t n) { return hash_step(HASH_START, p, n); }

/* A hash of a whole file, to tell a damaged one (every region a run loads
 * is hashed first); 0 if it cannot be read. */
static uint64_t hash_file(const char *path)
{
	FILE *f = fopen(path, "rbe");
	uint64_t h = HASH_START;
	uint8_t buf[65536];
	size_t n;

	if (!f)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) /* whole pieces but the last */
		h = hash_step(h, buf, n);
	fclose(f);
	return h ? h : 1;
}

/* A compiled file goes into the cache with its hash beside it (NAME.sum),
 * the hash first: a file whose bytes do not hash to it (a disk error, a
 * copy cut short) is never handed to the dynamic loader. */
static int publish(const char *tmp, const char *path, char *why, size_t why_size)
{
	char sum[PATH_MAX + 48], sum_tmp[PATH_MAX + 64];
	uint64_t h = hash_file(tmp);
	FILE *f;

	snprintf(sum, sizeof(sum), "%s.sum", path);
	snprintf(sum_tmp, sizeof(sum_tmp), "%s.%d.tmp", sum, (int)getpid());
	if (!h || !(f = fopen(sum_tmp, "we"))) {
		snprintf(why, why_size, "%s: %s", sum_tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "%016llx\n", (unsigned long long)h);
	if (fclose(f) != 0 || rename(sum_tmp, sum) != 0 || rename(tmp, path) != 0) {
		snprintf(why, why_size, "%s: %s", path, strerror(errno));
		unlink(sum_tmp);
		return -1;
	}
	return 0;
}

/* Whether the cached file at path hashes to its .sum. */
static bool intact(const char *path)
{
	char sum[PATH_MAX + 48];
	unsigned long long want = 0;
	FILE *f;

	snprintf(sum, sizeof(sum), "%s.sum", path);
	if (!(f = fopen(sum, "re")))
		return false;
	if (fscanf(f, "%16llx", &want) != 1)
		want = 0;
	fclose(f);
	return want && hash_file(path) == want;
}

/* Keeps the on-disk cache to JIT_CACHE_FILES files (compiled regions and
 * functions' indexes): the oldest half goes. */
static void trim_cache(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct {
		time_t mtime;
		char name[64];
	} *files = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX + 64];
		struct stat st;
		if (strlen(e->d_name) >= 64 ||
		    (!strstr(e->d_name, ".so") && !strstr(e->d_name, ".fn")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (n == cap) {
			void *p = realloc(files, (cap = cap ? cap * 2 : 256) * sizeof(*files));
			if (!p)
				break;
			files = p;
		}
		files[n].mtime = st.st_mtime;
		snprintf(files[n].name, sizeof(files[n].name), "%s", e->d_name);
		n++;
	}
	closedir(d);
	if (n > JIT_CACHE_FILES) {
		/* the oldest half: a selection by mtime would do, a sort is simpler */
		for (size_t i = 0; i < n; i++)
			for (size_t k = i + 1; k < n; k++)
				if (files[k].mtime < files[i].mtime) {
					__typeof__(*files) t = files[i];
					files[i] = files[k];
					files[k] = t;
				}
		for (size_t i = 0; i < n / 2; i++) {
			char path[PATH_MAX + 64];
			snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
			unlink(path);
		}
	}
	free(files);
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

/* $CYCLOPS_JIT_CACHE, else $XDG_CACHE_HOME/cyclops/jit, else
 * ~/.cache/cyclops/jit; a temporary directory when none can be made. */
static void pick_cache_dir(struct jit *j)
{
	const char *env = getenv("CYCLOPS_JIT_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
		   *home = getenv("HOME");
	char dir[PATH_MAX] = "";

	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if (xdg && *xdg)
		snprintf(dir, sizeof(dir), "%s/cyclops/jit", xdg);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.cache/cyclops/jit", home);
	if (*dir && mkdirs(dir) == 0 && access(dir, W_OK) == 0) {
		snprintf(j->cache_dir, sizeof(j->cache_dir), "%s", dir);
		trim_cache(dir);
		return;
	}
	snprintf(j->cache_dir, sizeof(j->cache_dir), "%s/cyclops-gcc.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(j->cache_dir))
		j->cache_dir[0] = '\0';
	j->cache_temporary = true;
}

int jit_attach(struct cy_vm *vm, char *why, size_t why_size)
{
	struct jit *j;

#if !defined(__x86_64__) || defined(CY_NO_COMPUTED_GOTO)
	snprintf(why, why_size, "the translation tier needs an x86-64 host (this is not one)");
	(void)vm;
	return -ENOTSUP;
#endif
	j = calloc(1, sizeof(*j));
	if (!j) {
		snprintf(why, why_size, "out of memory");
		return -ENOMEM;
	}
	j->eager = getenv("CYCLOPS_JIT_EAGER") && *getenv("CYCLOPS_JIT_EAGER") == '1';
	j->max_regions = JIT_MAX_REGIONS;
	if (getenv("CYCLOPS_JIT_MAX_REGIONS")) {
		long n = strtol(getenv("CYCLOPS_JIT_MAX_REGIONS"), NULL, 10);
		if (n >= 1 && n < JIT_MAX_REGIONS)
			j->max_regions = (size_t)n;
	}
	j->explicit_jit = vm->opts.engine == CY_ENGINE_JIT;
	/* asked for by name: the compiler must be there (else it is loaded
	 * on the first compilation, and a host without it interprets) */
	if (j->explicit_jit && jit_gen_load(why, why_size) != 0) {
		free(j);
		return -ENOTSUP;
	}
	if (index_map_rehash(&j->entries, 256) != 0 || index_map_rehash(&j->heat_map, 256) != 0) {
		index_map_free(&j->entries);
		index_map_free(&j->heat_map);
		free(j);
		snprintf(why, why_size, "out of memory");
		return -ENOMEM;
	}
	j->entries.max = j->heat_map.max = 1u << 20;
	vm->jit = j;
	vm->block_decoded = jit_block_decoded;
	return 0;
}

static void unpatch_region(struct cy_vm *vm, struct region *r);

void jit_free(struct cy_vm *vm)
{
	struct jit *j = vm->jit;

	if (!j)
		return;
	vm->acct.fold_phases = NULL; /* the runs not folded yet are nobody's now */
	if (getenv("CYCLOPS_JIT_DEBUG"))
		fprintf(stderr,
			"jit: %llu regions compiled, %llu loaded, %llu entries, %llu cycles "
			"translated, %llu compiled by another process meanwhile\n",
			(unsigned long long)j->compiled, (unsigned long long)j->loaded,
			(unsigned long long)j->entered, (unsigned long long)j->translated,
			(unsigned long long)j->taken);
	if (j->shared) { /* a compilation at work finishes for the next run */
		struct job *left[JIT_QUEUE];
		int n_left;
		pthread_mutex_lock(&j->shared->lock);
		j->shared->abandoned = true;
		n_left = j->cache_temporary ? 0 : j->shared->n_queued;
		memcpy(left, j->shared->queue, (size_t)n_left * sizeof(*left));
		pthread_cond_signal(&j->shared->wake);
		pthread_mutex_unlock(&j->shared->lock);
		/* and so do the queued ones (shared_release frees them) */
		compile_after(left, n_left, &j->shared->mem);
		pthread_detach(j->worker);
		shared_release(j->shared);
	}
	for (size_t i = 0; i < j->n_regions; i++) {
		if (j->regions[i].dl)
			dlclose(j->regions[i].dl);
		free(j->regions[i].desc);
		free(j->regions[i].blocks);
		free(j->regions[i].phases);
		free(j->regions[i].misaligned);
	}
	if (j->cache_temporary && j->cache_dir[0]) {
		DIR *d = opendir(j->cache_dir);
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL) {
			char path[PATH_MAX + 300];
			snprintf(path, sizeof(path), "%s/%s", j->cache_dir, e->d_name);
			if (e->d_name[0] != '.')
				unlink(path);
		}
		if (d)
			closedir(d);
		rmdir(j->cache_dir);
	}
	free(j->regions);
	free(j->entry);
	free(j->heat);
	index_map_free(&j->entries);
	index_map_free(&j->heat_map);
	free(j);
	vm->jit = NULL;
	vm->block_decoded = NULL;
}

/* Whether the instruction can be in a region: what needs the VM's services
 * (ecalls, CSRs, fence.i), faults, atomics and the pseudo-ops that are not
 * a fall-through stay with the interpreter. */
static bool translatable(unsigned op)
{
	switch (insn_classes[op]) {
	case CY_CLASS_ECALL:
	case CY_CLASS_EBREAK:
	case CY_CLASS_CSR:
	case CY_CLASS_AMO:
	case CY_CLASS_NONE: return op == OP_block_end;
	default: return op != OP_fence_i && op != OP_mret && op != OP_wfi;
	}
}

static bool block_translatable(const struct block *b)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (!translatable(b->insns[i].op))
			return false;
	return true;
}

/* The region's blocks: the decoded, translatable blocks in [lo, hi) that
 * discover() reached, and those it did not reach (code found through
 * indirect jumps) that control came to from another block or that do not
 * start inside another one: a block that
 * starts where an interpreter's slice happened to end is a suffix of one
 * the region has, and would make the region depend on where the run was
 * sampled (its description, so its cached file, would differ from run to
 * run) and give it an entry per such pc. */
struct collect {
	struct cy_vm *vm;
	const struct jit *j; /* the ranges discover() took in */
	const struct block **blocks;
	size_t n, cap;
	size_t n_insns;
	bool no_memory;
};

static bool discovered(const struct jit *j, uint32_t pc);
static bool in_ranges(const struct jit *j, uint32_t pc);

static void collect_block(void *ctx, struct block *b)
{
	struct collect *c = ctx;

	/* the arena also holds the single-instruction blocks of stepping:
	 * only the block the cache finds at a pc counts */
	if (!in_ranges(c->j, b->pc) || b->n == 0 || !block_translatable(b) ||
	    cache_find(c->vm, b->pc) != b)
		return;
	if (c->n == c->cap) {
		void *p =
		    realloc(c->blocks, (c->cap = c->cap ? c->cap * 2 : 64) * sizeof(*c->blocks));
		if (!p) {
			c->no_memory = true;
			return;
		}
		c->blocks = p;
	}
	c->blocks[c->n++] = b;
}

/* Keeps, of the collected blocks (by pc), those discover() reached, those
 * control came to from another block (struct block: entered; the targets
 * of indirect jumps, such as a switch's cases, which can start inside
 * another block), and those that start past every kept block's end. */
static void keep_leaders(const struct jit *j, struct collect *c)
{
	uint32_t end = 0;
	size_t kept = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct block *b = c->blocks[i];
		if (!discovered(j, b->pc) && !b->entered && b->pc < end)
			continue;
		if (b->end > end)
			end = b->end;
		c->blocks[kept++] = b;
		c->n_insns += b->n;
	}
	c->n = kept;
}

static int by_block_pc(const void *a, const void *b)
{
	uint32_t x = (*(const struct block *const *)a)->pc,
		 y = (*(const struct block *const *)b)->pc;

	return x < y ? -1 : x > y;
}

/* The index of the first of blocks (n, by pc) at pc or after it. */
static size_t first_block_at(const struct block **blocks, size_t n, uint32_t pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (blocks[mid]->pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether the region is entered at each of its blocks (JIT_BLOCK_ENTRY in
 * entry[k]): the function's start, a loop's head (a branch or jump from a
 * block at or after it leads there), the return point of a call, or a
 * block no block of the region leads to. blocks are by pc: each block's
 * successors are found by binary search, one pass over the blocks (a
 * description is made at every probe of the cache, a short run's too). */
static void entry_flags(const struct block **blocks, size_t n, uint16_t *entry)
{
	uint8_t *reached = calloc(n ? n : 1, 1);

	for (size_t k = 0; k < n; k++)
		entry[k] = k == 0 || !reached ? JIT_BLOCK_ENTRY : 0;
	for (size_t i = 0; reached && i < n; i++) {
		const struct insn *last = &blocks[i]->insns[blocks[i]->n - 1];
		uint32_t next = last->op == OP_block_end ? last->pc : last->pc + last->len;
		uint32_t target = (uint32_t)last->imm;
		unsigned cls = insn_classes[last->op];
		size_t k;
		if (cls == CY_CLASS_BRANCH || last->op == OP_jal)
			for (k = first_block_at(blocks, n, target);
			     k < n && blocks[k]->pc == target; k++) {
				if (blocks[i]->pc >= target)
					entry[k] = JIT_BLOCK_ENTRY; /* a loop's head */
				reached[k] = 1;
			}
		for (k = first_block_at(blocks, n, next); k < n && blocks[k]->pc == next; k++) {
			if (cls == CY_CLASS_JUMP && last->rd != REG_SINK)
				entry[k] = JIT_BLOCK_ENTRY; /* after a call */
			if (cls != CY_CLASS_JUMP)
				reached[k] = 1;
		}
	}
	for (size_t k = 0; reached && k < n; k++)
		if (!reached[k])
			entry[k] = JIT_BLOCK_ENTRY;
	free(reached);
}

/* What generated code for vm depends on of its cost model (jit.h): false
 * when translated code cannot run under it. The interpreter that runs vm
 * beside translated code is an inline one (exec_inline, exec_acct_inline:
 * core/exec.c), whose extra cycles come from the data accesses and the
 * code pages alone, each found where it is made; translated code leaves
 * before every access that would cost one, so it adds none itself. */
static bool desc_cost(const struct cy_vm *vm, struct jit_desc_cost *c)
{
	const struct cost_model *m = &vm->model;

	memset(c, 0, sizeof(*c));
	if (!vm->cost.detailed)
		return true;
	/* the models exec.c's can_inline leaves to the detailed interpreter */
	if (vm->prot || cost_model_has_rows(m) ||
	    (m->paging && (m->data_wait_states || m->misaligned_extra)))
		return false;
	if (m->data_wait_states &&
	    (vm->xlen == 64 || m->fast_data_lo != 0 || m->fast_data_hi != UINT32_MAX)) {
		c->exits |= JIT_COST_RANGE;
		c->data_lo = m->fast_data_lo;
		c->data_hi = m->fast_data_hi;
	}
	/* the second word of a split access waits or costs the extra */
	if (m->misaligned_extra || (c->exits & JIT_COST_RANGE))
		c->exits |= JIT_COST_SPLIT;
	if (m->paging) {
		/* paging models run RV32 guests only */
		if (vm->xlen != 32 || !vm->cost.pages)
			return false;
		c->exits |= JIT_COST_PAGING;
		c->page_shift = vm->cost.page_shift;
	}
	return true;
}

/* The flat description of the blocks (jit.h); NULL if there are none. */
static uint8_t *describe(struct cy_vm *vm, const struct block **blocks, size_t n, size_t n_insns,
			 int mode, size_t *size)
{
	size_t bytes = sizeof(struct jit_desc_head) + n * sizeof(struct jit_desc_block) +
		       n_insns * sizeof(struct jit_desc_insn);
	uint8_t *d = calloc(1, bytes);
	struct jit_desc_head *h = (struct jit_desc_head *)d;
	struct jit_desc_block *db = (struct jit_desc_block *)(h + 1);
	struct jit_desc_insn *di = (struct jit_desc_insn *)(db + n);
	uint16_t *entry = malloc(n * sizeof(*entry) + 1);
	uint32_t first = 0;

	if (!d || !n || !entry) {
		free(d);
		free(entry);
		return NULL;
	}
	entry_flags(blocks, n, entry);
	*h = (struct jit_desc_head){ JIT_DESC_MAGIC,
				     JIT_DESC_VERSION,
				     vm->xlen,
				     vm->cost.taken_extra,
				     vm->cost.div_zero_delta,
				     (uint32_t)n,
				     (uint32_t)n_insns,
				     JIT_GEN_VERSION,
				     desc_flags(mode),
				     offsetof(struct block, runs),
				     offsetof(struct block, taken),
				     offsetof(struct block, flags),
				     offsetof(struct block, ran),
				     0,
				     { 0, 0, 0, 0 } };
	desc_cost(vm, &h->cost);
	for (size_t k = 0; k < n; k++) {
		const struct block *b = blocks[k];
		db[k] = (struct jit_desc_block){
			b->pc, b->max_cost, first, (uint16_t)b->n,
			(uint16_t)(entry[k] |
				   (mode != JIT_PLAIN && b->flags ? JIT_BLOCK_FLAGGED : 0))
		};
		for (uint32_t i = 0; i < b->n; i++) {
			const struct insn *in = &b->insns[i];
			di[first + i] =
			    (struct jit_desc_insn){ in->pc,  in->imm,   in->before, in->after,
						    in->op,  in->rd,    in->rs1,    in->rs2,
						    in->len, in->index, { 0, 0 } };
		}
		first += b->n;
	}
	free(entry);
	*size = bytes;
	return d;
}

static struct heat *heat_of(struct cy_vm *vm, uint32_t pc, int mode)
{
	struct jit *j = vm->jit;
	const struct symbol *s = symtab_lookup(&vm->syms, pc);
	uint32_t lo, hi;
	void *arr = j->heat;
	bool added;
	int64_t i;

	bool symbol = s && s->size && pc >= s->addr && pc - s->addr < s->size;

	if (symbol) {
		lo = s->addr;
		hi = s->addr + s->size;
	} else {
		lo = pc & ~(JIT_PAGE - 1);
		hi = lo + JIT_PAGE;
	}
	i = index_map_get(&j->heat_map, lo, (uint32_t)mode, &arr, sizeof(*j->heat), &added);
	j->heat = arr;
	if (i < 0)
		return NULL;
	if (added)
		j->heat[i] = (struct heat){ .lo = lo,
					    .hi = hi,
					    .state = HEAT_COLD,
					    .symbol = symbol,
					    .mode = (uint8_t)mode };
	return &j->heat[i];
}

static void cache_path(const struct jit *j, uint64_t hash, char *path, size_t size)
{
	snprintf(path, size, "%s/%016llx.so", j->cache_dir, (unsigned long long)hash);
}

/* The block the cache holds at pc, without decoding one. */
static struct block *find_block(struct cy_vm *vm, uint32_t pc)
{
	struct block *b = vm->cache.jump_cache[jump_cache_index(pc)];

	if (b && b->pc == pc)
		return b;
	return cache_find(vm, pc);
}

static const struct jit_desc_block *desc_blocks(const struct region *r)
{
	return (const struct jit_desc_block *)((const struct jit_desc_head *)r->desc + 1);
}

/* Whether decoded block b is the one region r was made from at its k-th
 * block. */
static bool same_block(const struct region *r, uint32_t k, const struct block *b)
{
	const struct jit_desc_head *h = (const struct jit_desc_head *)r->desc;
	const struct jit_desc_block *db = desc_blocks(r) + k;
	const struct jit_desc_insn *di =
	    (const struct jit_desc_insn *)(desc_blocks(r) + h->n_blocks);

	if (db->pc != b->pc || db->n != b->n || db->max_cost != b->max_cost)
		return false;
	/* the accounting variants hear of a flagged block only where it was
	 * flagged when the region was made */
	if (r->mode != JIT_PLAIN && !(db->flags & JIT_BLOCK_FLAGGED) != !b->flags)
		return false;
	for (uint32_t i = 0; i < b->n; i++) {
		const struct jit_desc_insn *d = &di[db->first + i];
		const struct insn *in = &b->insns[i];
		if (d->pc != in->pc || d->imm != in->imm || d->before != in->before ||
		    d->after != in->after || d->op != in->op || d->rd != in->rd ||
		    d->rs1 != in->rs1 || d->rs2 != in->rs2 || d->len != in->len)
			return false;
	}
	return true;
}

/* The entry for a block starting at pc in mode: found, or made when create. */
static int32_t *entry_of(struct jit *j, uint32_t pc, int mode, bool create)
{
	void *arr = j->entry;
	bool added;
	int64_t i;

	if (!create) {
		struct entry_memo *m = &j->entry_memo[(pc >> 1) & (ENTRY_MEMO - 1)];
		if (m->i && m->pc == pc && m->mode == (uint32_t)mode)
			return &j->entry[m->i - 1];
		i = index_map_find(&j->entries, pc, (uint32_t)mode);
		if (i < 0)
			return NULL;
		m->pc = pc;
		m->mode = (uint32_t)mode;
		m->i = (uint32_t)i + 1;
		return &j->entry[i];
	}
	i = index_map_get(&j->entries, pc, (uint32_t)mode, &arr, sizeof(*j->entry), &added);
	j->entry = arr;
	if (i < 0)
		return NULL;
	if (added)
		j->entry[i] = -1;
	return &j->entry[i];
}

/* What translated code can run vm now as: JIT_PLAIN for the plain
 * interpreter's configuration, JIT_ACCT for the accounting interpreter's
 * (exec_acct: profilers subscribed, static costs), JIT_LEAN for it when no
 * subscriber needs counts or deadlines, JIT_COUNTS when none needs
 * deadlines, JIT_SAMPLES when none needs counts, else JIT_NONE. */
static int jit_mode(const struct cy_vm *vm)
{
	struct jit_desc_cost cost;

	if (vm->obs_mask || vm->machine || vm->ctr.counting || vm->opts.reference)
		return JIT_NONE;
	/* the detailed models' extra cycles are the interpreter's (desc_cost) */
	if (vm->cost.detailed && !desc_cost(vm, &cost))
		return JIT_NONE;
	if (!vm->acct.n_subs)
		return JIT_PLAIN;
	/* subscribers that fold no counts and wait for no clock (a chunked
	 * run's fast pass: the call stack's frames; the timers) need no counts:
	 * the lean variant. One that folds counts comes only with
	 * acct_subscribe, which flushes the decoded blocks (their counts folded
	 * to those there before it), so that it never reads counts from before
	 * it came; and jit_run runs again when the mode changes. A watched
	 * store is reported from the partial run either variant leaves for
	 * (code_written). Translated code with subscribers makes no extra
	 * cycles: it leaves before every instruction that could cost one (an
	 * access the detailed model prices, a division by zero of another
	 * cost), which the interpreter runs; so the subscribers of ACCT_EXTRA
	 * hear of the interpreter's only, and no clock moves (ACCT_SHIFT)
	 * inside translated code */
	if (!(vm->acct.events & (ACCT_FOLD | ACCT_DEADLINE | ACCT_PARTIAL)))
		return JIT_LEAN;
	/* no deadline is set: none subscribed (the sampler is the one), or
	 * the sampler waits for none (counting by runs, or paused). Only its
	 * calls move the deadline, and translated code makes none of them
	 * (the transfer subscribers it calls leave the deadline alone,
	 * account.h): set or not at a region's entry, it stays so until the
	 * exit, and the driver enters no region of another mode */
	if (!(vm->acct.events & ACCT_DEADLINE) || vm->acct.deadline == ACCT_NO_DEADLINE)
		return JIT_COUNTS;
	/* a deadline, and nobody reads the counts (the sampler every N > 1
	 * cycles subscribes to no fold): the blocks' counts, which the
	 * interpreter keeps all the same, are nobody's */
	if (!(vm->acct.events & ACCT_FOLD))
		return vm->acct.phases ? JIT_SAMPLES_PHASES : JIT_SAMPLES;
	return vm->acct.phases ? JIT_ACCT_PHASES : JIT_ACCT;
}

/* Hands the runs the regions counted by phase to the deadline's
 * subscriber (account.h: phase_runs), and zeroes them: at every fold
 * (vm->acct.fold_phases), and before a region goes. The blocks are the
 * ones the runs were counted for: a cache flush folds first. */
static void fold_region_phases(struct cy_vm *vm, struct region *r)
{
	const struct jit_desc_head *h = (const struct jit_desc_head *)r->desc;

	/* counted only while its blocks were bound (a flush folds first) */
	if (!r->phases_dirty || r->verified != vm->cache.generation)
		return;
	r->phases_dirty = false;
	for (uint32_t k = 0; k < h->n_blocks; k++) {
		uint64_t *row = r->phases + (size_t)k * JIT_PHASE_ROW;
		for (uint32_t i = 0; i < JIT_PHASE_ROW; i++) {
			if (!row[i])
				continue;
			acct_phase_runs(vm, r->blocks[k], i >= JIT_PHASES_MAX, i % JIT_PHASES_MAX,
					row[i]);
			row[i] = 0;
		}
	}
}

static void fold_phases(struct cy_vm *vm)
{
	struct jit *j = vm->jit;

	for (size_t i = 0; i < j->n_regions; i++)
		if (j->regions[i].phases)
			fold_region_phases(vm, &j->regions[i]);
}

/* The handler of jit_enter in the interpreter the cache's blocks point to. */
static const void *enter_handler(const struct cy_vm *vm)
{
	return vm->cache.handlers ? vm->cache.handlers[OP_jit_enter] : NULL;
}

/* Points the entry blocks' first instructions to jit_enter. */
static void patch_region(struct cy_vm *vm, struct region *r)
{
	const struct jit_desc_head *h = (const struct jit_desc_head *)r->desc;

	if (jit_mode(vm) != r->mode) /* the blocks are another interpreter's */
		return;

	for (uint32_t k = 0; k < h->n_blocks; k++)
		if (desc_blocks(r)[k].flags & JIT_BLOCK_ENTRY)
			r->blocks[k]->insns[0].handler = enter_handler(vm);
}

static void unpatch_region(struct cy_vm *vm, struct region *r)
{
	const struct jit_desc_head *h = (const struct jit_desc_head *)r->desc;

	for (uint32_t k = 0; k < h->n_blocks; k++) {
		const struct jit_desc_block *db = &desc_blocks(r)[k];
		struct block *b;
		int32_t *e;
		if (!(db->flags & JIT_BLOCK_ENTRY))
			continue;
		/* a region that holds a function another one calls may have
		 * taken its entries over (or given them up to it) */
		e = entry_of(vm->jit, db->pc, r->mode, false);
		if (!e || *e != r - vm->jit->regions)
			continue;
		*e = -1;
		b = find_block(vm, db->pc);
		if (b && vm->cache.handlers && b->insns[0].handler == enter_handler(vm))
			b->insns[0].handler = vm->cache.handlers[b->insns[0].op];
	}
}

/* The region's entries lead to it (another region's blocks may have led
 * there too: the newest has them); patched when it runs now. */
static void claim_entries(struct cy_vm *vm, struct region *r)
{
	const struct jit_desc_head *h = (const struct jit_desc_head *)r->desc;
	struct jit *j = vm->jit;

	for (uint32_t k = 0; k < h->n_blocks; k++) {
		int32_t *e;
		if ((desc_blocks(r)[k].flags & JIT_BLOCK_ENTRY) &&
		    (e = entry_of(j, desc_blocks(r)[k].pc, r->mode, true)) != NULL)
			*e = (int32_t)(r - j->regions);
	}
}

static void drop(struct cy_vm *vm, struct region *r)
{
	if (r->phases) {
		fold_region_phases(vm, r);
		free(r->phases);
	}
	unpatch_region(vm, r);
	dlclose(r->dl);
	free(r->desc);
	free(r->blocks);
	free(r->misaligned);
	*r = (struct region){ .dead = true };
}

/* Unloads the least recently used region. */
static void evict(struct cy_vm *vm)
{
	struct jit *j = vm->jit;
	struct region *lru = NULL;

	for (size_t i = 0; i < j->n_regions; i++)
		if (!j->regions[i].dead && (!lru || j->regions[i].used < lru->used))
			lru = &j->regions[i];
	if (lru)
		drop(vm, lru);
}

/* Whether region r runs now: its blocks are decoded (decoding those that
 * are not) and are the ones it was made from, which after the block cache
 * was emptied (a store into code, fence.i, a full cache) proves that the
 * guest's code is still what it was translated from. Then its entries lead
 * the interpreter to it. region_verify checks; region_ready, which the
 * driver calls at every entry, checks only after a flush. */
static bool region_verify(struct cy_vm *vm, struct region *r)
{
	const struct jit_desc_head *h = (const struct jit_desc_head *)r->desc;
	uint32_t generation = vm->cache.generation;
	bool ok = true;

	vm->jit->refreshing = true;
	for (uint32_t k = 0; k < h->n_blocks && ok; k++) {
		struct block *b = cache_get(vm, desc_blocks(r)[k].pc);
		ok = b && same_block(r, k, b);
		r->blocks[k] = b;
	}
	vm->jit->refreshing = false;
	if (!ok || vm->cache.generation != generation) /* a full cache emptied itself */
		return false;
	r->verified = generation;
	patch_region(vm, r);
	return true;
}

static inline bool region_ready(struct cy_vm *vm, struct region *r)
{
	return (r->verified == vm->cache.generation && r->blocks[0]) || region_verify(vm, r);
}

/* Loads the compiled region at path, made from desc for mode; 0 when it
 * runs now. */
static int install(struct cy_vm *vm, const char *path, uint8_t *desc, size_t size, int mode)
{
	struct jit *j = vm->jit;
	const struct jit_desc_head *h = (const struct jit_desc_head *)desc;
	size_t live = 0, slot = SIZE_MAX;
	struct region *r;
	void *dl, *fn, *their;
	struct block **blocks;
	uint64_t *misaligned, *phases = NULL;
	char sum[PATH_MAX + 48];

	snprintf(sum, sizeof(sum), "%s.sum", path);
	if (!intact(path) || !(dl = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		unlink(path);
		unlink(sum);
		return -1;
	}
	fn = dlsym(dl, JIT_SYM_REGION);
	their = dlsym(dl, JIT_SYM_DESC);
	/* the file must have been made from these very blocks */
	if (!fn || !their || memcmp(their, desc, size) != 0) {
		dlclose(dl);
		unlink(path);
		unlink(sum);
		return -1;
	}
	blocks = calloc(h->n_blocks, sizeof(*blocks));
	misaligned = calloc(h->n_insns ? h->n_insns : 1, sizeof(*misaligned));
	/* a large calloc's pages stay untouched until a block runs at a phase */
	if (h->flags & JIT_DESC_PHASES)
		phases = calloc((size_t)h->n_blocks * JIT_PHASE_ROW, sizeof(*phases));
	if (!blocks || !misaligned || ((h->flags & JIT_DESC_PHASES) && !phases)) {
		dlclose(dl);
		free(blocks);
		free(misaligned);
		free(phases);
		return -1;
	}
	for (size_t i = 0; i < j->n_regions; i++) {
		if (j->regions[i].dead && slot == SIZE_MAX)
			slot = i;
		live += !j->regions[i].dead;
	}
	if (live >= j->max_regions) {
		evict(vm);
		for (size_t i = 0; i < j->n_regions && slot == SIZE_MAX; i++)
			if (j->regions[i].dead)
				slot = i;
	}
	if (slot == SIZE_MAX) {
		if (j->n_regions == j->cap_regions) {
			size_t cap = j->cap_regions ? j->cap_regions * 2 : 16;
			void *p = realloc(j->regions, cap * sizeof(*j->regions));
			if (!p) {
				dlclose(dl);
				free(blocks);
				free(misaligned);
				free(phases);
				return -1;
			}
			j->regions = p;
			j->cap_regions = cap;
		}
		slot = j->n_regions++;
	}
	r = &j->regions[slot];
	*r = (struct region){ .dl = dl,
			      .fn = (void (*)(struct jit_frame *))fn,
			      .desc = desc,
			      .desc_size = size,
			      .used = ++j->clock,
			      .verified = UINT32_MAX,
			      .mode = mode,
			      .blocks = blocks,
			      .misaligned = misaligned,
			      .phases = phases };
	claim_entries(vm, r);
	if (!region_ready(vm, r))
		r->verified = UINT32_MAX; /* checked again when first entered */
	j->loaded++;
	return 0;
}

static void queue_compile(struct cy_vm *vm, uint8_t *desc, size_t size, const char *path,
			  uint32_t heat, int mode)
{
	struct jit *j = vm->jit;
	struct job *job = calloc(1, sizeof(*job));
	char why[200];

	if (!job || jit_gen_load(why, sizeof(why)) != 0) {
		free(job);
		free(desc);
		j->heat[heat].state = HEAT_FAILED;
		return;
	}
	job->desc = desc;
	job->size = size;
	job->heat = heat;
	job->mode = mode;
	snprintf(job->path, sizeof(job->path), "%s", path);
	if (j->eager) { /* tests: compile now, and use it at once */
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		job->rc = compile_apart(desc, size, path, &vm->mem, job->why, sizeof(job->why));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (getenv("CYCLOPS_JIT_DEBUG"))
			fprintf(stderr, "jit: %u blocks, %u instructions: %.1f ms\n",
				((const struct jit_desc_head *)desc)->n_blocks,
				((const struct jit_desc_head *)desc)->n_insns,
				(double)(t1.tv_sec - t0.tv_sec) * 1e3 +
				    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
		count_compile(j, job->rc);
		if (job->rc < 0 || install(vm, path, desc, size, mode) != 0) {
			if (job->rc < 0 && !vm->opts.quiet)
				vm_warn(vm, "jit: %s", job->why);
			j->heat[heat].state = HEAT_FAILED;
			free(desc);
		} else {
			j->heat[heat].state = HEAT_LOADED;
		}
		free(job);
		return;
	}
	if (!j->shared) {
		struct shared *sh = calloc(1, sizeof(*sh));
		if (!sh) {
			free(job);
			free(desc);
			return;
		}
		pthread_mutex_init(&sh->lock, NULL);
		pthread_cond_init(&sh->wake, NULL);
		sh->refs = 2;
		sh->running = true;
		sh->mem = vm->mem;
		if (pthread_create(&j->worker, NULL, worker, sh) != 0) {
			free(sh);
			free(job);
			free(desc);
			j->heat[heat].state = HEAT_FAILED;
			return;
		}
		j->shared = sh;
	}
	pthread_mutex_lock(&j->shared->lock);
	if (j->shared->n_queued == JIT_QUEUE) {
		pthread_mutex_unlock(&j->shared->lock);
		free(job);
		free(desc);
		return; /* it will be sampled again */
	}
	j->shared->queue[j->shared->n_queued++] = job;
	pthread_cond_signal(&j->shared->wake);
	pthread_mutex_unlock(&j->shared->lock);
	j->heat[heat].state = HEAT_QUEUED;
}

/* The compilations the worker finished: loaded now. */
static void poll_done(struct cy_vm *vm)
{
	struct jit *j = vm->jit;
	struct job *done[JIT_QUEUE + 1];
	int n;

	if (!j->shared)
		return;
	pthread_mutex_lock(&j->shared->lock);
	n = j->shared->n_done;
	memcpy(done, j->shared->done, (size_t)n * sizeof(*done));
	j->shared->n_done = 0;
	pthread_mutex_unlock(&j->shared->lock);
	for (int i = 0; i < n; i++) {
		struct job *job = done[i];
		count_compile(j, job->rc);
		if (job->rc < 0 || install(vm, job->path, job->desc, job->size, job->mode) != 0) {
			if (job->rc < 0 && !vm->opts.quiet)
				vm_warn(vm, "jit: %s", job->why);
			j->heat[job->heat].state = HEAT_FAILED;
			free(job->desc);
		} else {
			j->heat[job->heat].state = HEAT_LOADED;
		}
		free(job);
	}
}

/* Decodes the blocks of [lo, hi) that control can reach from start without
 * leaving it (fall-through, branches, direct jumps, the return points of
 * calls): a region then holds the function's paths not taken yet, and the
 * run does not leave it for the interpreter when one is first taken. The
 * functions it calls directly are taken in whole (JIT_CALLEES), without
 * their own callees. j->ranges says what was taken in. */
#define JIT_DISCOVER_MAX  2048
#define JIT_DISCOVER_SEEN (2 * JIT_DISCOVER_MAX)

static uint32_t seen_slot(const struct jit *j, uint32_t pc)
{
	uint32_t h;

	for (h = (pc >> 1) * 0x9e3779b1u % JIT_DISCOVER_SEEN; j->seen[h] && j->seen[h] != pc;
	     h = (h + 1) % JIT_DISCOVER_SEEN)
		;
	return h;
}

/* Whether the last discover() reached a block at pc. */
static bool discovered(const struct jit *j, uint32_t pc)
{
	return pc && j->seen[seen_slot(j, pc)] == pc;
}

/* The range of the last discover() that holds pc: its index, or -1. */
static int range_of(const struct jit *j, uint32_t pc)
{
	for (unsigned i = 0; i < j->n_ranges; i++)
		if (pc >= j->ranges[i].lo && pc < j->ranges[i].hi)
			return (int)i;
	return -1;
}

static bool in_ranges(const struct jit *j, uint32_t pc) { return range_of(j, pc) >= 0; }

/* The blocks control goes on to from b inside the last discover()'s
 * ranges, a call's return point for the call (call: whether it is one). */
static unsigned next_pcs(const struct block *b, uint32_t next[2], bool *call)
{
	const struct insn *last = &b->insns[b->n - 1];
	unsigned k = 0;

	*call = false;
	switch (insn_classes[last->op]) {
	case CY_CLASS_BRANCH:
		next[k++] = (uint32_t)last->imm;
		next[k++] = last->pc + last->len;
		break;
	case CY_CLASS_JUMP:
		*call = last->rd != REG_SINK;
		if (last->op == OP_jal)
			next[k++] = (uint32_t)last->imm;
		if (*call) /* a call returns after it */
			next[k++] = last->pc + last->len;
		break;
	default:
		if (last->op == OP_block_end)
			next[k++] = last->pc;
		else if (last->op != OP_fetch_fault && last->op != OP_illegal &&
			 last->op != OP_ebreak)
			next[k++] = last->pc + last->len; /* after an ecall, a CSR */
		break;
	}
	return k;
}

/* Decodes the blocks control can reach from start inside the ranges,
 * marking them seen (a callee that calls is no leaf). */
static void discover_from(struct cy_vm *vm, uint32_t start, unsigned *count)
{
	struct jit *j = vm->jit;
	uint32_t work[JIT_DISCOVER_MAX], n = 0;

	work[n++] = start;
	while (n && *count < JIT_DISCOVER_MAX) {
		uint32_t pc = work[--n], next[2], h;
		struct block *b;
		bool call;
		int range = range_of(j, pc);
		unsigned k;
		if (range < 0 || pc == 0)
			continue;
		h = seen_slot(j, pc);
		if (j->seen[h] == pc)
			continue;
		j->seen[h] = pc;
		(*count)++;
		b = cache_get(vm, pc);
		if (!b || b->n == 0)
			continue;
		k = next_pcs(b, next, &call);
		if (call && range > 0)
			j->ranges[range].leaf = false;
		if (call && range == 0 && b->insns[b->n - 1].op == OP_jal &&
		    j->n_calls < 4 * JIT_CALLEES)
			j->calls[j->n_calls++] = b->pc;
		for (unsigned i = 0; i < k && n < JIT_DISCOVER_MAX; i++)
			work[n++] = next[i];
	}
}

/* Whether the block at pc (of the function's range) can run again after
 * its call returns without leaving the function: the call is in a loop. */
static bool in_loop(struct cy_vm *vm, uint32_t pc)
{
	struct jit *j = vm->jit;
	const struct block *b = cache_find(vm, pc);
	uint32_t seen[JIT_DISCOVER_SEEN] = { 0 }, work[JIT_DISCOVER_MAX], n = 0, count = 0;
	bool call;

	if (!b)
		return false;
	n = next_pcs(b, work, &call);
	while (n && count < JIT_DISCOVER_MAX) {
		uint32_t at = work[--n], next[2], h;
		if (at == pc)
			return true;
		if (range_of(j, at) != 0 || !(b = cache_find(vm, at)) || !b->n)
			continue;
		for (h = (at >> 1) * 0x9e3779b1u % JIT_DISCOVER_SEEN; seen[h] && seen[h] != at;
		     h = (h + 1) % JIT_DISCOVER_SEEN)
			;
		if (seen[h] == at)
			continue;
		seen[h] = at;
		count++;
		unsigned k = next_pcs(b, next, &call);
		if (call && b->insns[b->n - 1].op == OP_jal) /* the callee returns */
			next[0] = next[--k];
		for (unsigned i = 0; i < k && n < JIT_DISCOVER_MAX; i++)
			work[n++] = next[i];
	}
	return false;
}

/* The function's blocks from start, then (callees) those of the small
 * functions that call nothing and that it calls in a loop. */
static void discover(struct cy_vm *vm, uint32_t lo, uint32_t hi, uint32_t start, bool callees)
{
	struct jit *j = vm->jit;
	unsigned count = 0, n_ranges = 1, kept = 1;

	/* a set of pcs, half full at most; no block starts at pc 0 here: it marks free */
	memset(j->seen, 0, JIT_DISCOVER_SEEN * sizeof(*j->seen));
	j->ranges[0] = (struct jit_range){ lo, hi, true };
	j->n_ranges = 1;
	j->n_calls = 0;
	discover_from(vm, start, &count);
	if (!callees)
		return;
	for (unsigned i = 0; i < j->n_calls; i++) {
		const struct block *b = cache_find(vm, j->calls[i]);
		uint32_t target = b ? (uint32_t)b->insns[b->n - 1].imm : 0;
		const struct symbol *s = symtab_lookup(&vm->syms, target);
		if (!b || !s || s->addr != target || !s->size || s->size > JIT_CALLEE_SIZE ||
		    in_ranges(j, target) || !in_loop(vm, j->calls[i]))
			continue;
		j->ranges[j->n_ranges++] = (struct jit_range){ s->addr, s->addr + s->size, true };
	}
	n_ranges = j->n_ranges;
	for (unsigned i = 1; i < n_ranges; i++)
		discover_from(vm, j->ranges[i].lo, &count);
	/* only the callees that call nothing: a larger function makes GCC's
	 * register allocation of the hot loops worse (kernels' main with its
	 * recursive sort in it ran 5% slower) */
	for (unsigned i = 1; i < n_ranges; i++)
		if (j->ranges[i].leaf)
			j->ranges[kept++] = j->ranges[i];
	j->n_ranges = kept;
}

/* The function's index in the cache: FUNC.fn holds the description last
 * compiled for the function at h (its code and the mode make FUNC). A
 * region's blocks include those control came to from other blocks (a
 * switch's cases), which depend on how far the run has come when the
 * region is made; the index lets a later run find the region at the
 * function's first sample all the same. */
static bool index_path(struct cy_vm *vm, const struct heat *h, int mode, char *path, size_t size)
{
	size_t len = h->hi - h->lo;
	uint32_t key[3 + sizeof(struct jit_desc_cost) / 4] = { h->lo, h->hi, (uint32_t)mode };
	uint8_t *code = malloc(len + sizeof(key));

	if (!code || cy_vm_read(vm, h->lo, code, len) != 0) {
		free(code);
		return false;
	}
	desc_cost(vm, (struct jit_desc_cost *)&key[3]); /* the model's part of the variant */
	memcpy(code + len, key, sizeof(key));
	snprintf(path, size, "%s/%016llx.fn", vm->jit->cache_dir,
		 (unsigned long long)hash_bytes(code, len + sizeof(key)));
	free(code);
	return true;
}

/* The function's index file, read whole: its path in path (index_path),
 * its bytes in *data (malloc'd) unless it cannot be read. */
static bool index_load(struct cy_vm *vm, const struct heat *h, int mode, char *path,
		       size_t path_size, uint8_t **data, size_t *size)
{
	static const struct file_rules rules = { .max = 64u << 20 };
	char why[128];
	void *p = NULL;

	*data = NULL;
	*size = 0;
	if (!index_path(vm, h, mode, path, path_size))
		return false;
	if (file_read(path, &rules, &p, size, why, sizeof(why)) == 0)
		*data = p;
	return true;
}

/* Whether the function's index file is there. */
static bool index_there(struct cy_vm *vm, const struct heat *h, int mode)
{
	char path[PATH_MAX + 32];

	return index_path(vm, h, mode, path, sizeof(path)) && access(path, R_OK) == 0;
}

/* Remembers desc (size bytes) as the function's region (index_path). */
static void index_write(struct cy_vm *vm, const struct heat *h, int mode, const uint8_t *desc,
			size_t size)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64];
	uint8_t *had;
	size_t n_had;
	FILE *f;

	if (!index_load(vm, h, mode, path, sizeof(path), &had, &n_had))
		return;
	bool same = had && n_had == size && memcmp(had, desc, size) == 0;
	free(had);
	if (same) /* it says so already */
		return;
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (!(f = fopen(tmp, "we")))
		return;
	if (fwrite(desc, 1, size, f) != size || fclose(f) != 0 || rename(tmp, path) != 0)
		unlink(tmp);
}

/* The description the function's index holds, made again from this run's
 * blocks at its pcs (decoded now if need be), when it comes out the same
 * (the code, the costs and the mode it was made for); else NULL. */
static uint8_t *index_read(struct cy_vm *vm, const struct heat *h, int mode, size_t *size)
{
	char path[PATH_MAX + 32];
	uint8_t *stored = NULL, *desc = NULL;
	const struct block **blocks = NULL;
	size_t n_stored = 0, n_insns = 0;

	if (!index_load(vm, h, mode, path, sizeof(path), &stored, &n_stored) || !stored)
		return NULL;
	const struct jit_desc_head *head = (const struct jit_desc_head *)stored;
	if (n_stored < sizeof(*head) || head->n_blocks == 0 ||
	    sizeof(*head) + (size_t)head->n_blocks * sizeof(struct jit_desc_block) > n_stored ||
	    !(blocks = calloc(head->n_blocks, sizeof(*blocks))))
		goto out;
	const struct jit_desc_block *db = (const struct jit_desc_block *)(head + 1);
	uint32_t generation = vm->cache.generation;
	for (uint32_t k = 0; k < head->n_blocks; k++) {
		struct block *b = cache_get(vm, db[k].pc);
		if (!b || b->n == 0 || !block_translatable(b) || vm->cache.generation != generation)
			goto out;
		blocks[k] = b;
		n_insns += b->n;
	}
	desc = describe(vm, blocks, head->n_blocks, n_insns, mode, size);
	if (desc && (*size != n_stored || memcmp(desc, stored, n_stored) != 0)) {
		free(desc);
		desc = NULL;
	}
out:
	free(blocks);
	free(stored);
	return desc;
}

/* The loaded region desc describes, or NULL. */
static struct region *loaded_region(struct jit *j, const uint8_t *desc, size_t size, int mode)
{
	for (size_t i = 0; i < j->n_regions; i++) {
		struct region *r = &j->regions[i];
		if (!r->dead && r->mode == mode && r->desc_size == size &&
		    memcmp(r->desc, desc, size) == 0)
			return r;
	}
	return NULL;
}

/* Loads the region desc describes for h's function: it is loaded already
 * (desc is freed), or its compiled file is in the cache (desc is the
 * region's). False when neither. */
static bool load_region(struct cy_vm *vm, struct heat *h, uint8_t *desc, size_t size, int mode)
{
	struct jit *j = vm->jit;
	char path[PATH_MAX + 32];

	struct region *r = loaded_region(j, desc, size, mode);

	if (r) { /* it is loaded already */
		free(desc);
		h->state = HEAT_LOADED;
		claim_entries(vm, r);
		if (region_ready(vm, r))
			patch_region(vm, r);
		return true;
	}
	cache_path(j, hash_bytes(desc, size), path, sizeof(path));
	if (access(path, R_OK) == 0 && install(vm, path, desc, size, mode) == 0) {
		h->state = HEAT_LOADED;
		h->outgrown = false;
		h->backoff = 0;
		return true;
	}
	return false;
}

/* The region around the function at h: loaded from the cache when there,
 * else compiled (when compile says so). */
static void make_region(struct cy_vm *vm, struct heat *h, uint32_t start, int mode, bool compile)
{
	struct jit *j = vm->jit;
	struct collect c = { .vm = vm, .j = j };
	uint8_t *desc;
	size_t size = 0;
	char path[PATH_MAX + 32];
	uint32_t index = (uint32_t)(h - j->heat);

	if (!j->cache_dir[0] && !j->cache_tried) { /* on the first region only */
		j->cache_tried = true;
		pick_cache_dir(j);
	}
	if (!j->cache_dir[0])
		return;
	/* a probe of a function no run has compiled a region for finds no
	 * index, and then no region either (each one compiled for a function
	 * is indexed, below): it stops before the description, which decodes
	 * the whole function (a short run probes each function it samples) */
	if (!compile && h->symbol && !index_there(vm, h, mode))
		return;
	/* from the function's start; a region without a symbol from where
	 * the run was (its page's start need not be an instruction's) */
	discover(vm, h->lo, h->hi, h->symbol ? h->lo : start, h->symbol);
	cache_each_block(vm, collect_block, &c);
	if (c.no_memory || !c.n) {
		free(c.blocks);
		return;
	}
	qsort(c.blocks, c.n, sizeof(*c.blocks), by_block_pc);
	keep_leaders(j, &c);
	desc = describe(vm, c.blocks, c.n, c.n_insns, mode, &size);
	free(c.blocks);
	if (!desc)
		return;
	/* made again, it is the region loaded: nothing new ran in the
	 * function since, so the next try waits longer */
	if (h->outgrown && loaded_region(j, desc, size, mode)) {
		h->outgrown = false;
		if (h->backoff < JIT_MAX_BACKOFF)
			h->backoff++;
	}
	/* the region this run settles on for the function: the one a later
	 * run loads at once (a file an earlier run compiled is indexed too) */
	if (compile && h->symbol)
		index_write(vm, h, mode, desc, size);
	if (load_region(vm, h, desc, size, mode))
		return;
	/* what an earlier run compiled for the function, unless this run has
	 * outgrown it (a region made before the code it lacks had run: the
	 * cases of a switch that later phases of the program use) */
	if (!compile && !h->outgrown) {
		size_t known_size = 0;
		uint8_t *known = h->symbol ? index_read(vm, h, mode, &known_size) : NULL;
		free(desc);
		if (known && !load_region(vm, h, known, known_size, mode))
			free(known);
		return;
	}
	if (!compile) {
		free(desc);
		return;
	}
	h->outgrown = false;
	cache_path(j, hash_bytes(desc, size), path, sizeof(path));
	queue_compile(vm, desc, size, path, index, mode);
}

/* The run has lasted JIT_MIN_RUN cycles: the functions already as hot as
 * a compilation asks for are compiled now, not at their next sample,
 * which may never come (a copy loop the program runs at its start: sort's
 * memcpy and memset, half of its 49 M cycles, were never translated). */
static int by_samples(const void *a, const void *b, void *heat)
{
	const struct heat *h = heat;
	uint32_t x = h[*(const uint32_t *)a].samples, y = h[*(const uint32_t *)b].samples;

	return x < y ? 1 : x > y ? -1 : (*(const uint32_t *)a > *(const uint32_t *)b);
}

static void compile_hot(struct cy_vm *vm)
{
	struct jit *j = vm->jit;
	uint32_t *hot = malloc(j->heat_map.n * sizeof(*hot) + 1), n = 0;

	if (!hot)
		return;
	for (uint32_t i = 0; i < j->heat_map.n; i++) {
		const struct heat *h = &j->heat[i];
		if (h->symbol && h->state == HEAT_COLD && h->samples >= JIT_THRESHOLD)
			hot[n++] = i;
	}
	/* the hottest first: the compiler takes them in turn, and a run that
	 * ends leaves the rest to the next one */
	qsort_r(hot, n, sizeof(*hot), by_samples, j->heat);
	for (uint32_t k = 0; k < n; k++)
		make_region(vm, &j->heat[hot[k]], j->heat[hot[k]].lo, j->heat[hot[k]].mode, true);
	free(hot);
}

/* A sample of where the interpreter is: the function's heat grows. */
static void sample(struct cy_vm *vm, uint32_t pc, int mode)
{
	struct jit *j = vm->jit;
	struct heat *h;

	if (!j->min_run && j->interpreted + j->translated >= JIT_MIN_RUN && !j->no_compile &&
	    !j->eager) {
		j->min_run = true;
		compile_hot(vm);
	}
	h = heat_of(vm, pc, mode);

	if (!h || h->state == HEAT_QUEUED || h->state == HEAT_FAILED)
		return;
	h->samples++;
	if (h->state == HEAT_LOADED) {
		/* the interpreter is in a loaded function: blocks it did not have
		 * when it was made have become hot; a new region replaces it */
		if (h->samples >= (uint32_t)JIT_THRESHOLD << h->backoff) {
			h->state = HEAT_COLD;
			h->samples = 0;
			h->outgrown = true;
		}
		return;
	}
	if (j->eager ||
	    (h->samples >= JIT_THRESHOLD && j->interpreted + j->translated >= JIT_MIN_RUN)) {
		make_region(vm, h, pc, mode, !j->no_compile);
		/* compiling nothing, a region the cache lacks is not looked for
		 * again at every sample */
		if (j->no_compile && h->state == HEAT_COLD)
			h->state = HEAT_FAILED;
	} else if (h->samples == 1 || h->samples == JIT_PROBE) {
		make_region(vm, h, pc, mode, false);
	}
}

/* The region of mode that starts a block at pc, ready to run; NULL if none. */
static struct region *region_at(struct cy_vm *vm, uint32_t pc, int mode)
{
	struct jit *j = vm->jit;
	int32_t *e;
	struct region *r;

	if (!j->entries.n)
		return NULL;
	e = entry_of(j, pc, mode, false);
	if (!e || *e < 0)
		return NULL;
	r = &j->regions[*e];
	if (!region_ready(vm, r)) {
		drop(vm, r);
		return NULL;
	}
	return r;
}

void jit_cache_flushed(struct cy_vm *vm) { (void)vm; /* patches go with the blocks */ }

void jit_block_decoded(struct cy_vm *vm, struct block *b)
{
	struct jit *j = vm->jit;
	int mode = jit_mode(vm);
	int32_t *e;
	struct region *r;

	if (!j->entries.n || j->refreshing || mode == JIT_NONE)
		return;
	e = entry_of(j, b->pc, mode, false);
	if (!e || *e < 0)
		return;
	r = &j->regions[*e];
	/* a region whose blocks are all decoded again is checked as it is
	 * entered (region_ready); this block can lead there at once if its
	 * region was made from it */
	for (uint32_t k = 0; k < ((const struct jit_desc_head *)r->desc)->n_blocks; k++)
		if (desc_blocks(r)[k].pc == b->pc) {
			if (same_block(r, k, b))
				b->insns[0].handler = enter_handler(vm);
			break;
		}
}

/* The accounting interface's calls from translated code. */
static void call_transfer(struct cy_vm *vm, struct block *b, uint32_t index, uint32_t target,
			  uint64_t cycles, uint64_t instret)
{
	acct_transfer(vm, &b->insns[index], target, cycles, instret);
}

static void call_flagged(struct cy_vm *vm, struct block *b, uint32_t retired, uint64_t instret)
{
	acct_flagged(vm, b, retired, instret);
}

/* ACCT_PARTIAL: the run of b ended after `retired` instructions. */
static void call_partial(struct cy_vm *vm, struct block *b, uint32_t retired, uint64_t cycles,
			 uint64_t instret, uint64_t now)
{
	/* the interpreter goes on at the next instruction: one that faults
	 * reports its own partial run */
	acct_partial(vm, b, retired, cycles, instret, now, true);
	if (b->flags)
		acct_flagged(vm, b, retired, instret);
}

/* What an accounting region left to the driver (jit_frame.acct_stage): the
 * calls the exec_acct interpreter makes at the end of block b's run, from
 * that stage on, with the clock (f->cycles, f->instret) past the run. */
static void report_block(struct cy_vm *vm, struct region *r, const struct jit_frame *f)
{
	struct block *b = r->blocks[f->acct_block];
	uint32_t retired = (uint32_t)f->acct_retired, target = (uint32_t)f->acct_target;
	bool want = f->acct_stage == JIT_ACCT_TRANSFER;

	switch (f->acct_stage) {
	case JIT_ACCT_PARTIAL:
		if (f->cycles >= vm->acct.deadline)
			acct_deadline(vm, b, retired, f->acct_from, f->cycles);
		call_partial(vm, b, retired, f->cycles, f->instret, f->cycles);
		return;
	case JIT_ACCT_DEADLINE:
		acct_deadline(vm, b, retired, f->acct_from, f->cycles);
		if (f->acct_flags & JIT_ACCT_TAKEN)
			b->taken++;
		if (f->acct_flags & JIT_ACCT_TARGET) {
			if (f->events & ACCT_LAST_TRANSFER) {
				vm->acct.has_last = true;
				vm->acct.last_from = b->insns[b->n - 1].pc;
				vm->acct.last_to = target;
			}
			want = (f->events & ACCT_TRANSFER) &&
			       !((f->acct_flags & JIT_ACCT_PLAIN) &&
				 target - vm->acct.ctx_lo < vm->acct.ctx_size);
		}
		break;
	case JIT_ACCT_FLAGGED: acct_flagged(vm, b, b->n, f->instret); return;
	default: break;
	}
	if (want)
		acct_transfer(vm, &b->insns[b->n - 1], target, f->cycles, f->instret);
	b->runs++;
	if (b->ran != vm->acct.ran.mark)
		acct_ran(vm, b);
	if (b->flags)
		acct_flagged(vm, b, b->n, f->instret);
}

/* How far translated code may run vm before budget: with paging, no
 * further than the current segment's end, where the interpreter starts the
 * next segment (none yet: nowhere, the interpreter starts the first). */
static uint64_t cost_limit(const struct cy_vm *vm, uint64_t budget)
{
	const struct cost_state *s = &vm->cost;
	uint64_t end;

	if (!vm->cost.detailed || !vm->model.paging)
		return budget;
	if (s->segments == 0)
		return vm->cycles;
	end = s->seg_start + s->seg_capacity;
	return end < budget ? end : budget;
}

/* The size of the data a translated store writes (jit_gen.c translates
 * sb, sh, sw and sd; other stores leave the region first). */
static uint32_t store_size(const struct insn *in)
{
	switch (in->op) {
	case OP_sb: return 1;
	case OP_sh: return 2;
	case OP_sw: return 4;
	case OP_sd: return 8;
	default: return 0;
	}
}

/* A region left after a store that the code map's test stopped: a store
 * into a watched range is reported (before the block's partial run, with
 * the clock before the store, as the interpreter's code_written does), and
 * only a store into code flushes the cache. A translated store writes no
 * register, so its address is its base register's plus its offset still. */
static void code_written(struct cy_vm *vm, struct region *r, const struct jit_frame *f)
{
	const struct insn *in;
	uint64_t addr;
	uint32_t size;

	if (!vm->acct.n_watch || f->acct_stage != JIT_ACCT_PARTIAL || !f->acct_retired) {
		vm->flush_pending = true;
		return;
	}
	in = &r->blocks[f->acct_block]->insns[f->acct_retired - 1];
	if (!(size = store_size(in))) {
		vm->flush_pending = true;
		return;
	}
	addr = vm->xlen == 64 ? vm->x64[in->rs1] + (uint64_t)(int64_t)in->imm
			      : (uint32_t)(vm->x[in->rs1] + (uint32_t)in->imm);
	acct_store(vm, in, addr, size, f->cycles - (in->after - in->before), f->instret - 1);
	if (cache_holds_code(&vm->cache, addr, size))
		vm->flush_pending = true;
}

/* Runs region r from vm->pc, up to budget (above the clock). The frame's
 * every field is set one by one: an initializer zeroes the whole struct
 * first (GCC's rep stos, a tenth of sort's run, whose regions are entered
 * every 37 cycles). */
static enum jit_exit enter(struct cy_vm *vm, struct region *r, uint64_t budget)
{
	const struct jit_desc_head *h = (const struct jit_desc_head *)r->desc;
	struct jit_frame f;

	f.regs = vm->xlen == 64 ? (uint8_t *)vm->x64 : (uint8_t *)vm->x;
	f.mem = vm->mem.base;
	f.codemap = vm->cache.codemap;
	f.vm = vm;
	f.misaligned = r->misaligned;
	f.cycles = vm->cycles;
	f.instret = vm->instret;
	f.budget = budget;
	f.pc = vm->pc;
	f.last_pc = vm->last_pc;
	f.retired_pc = vm->retired_pc;
	f.exit = JIT_EXIT_JUMP; /* the region sets it */
	f.blocks = r->blocks;
	f.events = vm->acct.events;
	f.deadline = &vm->acct.deadline;
	f.context = &vm->acct.ctx_lo;
	f.has_last = &vm->acct.has_last;
	f.last_transfer = &vm->acct.last_from;
	f.break_loop = &vm->break_loop;
	f.transfer_fn = call_transfer;
	f.flagged_fn = call_flagged;
	f.partial_fn = call_partial;
	f.misaligned_seen = 0;
	f.hist = &vm->acct.hist;
	f.acct_stage = JIT_ACCT_NONE;
	f.acct_block = f.acct_retired = f.acct_from = f.acct_target = f.acct_flags = 0;
	f.pages = vm->cost.pages; /* NULL but under a paging model */
	f.ran = &vm->acct.ran;
	f.phases = r->phases;
	if (r->phases) {
		r->phases_dirty = true;
		vm->acct.fold_phases = fold_phases;
	}

	r->used = ++vm->jit->clock;
	vm->jit->entered++;
	vm->break_loop = false;
	r->fn(&f);
	if (r->phases) /* a fold during the run (a transfer's call) left it clean */
		r->phases_dirty = true;
	vm->jit->translated += f.cycles - vm->cycles;
	vm->pc = (uint32_t)f.pc;
	vm->cycles = f.cycles;
	vm->instret = f.instret;
	vm->last_pc = (uint32_t)f.last_pc;
	vm->retired_pc = (uint32_t)f.retired_pc;
	if (f.misaligned_seen) { /* by pc, as the interpreter counts them */
		const struct jit_desc_insn *di =
		    (const struct jit_desc_insn *)(desc_blocks(r) + h->n_blocks);
		for (uint32_t i = 0; i < h->n_insns; i++)
			if (r->misaligned[i]) {
				vm_misaligned_n(vm, di[i].pc, r->misaligned[i]);
				r->misaligned[i] = 0;
			}
	}
	if (f.exit == JIT_EXIT_CODE_WRITTEN)
		code_written(vm, r, &f);
	if (f.acct_stage != JIT_ACCT_NONE)
		report_block(vm, r, &f);
	return (enum jit_exit)f.exit;
}

_Static_assert(offsetof(struct acct, ctx_size) == offsetof(struct acct, ctx_lo) + 4 &&
		   offsetof(struct acct, last_to) == offsetof(struct acct, last_from) + 4,
	       "translated code reads ctx_lo/ctx_size and writes last_from/last_to as pairs");

bool jit_run(struct cy_vm *vm, uint64_t budget)
{
	struct jit *j = vm->jit;
	int mode = j ? jit_mode(vm) : JIT_NONE;
	bool bypass = false;
	/* where the interpreter runs to when bypass is set: the budget, or
	 * past one instruction a region left to it (JIT_EXIT_COST), or past
	 * the paging segment's end */
	uint64_t bypass_end = budget;

	if (mode == JIT_NONE)
		return false;
	poll_done(vm); /* what the compiler finished meanwhile */
	/* an interruption ends the slice too: eager compilations can make
	 * CY_INTERRUPT_CYCLES last hours (a long stretch of code run once) */
	while (vm->stop == CY_STOP_NONE && vm->cycles < budget && !vm->clock_moved_back &&
	       !vm->interrupt) {
		struct region *r;
		/* counting or a profiler came or went: the caller runs again, as
		 * after the interpreter's own return for a new build (the sampler
		 * chooses again how to run: acct.return_on_repick) */
		if (jit_mode(vm) != mode)
			break;
		r = bypass || vm->flush_pending ? NULL : region_at(vm, vm->pc, mode);
		/* the by-pc table of misaligned accesses could fill up during
		 * the region's run, and which pcs it keeps depends on their
		 * order: the interpreter's, access by access (translated code
		 * counts them by instruction, handed over at its return) */
		if (r && vm->misaligned.map.n + ((const struct jit_desc_head *)r->desc)->n_insns >
			     CY_MISALIGNED_MAX_SITES)
			r = NULL, bypass = true;
		uint64_t limit = r ? cost_limit(vm, budget) : budget;
		if (r && limit <= vm->cycles) /* the interpreter starts a segment */
			r = NULL, bypass = true, bypass_end = vm->cycles + 1;
		if (r) {
			enum jit_exit why = enter(vm, r, limit);
			bypass_end = budget;
			if (vm->break_loop) /* a subscriber wants the run back */
				break;
			if (why == JIT_EXIT_JUMP) { /* a leader the region lacks (keep_leaders) */
				struct block *to = cache_lookup(vm, vm->pc);
				if (to)
					to->entered = true;
			} else if (why == JIT_EXIT_BUDGET || why == JIT_EXIT_BEFORE) {
				bypass = true;
				/* the segment ends before the budget: the interpreter
				 * steps past its end, which starts the next one */
				if (why == JIT_EXIT_BUDGET && limit < budget)
					bypass_end = limit + 1;
			} else if (why == JIT_EXIT_COST) {
				bypass = true, bypass_end = vm->cycles + 1;
			}
			continue; /* JIT_EXIT_CODE_WRITTEN: enter() flushed, if code changed */
		}
		/* the interpreter stopped at an entry and no region of this mode
		 * is entered there: one patched for another mode's (the deadline
		 * came or went since, which changes the mode with no flush:
		 * jit_mode), or a flush is pending. It runs the block itself, or
		 * it would stop there again */
		if (!bypass && vm->jit_entered)
			bypass = true, bypass_end = vm->cycles + 1;
		uint64_t before = vm->cycles, slice = j->eager ? JIT_EAGER_SLICE : JIT_SLICE;
		uint32_t from = vm->pc;
		uint64_t end = bypass                        ? bypass_end
			       : budget - vm->cycles < slice ? budget
							     : vm->cycles + slice;
		vm->jit_driving = !bypass;
		vm->jit_entered = false;
		exec_interp(vm, end);
		vm->jit_driving = false;
		j->interpreted += vm->cycles - before;
		if (jit_mode(vm) != mode)
			break;
		if (vm->break_loop && !vm->jit_entered)
			break; /* as the interpreter returns when a subscriber asks */
		/* a sample per slice of interpreted cycles, however the caller
		 * slices the run: a run in slices of 1 cycle samples as often as
		 * one run, and the interpreter's steps past translated code that
		 * stopped at a budget are no evidence of code left out. Where
		 * the interpreter stopped to enter translated code, the sample is
		 * where it started (the function a region called or returned
		 * to), which is where it ran. */
		if (!bypass)
			j->since_sample +=
			    vm->jit_entered && !j->eager && vm->cycles - before < JIT_HOP_CYCLES
				? JIT_HOP_CYCLES
				: vm->cycles - before;
		if (j->since_sample >= slice && vm->stop == CY_STOP_NONE) {
			j->since_sample = 0;
			sample(vm, vm->jit_entered ? from : vm->pc, mode);
			poll_done(vm);
		}
		bypass = false, bypass_end = budget;
	}
	return true;
}

/* Chunked runs (docs/scale-out.md). */

int jit_regions_take(struct cy_vm *vm, uint8_t **bytes, size_t *len)
{
	struct jit *j = vm->jit;
	size_t total = 0, at = 0;
	uint8_t *out;

	*bytes = NULL;
	*len = 0;
	for (size_t i = 0; j && i < j->n_regions; i++)
		if (!j->regions[i].dead && !j->regions[i].exported)
			total += 4 + j->regions[i].desc_size;
	if (!total)
		return 0;
	if (!(out = malloc(total)))
		return -ENOMEM;
	for (size_t i = 0; i < j->n_regions; i++) {
		struct region *r = &j->regions[i];
		uint32_t size = (uint32_t)r->desc_size;
		if (r->dead || r->exported)
			continue;
		memcpy(out + at, &size, 4);
		memcpy(out + at + 4, r->desc, r->desc_size);
		at += 4 + r->desc_size;
		r->exported = true;
	}
	*bytes = out;
	*len = total;
	return 0;
}

/* Whether desc (size bytes) is a description this build could have made
 * for vm: its layout adds up, its blocks' instructions are inside it and
 * its blocks are in pc order. */
static bool desc_fits(const struct cy_vm *vm, const uint8_t *desc, size_t size)
{
	const struct jit_desc_head *h = (const struct jit_desc_head *)desc;
	const struct jit_desc_block *db = (const struct jit_desc_block *)(h + 1);

	if (size < sizeof(*h) || h->magic != JIT_DESC_MAGIC || h->version != JIT_DESC_VERSION ||
	    h->generator != JIT_GEN_VERSION || h->xlen != vm->xlen || !h->n_blocks ||
	    h->n_blocks > (size - sizeof(*h)) / sizeof(*db) ||
	    h->n_insns > (size - sizeof(*h)) / sizeof(struct jit_desc_insn) ||
	    size != sizeof(*h) + (size_t)h->n_blocks * sizeof(*db) +
			(size_t)h->n_insns * sizeof(struct jit_desc_insn))
		return false;
	for (uint32_t k = 0; k < h->n_blocks; k++)
		if (!db[k].n || db[k].first > h->n_insns || db[k].n > h->n_insns - db[k].first ||
		    (k && db[k].pc <= db[k - 1].pc))
			return false;
	return true;
}

int jit_regions_load(struct cy_vm *vm, const uint8_t *bytes, size_t len)
{
	struct jit *j = vm->jit;
	int mode = j ? jit_mode(vm) : JIT_NONE;
	size_t at = 0;

	if (mode == JIT_NONE)
		return 0;
	if (!j->cache_dir[0] && !j->cache_tried) {
		j->cache_tried = true;
		pick_cache_dir(j);
	}
	while (len - at >= 4) {
		uint32_t size;
		uint8_t *desc;
		char path[PATH_MAX + 32], why[200];
		memcpy(&size, bytes + at, 4);
		if (size > len - at - 4)
			return -EINVAL;
		at += 4;
		if (!j->cache_dir[0] || !desc_fits(vm, bytes + at, size) ||
		    !(desc = malloc(size))) {
			at += size;
			continue;
		}
		memcpy(desc, bytes + at, size);
		at += size;
		/* made for the run's interpreter, kept for this VM's (whose
		 * blocks are checked against the flags when the region is
		 * first entered: same_block) */
		struct jit_desc_head *h = (struct jit_desc_head *)desc;
		struct jit_desc_block *db = (struct jit_desc_block *)(h + 1);
		h->flags = desc_flags(mode);
		desc_cost(vm, &h->cost);
		for (uint32_t k = 0; k < h->n_blocks && mode == JIT_PLAIN; k++)
			db[k].flags &= (uint16_t)~JIT_BLOCK_FLAGGED;
		cache_path(j, hash_bytes(desc, size), path, sizeof(path));
		if (access(path, R_OK) != 0 &&
		    (j->no_compile || jit_gen_load(why, sizeof(why)) != 0 ||
		     count_compile(j, compile_apart(desc, size, path, &vm->mem, why, sizeof(why))) <
			 0)) {
			free(desc);
			continue;
		}
		if (access(path, R_OK) == 0 && install(vm, path, desc, size, mode) == 0) {
			const struct jit_desc_block *db =
			    (const struct jit_desc_block *)((const struct jit_desc_head *)desc + 1);
			struct heat *h = heat_of(vm, db->pc, mode);
			if (h)
				h->state = HEAT_LOADED, h->samples = 0;
		} else {
			free(desc);
		}
	}
	return at == len ? 0 : -EINVAL;
}

void jit_compile_off(struct cy_vm *vm)
{
	if (vm->jit)
		vm->jit->no_compile = true;
}
