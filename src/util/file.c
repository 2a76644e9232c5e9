/* file.c - reads whole files for the loaders: a regular file only, read in
 * one go, every failure named (no such file, not a regular file, ...). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/file.h"

int file_read_all(const char *path, void **data, size_t *size, char *why, size_t why_size)
{
	struct stat st;
	void *buf = NULL;
	FILE *f;
	int rc = 0;

	*data = NULL;
	*size = 0;
	f = fopen(path, "rb");
	if (!f) {
		rc = -errno;
		snprintf(why, why_size, "%s", strerror(errno));
		return rc;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, why_size, "not a regular file");
		rc = -EINVAL;
		goto out_close;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(why, why_size, "out of memory");
		rc = -ENOMEM;
		goto out_close;
	}
	if (fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		snprintf(why, why_size, "read error");
		rc = -EIO;
		free(buf);
		goto out_close;
	}
	*data = buf;
	*size = (size_t)st.st_size;
out_close:
	fclose(f);
	return rc;
}
