/* text.h - writing text and files for people and tools: UTF-8 checks,
 * JSON strings of guest bytes, and files written whole or not at all. Used
 * by the command line and every exporter. */
#ifndef CY_TEXT_H
#define CY_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The length of the valid UTF-8 sequence at p (1-4), 0 if there is none. */
size_t text_utf8_len(const uint8_t *p, size_t n);
/* s as a JSON string; bytes that are not UTF-8 become U+FFFD. */
void text_json_string(FILE *f, const char *s, size_t len);
/* Writes path whole or not at all: body writes a temporary file that is
 * renamed over path. 0, or body's or the system's negative errno. */
int text_write_file(const char *path, int (*body)(FILE *f, void *ctx), void *ctx);

#endif
