/* zkvm_input.c - the --input literals of zkVM guests, encoded as the SP1 and
 * Pico SDKs' `write` encodes values (bincode, little-endian, fixed-width
 * integers, u64 length before a string). See docs/zkvm.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclops.h"
#include "util/text.h"

static int parse_u64(const char *text, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*text || *text == '-' || *text == '+' || *text == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int cy_input_encode(const char *spec, uint8_t **out, size_t *len, char *err, size_t err_size)
{
	uint8_t *buf = NULL;
	size_t n = 0;
	uint64_t v;

	*out = NULL;
	*len = 0;
	if (strncmp(spec, "u32:", 4) == 0 || strncmp(spec, "u64:", 4) == 0) {
		bool wide = spec[1] == '6';
		if (parse_u64(spec + 4, wide ? UINT64_MAX : UINT32_MAX, &v) != 0) {
			snprintf(err, err_size, "input '%s': not a %s number", spec,
				 wide ? "u64" : "u32");
			return -EINVAL;
		}
		n = wide ? 8 : 4;
		buf = malloc(n);
		for (size_t i = 0; buf && i < n; i++)
			buf[i] = (uint8_t)(v >> (8 * i));
	} else if (strncmp(spec, "hex:", 4) == 0) {
		const char *h = spec + 4;
		size_t digits = strlen(h);
		if (digits >= 2 && h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) {
			h += 2;
			digits -= 2;
		}
		if (digits % 2) {
			snprintf(err, err_size, "input '%s': odd number of hex digits", spec);
			return -EINVAL;
		}
		n = digits / 2;
		buf = malloc(n ? n : 1);
		for (size_t i = 0; buf && i < n; i++) {
			int hi = text_hex_digit(h[2 * i]), lo = text_hex_digit(h[2 * i + 1]);
			if (hi < 0 || lo < 0) {
				free(buf);
				snprintf(err, err_size, "input '%s': '%c%c' is not a hex byte",
					 spec, h[2 * i], h[2 * i + 1]);
				return -EINVAL;
			}
			buf[i] = (uint8_t)(hi << 4 | lo);
		}
	} else if (strncmp(spec, "str:", 4) == 0) {
		size_t slen = strlen(spec + 4);
		n = 8 + slen;
		buf = malloc(n);
		for (size_t i = 0; buf && i < 8; i++)
			buf[i] = (uint8_t)((uint64_t)slen >> (8 * i));
		if (buf)
			memcpy(buf + 8, spec + 4, slen);
	} else {
		return 1;
	}
	if (!buf) {
		snprintf(err, err_size, "input '%s': out of memory", spec);
		return -ENOMEM;
	}
	*out = buf;
	*len = n;
	return 0;
}
