/* checkpoint.c - the checkpoint file: one place for its format. A file is
 * a header, a zstd frame and a CRC-32 of both:
 *
 *   magic "CYCKPT\r\n", format, kind (checkpoint or a chunk's results),
 *   the cyclops version, index, base (the checkpoint whose memory this one's
 *   is a delta of; 0: the whole memory), the clock, the payload's sizes
 *   [zstd frame, content checksum on: sections, each a tag, a length and
 *   the module's state (util/state_io.h)]
 *   CRC-32 of everything before it
 *
 * Sections, in order: VM (core/vm_state.c), CTRS (counters), MACH (bare
 * platform), COST (cost/detailed.c), LINX or ZKVM (abi/), TRCK (tracker),
 * TIMR (timers), SMPL (sampler), CSTK (call stacks), the client's own (the
 * command line's run and its report), MEM (core/mem_snapshot.c) last. A
 * chunk's results hold TIMR, SMPL and CSTK only. Whatever is read is
 * checked before it is used: a damaged, cut or foreign file is refused
 * with its name and the reason (docs/scale-out.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "abi/abi.h"
#include "api/checkpoint.h"
#include "core/block.h"
#include "core/machine.h"
#include "core/vm_state.h"
#include "cost/cost.h"
#include "observe/callstack.h"
#include "observe/sample.h"
#include "observe/timer.h"
#include "observe/tracker.h"
#include "util/state_io.h"

#define CKPT_MAGIC   "CYCKPT\r\n"
#define CKPT_FORMAT  1
#define CKPT_LEVEL   3            /* zstd's default: fast, and most of the ratio */
#define CKPT_MAX_RAW (1ull << 42) /* a 1 TiB guest's whole memory and more */

enum ckpt_kind { KIND_CHECKPOINT = 1, KIND_CHUNK = 2 };

struct header {
	char magic[8];
	uint32_t format, kind;
	char version[16];
	uint64_t index, base;
	uint64_t cycles, instret;
	uint64_t raw_size, payload_size;
};
_Static_assert(sizeof(struct header) == 80, "the header has no padding");

struct section {
	char tag[4];
	const uint8_t *p;
	size_t len;
};

#define MAX_SECTIONS 32

struct cy_checkpoint {
	char name[256];
	struct header h;
	uint8_t *raw; /* the sections' bytes */
	struct section sections[MAX_SECTIONS];
	size_t n_sections;
	uint64_t file_bytes;
};

/* The most a raw payload may be when read: lowered by the fuzzer. */
uint64_t checkpoint_max_raw = CKPT_MAX_RAW;

static int fail(char *err, size_t size, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t size, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return rc;
}

/* Writing: the sections into one buffer. */
struct writer {
	struct sio io;
	size_t section_at; /* where the current section's length goes */
};

static void section_begin(struct writer *w, const char tag[4])
{
	uint64_t len = 0;

	sio_raw(&w->io, (void *)tag, 4);
	w->section_at = w->io.len;
	sio_u64(&w->io, &len);
}

static void section_end(struct writer *w)
{
	uint64_t len;

	if (!sio_ok(&w->io))
		return;
	len = w->io.len - w->section_at - 8;
	memcpy(w->io.buf + w->section_at, &len, 8);
}

/* header + zstd(raw) + CRC into a malloc'd blob. */
static int pack(enum ckpt_kind kind, uint64_t index, uint64_t base, const cy_vm *vm,
		const uint8_t *raw, size_t raw_len, uint8_t **blob, size_t *size)
{
	size_t bound = ZSTD_compressBound(raw_len), n;
	struct header h = { .format = CKPT_FORMAT,
			    .kind = kind,
			    .index = index,
			    .base = base,
			    .cycles = vm ? vm->cycles : 0,
			    .instret = vm ? vm->instret : 0,
			    .raw_size = raw_len };
	uint8_t *out = malloc(sizeof(h) + bound + 4);
	ZSTD_CCtx *z = ZSTD_createCCtx();
	uint32_t crc;

	if (!out || !z) {
		free(out);
		ZSTD_freeCCtx(z);
		return -ENOMEM;
	}
	memcpy(h.magic, CKPT_MAGIC, sizeof(h.magic));
	snprintf(h.version, sizeof(h.version), "%s", CY_VERSION);
	ZSTD_CCtx_setParameter(z, ZSTD_c_compressionLevel, CKPT_LEVEL);
	ZSTD_CCtx_setParameter(z, ZSTD_c_checksumFlag, 1);
	n = ZSTD_compress2(z, out + sizeof(h), bound, raw, raw_len);
	ZSTD_freeCCtx(z);
	if (ZSTD_isError(n)) {
		free(out);
		return -ENOMEM;
	}
	h.payload_size = n;
	memcpy(out, &h, sizeof(h));
	crc = (uint32_t)crc32(0, out, (uInt)0);
	for (size_t at = 0; at < sizeof(h) + n;) { /* zlib takes at most 4 GiB a call */
		size_t piece = sizeof(h) + n - at > (1u << 30) ? (1u << 30) : sizeof(h) + n - at;
		crc = (uint32_t)crc32(crc, out + at, (uInt)piece);
		at += piece;
	}
	memcpy(out + sizeof(h) + n, &crc, 4);
	*blob = out;
	*size = sizeof(h) + n + 4;
	return 0;
}

