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

/* One line, "PREFIX NAME\n", with one write when the name fits. */
static inline void cy_track__line(const char *prefix, size_t prefix_len, const char *name)
{
	char line[sizeof("cycle-tracker-report-start: ") + CY_TRACK_MAX_NAME];
	size_t len = 0, n = 0;

	while (name[len])
		len++;
	if (len > CY_TRACK_MAX_NAME) {
		cy_write(CY_TRACK_FD, prefix, prefix_len);
		cy_write(CY_TRACK_FD, name, len);
		cy_write(CY_TRACK_FD, "\n", 1);
		return;
	}
	for (size_t i = 0; i < prefix_len; i++)
		line[n++] = prefix[i];
	for (size_t i = 0; i < len; i++)
		line[n++] = name[i];
	line[n++] = '\n';
	cy_write(CY_TRACK_FD, line, n);
}

#define CY_TRACK__PREFIX(text) text, sizeof(text) - 1

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
struct cy_track__scope {
	const char *end_line; /* a literal's whole end line, or NULL */
	size_t end_len;
	const char *name; /* a run-time name */
	int report;
};

static inline void cy_track__scope_end(const struct cy_track__scope *s)
{
	if (s->end_line)
		cy_write(CY_TRACK_FD, s->end_line, s->end_len);
	else if (s->report)
		cy_track_report_end(s->name);
	else
		cy_track_end(s->name);
}

#define CY_TRACK__CAT2(a, b) a##b
#define CY_TRACK__CAT(a, b)  CY_TRACK__CAT2(a, b)
#define CY_TRACK__GUARD                                                                       \
	__attribute__((cleanup(cy_track__scope_end), unused)) const struct cy_track__scope \
	    CY_TRACK__CAT(cy_track__guard_, __LINE__)

/* From here to the end of the enclosing block, as the literal name. */
#define CY_TRACK_SCOPE(name)                                                                  \
	CY_TRACK__GUARD = (CY_TRACK_START(name),                                               \
			   (struct cy_track__scope){ "cycle-tracker-end: " name "\n",          \
						     sizeof("cycle-tracker-end: " name "\n") - 1, \
						     NULL, 0 })
#define CY_TRACK_REPORT_SCOPE(name)                                                           \
	CY_TRACK__GUARD = (CY_TRACK_REPORT_START(name),                                        \
			   (struct cy_track__scope){                                           \
			       "cycle-tracker-report-end: " name "\n",                         \
			       sizeof("cycle-tracker-report-end: " name "\n") - 1, NULL, 1 })

static inline struct cy_track__scope cy_track__scope_begin(const char *name)
{
	cy_track_start(name);
	return (struct cy_track__scope){ NULL, 0, name, 0 };
}

/* The same for a name known at run time (it must outlive the block). */
#define CY_TRACK_SCOPE_NAMED(name_ptr) CY_TRACK__GUARD = cy_track__scope_begin(name_ptr)

/* The whole function, named after it: the first statement of its body. */
#define CY_TRACK_FUNCTION() CY_TRACK_SCOPE_NAMED(__func__)

#endif /* CYCLOPS_TRACK_H */
