/* timer_marker.h - recognises the channel timers' announcement in the stream
 * of executed instruction words: nop; li x0, 0xCDCDCDCD; la x0, msg;
 * la x0, len; la x0, signal; nop (docs/timers.md). A pure state machine:
 * no VM, so the unit tests feed it words directly. */
#ifndef CY_TIMER_MARKER_H
#define CY_TIMER_MARKER_H

#include <stdbool.h>
#include <stdint.h>

/* li x0, 0xCDCDCDCD as lui x0, 0xcdcdd + addi x0, x0, -0x233 */
#define MARKER_MAGIC 0xcdcdcdcdu

enum marker_channel { MARKER_MSG, MARKER_LEN, MARKER_SIGNAL, MARKER_CHANNELS };

/* How many values marker.state takes (a restored one is checked). */
#define MARKER_STATES 10

struct marker {
	unsigned state;    /* how much of the sequence has been seen */
	uint32_t magic_hi; /* the lui's upper immediate */
	uint32_t auipc;    /* pc + upper immediate of the pending auipc */
	uint32_t addr[MARKER_CHANNELS];
};

void marker_reset(struct marker *m);
/* Whether the word can be part of the sequence (a nop, or lui, auipc or
 * addi writing x0): the recogniser ignores every other word. */
bool marker_word(uint32_t word);
/* Whether the word can end the sequence (a nop). */
bool marker_last_word(uint32_t word);
/* Feeds the instruction word executed at pc (a compressed one in its low 16
 * bits). Returns true when it completes the sequence: m->addr holds the
 * three channels, and the recogniser starts over. */
bool marker_step(struct marker *m, uint32_t pc, uint32_t word);

#endif