int checkpoint_wrap(const uint8_t *raw, size_t len, bool chunk, uint64_t index, uint64_t base,
		    uint8_t **blob, size_t *size)
{
	return pack(chunk ? KIND_CHUNK : KIND_CHECKPOINT, index, base, NULL, raw, len, blob, size);
}

const uint8_t *checkpoint_contents(const cy_checkpoint *ck, size_t *len)
{
	*len = ck->h.raw_size;
	return ck->raw;
}

bool cy_vm_can_checkpoint(const cy_vm *vm) { return !zkvm_in_block(vm); }

/* Every module's state, in the order of the file's comment above. */
static void state_sections(struct writer *w, cy_vm *vm)
{
	section_begin(w, "VM  ");
	vm_state_io(&w->io, vm);
	section_end(w);
	section_begin(w, "CTRS");
	counters_state_io(&w->io, vm);
	section_end(w);
	if (vm->machine) {
		section_begin(w, "MACH");
		machine_state_io(&w->io, vm);
		section_end(w);
	}
	section_begin(w, "COST");
	cost_state_io(&w->io, vm);
	section_end(w);
	if (!vm->machine) {
		section_begin(w, vm->zkvm ? "ZKVM" : "LINX");
		if (vm->zkvm)
			zkvm_state_io(&w->io, vm);
		else
			linux_state_io(&w->io, vm);
		section_end(w);
	}
	if (vm->tracker) {
		section_begin(w, "TRCK");
		tracker_state_io(&w->io, vm->tracker);
		section_end(w);
	}
}

/* The profilers' sections: a checkpoint's and a chunk's results. */
static void profiler_sections(struct writer *w, cy_vm *vm, cy_callstack *cs)
{
	if (vm->timers) {
		section_begin(w, "TIMR");
		timers_state_io(&w->io, vm->timers);
		section_end(w);
	}
	section_begin(w, "SMPL");
	sampler_state_io(&w->io, vm);
	section_end(w);
	if (cs) {
		section_begin(w, "CSTK");
		callstack_state_io(&w->io, cs);
		section_end(w);
	}
}

int cy_checkpoint_cut(cy_vm *vm, cy_callstack *cs, uint64_t index, bool full,
		      const cy_section *extra, size_t n_extra, uint8_t **blob, size_t *size,
		      cy_checkpoint_info *info, char *err, size_t err_size)
{
	struct writer w;
	struct mem_delta_stats stats;
	uint64_t base;
	uint8_t whole;
	int rc;

	*blob = NULL;
	*size = 0;
	if (!cy_vm_can_checkpoint(vm))
		return fail(err, err_size, -EBUSY, "inside an unconstrained block");
	if (!vm->memsnap)
		full = true;
	base = full ? 0 : vm->memsnap_index;
	sio_save_init(&w.io);
	state_sections(&w, vm);
	profiler_sections(&w, vm, cs);
	for (size_t i = 0; i < n_extra; i++) {
		section_begin(&w, extra[i].tag);
		sio_raw(&w.io, (void *)extra[i].data, extra[i].len);
		section_end(&w);
	}
	section_begin(&w, "MEM ");
	whole = full;
	sio_u8(&w.io, &whole); /* 1: the whole memory follows */
	rc = sio_ok(&w.io) ? mem_snapshot_save(vm, &vm->memsnap, full, &w.io, &stats) : w.io.err;
	section_end(&w);
	if (rc == 0 && !sio_ok(&w.io))
		rc = w.io.err;
	if (rc == 0)
		rc = pack(KIND_CHECKPOINT, index, base, vm, w.io.buf, w.io.len, blob, size);
	if (rc != 0) {
		sio_free(&w.io);
		return fail(err, err_size, rc, "%s", w.io.err ? w.io.why : strerror(-rc));
	}
	vm->memsnap_index = index;
	if (info)
		*info = (cy_checkpoint_info){ .index = index,
					      .base = base,
					      .cycles = vm->cycles,
					      .instret = vm->instret,
					      .pages_scanned = stats.pages_scanned,
					      .pages_written = stats.pages_written,
					      .pages_zeroed = stats.pages_zeroed,
					      .raw_bytes = w.io.len,
					      .file_bytes = *size };
	sio_free(&w.io);
	return 0;
}

