/* cost_model.c - reads cost model files and finds them by name.
 * A model file is lines of "key value..." with # comments; every mistake is
 * reported with the file, the line and the reason (docs/cost-models.md). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/isa.h"
#include "cost/model.h"
#include "util/file.h"

#define MODEL_SUFFIX    ".model"
#define MODEL_FILE_MAX  (64 * 1024)
#define SEGMENT_PO2_MIN 13
#define SEGMENT_PO2_MAX 24

static const char *const class_keys[CY_CLASS_COUNT] = {
#define CLASS_KEY(id, name) name,
	CY_CLASS_LIST(CLASS_KEY)
#undef CLASS_KEY
};

void cost_model_unit(struct cost_model *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "unit");
	snprintf(m->description, sizeof(m->description),
		 "Every instruction costs 1 cycle, ecall included (the Pico/SP1 clock)");
	for (int i = 0; i < CY_CLASS_COUNT; i++)
		m->class_cost[i] = 1;
	m->class_cost[CY_CLASS_NONE] = 0;
	m->branch_taken = 1;
	m->div_by_zero = 1;
	m->fast_data_hi = UINT32_MAX;
	m->fast_code_hi = UINT32_MAX;
}

bool cost_model_is_detailed(const struct cost_model *m)
{
	return m->paging || m->data_wait_states || m->misaligned_extra || cost_model_has_rows(m);
}

uint64_t cost_model_segment_capacity(const struct cost_model *m)
{
	uint64_t size = UINT64_C(1) << m->segment_po2;
	uint64_t fixed = (uint64_t)m->segment_margin + m->segment_reserved + m->segment_paging;

	return size > fixed ? size - m->segment_margin : 0;
}

struct parser {
	const char *path;
	int line;
	char *err;
	size_t err_size;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->err_size, "%s:%d: %s", p->path, p->line, why);
	return -EINVAL;
}

/* Parses a non-negative number (decimal or 0x hex) no larger than max. */
static int number(struct parser *p, const char *key, const char *word, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!word)
		return fail(p, "'%s' needs a value", key);
	if (word[0] == '-')
		return fail(p, "'%s' cannot be negative (%s)", key, word);
	errno = 0;
	v = strtoull(word, &end, 0);
	if (errno || *end || end == word)
		return fail(p, "'%s' is not a number for '%s'", word, key);
	if (v > max)
		return fail(p, "'%s' %s is too large (at most %" PRIu64 ")", key, word, max);
	*out = v;
	return 0;
}

static int set_u16(struct parser *p, const char *key, const char *word, uint16_t *out)
{
	uint64_t v;
	int rc = number(p, key, word, UINT16_MAX, &v);

	if (rc == 0)
		*out = (uint16_t)v;
	return rc;
}

static int set_u32(struct parser *p, const char *key, const char *word, uint32_t *out)
{
	uint64_t v;
	int rc = number(p, key, word, UINT32_MAX, &v);

	if (rc == 0)
		*out = (uint32_t)v;
	return rc;
}

static int set_range(struct parser *p, const char *key, char **words, uint32_t *lo, uint32_t *hi)
{
	int rc = set_u32(p, key, words[1], lo);

	if (rc == 0)
		rc = set_u32(p, key, words[2], hi);
	if (rc == 0 && *lo > *hi)
		return fail(p, "'%s' range is empty (0x%x > 0x%x)", key, *lo, *hi);
	return rc;
}

/* The rest of the line after the key, for free text. */
static const char *text_after_key(const char *line)
{
	while (*line && !isspace((unsigned char)*line))
		line++;
	while (isspace((unsigned char)*line))
		line++;
	return line;
}

struct seen {
	bool branch_taken, div_by_zero;
};

