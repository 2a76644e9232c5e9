/* test_timer_marker.c - the channel timers' announcement recogniser: the
 * exact sequence, the sequence with unrelated instructions in between,
 * broken sequences, and channels that need a negative addi. The words are
 * encoded here from the RISC-V base formats (U: imm[31:12] rd opcode; I:
 * imm[11:0] rs1 funct3 rd opcode). Prints "ok - ..." / "not ok - ...". */
#include <stdio.h>
#include <string.h>

#include "observe/timer_marker.h"

static int failures;

static void check(int cond, const char *what)
{
	printf("%s - timer marker: %s\n", cond ? "ok" : "not ok", what);
	failures += !cond;
}

#define NOP       0x00000013u
#define ADD_A0    0x00b50533u /* add a0, a0, a1 */
#define SW_A0     0x00a12023u /* sw a0, 0(sp) */
#define C_ADDI    0x0505u     /* c.addi a0, 1 */
#define ADDI_A0   0x00150513u /* addi a0, a0, 1: not a marker word */
#define LUI_MAGIC 0xcdcdd037u /* lui x0, 0xcdcdd */

static uint32_t lui0(uint32_t hi20) { return hi20 << 12 | 0x37; }
static uint32_t auipc0(uint32_t hi20) { return hi20 << 12 | 0x17; }
static uint32_t addi0(int32_t imm) { return ((uint32_t)imm & 0xfff) << 20 | 0x13; }

/* A program: words with their pcs, fed in order. */
struct prog {
	uint32_t pc[64], word[64];
	int n;
	uint32_t next_pc;
};

static void emit(struct prog *p, uint32_t word)
{
	p->pc[p->n] = p->next_pc;
	p->word[p->n++] = word;
	p->next_pc += (word & 3) == 3 ? 4 : 2;
}

/* la x0, addr as the assembler splits it: hi rounds so that lo is signed */
static void la0(struct prog *p, uint32_t addr, uint32_t filler)
{
	uint32_t delta = addr - p->next_pc;
	uint32_t hi = (delta + 0x800) >> 12;

	emit(p, auipc0(hi));
	if (filler)
		emit(p, filler);
	emit(p, addi0((int32_t)(delta - (hi << 12))));
}

/* The whole sequence; filler (if not 0) goes after every instruction. */
static void announce(struct prog *p, uint32_t msg, uint32_t len, uint32_t sig, uint32_t filler)
{
	emit(p, NOP);
	if (filler)
		emit(p, filler);
	emit(p, LUI_MAGIC);
	if (filler)
		emit(p, filler);
	emit(p, addi0(-0x233)); /* 0xcdcdd000 - 0x233 = 0xcdcdcdcd */
	if (filler)
		emit(p, filler);
	la0(p, msg, filler);
	la0(p, len, filler);
	la0(p, sig, filler);
	emit(p, NOP);
}

/* Feeds p; returns how many times it completed and where (the last). */
static int run(const struct prog *p, struct marker *m, int *at)
{
	int done = 0;

	marker_reset(m);
	for (int i = 0; i < p->n; i++)
		if (marker_step(m, p->pc[i], p->word[i])) {
			done++;
			*at = i;
		}
	return done;
}

static bool channels(const struct marker *m, uint32_t msg, uint32_t len, uint32_t sig)
{
	return m->addr[MARKER_MSG] == msg && m->addr[MARKER_LEN] == len &&
	       m->addr[MARKER_SIGNAL] == sig;
}