int cy_chunk_results(cy_vm *vm, cy_callstack *cs, uint64_t index, uint8_t **blob, size_t *size)
{
	struct writer w;
	int rc;

	sio_save_init(&w.io);
	profiler_sections(&w, vm, cs);
	rc = sio_ok(&w.io) ? pack(KIND_CHUNK, index, 0, vm, w.io.buf, w.io.len, blob, size)
			   : w.io.err;
	sio_free(&w.io);
	return rc;
}

/* Reading. */
int cy_checkpoint_open(const void *data, size_t size, const char *name, cy_checkpoint **out,
		       char *err, size_t err_size)
{
	const uint8_t *d = data;
	struct cy_checkpoint *ck;
	struct header h;
	uint32_t crc, want;
	size_t n;

	*out = NULL;
	if (size < 8 || memcmp(d, CKPT_MAGIC, 8) != 0)
		return fail(err, err_size, -EINVAL, "%s: not a cyclops checkpoint", name);
	if (size < sizeof(h) + 4)
		return fail(err, err_size, -EINVAL, "%s: cut short (%zu bytes, not even a header)",
			    name, size);
	memcpy(&h, d, sizeof(h));
	if (h.format != CKPT_FORMAT)
		return fail(err, err_size, -EINVAL,
			    "%s: checkpoint format %u; this cyclops (%s) reads format %u", name,
			    h.format, CY_VERSION, CKPT_FORMAT);
	h.version[sizeof(h.version) - 1] = '\0';
	if (strcmp(h.version, CY_VERSION) != 0)
		return fail(err, err_size, -EINVAL,
			    "%s: written by cyclops %s; this is cyclops %s, whose state differs",
			    name, h.version, CY_VERSION);
	if (h.payload_size != size - sizeof(h) - 4)
		return fail(
		    err, err_size, -EINVAL, "%s: %s (%zu bytes where the header says %llu)", name,
		    h.payload_size > size - sizeof(h) - 4 ? "cut short" : "has bytes past its end",
		    size, (unsigned long long)(h.payload_size + sizeof(h) + 4));
	crc = (uint32_t)crc32(0, d, 0);
	for (size_t at = 0; at < size - 4;) {
		size_t piece = size - 4 - at > (1u << 30) ? (1u << 30) : size - 4 - at;
		crc = (uint32_t)crc32(crc, d + at, (uInt)piece);
		at += piece;
	}
	memcpy(&want, d + size - 4, 4);
	if (crc != want)
		return fail(err, err_size, -EINVAL,
			    "%s: damaged (its checksum is 0x%08x, its bytes give 0x%08x)", name,
			    want, crc);
	if ((h.kind != KIND_CHECKPOINT && h.kind != KIND_CHUNK) ||
	    h.raw_size > checkpoint_max_raw ||
	    ZSTD_getFrameContentSize(d + sizeof(h), h.payload_size) != h.raw_size)
		return fail(err, err_size, -EINVAL, "%s: its header does not describe its contents",
			    name);
	if (!(ck = calloc(1, sizeof(*ck))) || !(ck->raw = malloc(h.raw_size + 1))) {
		free(ck);
		return fail(err, err_size, -ENOMEM, "%s: out of host memory for %llu bytes", name,
			    (unsigned long long)h.raw_size);
	}
	snprintf(ck->name, sizeof(ck->name), "%s", name);
	ck->h = h;
	ck->file_bytes = size;
	n = ZSTD_decompress(ck->raw, h.raw_size, d + sizeof(h), h.payload_size);
	if (ZSTD_isError(n) || n != h.raw_size) {
		cy_checkpoint_close(ck);
		return fail(err, err_size, -EINVAL, "%s: damaged (%s)", name,
			    ZSTD_isError(n) ? ZSTD_getErrorName(n) : "its contents are short");
	}
	for (size_t at = 0; at < h.raw_size;) {
		uint64_t len;
		if (ck->n_sections == MAX_SECTIONS || h.raw_size - at < 12 ||
		    (memcpy(&len, ck->raw + at + 4, 8), len > h.raw_size - at - 12)) {
			cy_checkpoint_close(ck);
			return fail(err, err_size, -EINVAL, "%s: its sections do not add up", name);
		}
		struct section *s = &ck->sections[ck->n_sections++];
		memcpy(s->tag, ck->raw + at, 4);
		s->p = ck->raw + at + 12;
		s->len = len;
		at += 12 + len;
	}
	*out = ck;
	return 0;
}

