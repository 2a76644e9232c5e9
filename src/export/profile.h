/* profile.h - the call-stack profile writers of "cyclops run --profile":
 * one gathered profile (struct profile), one writer per file format. */
#ifndef CY_PROFILE_H
#define CY_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "cyclops.h"
#include "export/program.h"
#include "export/report.h"
#include "util/text.h"

#define PROFILE_FORMATS(_)                                                                         \
	_(PPROF, "pprof", ".pb.gz")                                                                \
	_(SPEEDSCOPE, "speedscope", ".speedscope.json")                                            \
	_(FOLDED, "folded", ".folded")                                                             \
	_(SVG, "svg", ".svg")                                                                      \
	_(CALLGRIND, "callgrind", ".callgrind")                                                    \
	_(TRACE, "trace", ".trace.json")                                                           \
	_(HTML, "html", ".html")

enum profile_format {
#define PF_ENUM(id, name, ext) PF_##id,
	PROFILE_FORMATS(PF_ENUM)
#undef PF_ENUM
	    PF_COUNT
};

/* The format a file name's extension asks for, or one named by --format;
 * -1 if none. */
int profile_format_of_path(const char *path);
int profile_format_named(const char *name);
/* "pprof, speedscope, ..." for messages. */
const char *profile_format_list(void);

/* Source positions from the program's DWARF (profile_dwarf.c). */
struct srcinfo;
/* How source paths are written: relative ones are made absolute with their
 * unit's compilation directory; then trim (--trim-path) is taken off their
 * start, and what is relative is put under root (--source-root). */
struct src_paths {
	const char *trim, *root;
};
/* An inlined subroutine of the DWARF: a function inlined at one place. */
struct src_inline {
	uint32_t parent;       /* the one it is inlined into, UINT32_MAX: the function */
	const char *name;      /* readable: the linkage name demangled, or the name */
	const char *file;      /* where the inlined function is declared; NULL unknown */
	int line;              /* its declaration's line, 0 unknown */
	const char *call_file; /* the call site it replaces, in its parent */
	int call_line;
};
/* NULL: no debug information. inlines: read the inlined subroutines too. */
struct srcinfo *srcinfo_open(const char *path, const struct src_paths *paths, bool inlines);
void srcinfo_close(struct srcinfo *s);
/* The file and line of addr; false if unknown. *file lives as long as s. */
bool srcinfo_line(struct srcinfo *s, uint32_t addr, const char **file, int *line);
/* Where the function starting at addr is declared (its subprogram's
 * decl_file and decl_line); false if the DWARF does not say. */
bool srcinfo_decl(const struct srcinfo *s, uint32_t addr, const char **file, int *line);
/* The innermost inlined subroutine at addr, UINT32_MAX if none; its entry. */
uint32_t srcinfo_inline_at(const struct srcinfo *s, uint32_t addr);
const struct src_inline *srcinfo_inline(const struct srcinfo *s, uint32_t entry);
/* The inlined subroutines at addr, innermost first, at most max. */
size_t srcinfo_chain(const struct srcinfo *s, uint32_t addr, const struct src_inline **out,
		     size_t max);
#define SRC_MAX_INLINE 64 /* the deepest chain followed */
/* name (relative to dir) as paths says; *owned (malloc'd) is the result,
 * NULL when out of memory. */
const char *src_path_apply(const struct src_paths *paths, const char *dir, const char *name,
			   char **owned);

/* A distinct frame (function, inlined function or pseudo-frame) of the
 * profile: one per name. */
struct prof_frame {
	const char *name;
	cy_frame_kind kind;
	uint32_t addr, size; /* a function's symbol; 0 for the others */
	const char *file;    /* from DWARF, NULL if unknown */
	int line;
	uint64_t self_cycles, self_instructions;
	uint64_t cycles, instructions; /* inclusive, a recursive frame counted once */
};