static int parse_line(struct parser *p, struct cost_model *m, char *line, struct seen *seen)
{
	char *words[5] = { 0 }, *save = NULL, *copy = strdup(line);
	const char *key;
	int n = 0, rc = 0;

	if (!copy)
		return fail(p, "out of memory");
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save), n++)
		if (n < 5)
			words[n] = w;
	key = words[0];
	/* a word past a key's values is a mistake, not a comment */
	if (strcmp(key, "description") != 0 && strcmp(key, "source") != 0) {
		int want =
		    strcmp(key, "syscall") == 0 ? 4
		    : strcmp(key, "cost") == 0 || strcmp(key, "insn") == 0 || strstr(key, "-memory")
			? 3
			: 2;
		if (n > want) {
			rc = fail(p, "'%s' takes %d value%s; '%s' is one too many", key, want - 1,
				  want > 2 ? "s" : "", words[want]);
			free(copy);
			return rc;
		}
	}
	if (strcmp(key, "description") == 0 || strcmp(key, "source") == 0) {
		const char *text = text_after_key(line);
		if (!*text)
			rc = fail(p, "'%s' needs a value", key);
		else if (key[0] == 'd')
			snprintf(m->description, sizeof(m->description), "%s", text);
		else
			snprintf(m->source, sizeof(m->source), "%s", text);
	} else if (strcmp(key, "cost") == 0) {
		int cls = -1;
		for (int i = 0; i < CY_CLASS_COUNT && words[1]; i++)
			if (i != CY_CLASS_NONE && strcmp(words[1], class_keys[i]) == 0)
				cls = i;
		if (!words[1])
			rc = fail(p, "'cost' needs a class and a value");
		else if (cls < 0)
			rc = fail(p, "unknown instruction class '%s'", words[1]);
		else if ((rc = set_u16(p, words[1], words[2], &m->class_cost[cls])) == 0 &&
			 m->class_cost[cls] == 0)
			/* a loop of free instructions would never move the clock */
			rc = fail(p, "'cost %s' must be at least 1 cycle", words[1]);
	} else if (strcmp(key, "insn") == 0) {
		int op = -1;
		for (int i = 0; i < OP_COUNT && words[1]; i++)
			if (insn_classes[i] != CY_CLASS_NONE &&
			    strcmp(words[1], insn_names[i]) == 0)
				op = i;
		if (!words[1])
			rc = fail(p, "'insn' needs an instruction and a value");
		else if (op < 0)
			rc = fail(p, "unknown instruction '%s'", words[1]);
		else if (insn_classes[op] == CY_CLASS_BRANCH)
			/* a taken branch's cost is the class's (branch-taken) */
			rc = fail(p, "'insn %s': a branch costs its class's (cost branch)",
				  words[1]);
		else if ((rc = set_u16(p, words[1], words[2], &m->insn_cost[op])) == 0 &&
			 m->insn_cost[op] == 0)
			rc = fail(p, "'insn %s' must be at least 1 cycle", words[1]);
	} else if (strcmp(key, "syscall") == 0) {
		struct cost_syscall *c = &m->syscalls[m->n_syscalls];
		if (!words[1])
			rc = fail(p, "'syscall' needs a name and a value");
		else if (strlen(words[1]) >= sizeof(c->name))
			rc = fail(p, "syscall name '%s' is too long", words[1]);
		else if (m->n_syscalls == COST_MAX_SYSCALLS)
			rc = fail(p, "more than %d syscall costs", COST_MAX_SYSCALLS);
		else if ((rc = set_u32(p, key, words[2], &c->cycles)) == 0 &&
			 (!words[3] || (rc = set_u32(p, key, words[3], &c->per_unit)) == 0)) {
			snprintf(c->name, sizeof(c->name), "%s", words[1]);
			m->n_syscalls++;
		}
	} else if (strcmp(key, "branch-taken") == 0) {
		rc = set_u16(p, key, words[1], &m->branch_taken);
		seen->branch_taken = true;
	} else if (strcmp(key, "div-by-zero") == 0) {
		rc = set_u16(p, key, words[1], &m->div_by_zero);
		seen->div_by_zero = true;
	} else if (strcmp(key, "misaligned-extra") == 0) {
		rc = set_u16(p, key, words[1], &m->misaligned_extra);
	} else if (strcmp(key, "fast-data-memory") == 0) {
		rc = set_range(p, key, words, &m->fast_data_lo, &m->fast_data_hi);
	} else if (strcmp(key, "data-wait-states") == 0) {
		rc = set_u16(p, key, words[1], &m->data_wait_states);
	} else if (strcmp(key, "fast-code-memory") == 0) {
		rc = set_range(p, key, words, &m->fast_code_lo, &m->fast_code_hi);
	} else if (strcmp(key, "fetch-wait-states") == 0) {
		rc = set_u16(p, key, words[1], &m->fetch_wait_states);
	} else if (strcmp(key, "paging") == 0) {
		if (!words[1])
			rc = fail(p, "'paging' needs a value (on or off)");
		else if (strcmp(words[1], "on") == 0 || strcmp(words[1], "off") == 0)
			m->paging = words[1][1] == 'n';
		else
			rc = fail(p, "'paging' is on or off, not '%s'", words[1]);
	} else if (strcmp(key, "page-size") == 0) {
		rc = set_u32(p, key, words[1], &m->page_size);
		if (rc == 0 && (m->page_size < 4 || (m->page_size & (m->page_size - 1))))
			rc = fail(p, "'page-size' must be a power of two >= 4");
	} else if (strcmp(key, "page-in") == 0) {
		rc = set_u32(p, key, words[1], &m->page_in);
	} else if (strcmp(key, "merkle-node") == 0) {
		rc = set_u32(p, key, words[1], &m->merkle_node);
	} else if (strcmp(key, "merkle-depth") == 0) {
		uint64_t v;
		rc = number(p, key, words[1], 30, &v);
		m->merkle_depth = (uint32_t)v;
	} else if (strcmp(key, "segment-po2") == 0) {
		uint64_t v;
		rc = number(p, key, words[1], SEGMENT_PO2_MAX, &v);
		if (rc == 0 && v < SEGMENT_PO2_MIN)
			rc = fail(p, "'segment-po2' must be %d..%d", SEGMENT_PO2_MIN,
				  SEGMENT_PO2_MAX);
		m->segment_po2 = (uint32_t)v;
	} else if (strcmp(key, "segment-margin") == 0) {
		rc = set_u32(p, key, words[1], &m->segment_margin);
	} else if (strcmp(key, "segment-reserved") == 0) {
		rc = set_u32(p, key, words[1], &m->segment_reserved);
	} else if (strcmp(key, "segment-paging") == 0) {
		rc = set_u32(p, key, words[1], &m->segment_paging);
	} else if (strcmp(key, "memory-touch") == 0) {
		rc = set_u32(p, key, words[1], &m->memory_touch);
	} else if (strcmp(key, "memory-chunk") == 0) {
		rc = number(p, key, words[1], UINT64_MAX, &m->memory_chunk);
	} else if (strcmp(key, "clock-bump") == 0) {
		rc = set_u32(p, key, words[1], &m->clock_bump);
	} else if (strcmp(key, "state-bump") == 0) {
		rc = set_u32(p, key, words[1], &m->state_bump);
	} else {
		rc = fail(p, "unknown key '%s'", key);
	}
	free(copy);
	return rc;
}

