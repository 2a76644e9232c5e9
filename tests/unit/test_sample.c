/* test_sample.c - unit tests of PC sampling through the API: the histogram
 * does not depend on how cy_vm_run is sliced, the saved file reads back
 * the same, files add up, and a file's bytes are checked before they are
 * trusted. Run from the top of the tree (tests/run.sh does), after
 * `make guest`. Prints "ok - ..." / "not ok - ..." lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cyclops.h"
#include "cyclops_samples.h"

#define LOOP_ELF "tests/sample/build/loop.elf"
#define MODEL    "models/zero-riscy.model"

static int failed;

static void check(bool cond, const char *name, const char *why)
{
	if (cond) {
		printf("ok - sample: %s\n", name);
	} else {
		printf("not ok - sample: %s: %s\n", name, why);
		failed++;
	}
}

/* Runs LOOP_ELF sampled every interval cycles in slices of slice cycles
 * and saves the histogram to path; 0 on success. */
static int sampled_run(uint64_t interval, uint64_t slice, const char *path)
{
	char err[512];
	cy_opts opts;
	cy_vm *vm;
	int rc;

	cy_opts_init(&opts);
	opts.model = MODEL;
	opts.sample = true;
	opts.sample_interval = interval;
	opts.quiet = true;
	if (cy_vm_create_from_file(&vm, LOOP_ELF, &opts, err, sizeof(err)) != 0) {
		printf("# %s\n", err);
		return -1;
	}
	while (cy_vm_run(vm, slice) == CY_STOP_NONE)
		;
	rc = cy_vm_sample_save(vm, path, err, sizeof(err));
	if (rc != 0)
		printf("# %s\n", err);
	cy_vm_destroy(vm);
	return rc;
}

static bool same_counts(const cy_samples *a, const cy_samples *b)
{
	if (a->total != b->total || a->n_ranges != b->n_ranges || a->n_other != b->n_other)
		return false;
	for (size_t i = 0; i < a->n_ranges; i++)
		for (uint32_t pc = a->ranges[i].start; pc < a->ranges[i].end; pc += 2)
			if (cy_samples_at(a, pc) != cy_samples_at(b, pc))
				return false;
	return true;
}

static void test_slices(const char *dir)
{
	static const uint64_t slices[] = { 1, 2, 3, 7, 10, 11, 1000 };
	char whole[512], part[512], err[512], name[64];
	cy_samples *a = NULL, *b = NULL;

	snprintf(whole, sizeof(whole), "%s/whole.samples", dir);
	snprintf(part, sizeof(part), "%s/part.samples", dir);
	if (sampled_run(10, UINT64_MAX, whole) != 0 ||
	    cy_samples_read(&a, whole, err, sizeof(err))) {
		check(false, "one run, every 10 cycles", err);
		return;
	}
	/* loop.S: 702 cycles under zero-riscy, so 70 samples */
	check(a->total == 70 && a->interval == 10 && a->cycles == 702,
	      "loop.S every 10 cycles: 70 samples over 702 cycles", "other totals");
	for (size_t i = 0; i < sizeof(slices) / sizeof(slices[0]); i++) {
		snprintf(name, sizeof(name), "slices of %llu cycles give the same histogram",
			 (unsigned long long)slices[i]);
		if (sampled_run(10, slices[i], part) != 0 ||
		    cy_samples_read(&b, part, err, sizeof(err)) != 0) {
			check(false, name, err);
			continue;
		}
		check(same_counts(a, b), name, "counts differ");
		cy_samples_free(b);
		b = NULL;
	}
	/* two files add up; the sum is twice each count */
	if (cy_samples_read(&b, whole, err, sizeof(err)) == 0 &&
	    cy_samples_add(b, a, err, sizeof(err)) == 0) {
		bool twice = b->total == 2 * a->total;
		for (uint32_t pc = a->ranges[0].start; pc < a->ranges[0].end; pc += 2)
			twice = twice && cy_samples_at(b, pc) == 2 * cy_samples_at(a, pc);
		check(twice, "adding a file to itself doubles every count", "not doubled");
	} else {
		check(false, "adding a file to itself", err);
	}
	cy_samples_free(b);
	cy_samples_free(a);
}

/* Every prefix of a valid file is refused with a message, never read. */
static void test_truncations(const char *dir)
{
	char whole[512], cut[512], err[512];
	bool all_refused = true;
	FILE *f;
	long size;
	char *data;

	snprintf(whole, sizeof(whole), "%s/whole.samples", dir);
	snprintf(cut, sizeof(cut), "%s/cut.samples", dir);
	f = fopen(whole, "rb");
	if (!f) {
		check(false, "every prefix is refused", "no file");
		return;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	data = malloc((size_t)size);
	if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(data);
		check(false, "every prefix is refused", "read error");
		return;
	}
	fclose(f);
	for (long n = 0; n < size; n += (n < 200 ? 1 : 97)) {
		cy_samples *s = NULL;
		FILE *o = fopen(cut, "wb");
		if (!o)
			break;
		fwrite(data, 1, (size_t)n, o);
		fclose(o);
		err[0] = 0;
		if (cy_samples_read(&s, cut, err, sizeof(err)) == 0 || !strstr(err, cut)) {
			all_refused = false;
			cy_samples_free(s);
			printf("# prefix of %ld bytes: '%s'\n", n, err);
		}
	}
	check(all_refused, "every prefix of a file is refused with a message naming it",
	      "one was read");
	/* every single flipped byte is caught (magic, header or checksum) */
	bool all_caught = true;
	for (long i = 0; i < size; i += 7) {
		cy_samples *s = NULL;
		FILE *o = fopen(cut, "wb");
		if (!o)
			break;
		data[i] ^= 0x40;
		fwrite(data, 1, (size_t)size, o);
		data[i] ^= 0x40;
		fclose(o);
		if (cy_samples_read(&s, cut, err, sizeof(err)) == 0) {
			all_caught = false;
			cy_samples_free(s);
			printf("# byte %ld flipped: read\n", i);
		}
	}
	check(all_caught, "a flipped byte anywhere is refused", "one was read");
	free(data);
}

