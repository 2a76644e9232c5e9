/* text.h - writing text and files for people and tools: UTF-8 checks,
 * untrusted bytes (guest output, symbol and file names from an ELF) made
 * safe for a terminal, XML or JSON, and files written whole or not at all.
 * Used by the command line and every exporter. */
#ifndef CY_TEXT_H
#define CY_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* part as a percentage of whole, 0 when whole is 0: the share a table,
 * listing or summary prints beside a count. */
static inline double text_percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The value of a hex digit (either case), -1 if c is not one. */
int text_hex_digit(int c);
/* The length of the valid UTF-8 sequence at p (1-4), 0 if there is none. */
size_t text_utf8_len(const uint8_t *p, size_t n);
/* s as a JSON string; bytes that are not UTF-8 become U+FFFD. */
void text_json_string(FILE *f, const char *s, size_t len);
/* s for a terminal or a line of a text format: valid UTF-8 that is not a
 * control character as it is, a backslash doubled, every other byte (C0
 * and C1 controls, DEL, invalid UTF-8) as \xNN, so that it can neither
 * move the cursor nor end the line. The columns it takes (a character
 * counted as one); with f NULL it only counts them. */
size_t text_put_printable(FILE *f, const char *s, size_t len);
/* The same into buf, cut at a whole character or escape to fit size
 * (with its NUL); the length it would have whole. */
size_t text_printable(char *buf, size_t size, const char *s);
/* s as XML (or HTML) text or attribute value: & < > " ' as entities,
 * control characters as the text \xNN (XML 1.0 cannot hold them even as
 * references; a backslash stays one, so that text already made printable
 * reads the same), bytes that are not UTF-8 and the non-characters U+FFFE
 * and U+FFFF as U+FFFD. */
void text_put_xml(FILE *f, const char *s, size_t len);
/* Writes path whole or not at all: body writes a temporary file that is
 * renamed over path. A path that names a FIFO, a device or a symbolic link
 * (/dev/stdout) is written in place instead (through the link). 0, or body's or the system's
 * negative errno. */
int text_write_file(const char *path, int (*body)(FILE *f, void *ctx), void *ctx);
/* The same for a name an untrusted guest chose, relative to the directory
 * dirfd: -EXDEV for an absolute name or one whose ".." leaves dirfd, -ELOOP
 * for a symbolic link anywhere on the way or as the file, -EPERM for a file
 * there that is not a regular one; never written in place. */
int text_write_file_beneath(int dirfd, const char *name, int (*body)(FILE *f, void *ctx),
			    void *ctx);

/* Whether what ("the report") can be written to path, checked before a run
 * so that its results are not lost at the end: a file name, not a
 * directory, in a directory that can be written. 0, or -errno with
 * "cannot write WHAT to 'PATH': reason" in err. */
int text_check_output(const char *what, const char *path, char *err, size_t err_size);
/* Removes the temporary file a write is filling, if one is: for a signal
 * handler that ends the process (async-signal-safe). */
void text_remove_pending(void);
/* A body for both that writes len bytes from p (ctx: a struct text_bytes). */
struct text_bytes {
	const void *p;
	size_t len;
};
int text_bytes_body(FILE *f, void *ctx);

#endif
