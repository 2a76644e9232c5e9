/* profile_write.c - writes a gathered profile to a file in the format its
 * name or --format asks for, whole or not at all. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/profile.h"

static const struct {
	const char *name, *ext;
} formats[PF_COUNT] = {
#define PF_ROW(id, n, e) [PF_##id] = { n, e },
	PROFILE_FORMATS(PF_ROW)
#undef PF_ROW
};

int profile_format_of_path(const char *path)
{
	size_t len = strlen(path);

	for (int i = 0; i < PF_COUNT; i++) {
		size_t el = strlen(formats[i].ext);
		if (len > el && strcmp(path + len - el, formats[i].ext) == 0)
			return i;
	}
	return -1;
}

int profile_format_named(const char *name)
{
	for (int i = 0; i < PF_COUNT; i++)
		if (strcmp(name, formats[i].name) == 0)
			return i;
	return -1;
}

const char *profile_format_list(void)
{
	static char list[256];

	if (!list[0])
		for (int i = 0; i < PF_COUNT; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s (%s)",
				 i ? ", " : "", formats[i].name, formats[i].ext);
	return list;
}

struct write_ctx {
	struct profile *p;
	enum profile_format fmt;
};

static int write_body(FILE *f, void *ctx)
{
	struct write_ctx *w = ctx;

	switch (w->fmt) {
	case PF_PPROF: return profile_write_pprof(f, w->p);
	case PF_SPEEDSCOPE: return profile_write_speedscope(f, w->p);
	case PF_FOLDED: return profile_write_folded(f, w->p);
	case PF_SVG: return profile_write_svg(f, w->p);
	case PF_CALLGRIND: return profile_write_callgrind(f, w->p);
	case PF_TRACE: return profile_write_trace(f, w->p);
	case PF_HTML: return profile_write_html(f, w->p);
	case PF_COUNT: break;
	}
	return -EINVAL;
}

int profile_write(struct profile *p, const char *path, enum profile_format fmt, char *err,
		  size_t err_size)
{
	struct write_ctx w = { p, fmt };
	int rc = text_write_file(path, write_body, &w);

	if (rc != 0)
		snprintf(err, err_size, "cannot write the profile to '%s': %s", path,
			 strerror(-rc));
	return rc;
}