/* Checks that a paging model's numbers fit together. */
static int check_paging(struct parser *p, struct cost_model *m)
{
	uint64_t pages;

	if (!m->paging)
		return 0;
	p->line = 0;
	if (!m->page_size || !m->merkle_depth || !m->segment_po2)
		return fail(p, "paging needs page-size, merkle-depth and segment-po2");
	pages = (UINT64_C(1) << 32) / m->page_size;
	if ((UINT64_C(1) << m->merkle_depth) < pages)
		return fail(p, "a Merkle tree of depth %u cannot hold %" PRIu64 " pages",
			    m->merkle_depth, pages);
	if (!cost_model_segment_capacity(m))
		return fail(p, "segments of 2^%u cycles leave no room after the margin %u",
			    m->segment_po2, m->segment_margin);
	return 0;
}

int cost_model_parse(struct cost_model *m, const char *text, const char *path, char *err,
		     size_t err_size)
{
	struct parser p = { path, 0, err, err_size };
	struct seen seen = { false, false };
	const char *base = strrchr(path, '/');
	size_t len;

	cost_model_unit(m);
	m->description[0] = 0;
	snprintf(m->name, sizeof(m->name), "%s", base ? base + 1 : path);
	len = strlen(m->name);
	if (len > strlen(MODEL_SUFFIX) &&
	    strcmp(m->name + len - strlen(MODEL_SUFFIX), MODEL_SUFFIX) == 0)
		m->name[len - strlen(MODEL_SUFFIX)] = 0;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		char line[512];
		char *s, *e;
		int rc;

		p.line++;
		if (n >= sizeof(line))
			return fail(&p, "line longer than %zu characters", sizeof(line) - 1);
		memcpy(line, text, n);
		line[n] = 0;
		text += n + (nl ? 1 : 0);
		if ((s = strchr(line, '#')) != NULL)
			*s = 0;
		for (s = line; isspace((unsigned char)*s); s++)
			;
		for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
			e[-1] = 0;
		if (!*s)
			continue;
		for (char *c = s; *c; c++)
			if (iscntrl((unsigned char)*c) && *c != '\t')
				return fail(&p, "control character in the line");
		rc = parse_line(&p, m, s, &seen);
		if (rc != 0)
			return rc;
	}
	if (!seen.branch_taken)
		m->branch_taken = m->class_cost[CY_CLASS_BRANCH];
	if (!seen.div_by_zero)
		m->div_by_zero = m->class_cost[CY_CLASS_DIV];
	if (m->branch_taken < m->class_cost[CY_CLASS_BRANCH]) {
		p.line = 0;
		return fail(&p, "branch-taken (%u) is less than the not-taken cost (%u)",
			    m->branch_taken, m->class_cost[CY_CLASS_BRANCH]);
	}
	return check_paging(&p, m);
}

