/* A small stack-based bytecode interpreter as a guest benchmark: an interpreter
 * running inside an interpreter, the load cyclops meets with scripting runtimes.
 * Runs a few bytecode programs and checks their results against plain C. */

#include <stdint.h>
#include <stdio.h>

/* The instruction set, defined once: name and number of inline operands. The
 * enum, the names and the verifier's operand counts all come from this list. */
#define OPCODE_LIST(_) \
	_(HALT, 0)	/* stop */ \
	_(PUSH, 1)	/* push the operand */ \
	_(LOAD, 1)	/* push local[operand] */ \
	_(STORE, 1)	/* pop into local[operand] */ \
	_(ADD, 0)	/* a b -- a+b */ \
	_(SUB, 0)	/* a b -- a-b */ \
	_(MUL, 0)	/* a b -- a*b */ \
	_(DIV, 0)	/* a b -- a/b (b != 0) */ \
	_(MOD, 0)	/* a b -- a%b (b != 0) */ \
	_(LT, 0)	/* a b -- a<b */ \
	_(EQ, 0)	/* a b -- a==b */ \
	_(JMP, 1)	/* jump to the operand */ \
	_(JZ, 1)	/* pop; jump if zero */ \
	_(JNZ, 1)	/* pop; jump if not zero */ \
	_(PRINT, 0)	/* pop and print */

enum opcode {
#define OPCODE_ENUM(name, operands) OP_##name,
	OPCODE_LIST(OPCODE_ENUM)
#undef OPCODE_ENUM
	OP_COUNT
};

static const char *const opcode_names[] = {
#define OPCODE_NAME(name, operands) #name,
	OPCODE_LIST(OPCODE_NAME)
#undef OPCODE_NAME
};

static const uint8_t opcode_operands[] = {
#define OPCODE_OPERANDS(name, operands) operands,
	OPCODE_LIST(OPCODE_OPERANDS)
#undef OPCODE_OPERANDS
};

_Static_assert(sizeof opcode_names / sizeof opcode_names[0] == OP_COUNT, "one name per opcode");
_Static_assert(sizeof opcode_operands == OP_COUNT, "one operand count per opcode");

#define MAX_CODE 256
#define MAX_LABELS 16
#define MAX_LOCALS 8
#define MAX_STACK 32
#define MAX_OUTPUT 4

/* Programs are written with symbolic labels; build_end() patches the jumps. */
struct program {
	const char *name;
	int32_t code[MAX_CODE];
	int len;
	int label_at[MAX_LABELS];
	int32_t output[MAX_OUTPUT];	/* what PRINT printed, for the self-check */
	int noutput;
	int error;
};

static void emit(struct program *p, enum opcode op, int32_t operand)
{
	if (p->len + 2 > MAX_CODE) {
		p->error = 1;
		return;
	}
	p->code[p->len++] = op;
	if (opcode_operands[op])
		p->code[p->len++] = operand;
}

static void op(struct program *p, enum opcode o)
{
	emit(p, o, 0);
}

static void label(struct program *p, int id)
{
	p->label_at[id] = p->len;
}

/* Jump operands hold label ids until here; also checks every operand so the
 * interpreter loop need not. Returns 0 or -1. */
static int build_end(struct program *p)
{
	for (int pc = 0; pc < p->len; pc += 1 + opcode_operands[p->code[pc]]) {
		int32_t *arg = &p->code[pc + 1];
		int bad = 0;

		switch (p->code[pc]) {
		case OP_JMP:
		case OP_JZ:
		case OP_JNZ:
			bad = *arg < 0 || *arg >= MAX_LABELS || p->label_at[*arg] < 0;
			if (!bad)
				*arg = p->label_at[*arg];
			break;
		case OP_LOAD:
		case OP_STORE:
			bad = *arg < 0 || *arg >= MAX_LOCALS;
			break;
		}
		if (bad) {
			fprintf(stderr, "bytecode: %s: bad operand of %s at %d\n", p->name,
				opcode_names[p->code[pc]], pc);
			return -1;
		}
	}
	if (p->error)
		fprintf(stderr, "bytecode: %s: program too long\n", p->name);
	return p->error ? -1 : 0;
}