void cy_checkpoint_close(cy_checkpoint *ck)
{
	if (!ck)
		return;
	free(ck->raw);
	free(ck);
}

void cy_checkpoint_get_info(const cy_checkpoint *ck, cy_checkpoint_info *info)
{
	*info = (cy_checkpoint_info){ .index = ck->h.index,
				      .base = ck->h.base,
				      .cycles = ck->h.cycles,
				      .instret = ck->h.instret,
				      .raw_bytes = ck->h.raw_size,
				      .file_bytes = ck->file_bytes };
}

const void *cy_checkpoint_section(const cy_checkpoint *ck, const char tag[4], size_t *len)
{
	for (size_t i = 0; i < ck->n_sections; i++)
		if (memcmp(ck->sections[i].tag, tag, 4) == 0) {
			*len = ck->sections[i].len;
			return ck->sections[i].p;
		}
	*len = 0;
	return NULL;
}

/* Restores one module from its section: the whole section must be read. */
typedef int (*restore_fn)(struct sio *io, void *what);

static int restore(const cy_checkpoint *ck, const char tag[4], const char *module, restore_fn fn,
		   void *what, char *err, size_t err_size)
{
	struct sio io;
	size_t len;
	const void *p = cy_checkpoint_section(ck, tag, &len);

	if (!p)
		return fail(err, err_size, -EINVAL,
			    "%s: it holds no state for %s (cut with other options)", ck->name,
			    module);
	sio_load_init(&io, p, len);
	fn(&io, what);
	if (sio_ok(&io) && io.left)
		sio_fail(&io, "%zu bytes are left over", io.left);
	if (!sio_ok(&io))
		return fail(err, err_size, io.err == -ENOMEM ? -ENOMEM : -EINVAL, "%s: %s: %s",
			    ck->name, module, io.why);
	return 0;
}

static int vm_fn(struct sio *io, void *vm) { return vm_state_io(io, vm), io->err; }
static int ctrs_fn(struct sio *io, void *vm) { return counters_state_io(io, vm), io->err; }
static int mach_fn(struct sio *io, void *vm) { return machine_state_io(io, vm), io->err; }
static int cost_fn(struct sio *io, void *vm) { return cost_state_io(io, vm), io->err; }
static int linux_fn(struct sio *io, void *vm) { return linux_state_io(io, vm), io->err; }
static int zkvm_fn(struct sio *io, void *vm) { return zkvm_state_io(io, vm), io->err; }
static int tracker_fn(struct sio *io, void *t) { return tracker_state_io(io, t); }
static int timers_fn(struct sio *io, void *t) { return timers_state_io(io, t); }
static int sampler_fn(struct sio *io, void *vm) { return sampler_state_io(io, vm); }
static int callstack_fn(struct sio *io, void *cs) { return callstack_state_io(io, cs); }

int cy_vm_restore_memory(cy_vm *vm, const cy_checkpoint *ck, char *err, size_t err_size)
{
	struct sio io;
	size_t len;
	const void *p = cy_checkpoint_section(ck, "MEM ", &len);
	uint8_t full = 0;

	if (ck->h.kind != KIND_CHECKPOINT || !p)
		return fail(err, err_size, -EINVAL, "%s: it holds no guest memory", ck->name);
	sio_load_init(&io, p, len);
	sio_u8(&io, &full);
	if (sio_ok(&io) && full != (ck->h.base == 0))
		sio_fail(&io, "its header and its memory disagree on whether it is whole");
	if (sio_ok(&io))
		mem_snapshot_load(vm, &io, full);
	if (sio_ok(&io) && io.left)
		sio_fail(&io, "%zu bytes are left over", io.left);
	if (!sio_ok(&io))
		return fail(err, err_size, -EINVAL, "%s: memory: %s", ck->name, io.why);
	mem_snapshot_free(vm->memsnap); /* the next checkpoint is of the whole memory */
	vm->memsnap = NULL;
	vm->flush_pending = true;
	return 0;
}

