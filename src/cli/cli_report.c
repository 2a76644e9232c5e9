/* cli_report.c - the JSON report of a run (--report FILE.json): what ran,
 * how it stopped, and the cycle tracker's results for the whole run and per
 * chunk. It goes to a temporary file that is renamed over FILE.json, so the
 * file is whole or absent. Every field is described in docs/report.md. */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

struct report {
	FILE *chunks; /* the "chunks" members so far, as JSON text */
	char *text;
	size_t text_len;
	uint64_t n_chunks;
	bool failed; /* out of memory on the way */
};

/* A JSON string of guest bytes: the escapes JSON requires, other control
 * characters as \u00XX, and each byte that is not part of valid UTF-8 as
 * U+FFFD, so that the file is valid UTF-8 whatever the guest wrote. */
static void json_string(FILE *f, const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s;

	fputc('"', f);
	for (size_t i = 0; i < len;) {
		size_t n = cli_utf8_len(p + i, len - i);
		if (n == 0) {
			fputs("\\ufffd", f);
			n = 1;
		} else if (n > 1) {
			fwrite(p + i, 1, n, f);
		} else if (p[i] == '"' || p[i] == '\\') {
			fprintf(f, "\\%c", p[i]);
		} else if (p[i] == '\n') {
			fputs("\\n", f);
		} else if (p[i] == '\r') {
			fputs("\\r", f);
		} else if (p[i] == '\t') {
			fputs("\\t", f);
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			fprintf(f, "\\u%04x", p[i]);
		} else {
			fputc(p[i], f);
		}
		i += n;
	}
	fputc('"', f);
}

/* {"name": [cycles, ...], ...} */
static void json_tracker(FILE *f, const cy_tracker_entry *e, size_t n, const char *indent)
{
	if (n == 0) {
		fputs("{}", f);
		return;
	}
	fputs("{", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n%s  ", i ? "," : "", indent);
		json_string(f, e[i].name, e[i].name_len);
		fputs(": [", f);
		for (size_t k = 0; k < e[i].count; k++)
			fprintf(f, "%s%llu", k ? ", " : "", (unsigned long long)e[i].cycles[k]);
		fputs("]", f);
	}
	fprintf(f, "\n%s}", indent);
}

/* {"name": {"total": T, "count": C}, ...}, names with report-ends only */
static void json_tracker_report(FILE *f, const cy_tracker_entry *e, size_t n, const char *indent)
{
	bool any = false;

	fputs("{", f);
	for (size_t i = 0; i < n; i++) {
		if (!e[i].report_count)
			continue;
		fprintf(f, "%s\n%s  ", any ? "," : "", indent);
		json_string(f, e[i].name, e[i].name_len);
		fprintf(f, ": {\"total\": %llu, \"count\": %llu}",
			(unsigned long long)e[i].report_total,
			(unsigned long long)e[i].report_count);
		any = true;
	}
	fprintf(f, any ? "\n%s}" : "}", indent);
}

static const char *stop_name(cy_stop stop)
{
	switch (stop) {
	case CY_STOP_NONE: return "running";
	case CY_STOP_EXIT: return "exit";
	case CY_STOP_FAULT: return "fault";
	case CY_STOP_CYCLE_LIMIT: return "cycle_limit";
	}
	return "?";
}

static const char *issue_name(cy_tracker_issue_kind kind)
{
	switch (kind) {
	case CY_TRACKER_UNMATCHED_END: return "unmatched_end";
	case CY_TRACKER_RESTARTED: return "restarted";
	case CY_TRACKER_NEVER_ENDED: return "never_ended";
	}
	return "?";
}

int report_check_path(const char *path, char *err, size_t err_size)
{
	struct stat st;
	char *copy = strdup(path);
	const char *dir;
	int rc = 0;

	if (!copy) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	dir = dirname(copy);
	if (!*path || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		snprintf(err, err_size, "cannot write the report to '%s': not a file name", path);
		rc = -EISDIR;
	} else if (access(dir, W_OK | X_OK) != 0) {
		rc = -errno;
		snprintf(err, err_size, "cannot write the report to '%s': %s: %s", path, dir,
			 strerror(errno));
	}
	free(copy);
	return rc;
}

struct report *report_new(void)
{
	struct report *r = calloc(1, sizeof(*r));

	if (r && !(r->chunks = open_memstream(&r->text, &r->text_len))) {
		free(r);
		return NULL;
	}
	return r;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	if (r->chunks)
		fclose(r->chunks);
	free(r->text);
	free(r);
}

