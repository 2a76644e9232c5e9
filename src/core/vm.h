/* vm_private.h - the inside of a cy_vm, shared by the VM's own files.
 * Nothing here is part of the embedding API (include/cyclops.h). */
#ifndef CY_VM_PRIVATE_H
#define CY_VM_PRIVATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/cost_model.h"
#include "core/counters.h"
#include "cyclops.h"
#include "core/isa.h"
#include "core/mem.h"
#include "core/symbols.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cyclops keeps guest memory in host byte order: little-endian hosts only"
#endif

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* A basic block: decoded once, run many times. next[] caches the blocks that
 * followed it (0: fall-through/not taken, 1: taken/jump target). */
struct block {
	uint32_t pc;
	uint32_t end;      /* address after the last instruction */
	uint32_t n;        /* instructions, the closing pseudo-op included */
	uint32_t max_cost; /* most cycles one pass can cost */
	struct block *next[2];
	struct insn insns[];
};

#define BLOCK_MAX_INSNS 64
_Static_assert(BLOCK_MAX_INSNS < 255, "insn.index is a byte");

extern struct block no_block;

#define JUMP_CACHE_SIZE   4096
#define SINGLE_CACHE_SIZE 1024

/* Decoded blocks live in one arena, found through an open-addressing hash
 * on their start pc; both are emptied together when code changes. */
struct block_cache {
	struct block **table;
	uint32_t mask;
	uint32_t used;
	uint8_t *arena;
	size_t arena_size, arena_used;
	uint32_t generation; /* bumped by every flush */
	uint8_t *codemap;    /* one byte per CODE_CHUNK of guest memory */
	uint32_t *marked;    /* chunks set in codemap, to clear them fast */
	size_t n_marked, cap_marked;
	/* single-instruction blocks, for stepping near a budget */
	struct block *singles[SINGLE_CACHE_SIZE];
	/* direct-mapped pc -> block, for jumps whose target varies (returns) */
	struct block *jump_cache[JUMP_CACHE_SIZE];
	/* the interpreter's handler addresses that decoded blocks point to */
	const void *const *handlers;
};

#define CODE_CHUNK_SHIFT 10
#define JUMP_CACHE_SIZE  4096 /* 1 KiB: code and data rarely share one */

/* The running account of a detailed cost model (cost.c): paging state of
 * the current segment and the totals. */
struct cost_state {
	bool detailed;          /* costs depend on addresses: exec_detailed */
	uint32_t taken_extra;   /* a taken branch over a not-taken one */
	int32_t div_zero_delta; /* dividing by zero over dividing */
	uint64_t seg_start;     /* clock at the start of the current segment */
	uint64_t seg_capacity;
	uint64_t segments, paging, reserved, pages_in, pages_out;
	uint32_t page_shift;
	uint8_t *loaded, *dirty; /* Merkle tree nodes, heap-numbered bitmaps */
	size_t bitmap_bytes;
	cy_cost_parts parts; /* of the instruction being executed */
};

struct observer {
	unsigned mask;
	cy_event_fn fn;
	void *ctx;
};

#define MAX_OBSERVERS 8

struct cy_vm {
	uint32_t x[REG_SINK + 1];
	uint32_t pc;
	uint64_t cycles;  /* the active cost model's clock */
	uint64_t instret; /* instructions retired */

	struct mem mem;
	struct block_cache cache;
	struct cost_model model;
	struct cost_state cost;
	struct symtab syms;
	cy_opts opts;
	char *name; /* the program's path or name, for messages */

	/* Why the interpreter loop must return at the next block boundary. */
	bool break_loop;
	bool flush_pending;
	/* set by cy_vm_interrupt, possibly from a signal handler; cy_vm_run
	 * runs in slices of CY_INTERRUPT_CYCLES and looks between them */
	volatile sig_atomic_t interrupt;
	uint64_t memory_check_at; /* the clock of the next --max-memory check */
	cy_stop stop;
	cy_fault fault;
	int exit_code;
	char stop_message[256];

	uint32_t resv_addr; /* lr.w reservation */
	bool resv_valid;

	/* Linux user ABI state */
	uint32_t brk_start, brk;
	uint64_t start_realtime_ns;
	uint8_t warned_syscalls[64]; /* one bit per syscall number < 512 */
	bool warned_high_syscall;

	struct observer observers[MAX_OBSERVERS];
	int n_observers;
	unsigned obs_mask;

	/* The ABI: syscall_linux or syscall_zkvm, picked at creation. A
	 * syscall that sets ecall_redirect resumes at ecall_next_pc. */
	void (*syscall)(struct cy_vm *vm);
	struct zkvm *zkvm; /* zkVM ABI state; NULL for Linux guests */
	bool ecall_redirect;
	uint32_t ecall_next_pc;

