/* json.h - a small JSON reader (json.c): a whole document parsed into a
 * tree of values, for the files cyclops reads back (its reports and
 * speedscope profiles, by cyclops diff). Strict RFC 8259, nesting bounded,
 * a damaged document refused with the byte it failed at. */
#ifndef CY_JSON_H
#define CY_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	bool boolean;
	double number;
	char *string; /* JSON_STRING: UTF-8, NUL-terminated (a \u0000 ends it) */
	/* arrays and objects: n items; an object's keys beside them */
	struct json *items;
	char **keys;
	size_t n;
};

/* Parses text[0..len); 0, or -1 with the reason and offset in err. */
int json_parse(struct json *out, const char *text, size_t len, char *err, size_t err_size);
void json_free(struct json *v);
/* The member key of object v, NULL if none (or v is not an object). */
const struct json *json_get(const struct json *v, const char *key);
/* v's number, or def when v is NULL or not a number. */
double json_number(const struct json *v, double def);
/* v's string, or NULL. */
const char *json_string(const struct json *v);

#endif