/* Per-pc cycles as the observer's RETIRE events report them. */
struct costs {
	uint32_t pc[64];
	uint64_t cycles[64];
	size_t n;
};

static void on_retire(void *ctx, cy_vm *vm, const cy_event *ev)
{
	struct costs *c = ctx;
	size_t i;

	(void)vm;
	for (i = 0; i < c->n && c->pc[i] != ev->pc; i++)
		;
	if (i == c->n && c->n < 64)
		c->pc[c->n++] = ev->pc;
	if (i < 64)
		c->cycles[i] += ev->cost;
}

/* With --sample=1 each pc's count is its cycles, whichever interpreter
 * runs: here the detailed one (a model with fetch stalls, so costs depend
 * on addresses) with an observer, whose events give the cycles. */
static void test_observed(const char *dir, const char *elf)
{
	char path[512], err[512], name[300];
	struct costs c = { 0 };
	cy_samples *s = NULL;
	cy_opts opts;
	cy_vm *vm;
	bool same = true;

	snprintf(path, sizeof(path), "%s/observed.samples", dir);
	snprintf(name, sizeof(name),
		 "%s every cycle, detailed model, observer attached: each pc gets its cycles", elf);
	cy_opts_init(&opts);
	opts.model = "tests/cost/zero-riscy-slow.model";
	opts.sample = true;
	opts.sample_interval = 1;
	opts.quiet = true;
	if (cy_vm_create_from_file(&vm, elf, &opts, err, sizeof(err)) != 0) {
		check(false, "sampling with an observer", err);
		return;
	}
	cy_vm_add_observer(vm, CY_EV_BIT(CY_EV_RETIRE), on_retire, &c);
	while (cy_vm_run(vm, 5) == CY_STOP_NONE)
		;
	if (cy_vm_sample_save(vm, path, err, sizeof(err)) != 0 ||
	    cy_samples_read(&s, path, err, sizeof(err)) != 0) {
		check(false, "sampling with an observer", err);
		cy_vm_destroy(vm);
		return;
	}
	for (size_t i = 0; i < c.n; i++)
		same = same && cy_samples_at(s, c.pc[i]) == c.cycles[i];
	check(same && s->total == cy_vm_cycles(vm) && c.n > 0, name,
	      "counts differ from the events' costs");
	cy_samples_free(s);
	cy_vm_destroy(vm);
}

static void test_identity(void)
{
	cy_elf_identity a, b;
	char err[256], text[120];
	static const char not_elf[] = "not an ELF at all";

	check(cy_elf_identity_of(not_elf, sizeof(not_elf), &a, err, sizeof(err)) != 0 &&
		  strcmp(err, "not a RISC-V ELF file") == 0,
	      "the identity of a non-ELF is an error", err);
	FILE *f = fopen(LOOP_ELF, "rb");
	char buf[65536];
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	if (cy_elf_identity_of(buf, n, &a, err, sizeof(err)) != 0) {
		check(false, "the identity of loop.elf", err);
		return;
	}
	cy_elf_identity_format(&a, text, sizeof(text));
	check(a.kind == CY_ELF_ID_SEGMENT_HASH && a.len == 8 && strlen(text) == 13 + 16,
	      "loop.elf (no build-id) is identified by its segment hash", text);
	/* one byte of the code changed: another program */
	for (size_t i = 0x1000; i < n && i < 0x1010; i++)
		buf[i] ^= 1;
	cy_elf_identity_of(buf, n, &b, err, sizeof(err));
	check(!cy_elf_identity_equal(&a, &b), "changing the code changes the identity",
	      "same identity");
}

int main(void)
{
	char dir[] = "/tmp/cyclops-test-sample.XXXXXX";

	if (access(LOOP_ELF, R_OK) != 0) {
		printf("not ok - sample: %s is missing (make guest)\n", LOOP_ELF);
		return 1;
	}
	if (!mkdtemp(dir)) {
		printf("not ok - sample: cannot make a temporary directory\n");
		return 1;
	}
	test_slices(dir);
	test_truncations(dir);
	test_identity();
	test_observed(dir, LOOP_ELF);
	test_observed(dir, "tests/cost/build/zero_riscy.elf");
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return failed ? 1 : 0;
}
