/* Cycle tracking for guest programs: the lines of the protocol Pico and SP1 use
 * ("cycle-tracker-start: NAME", "cycle-tracker-end: NAME"), each written to
 * stdout with one write ecall. Under `cyclops run --cycle-tracker` the VM
 * measures the cycles between a start and the end of the same NAME; anywhere
 * else (qemu, a run without the option) they are ordinary output lines.
 *
 *	CY_TRACK_START("parse");          a literal name: the line is built
 *	...                               at compile time
 *	CY_TRACK_END("parse");
 *
 *	cy_track_start(name);             a name known at run time
 *	cy_track_end(name);
 *
 *	static int solve(...)
 *	{
 *		CY_TRACK_FUNCTION();      the whole function, as "solve": the
 *		...                       end is written when it returns
 *	}
 *
 *	{
 *		CY_TRACK_SCOPE("inner");  the rest of the enclosing block
 *		...
 *	}
 *
 * The _REPORT_ forms write cycle-tracker-report-start/-end: measured the same
 * way, and the VM also sums them into a total and a count per name.
 *
 * A span runs from the start's ecall to the end's ecall: it includes the
 * start's ecall and the few instructions that set up the end's write. The
 * literal forms and the scope guards have nothing else inside the span (the
 * guards assemble a run-time name's end line before the start is written);
 * cy_track_end(name) assembles its line inside it, a few cycles a byte. The
 * lines bypass stdio, so write them at the start of a line (stdout's own
 * buffered text is not affected: it is written when its newline comes). The
 * scope forms rely on __attribute__((cleanup)) (GCC, Clang): the end is
 * written on return, break or goto out of the block, not on exit() or
 * longjmp(). */
#ifndef CYCLOPS_TRACK_H
#define CYCLOPS_TRACK_H

#include <stddef.h>

#include <cyclops/syscall.h>

/* The fd the lines go to (the VM reads stdout and stderr alike). */
#ifndef CY_TRACK_FD
#define CY_TRACK_FD 1
#endif

/* A name longer than this goes out in three writes (prefix, name, newline),
 * which the protocol also accepts: the clock is read at the last one. */
#define CY_TRACK_MAX_NAME 200

#define CY_TRACK_START(name)        CY_TRACK__LINE("cycle-tracker-start: " name "\n")
#define CY_TRACK_END(name)          CY_TRACK__LINE("cycle-tracker-end: " name "\n")
#define CY_TRACK_REPORT_START(name) CY_TRACK__LINE("cycle-tracker-report-start: " name "\n")
#define CY_TRACK_REPORT_END(name)   CY_TRACK__LINE("cycle-tracker-report-end: " name "\n")

#define CY_TRACK__LINE(line) ((void)cy_write(CY_TRACK_FD, line, sizeof(line) - 1))

/* A protocol line in a buffer: the longest prefix, a name, the newline. */
struct cy_track__line {
	size_t len; /* 0: the name did not fit */
	char text[sizeof("cycle-tracker-report-start: ") + CY_TRACK_MAX_NAME];
	const char *prefix, *name; /* for a name that did not fit */
	size_t prefix_len;
};

static inline void cy_track__build(struct cy_track__line *l, const char *prefix,
				   size_t prefix_len, const char *name)
{
	size_t len = 0, n = 0;

	while (name[len])
		len++;
	l->prefix = prefix;
	l->prefix_len = prefix_len;
	l->name = name;
	l->len = 0;
	if (len > CY_TRACK_MAX_NAME)
		return;
	for (size_t i = 0; i < prefix_len; i++)
		l->text[n++] = prefix[i];
	for (size_t i = 0; i < len; i++)
		l->text[n++] = name[i];
	l->text[n++] = '\n';
	l->len = n;
}

static inline void cy_track__write(const struct cy_track__line *l)
{
	if (l->len) {
		cy_write(CY_TRACK_FD, l->text, l->len);
	} else {
		size_t len = 0;
		while (l->name[len])
			len++;
		cy_write(CY_TRACK_FD, l->prefix, l->prefix_len);
		cy_write(CY_TRACK_FD, l->name, len);
		cy_write(CY_TRACK_FD, "\n", 1);
	}
}

#define CY_TRACK__PREFIX(text) text, sizeof(text) - 1

/* Run-time names: the line is assembled on the stack, then written once. */
static inline void cy_track__line(const char *prefix, size_t prefix_len, const char *name)
{
	struct cy_track__line l;

	cy_track__build(&l, prefix, prefix_len, name);
	cy_track__write(&l);
}

static inline void cy_track_start(const char *name)
{
	cy_track__line(CY_TRACK__PREFIX("cycle-tracker-start: "), name);
}

static inline void cy_track_end(const char *name)
{
	cy_track__line(CY_TRACK__PREFIX("cycle-tracker-end: "), name);
}

static inline void cy_track_report_start(const char *name)
{
	cy_track__line(CY_TRACK__PREFIX("cycle-tracker-report-start: "), name);
}

static inline void cy_track_report_end(const char *name)
{
	cy_track__line(CY_TRACK__PREFIX("cycle-tracker-report-end: "), name);
}

/* Scope guards: a variable whose cleanup writes the end line. */
#define CY_TRACK__CAT2(a, b) a##b
#define CY_TRACK__CAT(a, b)  CY_TRACK__CAT2(a, b)
#define CY_TRACK__ID(what)   CY_TRACK__CAT(cy_track__##what, __LINE__)

/* A literal name: the end line is a literal too. */
struct cy_track__literal {
	const char *end_line;
	size_t end_len;
};

static inline void cy_track__literal_end(const struct cy_track__literal *s)
{
	cy_write(CY_TRACK_FD, s->end_line, s->end_len);
}

#define CY_TRACK__LITERAL_GUARD(start, end_line)                                              \
	__attribute__((cleanup(cy_track__literal_end), unused)) const struct cy_track__literal \
	    CY_TRACK__ID(guard_) = (start, (struct cy_track__literal){ end_line,              \
								       sizeof(end_line) - 1 })

/* From here to the end of the enclosing block, as the literal name. */
#define CY_TRACK_SCOPE(name)                                                                  \
	CY_TRACK__LITERAL_GUARD(CY_TRACK_START(name), "cycle-tracker-end: " name "\n")
#define CY_TRACK_REPORT_SCOPE(name)                                                           \
	CY_TRACK__LITERAL_GUARD(CY_TRACK_REPORT_START(name), "cycle-tracker-report-end: " name "\n")

/* A run-time name: the end line is assembled before the start is written,
 * so that only its write falls inside the span. */
static inline struct cy_track__line *cy_track__named_begin(struct cy_track__line *end,
							    const char *name)
{
	cy_track__build(end, CY_TRACK__PREFIX("cycle-tracker-end: "), name);
	cy_track_start(name);
	return end;
}

static inline void cy_track__named_end(struct cy_track__line *const *end)
{
	cy_track__write(*end);
}

/* The same for a name known at run time (it must outlive the block). The
 * end line lives on the stack, about 230 bytes. */
#define CY_TRACK_SCOPE_NAMED(name_ptr)                                                        \
	struct cy_track__line CY_TRACK__ID(end_);                                              \
	__attribute__((cleanup(cy_track__named_end), unused)) struct cy_track__line *const     \
	    CY_TRACK__ID(guard_) = cy_track__named_begin(&CY_TRACK__ID(end_), (name_ptr))

/* The whole function, named after it: the first statement of its body. */
#define CY_TRACK_FUNCTION() CY_TRACK_SCOPE_NAMED(__func__)

#endif /* CYCLOPS_TRACK_H */