struct profile {
	cy_vm *vm;
	const char *program;
	const char *elf_path; /* where the program's DWARF is read; NULL: program */
	int status;
	const char *partial; /* why the guest stopped before its end; NULL if it exited */
	/* which of the profiler's tables reached their limits, as one line;
	 * NULL if none did (docs/robustness.md#limits) */
	char *truncated;
	/* how to gather (set before profile_gather): inlined functions as
	 * frames (on by default), and how source paths are written */
	bool no_inline;
	struct src_paths paths;
	cy_callstack_limits limits;
	/* the profiler's tree: a node per stack and call site, and the
	 * cycles of each pc on each node */
	const cy_stack_node *phys;
	size_t n_phys;
	const cy_node_pc_cost *node_pcs; /* by node, then pc */
	size_t n_node_pcs;
	cy_node_pc_cost *shared_pcs; /* past the table's limit: shared out (share_pcs) */
	/* the stacks the writers show (p->nodes): call sites merged, each
	 * function expanded into the functions inlined at the pc (DWARF) */
	const cy_stack_node *nodes;
	size_t n_nodes;
	cy_stack_node *tree;
	uint32_t *phys_node; /* profiler node -> the node of its own frame in nodes */
	uint32_t *frame_of;  /* node -> index in frames */
	struct prof_frame *frames;
	size_t n_frames;
	uint32_t *first_child, *next_sibling; /* UINT32_MAX ends a list */
	const cy_pc_cost *pcs;
	size_t n_pcs;
	const cy_call_edge *calls;
	size_t n_calls;
	const cy_call_span *call_spans; /* the longest calls, by start */
	size_t n_call_spans;
	uint64_t call_threshold;
	const cy_symbol *funcs; /* the sized symbols, by address */
	size_t n_funcs;
	cy_symbol *func_store;
	struct srcinfo *src;
	struct program prog; /* its segments and identity; none if unreadable */
	cy_cost_stats stats;
	uint64_t cycles, instructions; /* the run's */
	/* segment starts (paging models), gathered by an observer */
	const uint64_t *segments; /* the clock at each segment's start */
	size_t n_segments;
	/* the chunks of a chunked run (cyclops run with the cycle tracker):
	 * the clock at each one's start and end (profile_add_chunk) */
	uint64_t (*chunks)[2];
	size_t n_chunks, cap_chunks;
};

/* Before the run: attaches the profiler (and the segment observer). */
int profile_attach(struct profile *p, cy_vm *vm, cy_callstack **cs);
/* A chunk of the run, from clock start to end, for the timeline. */
int profile_add_chunk(struct profile *p, uint64_t start, uint64_t end);
/* Saves or restores the chunks added so far (a checkpoint's part). */
struct sio;
int profile_chunks_state_io(struct sio *io, struct profile *p);
/* After the run: reads the profiler's results; 0 or -ENOMEM. */
int profile_gather(struct profile *p, cy_callstack *cs, const char *program, int status);
void profile_free(struct profile *p);
/* Writes the profile to path in format fmt; a message in err on failure. */
int profile_write(struct profile *p, const char *path, enum profile_format fmt, char *err,
		  size_t err_size);

/* The inlined functions at pc, innermost first (none with no_inline). */
size_t profile_chain(const struct profile *p, uint32_t pc, const struct src_inline **out,
		     size_t max);
/* The function (index in p->funcs) containing pc, or -1. */
long profile_func_of(const struct profile *p, uint32_t pc);
/* Node i's frames from the outermost to it, into out (depth + 1 entries). */
size_t profile_stack(const struct profile *p, uint32_t node, uint32_t *out, size_t max);
/* The formats that write every stack whole (.folded, .speedscope.json)
 * would grow with depth squared under deep recursion: a stack deeper than
 * PROFILE_TEXT_DEPTH frames keeps its outermost PROFILE_TEXT_HEAD and its
 * innermost PROFILE_TEXT_TAIL, and one marked frame stands for the rest. */
#define PROFILE_TEXT_DEPTH 256
#define PROFILE_TEXT_HEAD  128
#define PROFILE_TEXT_TAIL  (PROFILE_TEXT_DEPTH - PROFILE_TEXT_HEAD - 1)
/* Node i's frames as those formats write them: at most
 * PROFILE_TEXT_DEPTH - 1 into out, *elided the number left out between
 * out[PROFILE_TEXT_HEAD - 1] and out[PROFILE_TEXT_HEAD] (0: none). */
size_t profile_stack_capped(const struct profile *p, uint32_t node, uint32_t *out, size_t *elided);
/* A name fit for folded stacks: ';' becomes '_', control characters and
 * bytes that are not UTF-8 \xNN, a backslash \\ (text_put_printable). */
void profile_folded_name(FILE *f, const char *name);

/* The writers (body of text_write_file; 0 or a negative errno). */
int profile_write_pprof(FILE *f, const struct profile *p);
int profile_write_speedscope(FILE *f, const struct profile *p);
int profile_write_folded(FILE *f, const struct profile *p);
int profile_write_svg(FILE *f, const struct profile *p);
int profile_write_callgrind(FILE *f, const struct profile *p);
int profile_write_trace(FILE *f, const struct profile *p);
int profile_write_html(FILE *f, const struct profile *p);
/* The flame graph's script: cyFlameZoom(svg, g) makes frame g the full
 * width, cyFlameInit(svg) clicks to it (g.f frames with data-x, data-w,
 * data-name; the svg's data-width). cyclops diff's graph uses it too. */
extern const char profile_flame_js[];
/* The flame graph as an <svg> element, for the .svg file and the report. */
void profile_flame_svg(FILE *f, const struct profile *p, bool standalone);

#endif
