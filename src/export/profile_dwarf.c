/* profile_dwarf.c - source files, lines and inlined functions of guest
 * addresses, read from the program's DWARF with libdw, for the profiles
 * and listings that show them. libdw is opened when a run first needs it
 * (docs/decisions.md, "Libraries few runs use are opened when used"). */
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/profile.h"
#include "util/strset.h"

#ifndef LIBDW
#define LIBDW "libdw.so.1"
#endif

/* The libdw entry points this file calls, found with dlsym. */
#define LIBDW_FUNCS(_)                                                                             \
	_(dwarf_attr)                                                                              \
	_(dwarf_attr_integrate)                                                                    \
	_(dwarf_begin)                                                                             \
	_(dwarf_child)                                                                             \
	_(dwarf_decl_file)                                                                         \
	_(dwarf_decl_line)                                                                         \
	_(dwarf_end)                                                                               \
	_(dwarf_filesrc)                                                                           \
	_(dwarf_formstring)                                                                        \
	_(dwarf_formudata)                                                                         \
	_(dwarf_get_units)                                                                         \
	_(dwarf_getsrcfiles)                                                                       \
	_(dwarf_getsrclines)                                                                       \
	_(dwarf_lineaddr)                                                                          \
	_(dwarf_lineendsequence)                                                                   \
	_(dwarf_lineno)                                                                            \
	_(dwarf_linesrc)                                                                           \
	_(dwarf_lowpc)                                                                             \
	_(dwarf_onesrcline)                                                                        \
	_(dwarf_ranges)                                                                            \
	_(dwarf_siblingof)                                                                         \
	_(dwarf_tag)

static struct {
#define LIBDW_FIELD(name) __typeof__(&name) name;
	LIBDW_FUNCS(LIBDW_FIELD)
#undef LIBDW_FIELD
} lib;

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static bool lib_loaded;

static void lib_load(void)
{
	void *h = dlopen(LIBDW, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "cyclops: no source lines: %s\n", dlerror());
		return;
	}
