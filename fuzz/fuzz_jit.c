/* fuzz_jit.c - the translation tier in lockstep with the interpreter:
 * arbitrary bytes as code (as fuzz_exec.c), run twice, once under
 * CY_ENGINE_JIT with every sampled function translated at once
 * (CYCLOPS_JIT_EAGER=1) and once under CY_ENGINE_INTERP, in the same slices
 * of cycles. After every slice the two machines must agree on the stop
 * reason, pc, registers, instructions and cycles, and at the end on the
 * fault, the stop message, the code segment's bytes (the code may store
 * into itself) and the guest's output. A difference aborts, which libFuzzer
 * reports as a crash. The first byte picks the width and the profilers.
 * Without the tier (no libgccjit) every input is a no-op. */
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cyclops.h"

#define CODE_ADDR  0x10000u
#define MAX_CODE   16384
#define CODE_SPACE (MAX_CODE + 4096) /* memsz: the code and a page to store into */
#define MAX_CYCLES 3000
#define SLICE      97

/* Flag bits of the first input byte. */
#define PICK_RV64    0x01 /* an ELF64 RV64 guest */
#define PICK_TRACKER 0x02 /* cycle tracker: the accounting variant */
#define PICK_SAMPLE  0x04 /* PC sampling every 7 cycles */
#define PICK_TIMERS  0x08 /* channel timers */

static uint8_t image[64 + 56 + MAX_CODE];
static int null_fd = -1;
static bool have_jit;
static char cache_dir[] = "/tmp/cyclops-fuzz-jit.XXXXXX";