static void build_begin(struct program *p, const char *name)
{
	p->name = name;
	p->len = 0;
	p->noutput = 0;
	p->error = 0;
	for (int i = 0; i < MAX_LABELS; i++)
		p->label_at[i] = -1;
}

/* The interpreter: one switch per instruction, stack pointer and pc in locals.
 * Returns 0, or -1 on a runtime error (stack overflow, division by zero). */
static int run(struct program *p)
{
	int32_t stack[MAX_STACK];
	int32_t locals[MAX_LOCALS] = { 0 };
	const int32_t *code = p->code;
	int sp = 0;
	int pc = 0;

	for (;;) {
		int32_t a, b;
		if (sp > MAX_STACK - 2)
			goto stack_error;
		switch (code[pc++]) {
		case OP_HALT:
			return 0;
		case OP_PUSH:
			stack[sp++] = code[pc++];
			break;
		case OP_LOAD:
			stack[sp++] = locals[code[pc++]];
			break;
		case OP_STORE:
			if (sp < 1)
				goto stack_error;
			locals[code[pc++]] = stack[--sp];
			break;
		case OP_ADD:
		case OP_SUB:
		case OP_MUL:
		case OP_DIV:
		case OP_MOD:
		case OP_LT:
		case OP_EQ:
			if (sp < 2)
				goto stack_error;
			b = stack[--sp];
			a = stack[sp - 1];
			switch (code[pc - 1]) {
			case OP_ADD: a = (int32_t)((uint32_t)a + (uint32_t)b); break;
			case OP_SUB: a = (int32_t)((uint32_t)a - (uint32_t)b); break;
			case OP_MUL: a = (int32_t)((uint32_t)a * (uint32_t)b); break;
			case OP_DIV:
			case OP_MOD:
				if (b == 0 || (a == INT32_MIN && b == -1))
					goto arith_error;
				a = code[pc - 1] == OP_DIV ? a / b : a % b;
				break;
			case OP_LT: a = a < b; break;
			case OP_EQ: a = a == b; break;
			}
			stack[sp - 1] = a;
			break;
		case OP_JMP:
			pc = code[pc];
			break;
		case OP_JZ:
		case OP_JNZ:
			if (sp < 1)
				goto stack_error;
			a = stack[--sp];
			if ((a == 0) == (code[pc - 1] == OP_JZ))
				pc = code[pc];
			else
				pc++;
			break;
		case OP_PRINT:
			if (sp < 1)
				goto stack_error;
			a = stack[--sp];
			printf("  = %ld\n", (long)a);
			if (p->noutput < MAX_OUTPUT)
				p->output[p->noutput++] = a;
			break;
		default:
			fprintf(stderr, "bytecode: %s: bad opcode %ld at %d\n", p->name,
				(long)code[pc - 1], pc - 1);
			return -1;
		}
	}
stack_error:
	fprintf(stderr, "bytecode: %s: stack error at %d\n", p->name, pc);
	return -1;
arith_error:
	fprintf(stderr, "bytecode: %s: division error at %d\n", p->name, pc);
	return -1;
}

#define FIB_N 10000
#define FIB_MODULUS 1000000007
#define PRIMES_BELOW 4000
#define COLLATZ_BELOW 1000

#define STR(x) STR_(x)
#define STR_(x) #x

/* a, b = b, (a + b) % m, n times; prints a. */
static void build_fib(struct program *p)
{
	enum { A, B, K };
	enum { LOOP, END };

	build_begin(p, "fib(" STR(FIB_N) ") mod " STR(FIB_MODULUS));
	emit(p, OP_PUSH, 0), emit(p, OP_STORE, A);
	emit(p, OP_PUSH, 1), emit(p, OP_STORE, B);
	emit(p, OP_PUSH, FIB_N), emit(p, OP_STORE, K);
	label(p, LOOP);
	emit(p, OP_LOAD, K), emit(p, OP_JZ, END);
	emit(p, OP_LOAD, A), emit(p, OP_LOAD, B), op(p, OP_ADD);
	emit(p, OP_PUSH, FIB_MODULUS), op(p, OP_MOD);
	emit(p, OP_LOAD, B), emit(p, OP_STORE, A);
	emit(p, OP_STORE, B);
	emit(p, OP_LOAD, K), emit(p, OP_PUSH, 1), op(p, OP_SUB), emit(p, OP_STORE, K);
	emit(p, OP_JMP, LOOP);
	label(p, END);
	emit(p, OP_LOAD, A), op(p, OP_PRINT);
	op(p, OP_HALT);
}