int report_add_chunk(struct report *r, const cy_chunk_report *c)
{
	FILE *f = r->chunks;

	fprintf(f,
		"%s\n    {\"index\": %llu, \"start_cycle\": %llu, \"end_cycle\": %llu, "
		"\"done\": %s,\n     \"cycle_tracker\": ",
		r->n_chunks ? "," : "", (unsigned long long)c->index,
		(unsigned long long)c->start_cycle, (unsigned long long)c->end_cycle,
		c->done ? "true" : "false");
	json_tracker(f, c->cycle_tracker, c->n_cycle_tracker, "     ");
	fputs(",\n     \"cycle_tracker_report\": ", f);
	json_tracker_report(f, c->cycle_tracker, c->n_cycle_tracker, "     ");
	fputs("}", f);
	r->n_chunks++;
	if (ferror(f))
		r->failed = true;
	return r->failed ? -ENOMEM : 0;
}

static void write_body(FILE *f, struct report *r, const char *program, cy_vm *vm, int status)
{
	cy_stop stop = cy_vm_stop_reason(vm);
	size_t n_entries, n_spans, n_issues;
	const cy_tracker_entry *e = cy_vm_cycle_tracker(vm, &n_entries);
	const cy_span *s;
	const cy_tracker_issue *is;

	fprintf(f, "{\n  \"cyclops\": \"%s\",\n  \"program\": ", CY_VERSION);
	json_string(f, program, strlen(program));
	fprintf(f, ",\n  \"instructions\": %llu,\n  \"cycles\": %llu,\n  \"stop\": \"%s\",\n",
		(unsigned long long)cy_vm_instret(vm), (unsigned long long)cy_vm_cycles(vm),
		stop_name(stop));
	if (stop == CY_STOP_EXIT)
		fprintf(f, "  \"exit_code\": %d,\n", cy_vm_exit_code(vm));
	else
		fputs("  \"exit_code\": null,\n", f);
	fprintf(f, "  \"status\": %d,\n  \"message\": ", status);
	if (stop == CY_STOP_FAULT || stop == CY_STOP_CYCLE_LIMIT)
		json_string(f, cy_vm_stop_message(vm), strlen(cy_vm_stop_message(vm)));
	else
		fputs("null", f);
	fputs(",\n  \"cycle_tracker\": ", f);
	json_tracker(f, e, n_entries, "  ");
	fputs(",\n  \"cycle_tracker_report\": ", f);
	json_tracker_report(f, e, n_entries, "  ");

	s = cy_vm_tracker_spans(vm, &n_spans);
	fputs(",\n  \"spans\": [", f);
	for (size_t i = 0; i < n_spans; i++) {
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_string(f, s[i].name, s[i].name_len);
		fprintf(f,
			", \"depth\": %u, \"parent\": %d, \"count\": %llu, \"total\": %llu, "
			"\"min\": %llu, \"max\": %llu, \"open\": %s}",
			s[i].depth, s[i].parent, (unsigned long long)s[i].count,
			(unsigned long long)s[i].total, (unsigned long long)s[i].min,
			(unsigned long long)s[i].max, s[i].open ? "true" : "false");
	}
	fputs(n_spans ? "\n  ],\n" : "],\n", f);

	is = cy_vm_tracker_issues(vm, &n_issues);
	fputs("  \"warnings\": [", f);
	for (size_t i = 0; i < n_issues; i++) {
		fprintf(f, "%s\n    {\"kind\": \"%s\", \"name\": ", i ? "," : "",
			issue_name(is[i].kind));
		json_string(f, is[i].name, is[i].name_len);
		fprintf(f, ", \"count\": %llu, \"cycle\": %llu}", (unsigned long long)is[i].count,
			(unsigned long long)is[i].cycle);
	}
	fputs(n_issues ? "\n  ],\n" : "],\n", f);
	report_json_counters(f, vm);

	fflush(r->chunks);
	fputs("  \"chunks\": [", f);
	fwrite(r->text, 1, r->text_len, f);
	fputs(r->n_chunks ? "\n  ]\n}\n" : "]\n}\n", f);
}

int report_write(struct report *r, const char *path, const char *program, cy_vm *vm, int status,
		 char *err, size_t err_size)
{
	size_t len = strlen(path);
	char *tmp = malloc(len + sizeof(".XXXXXX"));
	mode_t mask;
	FILE *f;
	int fd, rc;

	if (!tmp || r->failed) {
		rc = -ENOMEM;
		goto out_free;
	}
	memcpy(tmp, path, len);
	memcpy(tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		goto out_free;
	}
	if (!(f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		goto out_unlink;
	}
	/* mkstemp makes it 0600; a report is an ordinary file */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	write_body(f, r, program, vm, status);
	if (fflush(f) != 0 || ferror(f) || fsync(fd) != 0) {
		rc = errno ? -errno : -EIO;
		fclose(f);
		goto out_unlink;
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		rc = errno ? -errno : -EIO;
		goto out_unlink;
	}
	free(tmp);
	return 0;
out_unlink:
	unlink(tmp);
out_free:
	snprintf(err, err_size, "cannot write the report to '%s': %s", path, strerror(-rc));
	free(tmp);
	return rc;
}
