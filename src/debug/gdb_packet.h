/* gdb_packet.h - the GDB remote serial protocol's framing and field syntax
 * (docs/gdb.md): a byte-at-a-time receiver for "$data#cs" packets, acks
 * and the interrupt byte, hex and binary field decoding, and reply
 * encoding. Pure functions on buffers: no socket, no VM (fuzzed by
 * fuzz/fuzz_gdb.c). */
#ifndef CY_GDB_PACKET_H
#define CY_GDB_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest packet we take and send (qSupported's PacketSize). */
#define GDB_PACKET_MAX 16384

enum gdb_rx_event {
	GDB_RX_NONE,      /* inside a packet, or a byte between packets ignored */
	GDB_RX_PACKET,    /* a whole packet with a good checksum: rx.buf, rx.len */
	GDB_RX_BAD,       /* a whole packet with a bad checksum, or too long */
	GDB_RX_INTERRUPT, /* the interrupt byte 0x03 between packets */
	GDB_RX_ACK,       /* '+' */
	GDB_RX_NAK,       /* '-': send the last reply again */
};

struct gdb_rx {
	int state;
	size_t len;
	uint8_t sum, given;
	bool overflow;
	char buf[GDB_PACKET_MAX + 1]; /* the packet's bytes as sent, NUL after them */
};

void gdb_rx_init(struct gdb_rx *rx);
enum gdb_rx_event gdb_rx_byte(struct gdb_rx *rx, uint8_t c);

/* A cursor over a packet's bytes, for the fields after its letter. */
struct gdb_fields {
	const char *p, *end;
};

/* A hex number of 1 to 16 digits (at most 64 bits); 0, or -1. */
int gdb_hex_u64(struct gdb_fields *f, uint64_t *out);
/* Whether the next byte is c; if so it is taken. */
bool gdb_take(struct gdb_fields *f, char c);
/* Whether a text starts here; if so it is taken. */
bool gdb_take_text(struct gdb_fields *f, const char *text);
/* "ADDR,LEN": 0 or -1. */
int gdb_addr_len(struct gdb_fields *f, uint64_t *addr, uint64_t *len);
/* Hex pairs into out (at most max bytes, an even number of digits up to
 * the end of the fields); the number of bytes, or -1. */
long gdb_hex_bytes(struct gdb_fields *f, uint8_t *out, size_t max);
/* The binary encoding of X packets ('}' escapes); the number of bytes,
 * or -1 (an escape at the very end, or more than max). */
long gdb_binary_bytes(struct gdb_fields *f, uint8_t *out, size_t max);

/* Reply building: a bounded text buffer that remembers an overflow. */
struct gdb_reply {
	char buf[GDB_PACKET_MAX + 1];
	size_t len;
	bool overflow;
};
void gdb_reply_clear(struct gdb_reply *r);
void gdb_reply_text(struct gdb_reply *r, const char *text);
void gdb_reply_printf(struct gdb_reply *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gdb_reply_hex(struct gdb_reply *r, const void *data, size_t len);
/* A little-endian register value of bytes bytes (4 or 8) in hex. */
void gdb_reply_reg(struct gdb_reply *r, uint64_t value, unsigned bytes);
/* Data escaped for the binary qXfer replies ('$', '#', '}', '*'). */
void gdb_reply_binary(struct gdb_reply *r, const void *data, size_t len);

/* Frames data as "$data#cs" into out (at most GDB_PACKET_MAX + 4 bytes);
 * returns the framed length. */
size_t gdb_frame(const char *data, size_t len, char *out);

#endif
