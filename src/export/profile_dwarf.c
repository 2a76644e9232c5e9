/* profile_dwarf.c - source files and lines of guest addresses, read from
 * the program's DWARF with libdw, for the profiles that show them. */
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "export/profile.h"

/* A row of the line table; file NULL ends a sequence (no code after it). */
struct src_row {
	uint32_t addr;
	int line;
	const char *file;
};

struct srcinfo {
	int fd;
	Dwarf *dw;
	struct src_row *rows; /* every unit's rows, by address */
	size_t n, cap;
};

static int by_addr(const void *a, const void *b)
{
	const struct src_row *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (y->file == NULL) - (x->file == NULL); /* an end before a start */
}

/* Reads every compilation unit's line table (dwarf_addrdie needs
 * .debug_aranges, which not every toolchain writes usably). */
static int read_lines(struct srcinfo *s)
{
	Dwarf_CU *unit = NULL;
	Dwarf_Die cu;

	while (dwarf_get_units(s->dw, unit, &unit, NULL, NULL, &cu, NULL) == 0) {
		Dwarf_Lines *lines;
		size_t n;
		if (dwarf_getsrclines(&cu, &lines, &n) == 0) {
			for (size_t i = 0; i < n; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr addr;
				bool end = false;
				int line = 0;
				if (!l || dwarf_lineaddr(l, &addr) != 0)
					continue;
				dwarf_lineendsequence(l, &end);
				dwarf_lineno(l, &line);
				if (s->n == s->cap) {
					size_t cap = s->cap ? s->cap * 2 : 1024;
					struct src_row *r = realloc(s->rows, cap * sizeof(*r));
					if (!r)
						return -1;
					s->rows = r;
					s->cap = cap;
				}
				s->rows[s->n++] =
				    (struct src_row){ (uint32_t)addr, line,
						      end ? NULL : dwarf_linesrc(l, NULL, NULL) };
			}
		}
	}
	if (s->n)
		qsort(s->rows, s->n, sizeof(*s->rows), by_addr);
	return s->n ? 0 : -1;
}

struct srcinfo *srcinfo_open(const char *path)
{
	struct srcinfo *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0)
		goto out_free;
	s->dw = dwarf_begin(s->fd, DWARF_C_READ);
	if (!s->dw)
		goto out_close;
	if (read_lines(s) != 0)
		goto out_end;
	return s;
out_end:
	free(s->rows);
	dwarf_end(s->dw);
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
	dwarf_end(s->dw);
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