/* Trial division by every d with d*d <= n; prints the sum and the count. */
static void build_primes(struct program *p)
{
	enum { SUM, N, D, COUNT };
	enum { OUTER, INNER, IS_PRIME, NEXT, DONE };

	build_begin(p, "primes below " STR(PRIMES_BELOW));
	emit(p, OP_PUSH, 2), emit(p, OP_STORE, N);
	label(p, OUTER);
	emit(p, OP_LOAD, N), emit(p, OP_PUSH, PRIMES_BELOW), op(p, OP_LT);
	emit(p, OP_JZ, DONE);
	emit(p, OP_PUSH, 2), emit(p, OP_STORE, D);
	label(p, INNER);
	emit(p, OP_LOAD, N), emit(p, OP_LOAD, D), emit(p, OP_LOAD, D), op(p, OP_MUL);
	op(p, OP_LT), emit(p, OP_JNZ, IS_PRIME);
	emit(p, OP_LOAD, N), emit(p, OP_LOAD, D), op(p, OP_MOD), emit(p, OP_JZ, NEXT);
	emit(p, OP_LOAD, D), emit(p, OP_PUSH, 1), op(p, OP_ADD), emit(p, OP_STORE, D);
	emit(p, OP_JMP, INNER);
	label(p, IS_PRIME);
	emit(p, OP_LOAD, SUM), emit(p, OP_LOAD, N), op(p, OP_ADD), emit(p, OP_STORE, SUM);
	emit(p, OP_LOAD, COUNT), emit(p, OP_PUSH, 1), op(p, OP_ADD), emit(p, OP_STORE, COUNT);
	label(p, NEXT);
	emit(p, OP_LOAD, N), emit(p, OP_PUSH, 1), op(p, OP_ADD), emit(p, OP_STORE, N);
	emit(p, OP_JMP, OUTER);
	label(p, DONE);
	emit(p, OP_LOAD, SUM), op(p, OP_PRINT);
	emit(p, OP_LOAD, COUNT), op(p, OP_PRINT);
	op(p, OP_HALT);
}

/* The start below the limit with the longest Collatz chain; prints it and
 * its number of steps. */
static void build_collatz(struct program *p)
{
	enum { BEST_LEN, BEST_N, N, X, STEPS };
	enum { OUTER, INNER, EVEN, COUNT_STEP, END_CHAIN, NEXT, DONE };

	build_begin(p, "longest collatz chain below " STR(COLLATZ_BELOW));
	emit(p, OP_PUSH, 1), emit(p, OP_STORE, N);
	label(p, OUTER);
	emit(p, OP_LOAD, N), emit(p, OP_PUSH, COLLATZ_BELOW), op(p, OP_LT);
	emit(p, OP_JZ, DONE);
	emit(p, OP_LOAD, N), emit(p, OP_STORE, X);
	emit(p, OP_PUSH, 0), emit(p, OP_STORE, STEPS);
	label(p, INNER);
	emit(p, OP_LOAD, X), emit(p, OP_PUSH, 1), op(p, OP_EQ), emit(p, OP_JNZ, END_CHAIN);
	emit(p, OP_LOAD, X), emit(p, OP_PUSH, 2), op(p, OP_MOD), emit(p, OP_JZ, EVEN);
	emit(p, OP_LOAD, X), emit(p, OP_PUSH, 3), op(p, OP_MUL);
	emit(p, OP_PUSH, 1), op(p, OP_ADD), emit(p, OP_STORE, X);
	emit(p, OP_JMP, COUNT_STEP);
	label(p, EVEN);
	emit(p, OP_LOAD, X), emit(p, OP_PUSH, 2), op(p, OP_DIV), emit(p, OP_STORE, X);
	label(p, COUNT_STEP);
	emit(p, OP_LOAD, STEPS), emit(p, OP_PUSH, 1), op(p, OP_ADD), emit(p, OP_STORE, STEPS);
	emit(p, OP_JMP, INNER);
	label(p, END_CHAIN);
	emit(p, OP_LOAD, BEST_LEN), emit(p, OP_LOAD, STEPS), op(p, OP_LT);
	emit(p, OP_JZ, NEXT);
	emit(p, OP_LOAD, STEPS), emit(p, OP_STORE, BEST_LEN);
	emit(p, OP_LOAD, N), emit(p, OP_STORE, BEST_N);
	label(p, NEXT);
	emit(p, OP_LOAD, N), emit(p, OP_PUSH, 1), op(p, OP_ADD), emit(p, OP_STORE, N);
	emit(p, OP_JMP, OUTER);
	label(p, DONE);
	emit(p, OP_LOAD, BEST_N), op(p, OP_PRINT);
	emit(p, OP_LOAD, BEST_LEN), op(p, OP_PRINT);
	op(p, OP_HALT);
}

