/* test_text.c - the escaping of untrusted bytes (src/util/text.c): for a
 * terminal or a line of text (text_put_printable, text_printable) and for
 * XML (text_put_xml). Each expected string is written from the rules in
 * text.h and the UTF-8 definition (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF). Prints "ok - ..." / "not ok - ...". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"
#include "util/text.h"

enum mode { PRINTABLE, XML };

/* What the writer makes of in (len bytes); *cols: the columns counted. */
static char *render(enum mode mode, const char *in, size_t len, size_t *cols)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	if (mode == PRINTABLE)
		*cols = text_put_printable(f, in, len);
	else
		text_put_xml(f, in, len);
	fclose(f);
	return out;
}

static void expect(enum mode mode, const char *what, const char *in, size_t len, const char *want,
		   size_t want_cols)
{
	size_t cols = 0;
	char *got = render(mode, in, len, &cols);

	check(strcmp(got, want) == 0, got, want, "text: %s: %s",
	      mode == PRINTABLE ? "printable" : "xml", what);
	if (mode == PRINTABLE)
		check(cols == want_cols && text_put_printable(NULL, in, len) == want_cols, got,
		      want, "text: printable: %s: %zu columns", what, want_cols);
	free(got);
}

#define S(lit) lit, sizeof(lit) - 1

int main(void)
{
	char buf[16];
	size_t n;

	/* for a terminal: printable characters as they are, one column each */
	expect(PRINTABLE, "ASCII", S("main"), "main", 4);
	expect(PRINTABLE, "2-, 3- and 4-byte UTF-8", S("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
	       "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 3);
	expect(PRINTABLE, "U+00A0, the first character after the C1 controls", S("\xc2\xa0"),
	       "\xc2\xa0", 1);
	/* controls as \xNN, four columns each, and "\" doubled */
	expect(PRINTABLE, "ESC, newline, CR, TAB, DEL", S("\x1b\n\r\t\x7f"),
	       "\\x1b\\x0a\\x0d\\x09\\x7f", 20);
	expect(PRINTABLE, "a backslash", S("a\\b"), "a\\\\b", 4);
	expect(PRINTABLE, "C1 control U+009B (CSI) byte by byte", S("\xc2\x9b"), "\\xc2\\x9b", 8);
	/* bytes that are not UTF-8, each on its own; what follows is read anew */
	expect(PRINTABLE, "a lone continuation byte, 0xff", S("\x80\xff"), "\\x80\\xff", 8);
	expect(PRINTABLE, "a lead byte cut short, then ASCII", S("\xc3("), "\\xc3(", 5);
	expect(PRINTABLE, "an overlong '/' (c0 af)", S("\xc0\xaf"), "\\xc0\\xaf", 8);
	expect(PRINTABLE, "a UTF-16 surrogate (ed a0 80)", S("\xed\xa0\x80"), "\\xed\\xa0\\x80",
	       12);
	expect(PRINTABLE, "past U+10FFFF (f4 90 80 80)", S("\xf4\x90\x80\x80"),
	       "\\xf4\\x90\\x80\\x80", 16);
	expect(PRINTABLE, "a 3-byte lead before a valid character", S("\xe2\xc3\xa9"),
	       "\\xe2\xc3\xa9", 5);
	expect(PRINTABLE, "a NUL inside the length", S("a\0b"), "a\\x00b", 6);

	/* into a buffer: cut between whole characters or escapes */
	n = text_printable(buf, sizeof(buf), "ab\x1b\x1b\x1b");
	check(n == 14 && strcmp(buf, "ab\\x1b\\x1b\\x1b") == 0, buf, "ab\\x1b\\x1b\\x1b",
	      "text: printable into 16 bytes: whole, 14");
	n = text_printable(buf, 8, "ab\x1b\x1b\x1b");
	check(n == 14 && strcmp(buf, "ab\\x1b") == 0, buf, "ab\\x1b",
	      "text: printable into 8 bytes: cut before the escape that does not fit");
	n = text_printable(buf, 4, "\xc3\xa9\xc3\xa9");
	check(n == 4 && strcmp(buf, "\xc3\xa9") == 0, buf, "\xc3\xa9",
	      "text: printable into 4 bytes: a character is not cut");
	n = text_printable(buf, 3, "\x1b");
	check(n == 4 && buf[0] == '\0', buf, "", "text: printable: nothing fits, still a string");

	/* XML: the five specials as entities, controls as on a terminal, bytes
	 * that are not UTF-8 and U+FFFE, U+FFFF as U+FFFD, "\" as it is */
	expect(XML, "the specials", S("<a href=\"x\">&'</a>"),
	       "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;", 0);
	expect(XML, "controls, C1 and a backslash", S("\x1b\n\\\xc2\x9b"), "\\x1b\\x0a\\\\xc2\\x9b",
	       0);
	expect(XML, "bytes that are not UTF-8", S("\xff\xc3("), "\xef\xbf\xbd\xef\xbf\xbd(", 0);
	expect(XML, "U+FFFE and U+FFFF, not XML characters; U+FFFD kept",
	       S("\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	       0);
	expect(XML, "UTF-8 kept", S("\xc3\xa9\xf0\x9f\x98\x80"), "\xc3\xa9\xf0\x9f\x98\x80", 0);
	return failures ? 1 : 0;
}
