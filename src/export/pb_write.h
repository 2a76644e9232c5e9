/* pb_write.h - the protocol buffer encoding of pprof profiles
 * (github.com/google/pprof's proto/profile.proto), by hand (pb_write.c):
 * the field numbers, a growing buffer of fields, the string table, the
 * gzip around it. The profile writer and cyclops diff's use it. */
#ifndef CY_PB_WRITE_H
#define CY_PB_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/strset.h"

/* profile.proto's field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUE_TYPE_TYPE = 1,
	VALUE_TYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1,
	SAMPLE_VALUE = 2,
	SAMPLE_LABEL = 3,
	LABEL_KEY = 1,
	LABEL_STR = 2,
	MAPPING_ID = 1,
	MAPPING_MEMORY_START = 2,
	MAPPING_MEMORY_LIMIT = 3,
	MAPPING_FILE_OFFSET = 4,
	MAPPING_FILENAME = 5,
	MAPPING_BUILD_ID = 6,
	MAPPING_HAS_FUNCTIONS = 7,
	MAPPING_HAS_FILENAMES = 8,
	MAPPING_HAS_LINE_NUMBERS = 9,
	MAPPING_HAS_INLINE_FRAMES = 10,
	LOCATION_ID = 1,
	LOCATION_MAPPING_ID = 2,
	LOCATION_ADDRESS = 3,
	LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	LINE_LINE = 2,
	FUNCTION_ID = 1,
	FUNCTION_NAME = 2,
	FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4,
	FUNCTION_START_LINE = 5,
};

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

struct pbuf {
	uint8_t *data;
	size_t len, cap;
	bool failed;
};

/* The string table, written as the strings are numbered, each once. */
struct strings {
	struct pbuf *out;
	int64_t n;
	const char **text; /* by number */
	struct strset set;
	size_t cap;
	bool failed;
};

void pb_bytes(struct pbuf *b, const void *p, size_t n);
void pb_varint(struct pbuf *b, uint64_t v);
/* A varint field. */
void pb_uint(struct pbuf *b, unsigned field, uint64_t v);
/* A length-delimited field holding sub (a message, packed values, bytes);
 * sub is emptied for the next one. */
void pb_sub(struct pbuf *b, unsigned field, struct pbuf *sub);
/* A string field, each byte that is not part of valid UTF-8 as U+FFFD. */
void pb_string(struct pbuf *b, unsigned field, const char *s);
/* The number of s in the table (s must outlive it), added if new. */
int64_t str_add(struct strings *t, const char *s);
void strings_free(struct strings *t);
/* A ValueType message (type, unit: string numbers) as field of b. */
void value_type(struct pbuf *b, struct pbuf *m, unsigned field, int64_t type, int64_t unit);
/* b gzipped to f; 0 or a negative errno. */
int gzip_out(FILE *f, const struct pbuf *b);

#endif