/* The same three computations in C, for the self-check. */
static void reference_results(int32_t fib[1], int32_t primes[2], int32_t collatz[2])
{
	int32_t a = 0, b = 1;
	for (int k = 0; k < FIB_N; k++) {
		int32_t t = (a + b) % FIB_MODULUS;
		a = b;
		b = t;
	}
	fib[0] = a;

	primes[0] = primes[1] = 0;
	for (int32_t n = 2; n < PRIMES_BELOW; n++) {
		int32_t d = 2;
		while (d * d <= n && n % d != 0)
			d++;
		if (d * d > n) {
			primes[0] += n;
			primes[1]++;
		}
	}

	collatz[0] = collatz[1] = 0;
	for (int32_t n = 1; n < COLLATZ_BELOW; n++) {
		int32_t steps = 0;
		for (int32_t x = n; x != 1; steps++)
			x = x % 2 ? 3 * x + 1 : x / 2;
		if (steps > collatz[1]) {
			collatz[0] = n;
			collatz[1] = steps;
		}
	}
}

static int check(const struct program *p, const int32_t *expected, int n)
{
	if (p->noutput != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (p->output[i] != expected[i])
			return 0;
	return 1;
}

static struct program fib, primes, collatz;

/* REPEAT: the bench's 10x longer run of the same code (guest/Makefile) */
#ifndef REPEAT
#define REPEAT 1
#endif

/* TIMERS: the chunked-run bench's variant (guest/Makefile, bench/scale.py):
 * a channel timer around each program's runs, so that --timers watches
 * every instruction, the costly profile a chunked run spreads out. */
#ifdef TIMERS
#include <string.h>

#include <cyclops/timer.h>
#define BENCH_TIMER_INIT()     CY_TIMER_INIT()
#define BENCH_TIMER_START(str) cy_timer_start((str), strlen(str))
#define BENCH_TIMER_STOP()     CY_TIMER_STOP()
#else
#define BENCH_TIMER_INIT()     ((void)0)
#define BENCH_TIMER_START(str) ((void)0)
#define BENCH_TIMER_STOP()     ((void)0)
#endif

int main(void)
{
	int32_t want_fib[1], want_primes[2], want_collatz[2];
	int ok = 1;

	BENCH_TIMER_INIT();
	build_fib(&fib);
	build_primes(&primes);
	build_collatz(&collatz);

	struct program *programs[] = { &fib, &primes, &collatz };
	for (int i = 0; i < 3; i++) {
		struct program *p = programs[i];
		if (build_end(p) < 0)
			return 1;
		printf("%s (%d words of bytecode):\n", p->name, p->len);
		BENCH_TIMER_START(p->name);
		for (int rep = 0; rep < REPEAT; rep++) {
			if (REPEAT > 1)
				p->noutput = 0; /* each run prints the same */
			if (run(p) < 0)
				ok = 0;
		}
		BENCH_TIMER_STOP();
	}

	reference_results(want_fib, want_primes, want_collatz);
	ok &= check(&fib, want_fib, 1);
	ok &= check(&primes, want_primes, 2);
	ok &= check(&collatz, want_collatz, 2);

	if (!ok) {
		printf("bytecode: self-check FAILED\n");
		return 1;
	}
	printf("bytecode: self-check passed\n");
	return 0;
}