	struct tracker *tracker; /* the cycle-tracking protocol; NULL: off */
	struct counters ctr;     /* the performance counter CSRs (counters.c) */
	uint64_t chunks;         /* cy_vm_run_chunk calls so far */
	struct timers *timers;   /* the channel timers (timer.c); NULL: off */

	/* PC sampling (sample.c): the last instruction that retired, stored
	 * by the interpreter when a slice ends, never per instruction */
	uint32_t retired_pc;
	struct sampler *sampler;
	struct machine *machine; /* the bare platform (machine.c); NULL: linux */
	bool has_tohost;         /* the ELF's HTIF symbols (elf_load.c) */
	uint32_t tohost, fromhost;
};

/* exec.c */
void exec_run(struct cy_vm *vm, uint64_t budget);
/* Handler addresses, by opcode, of the interpreter that vm needs now. */
const void *const *exec_handlers(const struct cy_vm *vm);

/* block.c */
int cache_init(struct block_cache *c);
void cache_free(struct block_cache *c);
void cache_flush(struct cy_vm *vm);
struct block *cache_get(struct cy_vm *vm, uint32_t pc);
/* Decoded blocks point at one interpreter's handlers: switching between the
 * plain and the observed interpreter flushes the cache. */
void cache_use_handlers(struct cy_vm *vm, const void *const *handlers);

static inline uint32_t jump_cache_index(uint32_t pc) { return (pc >> 1) & (JUMP_CACHE_SIZE - 1); }

/* The block at pc, decoding it on a miss; NULL only when out of memory. */
static inline struct block *cache_lookup(struct cy_vm *vm, uint32_t pc)
{
	struct block *b = vm->cache.jump_cache[jump_cache_index(pc)];

	if (likely(b && b->pc == pc))
		return b;
	return cache_get(vm, pc);
}
struct block *cache_single(struct cy_vm *vm, uint32_t pc);
/* Tells the cache that guest memory [addr, addr+len) was written from outside
 * the interpreter's stores (syscalls, the API); flushes if it held code. */
void cache_memory_written(struct cy_vm *vm, uint32_t addr, uint64_t len);

static inline bool cache_is_code(const struct block_cache *c, uint32_t addr, uint32_t size)
{
	return c->codemap[addr >> CODE_CHUNK_SHIFT] |
	       c->codemap[(uint32_t)(addr + size - 1) >> CODE_CHUNK_SHIFT];
}

/* cost.c */
int cost_init(struct cy_vm *vm, char *err, size_t err_size);
void cost_free(struct cy_vm *vm);
/* The static cost of an instruction at its pc (class cost, fetch stalls). */
uint32_t cost_static(const struct cy_vm *vm, const struct insn *in);
/* Before each instruction of the detailed interpreter: accounts the
 * address-dependent costs (and starts a new segment when the instruction
 * would not fit), fills vm->cost.parts, returns the cycles to add. */
uint32_t cost_before(struct cy_vm *vm, const struct insn *in, uint64_t now);

/* syscall_linux.c */
void syscall_linux(struct cy_vm *vm);
int linux_setup_stack(struct cy_vm *vm, char *err, size_t err_size);
/* Writes out guest output the cycle tracker still holds back. */
void linux_flush_output(struct cy_vm *vm);
/* write(2) to guest fd 1 or 2, through the cycle tracker; bytes or -errno. */
int32_t linux_write(struct cy_vm *vm, uint32_t fd, uint32_t buf, uint32_t len);

/* syscall_zkvm.c */
void syscall_zkvm(struct cy_vm *vm);
/* Which zkVM ABI the symbols suggest: CY_ABI_SP1, CY_ABI_PICO or LINUX. */
cy_abi zkvm_detect(const struct cy_vm *vm);
int zkvm_setup(struct cy_vm *vm, cy_abi abi, char *err, size_t err_size);
void zkvm_free(struct cy_vm *vm);

/* elf_load.c */
int elf_load(struct cy_vm *vm, const void *data, size_t size, uint32_t *entry, char *err,
	     size_t err_size);

/* vm.c */
/* Stops the run with a fault at pc; from is the jump that led there. */
void vm_fault(struct cy_vm *vm, cy_fault fault, uint32_t pc, uint32_t from);
/* "0x000101a4 <parse+0x1c>: addi x10,x10,1" (the instruction if with_insn) */
void vm_describe_at(const cy_vm *vm, uint32_t pc, bool with_insn, char *buf, size_t size);
void vm_warn(struct cy_vm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vm_emit(struct cy_vm *vm, const cy_event *ev);

#endif