int main(void)
{
	struct prog p = { .next_pc = 0x10000 };
	struct marker m;
	int at = -1;

	check(lui0(0xcdcdd) == LUI_MAGIC, "the encoder agrees with lui x0, 0xcdcdd");
	announce(&p, 0x12000, 0x12200, 0x12204, 0);
	check(run(&p, &m, &at) == 1 && at == p.n - 1,
	      "the exact sequence completes at its last nop");
	check(channels(&m, 0x12000, 0x12200, 0x12204),
	      "the exact sequence gives the three channels");

	p = (struct prog){ .next_pc = 0x10000 };
	emit(&p, ADD_A0);
	announce(&p, 0x12000, 0x12200, 0x12204, ADD_A0);
	emit(&p, SW_A0);
	check(run(&p, &m, &at) == 1 && channels(&m, 0x12000, 0x12200, 0x12204),
	      "an add after every instruction is ignored");
	p = (struct prog){ .next_pc = 0x10000 };
	announce(&p, 0x12000, 0x12200, 0x12204, C_ADDI);
	check(run(&p, &m, &at) == 1 && channels(&m, 0x12000, 0x12200, 0x12204),
	      "a compressed instruction in between is ignored (pcs move by 2)");
	p = (struct prog){ .next_pc = 0x10000 };
	announce(&p, 0x12000, 0x12200, 0x12204, ADDI_A0);
	check(run(&p, &m, &at) == 1 && channels(&m, 0x12000, 0x12200, 0x12204),
	      "an addi to a real register is not a marker word");

	/* channels below their auipc and with low parts >= 0x800 */
	p = (struct prog){ .next_pc = 0x10000 };
	announce(&p, 0x12900, 0x8000, 0x11ffc, 0);
	check(run(&p, &m, &at) == 1 && channels(&m, 0x12900, 0x8000, 0x11ffc),
	      "channels that need a negative addi (and one below the code)");
	check((p.word[4] >> 31) == 1 && (p.word[6] >> 31) == 1 && (p.word[8] >> 31) == 1,
	      "the test really encodes negative addi immediates");

	/* broken: the magic's addi is missing, then a good sequence */
	p = (struct prog){ .next_pc = 0x10000 };
	emit(&p, NOP);
	emit(&p, LUI_MAGIC);
	la0(&p, 0x12000, 0);
	la0(&p, 0x12200, 0);
	la0(&p, 0x12204, 0);
	emit(&p, NOP);
	check(run(&p, &m, &at) == 0, "a sequence without the magic's addi is not taken");
	announce(&p, 0x13000, 0x13200, 0x13204, 0);
	check(run(&p, &m, &at) == 1 && channels(&m, 0x13000, 0x13200, 0x13204),
	      "a good sequence after a broken one is taken");

	/* broken: a wrong magic, an auipc out of order, a missing last nop */
	p = (struct prog){ .next_pc = 0x10000 };
	emit(&p, NOP);
	emit(&p, LUI_MAGIC);
	emit(&p, addi0(-0x232));
	la0(&p, 0x12000, 0);
	la0(&p, 0x12200, 0);
	la0(&p, 0x12204, 0);
	emit(&p, NOP);
	check(run(&p, &m, &at) == 0, "a wrong magic (0xcdcdcdce) is not taken");
	p = (struct prog){ .next_pc = 0x10000 };
	emit(&p, NOP);
	emit(&p, LUI_MAGIC);
	emit(&p, addi0(-0x233));
	emit(&p, auipc0(1));
	emit(&p, auipc0(1)); /* two auipcs: the first has no addi */
	emit(&p, addi0(0));
	la0(&p, 0x12200, 0);
	la0(&p, 0x12204, 0);
	emit(&p, NOP);
	check(run(&p, &m, &at) == 0, "an auipc where an addi is due restarts");
	p = (struct prog){ .next_pc = 0x10000 };
	announce(&p, 0x12000, 0x12200, 0x12204, 0);
	p.word[p.n - 1] = ADD_A0; /* the last nop replaced */
	check(run(&p, &m, &at) == 0, "without the last nop nothing completes");

	/* a stray nop in the middle restarts; one just before the lui is the
	 * sequence's own first nop */
	p = (struct prog){ .next_pc = 0x10000 };
	emit(&p, NOP);
	emit(&p, LUI_MAGIC);
	emit(&p, NOP);
	announce(&p, 0x12000, 0x12200, 0x12204, 0);
	check(run(&p, &m, &at) == 1 && channels(&m, 0x12000, 0x12200, 0x12204),
	      "a restart inside a sequence, then the whole sequence");

	/* assemblers that compress nop write c.nop */
	p = (struct prog){ .next_pc = 0x10000 };
	announce(&p, 0x12000, 0x12200, 0x12204, 0);
	p.word[0] = 0x0001;
	p.word[p.n - 1] = 0x0001;
	check(run(&p, &m, &at) == 1, "c.nop stands for nop");

	/* announced twice: the second wins */
	p = (struct prog){ .next_pc = 0x10000 };
	announce(&p, 0x12000, 0x12200, 0x12204, 0);
	announce(&p, 0x22000, 0x22200, 0x22204, 0);
	check(run(&p, &m, &at) == 2 && channels(&m, 0x22000, 0x22200, 0x22204),
	      "a second announcement completes again");
	return failures ? 1 : 0;
}