static void put(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* An ET_EXEC ELF of the width asked for, with one RWX PT_LOAD segment
 * holding the code; written field by field (both layouts in one place). */
static size_t wrap(const uint8_t *code, size_t n, bool rv64)
{
	size_t eh = rv64 ? 64 : 52, ph = rv64 ? 56 : 32, w = rv64 ? 8 : 4;
	uint8_t *e = image, *p = image + eh;

	memset(image, 0, eh + ph);
	memcpy(e,
	       "\x7f"
	       "ELF",
	       4);
	e[4] = rv64 ? 2 : 1; /* class */
	e[5] = 1;            /* little-endian */
	e[6] = 1;            /* version */
	put(e + 16, 2, 2);   /* ET_EXEC */
	put(e + 18, 243, 2); /* EM_RISCV */
	put(e + 20, 1, 4);
	put(e + 24, CODE_ADDR, w);      /* e_entry */
	put(e + 24 + w, eh, w);         /* e_phoff */
	put(e + 24 + 3 * w + 4, eh, 2); /* e_ehsize */
	put(e + 24 + 3 * w + 6, ph, 2); /* e_phentsize */
	put(e + 24 + 3 * w + 8, 1, 2);  /* e_phnum */
	put(p, 1, 4);                   /* PT_LOAD */
	if (rv64) {
		put(p + 4, 7, 4);           /* p_flags: RWX */
		put(p + 8, eh + ph, 8);     /* p_offset */
		put(p + 16, CODE_ADDR, 8);  /* p_vaddr */
		put(p + 24, CODE_ADDR, 8);  /* p_paddr */
		put(p + 32, n, 8);          /* p_filesz */
		put(p + 40, CODE_SPACE, 8); /* p_memsz */
		put(p + 48, 4096, 8);       /* p_align */
	} else {
		put(p + 4, eh + ph, 4);
		put(p + 8, CODE_ADDR, 4);
		put(p + 12, CODE_ADDR, 4);
		put(p + 16, n, 4);
		put(p + 20, CODE_SPACE, 4);
		put(p + 24, 7, 4);
		put(p + 28, 4096, 4);
	}
	memcpy(image + eh + ph, code, n);
	return eh + ph + n;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The cache is this process's: it goes when the process exits. */
static void remove_cache(void) { nftw(cache_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	cy_opts opts;
	cy_vm *vm = NULL;
	char err[512];
	static const uint8_t ret[] = { 0x82, 0x80 }; /* c.ret */

	(void)argc;
	(void)argv;
	null_fd = open("/dev/null", O_RDWR);
	if (null_fd < 0 || !mkdtemp(cache_dir))
		abort();
	/* translated at once and in the foreground, into a cache of this
	 * process's own, so that each input's comparison is complete */
	atexit(remove_cache);
	setenv("CYCLOPS_JIT_CACHE", cache_dir, 1);
	setenv("CYCLOPS_JIT_EAGER", "1", 1);
	cy_opts_init(&opts);
	opts.engine = CY_ENGINE_JIT;
	opts.quiet = true;
	have_jit = cy_vm_create_from_bytes(&vm, image, wrap(ret, sizeof(ret), false), "probe.elf",
					   &opts, err, sizeof(err)) == 0;
	if (!have_jit)
		fprintf(stderr, "fuzz_jit: no translation tier (%s): every input is a no-op\n",
			err);
	cy_vm_destroy(vm);
	return 0;
}

struct side {
	cy_vm *vm;
	int out; /* a memfd for the guest's stdout and stderr */
};

static bool start(struct side *s, const uint8_t *elf, size_t size, uint8_t pick, cy_engine engine)
{
	static const char *const argv[] = { "fuzz", NULL };
	cy_opts opts;
	char err[512];

	s->vm = NULL;
	s->out = memfd_create("fuzz-jit-out", MFD_CLOEXEC);
	if (s->out < 0)
		abort();
	cy_opts_init(&opts);
	opts.engine = engine;
	opts.quiet = true;
	opts.argc = 1;
	opts.argv = argv;
	opts.stdin_fd = null_fd;
	opts.stdout_fd = opts.stderr_fd = s->out;
	opts.platform = CY_PLATFORM_LINUX;
	opts.cycle_tracker = pick & PICK_TRACKER;
	opts.sample = pick & PICK_SAMPLE;
	opts.sample_interval = 7;
	opts.timers = pick & PICK_TIMERS;
	return cy_vm_create_from_bytes(&s->vm, elf, size, "fuzz.elf", &opts, err, sizeof(err)) == 0;
}

static void finish(struct side *s)
{
	cy_vm_destroy(s->vm);
	close(s->out);
}

static void differ(const char *what, uint64_t jit, uint64_t interp)
{
	fprintf(stderr, "fuzz_jit: %s: jit 0x%llx, interpreter 0x%llx\n", what,
		(unsigned long long)jit, (unsigned long long)interp);
	abort();
}

static void same_state(const struct side *j, const struct side *i)
{
	if (cy_vm_pc(j->vm) != cy_vm_pc(i->vm))
		differ("pc", cy_vm_pc(j->vm), cy_vm_pc(i->vm));
	if (cy_vm_instret(j->vm) != cy_vm_instret(i->vm))
		differ("instructions", cy_vm_instret(j->vm), cy_vm_instret(i->vm));
	if (cy_vm_cycles(j->vm) != cy_vm_cycles(i->vm))
		differ("cycles", cy_vm_cycles(j->vm), cy_vm_cycles(i->vm));
	for (unsigned r = 1; r < 32; r++)
		if (cy_vm_reg(j->vm, r) != cy_vm_reg(i->vm, r))
			differ("a register", cy_vm_reg(j->vm, r), cy_vm_reg(i->vm, r));
}

static void same_end(const struct side *j, const struct side *i)
{
	static uint8_t a[CODE_SPACE], b[CODE_SPACE];
	off_t na = lseek(j->out, 0, SEEK_END), nb = lseek(i->out, 0, SEEK_END);

	if (cy_vm_fault(j->vm) != cy_vm_fault(i->vm))
		differ("fault", cy_vm_fault(j->vm), cy_vm_fault(i->vm));
	if (strcmp(cy_vm_stop_message(j->vm), cy_vm_stop_message(i->vm)) != 0) {
		fprintf(stderr, "fuzz_jit: stop message: jit '%s', interpreter '%s'\n",
			cy_vm_stop_message(j->vm), cy_vm_stop_message(i->vm));
		abort();
	}
	if (cy_vm_read(j->vm, CODE_ADDR, a, sizeof(a)) != 0 ||
	    cy_vm_read(i->vm, CODE_ADDR, b, sizeof(b)) != 0 || memcmp(a, b, sizeof(a)) != 0)
		differ("the code segment's bytes", 0, 0);
	if (na != nb)
		differ("output bytes", (uint64_t)na, (uint64_t)nb);
	for (off_t at = 0; at < na; at += (off_t)sizeof(a)) {
		size_t n = (size_t)(na - at) < sizeof(a) ? (size_t)(na - at) : sizeof(a);
		if (pread(j->out, a, n, at) != (ssize_t)n ||
		    pread(i->out, b, n, at) != (ssize_t)n || memcmp(a, b, n) != 0)
			differ("output", (uint64_t)at, (uint64_t)at);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct side j, i;
	uint64_t ran = 0;
	size_t n;
	uint8_t pick;
	bool ok_j, ok_i;

	if (!have_jit || size < 1 || size - 1 > MAX_CODE)
		return 0;
	pick = data[0];
	n = wrap(data + 1, size - 1, pick & PICK_RV64);
	ok_j = start(&j, image, n, pick, CY_ENGINE_JIT);
	ok_i = start(&i, image, n, pick, CY_ENGINE_INTERP);
	if (ok_j != ok_i)
		differ("creation", ok_j, ok_i);
	while (ok_j && ran < MAX_CYCLES) {
		cy_stop sj = cy_vm_run(j.vm, SLICE), si = cy_vm_run(i.vm, SLICE);
		if (sj != si)
			differ("stop reason", sj, si);
		same_state(&j, &i);
		if (sj != CY_STOP_NONE)
			break;
		ran += SLICE;
	}
	if (ok_j)
		same_end(&j, &i);
	finish(&j);
	finish(&i);
	return 0;
}
