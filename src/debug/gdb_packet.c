/* gdb_packet.c - the remote serial protocol's framing, field decoding and
 * reply encoding (gdb_packet.h). Everything here works on bounded buffers
 * and takes any bytes a client may send. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "debug/gdb_packet.h"
#include "util/text.h"

enum { RX_IDLE, RX_DATA, RX_SUM1, RX_SUM2 };

#define GDB_INTERRUPT 0x03

void gdb_rx_init(struct gdb_rx *rx)
{
	rx->state = RX_IDLE;
	rx->len = 0;
	rx->sum = rx->given = 0;
	rx->overflow = false;
	rx->buf[0] = 0;
}

enum gdb_rx_event gdb_rx_byte(struct gdb_rx *rx, uint8_t c)
{
	int d;

	switch (rx->state) {
	case RX_IDLE:
		if (c == '$') {
			rx->state = RX_DATA;
			rx->len = 0;
			rx->sum = 0;
			rx->overflow = false;
			return GDB_RX_NONE;
		}
		return c == GDB_INTERRUPT ? GDB_RX_INTERRUPT
		       : c == '+'         ? GDB_RX_ACK
		       : c == '-'         ? GDB_RX_NAK
					  : GDB_RX_NONE; /* noise between packets */
	case RX_DATA:
		if (c == '#') {
			rx->state = RX_SUM1;
			return GDB_RX_NONE;
		}
		if (c == '$') { /* a packet cut short: start again */
			rx->len = 0;
			rx->sum = 0;
			rx->overflow = false;
			return GDB_RX_NONE;
		}
		rx->sum = (uint8_t)(rx->sum + c);
		if (rx->len < GDB_PACKET_MAX)
			rx->buf[rx->len++] = (char)c;
		else
			rx->overflow = true;
		return GDB_RX_NONE;
	case RX_SUM1:
		d = text_hex_digit(c);
		rx->given = (uint8_t)(d < 0 ? 0 : d << 4);
		rx->state = d < 0 ? RX_IDLE : RX_SUM2;
		if (d < 0)
			return GDB_RX_BAD;
		return GDB_RX_NONE;
	default:
		rx->state = RX_IDLE;
		d = text_hex_digit(c);
		rx->buf[rx->len] = 0;
		if (d < 0 || rx->overflow || (uint8_t)(rx->given | d) != rx->sum)
			return GDB_RX_BAD;
		return GDB_RX_PACKET;
	}
}

int gdb_hex_u64(struct gdb_fields *f, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0, d;

	while (f->p < f->end && (d = text_hex_digit((uint8_t)*f->p)) >= 0) {
		if (++n > 16)
			return -1;
		v = v << 4 | (uint64_t)d;
		f->p++;
	}
	if (n == 0)
		return -1;
	*out = v;
	return 0;
}

bool gdb_take(struct gdb_fields *f, char c)
{
	if (f->p < f->end && *f->p == c) {
		f->p++;
		return true;
	}
	return false;
}

bool gdb_take_text(struct gdb_fields *f, const char *text)
{
	size_t n = strlen(text);

	if ((size_t)(f->end - f->p) < n || memcmp(f->p, text, n) != 0)
		return false;
	f->p += n;
	return true;
}

int gdb_addr_len(struct gdb_fields *f, uint64_t *addr, uint64_t *len)
{
	if (gdb_hex_u64(f, addr) != 0 || !gdb_take(f, ',') || gdb_hex_u64(f, len) != 0)
		return -1;
	return 0;
}

long gdb_hex_bytes(struct gdb_fields *f, uint8_t *out, size_t max)
{
	size_t n = 0;

	while (f->p < f->end) {
		int hi, lo;
		if (f->end - f->p < 2 || n == max)
			return -1;
		hi = text_hex_digit((uint8_t)f->p[0]);
		lo = text_hex_digit((uint8_t)f->p[1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[n++] = (uint8_t)(hi << 4 | lo);
		f->p += 2;
	}
	return (long)n;
}

long gdb_binary_bytes(struct gdb_fields *f, uint8_t *out, size_t max)
{
	size_t n = 0;

	while (f->p < f->end) {
		uint8_t c = (uint8_t)*f->p++;
		if (c == '}') {
			if (f->p == f->end)
				return -1;
			c = (uint8_t)(*f->p++ ^ 0x20);
		}
		if (n == max)
			return -1;
		out[n++] = c;
	}
	return (long)n;
}

void gdb_reply_clear(struct gdb_reply *r)
{
	r->len = 0;
	r->overflow = false;
	r->buf[0] = 0;
}

static void put(struct gdb_reply *r, char c)
{
	if (r->len < GDB_PACKET_MAX) {
		r->buf[r->len++] = c;
		r->buf[r->len] = 0;
	} else {
		r->overflow = true;
	}
}

void gdb_reply_text(struct gdb_reply *r, const char *text)
{
	while (*text)
		put(r, *text++);
}

void gdb_reply_printf(struct gdb_reply *r, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	gdb_reply_text(r, line);
}

void gdb_reply_hex(struct gdb_reply *r, const void *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++) {
		put(r, digits[p[i] >> 4]);
		put(r, digits[p[i] & 15]);
	}
}

void gdb_reply_reg(struct gdb_reply *r, uint64_t value, unsigned bytes)
{
	uint8_t le[8];

	for (unsigned i = 0; i < bytes && i < 8; i++)
		le[i] = (uint8_t)(value >> (8 * i));
	gdb_reply_hex(r, le, bytes < 8 ? bytes : 8);
}

void gdb_reply_binary(struct gdb_reply *r, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++) {
		uint8_t c = p[i];
		if (c == '$' || c == '#' || c == '}' || c == '*') {
			put(r, '}');
			c ^= 0x20;
		}
		put(r, (char)c);
	}
}

size_t gdb_frame(const char *data, size_t len, char *out)
{
	uint8_t sum = 0;
	size_t n = 0;

	if (len > GDB_PACKET_MAX)
		len = GDB_PACKET_MAX;
	out[n++] = '$';
	for (size_t i = 0; i < len; i++) {
		sum = (uint8_t)(sum + (uint8_t)data[i]);
		out[n++] = data[i];
	}
	n += (size_t)snprintf(out + n, 4, "#%02x", sum);
	return n;
}