#define LIBDW_LOOKUP(name)                                                                         \
	if (!(lib.name = (__typeof__(lib.name))dlsym(h, #name))) {                                 \
		fprintf(stderr, "cyclops: no source lines: %s lacks %s\n", LIBDW, #name);          \
		return;                                                                            \
	}
	LIBDW_FUNCS(LIBDW_LOOKUP)
#undef LIBDW_LOOKUP
	lib_loaded = true;
}

/* A row of the line table; file NULL ends a sequence (no code after it). */
struct src_row {
	uint32_t addr;
	int line;
	const char *file;
	size_t order; /* of several rows at one address, the last one holds */
};

/* An address range of an inlined subroutine (a DIE may have several). */
struct src_range {
	uint32_t lo, hi;
	uint32_t entry; /* index in inlines */
	unsigned depth; /* nesting: the outer ones first at one address */
};

/* A stretch of addresses whose innermost inlined subroutine is entry
 * (UINT32_MAX: none), from lo to the next segment's lo. */
struct src_segment {
	uint32_t lo;
	uint32_t entry;
};

/* Where a function (a concrete subprogram) starting at addr is declared. */
struct src_decl {
	uint32_t addr;
	int line;
	const char *file;
};

struct srcinfo {
	int fd;
	struct src_decl *decls; /* by address */
	size_t n_decls, cap_decls;
	Dwarf *dw;
	struct src_paths paths;
	struct src_row *rows; /* every unit's rows, by address */
	size_t n, cap;
	struct src_inline *inlines;
	size_t n_inlines, cap_inlines;
	struct src_range *ranges;
	size_t n_ranges, cap_ranges;
	struct src_segment *segments;
	size_t n_segments;
	/* every string handed out (paths, names), once each */
	char **strings;
	size_t n_strings, cap_strings;
	struct strset set;
	bool failed;
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 256;
	void *q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static const char *string_text(const void *owner, size_t i)
{
	return ((const struct srcinfo *)owner)->strings[i];
}

/* s (taken over, malloc'd) as the one copy of its text; NULL when out of
 * memory (s is freed). */
static const char *intern_owned(struct srcinfo *si, char *s)
{
	size_t slot;
	int64_t i;

	if (!s) {
		si->failed = true;
		return NULL;
	}
	si->set.text = string_text;
	si->set.owner = si;
	i = strset_find(&si->set, s, si->n_strings, &slot);
	if (i >= 0) {
		free(s);
		return si->strings[i];
	}
	if (i == -2 ||
	    grow((void **)&si->strings, &si->cap_strings, si->n_strings, sizeof(char *)) != 0) {
		free(s);
		si->failed = true;
		return NULL;
	}
	si->strings[si->n_strings] = s;
	strset_add(&si->set, slot, si->n_strings++);
	return s;
}

/* "a/./b" -> "a/b", "a/x/../b" -> "a/b", "//" -> "/", in place. */
static void clean_path(char *p)
{
	char *out = p;
	const char *s = p;
	bool absolute = *p == '/';

	while (*s) {
		while (*s == '/')
			s++;
		const char *e = strchr(s, '/');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len == 1 && s[0] == '.') {
			/* nothing */
		} else if (len == 2 && s[0] == '.' && s[1] == '.' && out > p + absolute &&
			   !(out - p >= 2 && out[-1] == '.' && out[-2] == '.' &&
			     (out - p == 2 || out[-3] == '/'))) {
			while (out > p && *--out != '/')
				;
		} else if (len) {
			if (out > p || absolute)
				*out++ = '/';
			memmove(out, s, len);
			out += len;
		}
		s += len;
	}
	if (out == p && absolute)
		*out++ = '/';
	*out = 0;
}

const char *src_path_apply(const struct src_paths *paths, const char *dir, const char *name,
			   char **owned)
{
	char *full;
	size_t trim;

	*owned = NULL;
	if (!name)
		return NULL;
	if (name[0] == '/' || !dir || !*dir) {
		full = strdup(name);
	} else if (asprintf(&full, "%s/%s", dir, name) < 0) {
		full = NULL;
	}
	if (!full)
		return NULL;
	clean_path(full);
	/* --trim-path: the prefix goes, and a '/' after it */
	trim = paths && paths->trim ? strlen(paths->trim) : 0;
	while (trim && paths->trim[trim - 1] == '/')
		trim--;
	if (trim && strncmp(full, paths->trim, trim) == 0 && (full[trim] == '/' || !full[trim])) {
		size_t skip = trim + (full[trim] == '/');
		memmove(full, full + skip, strlen(full + skip) + 1);
	}
	/* --source-root: where relative paths are */
	if (paths && paths->root && *paths->root && full[0] != '/') {
		char *rooted;
		if (asprintf(&rooted, "%s/%s", paths->root, full) < 0) {
			free(full);
			return NULL;
		}
		free(full);
		full = rooted;
		clean_path(full);
	}
	*owned = full;
	return full;
}

static const char *intern_path(struct srcinfo *si, const char *dir, const char *name)
{
	char *owned;

	if (!name)
		return NULL;
	src_path_apply(&si->paths, dir, name, &owned);
	return intern_owned(si, owned);
}

static int by_addr(const void *a, const void *b)
{
	const struct src_row *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if ((x->file == NULL) != (y->file == NULL))
		return x->file == NULL ? -1 : 1; /* an end before a start */
	return (x->order > y->order) - (x->order < y->order);
}

static const char *unit_dir(Dwarf_Die *cu)
{
	Dwarf_Attribute at;
	return lib.dwarf_attr(cu, DW_AT_comp_dir, &at) ? lib.dwarf_formstring(&at) : NULL;
}

/* The line table of one compilation unit. */
static int unit_lines(struct srcinfo *s, Dwarf_Die *cu)
{
	const char *dir = unit_dir(cu), *last_raw = NULL, *last = NULL;
	Dwarf_Lines *lines;
	size_t n;

	if (lib.dwarf_getsrclines(cu, &lines, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = lib.dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		bool end = false;
		int line = 0;
		if (!l || lib.dwarf_lineaddr(l, &addr) != 0)
			continue;
		lib.dwarf_lineendsequence(l, &end);
		lib.dwarf_lineno(l, &line);
		if (grow((void **)&s->rows, &s->cap, s->n, sizeof(*s->rows)) != 0)
			return -1;
		const char *raw = end ? NULL : lib.dwarf_linesrc(l, NULL, NULL);
		if (raw && raw != last_raw) { /* a unit's rows mostly share one file */
			last = intern_path(s, dir, raw);
			last_raw = raw;
		}
		s->rows[s->n] = (struct src_row){ (uint32_t)addr, line, raw ? last : NULL, s->n };
		s->n++;
	}
	return s->failed ? -1 : 0;
}

/* The readable name of a subprogram or inlined subroutine: its linkage
 * name demangled, else its name (both through its abstract origin). */
static const char *die_name(struct srcinfo *s, Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *name = NULL;

	if (lib.dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
	    lib.dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at))
		name = lib.dwarf_formstring(&at);
	if (name) {
		char *readable = cy_demangle(name);
		if (readable)
			return intern_owned(s, readable);
	}
	if (!name && lib.dwarf_attr_integrate(die, DW_AT_name, &at))
		name = lib.dwarf_formstring(&at);
	return intern_owned(s, strdup(name ? name : "[inlined]"));
}

static int add_inline(struct srcinfo *s, Dwarf_Die *cu, Dwarf_Files *files, size_t n_files,
		      Dwarf_Die *die, uint32_t parent, unsigned depth, uint32_t *index)
{
	Dwarf_Attribute at;
	Dwarf_Word w;
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	const char *dir = unit_dir(cu);
	struct src_inline in = { .parent = parent };
	int line = 0;

	in.name = die_name(s, die);
	in.file = intern_path(s, dir, lib.dwarf_decl_file(die));
	if (lib.dwarf_decl_line(die, &line) == 0)
		in.line = line;
	if (lib.dwarf_attr(die, DW_AT_call_file, &at) && lib.dwarf_formudata(&at, &w) == 0 &&
	    files && w < n_files)
		in.call_file = intern_path(s, dir, lib.dwarf_filesrc(files, w, NULL, NULL));
	if (lib.dwarf_attr(die, DW_AT_call_line, &at) && lib.dwarf_formudata(&at, &w) == 0)
		in.call_line = (int)w;
	if (s->failed ||
	    grow((void **)&s->inlines, &s->cap_inlines, s->n_inlines, sizeof(*s->inlines)) != 0)
		return -1;
	*index = (uint32_t)s->n_inlines;
	s->inlines[s->n_inlines++] = in;
	while ((off = lib.dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo || hi > UINT32_MAX + 1ull)
			continue;
		if (grow((void **)&s->ranges, &s->cap_ranges, s->n_ranges, sizeof(*s->ranges)) != 0)
			return -1;
		s->ranges[s->n_ranges++] =
		    (struct src_range){ (uint32_t)lo, (uint32_t)(hi - 1), *index, depth };
	}
	return 0;
}

/* Every inlined subroutine under die, with the one it is inlined into. */
static int walk_inlines(struct srcinfo *s, Dwarf_Die *cu, Dwarf_Files *files, size_t n_files,
			Dwarf_Die *die, uint32_t parent, unsigned depth)
{
	Dwarf_Die child;

	if (lib.dwarf_child(die, &child) != 0)
		return 0;
	do {
		uint32_t inner = parent;
		int tag = lib.dwarf_tag(&child);
		if (tag == DW_TAG_inlined_subroutine) {
			if (add_inline(s, cu, files, n_files, &child, parent, depth, &inner) != 0)
				return -1;
			if (walk_inlines(s, cu, files, n_files, &child, inner, depth + 1) != 0)
				return -1;
		} else if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
			   tag == DW_TAG_namespace || tag == DW_TAG_module ||
			   tag == DW_TAG_class_type || tag == DW_TAG_structure_type) {
			/* a nested subprogram starts a chain of its own */
			uint32_t p = tag == DW_TAG_subprogram ? UINT32_MAX : parent;
			Dwarf_Addr lo;
			int line;
			if (tag == DW_TAG_subprogram && lib.dwarf_lowpc(&child, &lo) == 0 &&
			    lo <= UINT32_MAX && lib.dwarf_decl_line(&child, &line) == 0) {
				if (grow((void **)&s->decls, &s->cap_decls, s->n_decls,
					 sizeof(*s->decls)) != 0)
					return -1;
				s->decls[s->n_decls++] =
				    (struct src_decl){ (uint32_t)lo, line,
						       intern_path(s, unit_dir(cu),
								   lib.dwarf_decl_file(&child)) };
			}
			if (walk_inlines(s, cu, files, n_files, &child, p, depth) != 0)
				return -1;
		}
	} while (lib.dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int by_range(const void *a, const void *b)
{
	const struct src_range *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return (x->hi < y->hi) - (x->hi > y->hi); /* the longer first */
}

/* The ranges as a list of segments, each with its innermost subroutine:
 * a sweep over the ranges by start, a stack of the open ones. */
static int build_segments(struct srcinfo *s)
{
	struct src_range *stack;
	size_t depth = 0;
	uint64_t at = 0;

	if (!s->n_ranges)
		return 0;
	qsort(s->ranges, s->n_ranges, sizeof(*s->ranges), by_range);
	stack = malloc(s->n_ranges * sizeof(*stack));
	s->segments = malloc((2 * s->n_ranges + 1) * sizeof(*s->segments));
	if (!stack || !s->segments) {
		free(stack);
		return -1;
	}
#define EMIT(lo_, entry_)                                                                          \
	do {                                                                                       \
		if (s->n_segments && s->segments[s->n_segments - 1].lo == (lo_))                   \
			s->segments[s->n_segments - 1].entry = (entry_);                           \
		else if (!s->n_segments || s->segments[s->n_segments - 1].entry != (entry_))       \
			s->segments[s->n_segments++] = (struct src_segment){ (lo_), (entry_) };    \
	} while (0)
	for (size_t i = 0; i <= s->n_ranges; i++) {
		uint64_t lo = i < s->n_ranges ? s->ranges[i].lo : UINT64_MAX;
		/* close the open ranges that end before lo */
		while (depth && (uint64_t)stack[depth - 1].hi + 1 <= lo) {
			uint64_t end = (uint64_t)stack[depth - 1].hi + 1;
			depth--;
			if (end > at) {
				/* what is open below takes over */
				while (depth && (uint64_t)stack[depth - 1].hi + 1 <= end)
					depth--;
				EMIT((uint32_t)end, depth ? stack[depth - 1].entry : UINT32_MAX);
				at = end;
			}
		}
		if (i == s->n_ranges)
			break;
		stack[depth++] = s->ranges[i];
		EMIT(s->ranges[i].lo, s->ranges[i].entry);
		at = s->ranges[i].lo;
	}
#undef EMIT
	free(stack);
	return 0;
}

static int by_decl(const void *a, const void *b)
{
	const struct src_decl *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int read_unit_inlines(struct srcinfo *s, Dwarf_Die *cu)
{
	Dwarf_Files *files = NULL;
	size_t n_files = 0;

	if (lib.dwarf_getsrcfiles(cu, &files, &n_files) != 0)
		files = NULL;
	return walk_inlines(s, cu, files, n_files, cu, UINT32_MAX, 0);
}

/* Reads every compilation unit's line table and inlined subroutines
 * (dwarf_addrdie needs .debug_aranges, which not every toolchain writes
 * usably). */
static int read_units(struct srcinfo *s, bool inlines)
{
	Dwarf_CU *unit = NULL;
	Dwarf_Die cu;

	while (lib.dwarf_get_units(s->dw, unit, &unit, NULL, NULL, &cu, NULL) == 0) {
		if (unit_lines(s, &cu) != 0)
			return -1;
		if (inlines && read_unit_inlines(s, &cu) != 0)
			return -1;
	}
	if (s->n)
		qsort(s->rows, s->n, sizeof(*s->rows), by_addr);
	if (s->n_decls)
		qsort(s->decls, s->n_decls, sizeof(*s->decls), by_decl);
	if (build_segments(s) != 0)
		return -1;
	return s->n ? 0 : -1;
}

struct srcinfo *srcinfo_open(const char *path, const struct src_paths *paths, bool inlines)
{
	struct srcinfo *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (paths)
		s->paths = *paths;
	/* a relative --trim-path is a directory from here ("." trims the
	 * working directory) */
	if (s->paths.trim && s->paths.trim[0] != '/') {
		char *abs = realpath(s->paths.trim, NULL);
		s->paths.trim = abs ? intern_owned(s, abs) : s->paths.trim;
	}
	pthread_once(&lib_once, lib_load);
	if (!lib_loaded)
		goto out_free;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0)
		goto out_free;
	s->dw = lib.dwarf_begin(s->fd, DWARF_C_READ);
	if (!s->dw)
		goto out_close;
	if (read_units(s, inlines) != 0)
		goto out_end;
	return s;
out_end:
	srcinfo_close(s);
	return NULL;
out_close:
	close(s->fd);
out_free:
	free(s);
	return NULL;
}

void srcinfo_close(struct srcinfo *s)
{
	if (!s)
		return;
	free(s->rows);
	free(s->decls);
	free(s->inlines);
	free(s->ranges);
	free(s->segments);
	for (size_t i = 0; i < s->n_strings; i++)
		free(s->strings[i]);
	free(s->strings);
	strset_free(&s->set);
	if (s->dw)
		lib.dwarf_end(s->dw);
	close(s->fd);
	free(s);
}

bool srcinfo_line(struct srcinfo *s, uint32_t addr, const char **file, int *line)
{
	size_t lo = 0, hi = s ? s->n : 0;

	while (lo < hi) { /* the first row above addr */
		size_t mid = lo + (hi - lo) / 2;
		if (s->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || !s->rows[lo - 1].file)
		return false;
	*file = s->rows[lo - 1].file;
	*line = s->rows[lo - 1].line;
	return true;
}

uint32_t srcinfo_inline_at(const struct srcinfo *s, uint32_t addr)
{
	size_t lo = 0, hi = s ? s->n_segments : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->segments[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? s->segments[lo - 1].entry : UINT32_MAX;
}

const struct src_inline *srcinfo_inline(const struct srcinfo *s, uint32_t entry)
{
	return s && entry < s->n_inlines ? &s->inlines[entry] : NULL;
}

size_t srcinfo_chain(const struct srcinfo *s, uint32_t addr, const struct src_inline **out,
		     size_t max)
{
	size_t n = 0;

	for (uint32_t e = srcinfo_inline_at(s, addr); e != UINT32_MAX && n < max;
	     e = s->inlines[e].parent)
		out[n++] = &s->inlines[e];
	return n;
}

bool srcinfo_decl(const struct srcinfo *s, uint32_t addr, const char **file, int *line)
{
	size_t lo = 0, hi = s ? s->n_decls : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->decls[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == (s ? s->n_decls : 0) || s->decls[lo].addr != addr || !s->decls[lo].file)
		return false;
	*file = s->decls[lo].file;
	*line = s->decls[lo].line;
	return true;
}