static int read_text(const char *path, char **out, char *err, size_t err_size)
{
	static const struct file_rules rules = { .max = MODEL_FILE_MAX };
	char why[200];
	void *data;
	size_t n;
	int rc = file_read(path, &rules, &data, &n, why, sizeof(why));

	if (rc != 0) {
		snprintf(err, err_size, "%s: %s", path, why);
		return rc;
	}
	if (memchr(data, 0, n)) {
		free(data);
		snprintf(err, err_size, "%s: not a text file", path);
		return -EINVAL;
	}
	((char *)data)[n] = 0;
	*out = data;
	return 0;
}

static int load_path(struct cost_model *m, const char *path, char *err, size_t err_size)
{
	char *text = NULL;
	int rc = read_text(path, &text, err, err_size);

	if (rc == 0) {
		rc = cost_model_parse(m, text, path, err, err_size);
		free(text);
	}
	return rc;
}

/* The model directories: $CYCLOPS_MODELS (':'-separated), else models/ next
 * to the program's directory (build/../models) or its share/ folder. */
static int model_dirs(char dirs[][PATH_MAX], int max)
{
	const char *env = getenv("CYCLOPS_MODELS");
	char exe[PATH_MAX];
	ssize_t len;
	int n = 0;

	if (env && *env) {
		const char *s = env;
		while (*s && n < max) {
			size_t k = strcspn(s, ":");
			if (k > 0 && k < PATH_MAX)
				snprintf(dirs[n++], PATH_MAX, "%.*s", (int)k, s);
			s += k + (s[k] == ':');
		}
		return n;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return 0;
	exe[len] = 0;
	/* the directory above the program's (build/cyclops, PREFIX/bin/cyclops),
	 * named without "..", so that cyclops models shows plain paths */
	for (int up = 0; up < 2; up++) {
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
	}
	if (n < max)
		snprintf(dirs[n++], PATH_MAX, "%.*s/models", PATH_MAX - 16, exe);
	if (n < max)
		snprintf(dirs[n++], PATH_MAX, "%.*s/share/cyclops/models", PATH_MAX - 32, exe);
	return n;
}

#define MAX_DIRS 8

int cost_model_load(struct cost_model *m, const char *name, char *err, size_t err_size)
{
	char dirs[MAX_DIRS][PATH_MAX], path[PATH_MAX + 80];
	size_t len = strlen(name);
	int n;

	if (strchr(name, '/') || (len > strlen(MODEL_SUFFIX) &&
				  strcmp(name + len - strlen(MODEL_SUFFIX), MODEL_SUFFIX) == 0))
		return load_path(m, name, err, err_size);
	if (strcmp(name, "unit") == 0) {
		/* built in, so the default never depends on finding files */
		cost_model_unit(m);
		return 0;
	}
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.') {
			snprintf(err, err_size, "'%s' is not a model name", name);
			return -EINVAL;
		}
	n = model_dirs(dirs, MAX_DIRS);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dirs[i], name, MODEL_SUFFIX);
		if (access(path, R_OK) == 0)
			return load_path(m, path, err, err_size);
	}
	snprintf(err, err_size, "no cost model '%s' (see cyclops models)", name);
	return -ENOENT;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cost_model_list(void (*fn)(void *ctx, const struct cost_model *m, const char *path), void *ctx,
		    char *err, size_t err_size)
{
	char dirs[MAX_DIRS][PATH_MAX];
	int n = model_dirs(dirs, MAX_DIRS), found = 0;

	for (int i = 0; i < n; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;
		char *names[256];
		int count = 0;

		if (!d)
			continue;
		while ((e = readdir(d)) != NULL && count < 256) {
			size_t len = strlen(e->d_name);
			if (len > strlen(MODEL_SUFFIX) &&
			    strcmp(e->d_name + len - strlen(MODEL_SUFFIX), MODEL_SUFFIX) == 0)
				names[count++] = strdup(e->d_name);
		}
		closedir(d);
		qsort(names, (size_t)count, sizeof(*names), by_name);
		for (int j = 0; j < count; j++) {
			char path[PATH_MAX + 300];
			struct cost_model m;
			char why[300];
			cost_model_unit(&m);
			snprintf(m.name, sizeof(m.name), "%.*s",
				 (int)(strlen(names[j]) - strlen(MODEL_SUFFIX)), names[j]);
			if (!names[j])
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], names[j]);
			free(names[j]);
			if (load_path(&m, path, why, sizeof(why)) != 0)
				snprintf(m.description, sizeof(m.description), "(broken: %s)", why);
			fn(ctx, &m, path);
			found++;
		}
		if (found)
			return found; /* the first directory with models wins */
	}
	snprintf(err, err_size, "no model directory found (set CYCLOPS_MODELS)");
	return found ? found : -ENOENT;
}