int cy_vm_restore_state(cy_vm *vm, cy_callstack *cs, const cy_checkpoint *ck, char *err,
			size_t err_size)
{
	int rc;

	if (ck->h.kind != KIND_CHECKPOINT)
		return fail(err, err_size, -EINVAL, "%s: a chunk's results, not a checkpoint",
			    ck->name);
	cache_flush(vm); /* code may differ; the blocks' counts go to the old profilers */
	rc = restore(ck, "VM  ", "the registers", vm_fn, vm, err, err_size);
	if (rc == 0)
		rc = restore(ck, "CTRS", "the counters", ctrs_fn, vm, err, err_size);
	if (rc == 0 && vm->machine)
		rc = restore(ck, "MACH", "the bare machine", mach_fn, vm, err, err_size);
	if (rc == 0)
		rc = restore(ck, "COST", "the cost model", cost_fn, vm, err, err_size);
	if (rc == 0 && !vm->machine && vm->zkvm)
		rc = restore(ck, "ZKVM", "the zkVM ABI", zkvm_fn, vm, err, err_size);
	else if (rc == 0 && !vm->machine)
		rc = restore(ck, "LINX", "the Linux ABI", linux_fn, vm, err, err_size);
	if (rc == 0 && vm->tracker)
		rc = restore(ck, "TRCK", "the cycle tracker", tracker_fn, vm->tracker, err,
			     err_size);
	if (rc == 0 && vm->timers)
		rc = restore(ck, "TIMR", "the timers", timers_fn, vm->timers, err, err_size);
	if (rc == 0)
		rc = restore(ck, "SMPL", "the sampler", sampler_fn, vm, err, err_size);
	if (rc == 0 && cs)
		rc = restore(ck, "CSTK", "the call stacks", callstack_fn, cs, err, err_size);
	cache_flush(vm);
	return rc;
}

static int merge_timers(struct sio *io, void *vm_)
{
	cy_vm *vm = vm_;
	struct timers *t = timers_unattached(cy_vm_timer_threshold(vm));
	int rc;

	if (!t)
		return sio_fail(io, "out of host memory"), io->err;
	rc = timers_state_io(io, t);
	if (rc == 0 && (rc = timers_merge(vm->timers, t)) != 0)
		sio_fail(io, "%s",
			 rc == -ERANGE ? "a timer table reached its limit inside the chunk"
				       : "out of host memory");
	timers_free(t);
	return io->err;
}

static int merge_sampler(struct sio *io, void *vm) { return sampler_merge_state(io, vm); }

struct cs_pair {
	cy_vm *vm;
	cy_callstack *acc;
};

static int merge_callstack(struct sio *io, void *pair)
{
	struct cs_pair *p = pair;
	cy_callstack *chunk;
	int rc = cy_callstack_attach_mode(p->vm, CY_CALLSTACK_DETACHED, &chunk);

	if (rc != 0)
		return sio_fail(io, "out of host memory"), io->err;
	rc = callstack_state_io(io, chunk);
	if (rc == 0 && callstack_merge(p->acc, chunk) != 0)
		sio_fail(io, "out of host memory");
	cy_callstack_free(chunk);
	return io->err;
}

int cy_chunk_merge(cy_vm *vm, cy_callstack *cs, const void *blob, size_t size, char *err,
		   size_t err_size)
{
	cy_checkpoint *ck;
	struct cs_pair pair = { vm, cs };
	int rc = cy_checkpoint_open(blob, size, "a chunk's results", &ck, err, err_size);

	if (rc != 0)
		return rc;
	if (ck->h.kind != KIND_CHUNK)
		rc = fail(err, err_size, -EINVAL, "%s: not a chunk's results", ck->name);
	if (rc == 0 && vm->timers)
		rc = restore(ck, "TIMR", "the timers", merge_timers, vm, err, err_size);
	if (rc == 0)
		rc = restore(ck, "SMPL", "the sampler", merge_sampler, vm, err, err_size);
	if (rc == 0 && cs)
		rc = restore(ck, "CSTK", "the call stacks", merge_callstack, &pair, err, err_size);
	cy_checkpoint_close(ck);
	return rc;
}
