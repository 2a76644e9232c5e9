/* profile_dwarf.c - source files and lines of guest addresses, read from
 * the program's DWARF with libdw, for the profiles that show them. */
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "profile.h"

struct srcinfo {
	int fd;
	Dwarf *dw;
};

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
	return s;
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
	dwarf_end(s->dw);
	close(s->fd);
	free(s);
}

bool srcinfo_line(struct srcinfo *s, uint32_t addr, const char **file, int *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *name;
	int n;

	if (!s || !dwarf_addrdie(s->dw, addr, &cu) || !(l = dwarf_getsrc_die(&cu, addr)))
		return false;
	if (!(name = dwarf_linesrc(l, NULL, NULL)) || dwarf_lineno(l, &n) != 0)
		return false;
	*file = name;
	*line = n;
	return true;
}
