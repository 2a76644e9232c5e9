/* json.c - a recursive-descent JSON reader (json.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

#define JSON_MAX_DEPTH 256

struct parser {
	const char *s, *end, *start;
	char *err;
	size_t err_size;
	bool failed;
};

static void fail(struct parser *p, const char *why)
{
	if (!p->failed)
		snprintf(p->err, p->err_size, "%s at byte %zu", why, (size_t)(p->s - p->start));
	p->failed = true;
}

static void skip_space(struct parser *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static bool take(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n) != 0)
		return false;
	p->s += n;
	return true;
}

static int hex4(const char *s)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static char *parse_string(struct parser *p)
{
	const char *q = ++p->s; /* past the quote */
	char *out, *o;

	while (q < p->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= p->end) {
		fail(p, "unterminated string");
		return NULL;
	}
	out = o = malloc((size_t)(q - p->s) + 1);
	if (!out) {
		fail(p, "out of memory");
		return NULL;
	}
	while (p->s < q) {
		unsigned char c = (unsigned char)*p->s++;
		if (c < 0x20) {
			fail(p, "control character in a string");
			break;
		}
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		c = (unsigned char)*p->s++;
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			int cp = q - p->s >= 4 ? hex4(p->s) : -1;
			if (cp < 0) {
				fail(p, "bad \\u escape");
				break;
			}
			p->s += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && q - p->s >= 6 && p->s[0] == '\\' &&
			    p->s[1] == 'u') {
				int lo = hex4(p->s + 2);
				if (lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					p->s += 6;
				}
			}
			if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd; /* a lone surrogate */
			/* the escape is 6 bytes, its UTF-8 at most 4 (8 for a pair's 12) */
			o += put_utf8(o, (unsigned)cp);
			break;
		}
		default: fail(p, "bad escape"); break;
		}
		if (p->failed)
			break;
	}
	*o = 0;
	p->s = q + 1;
	if (p->failed) {
		free(out);
		return NULL;
	}
	return out;
}

static void parse_value(struct parser *p, struct json *v, int depth);

static bool append(struct parser *p, struct json *v, size_t *cap, char *key)
{
	if (v->n == *cap) {
		size_t c = *cap ? 2 * *cap : 8;
		struct json *items = realloc(v->items, c * sizeof(*items));
		if (!items) {
			fail(p, "out of memory");
			free(key);
			return false;
		}
		v->items = items;
		if (v->type == JSON_OBJECT) {
			char **keys = realloc(v->keys, c * sizeof(*keys));
			if (!keys) {
				fail(p, "out of memory");
				free(key);
				return false;
			}
			v->keys = keys;
		}
		*cap = c;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[v->n]));
	if (v->type == JSON_OBJECT)
		v->keys[v->n] = key;
	v->n++;
	return true;
}

static void parse_container(struct parser *p, struct json *v, int depth)
{
	char close = v->type == JSON_OBJECT ? '}' : ']';
	size_t cap = 0;

	p->s++;
	skip_space(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return;
	}
	for (;;) {
		char *key = NULL;
		skip_space(p);
		if (v->type == JSON_OBJECT) {
			if (p->s >= p->end || *p->s != '"') {
				fail(p, "expected a key");
				return;
			}
			if (!(key = parse_string(p)))
				return;
			skip_space(p);
			if (p->s >= p->end || *p->s != ':') {
				free(key);
				fail(p, "expected ':'");
				return;
			}
			p->s++;
		}
		if (!append(p, v, &cap, key))
			return;
		parse_value(p, &v->items[v->n - 1], depth + 1);
		if (p->failed)
			return;
		skip_space(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return;
		}
		fail(p, v->type == JSON_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
		return;
	}
}

static void parse_value(struct parser *p, struct json *v, int depth)
{
	memset(v, 0, sizeof(*v));
	skip_space(p);
	if (depth > JSON_MAX_DEPTH) {
		fail(p, "nested too deep");
		return;
	}
	if (p->s >= p->end) {
		fail(p, "unexpected end");
		return;
	}
	switch (*p->s) {
	case '{':
		v->type = JSON_OBJECT;
		parse_container(p, v, depth);
		return;
	case '[':
		v->type = JSON_ARRAY;
		parse_container(p, v, depth);
		return;
	case '"':
		v->type = JSON_STRING;
		v->string = parse_string(p);
		return;
	case 't':
	case 'f':
		v->type = JSON_BOOL;
		v->boolean = *p->s == 't';
		if (!take(p, v->boolean ? "true" : "false"))
			fail(p, "bad literal");
		return;
	case 'n':
		if (!take(p, "null"))
			fail(p, "bad literal");
		return;
	default: {
		char buf[64], *end;
		size_t n = 0;
		while (p->s + n < p->end && n < sizeof(buf) - 1 &&
		       strchr("+-0123456789.eE", p->s[n]))
			n++;
		memcpy(buf, p->s, n);
		buf[n] = 0;
		v->type = JSON_NUMBER;
		v->number = strtod(buf, &end);
		if (!n || *end) {
			fail(p, "bad value");
			return;
		}
		p->s += n;
		return;
	}
	}
}

int json_parse(struct json *out, const char *text, size_t len, char *err, size_t err_size)
{
	struct parser p = { text, text + len, text, err, err_size, false };

	parse_value(&p, out, 0);
	skip_space(&p);
	if (!p.failed && p.s != p.end)
		fail(&p, "text after the value");
	if (p.failed) {
		json_free(out);
		return -1;
	}
	return 0;
}

void json_free(struct json *v)
{
	for (size_t i = 0; i < v->n; i++) {
		json_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	memset(v, 0, sizeof(*v));
}

const struct json *json_get(const struct json *v, const char *key)
{
	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0)
			return &v->items[i];
	return NULL;
}

double json_number(const struct json *v, double def)
{
	return v && v->type == JSON_NUMBER ? v->number : def;
}

const char *json_string(const struct json *v)
{
	return v && v->type == JSON_STRING ? v->string : NULL;
}
