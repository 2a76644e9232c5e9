/* timer_marker.c - the recogniser of the channel timers' announcement. It
 * looks only at instructions that write x0 with lui, auipc or addi (the
 * words the sequence is made of, which change nothing on any RISC-V machine)
 * and at nops; every other instruction is ignored, so a compiler may place
 * unrelated code in between. A marker-like word out of order restarts it. */
#include "observe/timer_marker.h"

#define OPC_MASK   0x7fu
#define OPC_LUI    0x37u
#define OPC_AUIPC  0x17u
#define OPC_OP_IMM 0x13u
#define RD_MASK    (0x1fu << 7)
#define FUNCT3     (7u << 12)
#define RS1_MASK   (0x1fu << 15)
#define NOP        0x00000013u /* addi x0, x0, 0 */
#define C_NOP      0x0001u     /* c.nop, what an assembler without norvc emits */

/* The states: what the next marker word must be. */
enum {
	WANT_NOP,
	WANT_LUI,
	WANT_MAGIC_ADDI,
	WANT_AUIPC_MSG,
	WANT_ADDI_MSG,
	WANT_AUIPC_LEN,
	WANT_ADDI_LEN,
	WANT_AUIPC_SIGNAL,
	WANT_ADDI_SIGNAL,
	WANT_LAST_NOP,
};

_Static_assert(WANT_LAST_NOP + 1 == MARKER_STATES, "marker.h counts the states");

enum kind { OTHER, K_NOP, K_LUI, K_AUIPC, K_ADDI };

static enum kind classify(uint32_t word)
{
	if ((word & 3) != 3)
		return (word & 0xffff) == C_NOP ? K_NOP : OTHER;
	if (word == NOP)
		return K_NOP;
	if (word & RD_MASK)
		return OTHER;
	switch (word & OPC_MASK) {
	case OPC_LUI: return K_LUI;
	case OPC_AUIPC: return K_AUIPC;
	case OPC_OP_IMM: return (word & (FUNCT3 | RS1_MASK)) == 0 ? K_ADDI : OTHER;
	}
	return OTHER;
}

static int32_t imm_i(uint32_t word) { return (int32_t)word >> 20; }

void marker_reset(struct marker *m) { *m = (struct marker){ 0 }; }

bool marker_word(uint32_t word) { return classify(word) != OTHER; }

bool marker_last_word(uint32_t word) { return classify(word) == K_NOP; }

bool marker_step(struct marker *m, uint32_t pc, uint32_t word)
{
	enum kind k = classify(word);
	unsigned ch;

	if (k == OTHER)
		return false;
	/* a nop is also addi x0, x0, 0: a low part of 0 where an addi is due */
	switch (m->state) {
	case WANT_LUI:
		if (k == K_LUI) {
			m->magic_hi = word & 0xfffff000u;
			m->state = WANT_MAGIC_ADDI;
			return false;
		}
		break;
	case WANT_MAGIC_ADDI:
		if ((k == K_ADDI || word == NOP) &&
		    m->magic_hi + (uint32_t)imm_i(word) == MARKER_MAGIC) {
			m->state = WANT_AUIPC_MSG;
			return false;
		}
		break;
	case WANT_AUIPC_MSG:
	case WANT_AUIPC_LEN:
	case WANT_AUIPC_SIGNAL:
		if (k == K_AUIPC) {
			m->auipc = pc + (word & 0xfffff000u);
			m->state++;
			return false;
		}
		break;
	case WANT_ADDI_MSG:
	case WANT_ADDI_LEN:
	case WANT_ADDI_SIGNAL:
		if (k == K_ADDI || word == NOP) {
			ch = (m->state - WANT_ADDI_MSG) / 2;
			m->addr[ch] = m->auipc + (uint32_t)imm_i(word);
			m->state++;
			return false;
		}
		break;
	case WANT_LAST_NOP:
		if (k == K_NOP) {
			m->state = WANT_NOP;
			return true;
		}
		break;
	}
	/* out of order (or the first word): this word may begin a sequence */
	m->state = k == K_NOP ? WANT_LUI : WANT_NOP;
	return false;
}
