/* pprof_read.h - reads a pprof profile (.pb.gz, profile.proto) back
 * (pprof_read.c): cyclops's own for cyclops annotate and cyclops diff, or
 * any other pprof file. An untrusted file: every index is checked, and a
 * broken one is refused with the reason. */
#ifndef CY_PPROF_READ_H
#define CY_PPROF_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pprof_line {
	uint32_t function; /* index in functions, UINT32_MAX: none */
	int64_t line;
};

struct pprof_location {
	uint64_t id, mapping, address;
	struct pprof_line *lines; /* the innermost (inlined) function first */
	size_t n_lines;
};

struct pprof_function {
	uint64_t id;
	const char *name, *file;
	int64_t start_line;
};

struct pprof_mapping {
	uint64_t id, start, limit, offset;
	const char *file, *build_id;
};

struct pprof_sample {
	uint32_t *locations; /* indices in locations, the leaf first */
	size_t n_locations;
	int64_t *values; /* n_types of them */
};

struct pprof_data {
	char **strings;
	size_t n_strings;
	const char **types, **units; /* sample types, n_types */
	size_t n_types;
	struct pprof_mapping *mappings;
	size_t n_mappings;
	struct pprof_location *locations;
	size_t n_locations;
	struct pprof_function *functions;
	size_t n_functions;
	struct pprof_sample *samples;
	size_t n_samples;
	const char **comments;
	size_t n_comments;
	/* the storage */
	uint8_t *raw;
	uint32_t *loc_store;
	int64_t *value_store;
	struct pprof_line *line_store;
};

/* Reads path (gzipped or not); 0, or -1 with "PATH: reason" in err. */
int pprof_read(struct pprof_data *d, const char *path, char *err, size_t err_size);
/* The same from bytes in memory (they are copied). */
int pprof_parse(struct pprof_data *d, const uint8_t *data, size_t len, char *err, size_t err_size);
void pprof_free(struct pprof_data *d);
/* The index of the sample type named name, -1 if none. */
int pprof_type(const struct pprof_data *d, const char *name);

#endif
