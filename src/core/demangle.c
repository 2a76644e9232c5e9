/* demangle.c - the readable form of C++ and Rust symbol names (libiberty),
 * within bounds: a name comes from an ELF that may be hostile, and a short
 * one can ask libiberty for gigabytes of output or hours of work
 * (docs/robustness.md#symbol-names). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "cyclops.h"

/* The longest name given to the demangler and the longest readable form
 * kept; past either, the mangled name is shown. */
#define DEMANGLE_MAX  CY_DEMANGLE_MAX
#define DEMANGLE_OPTS (DMGL_PARAMS | DMGL_ANSI)

struct demangled {
	char text[DEMANGLE_MAX + 1];
	size_t len;
	jmp_buf too_long;
};

/* libiberty's callback has no way to stop the demangler, whose output can
 * grow exponentially with the name (C++ substitutions, Rust back-
 * references); leaving by longjmp is the only way to bound its work too.
 * The C++ demangler allocates nothing on the heap in its callback form.
 * The Rust one does, to decode Punycode, but never gets here with a Rust
 * name: a legacy one prints at most its own length, and a v0 one is
 * walked first (below). */
static void demangled_put(const char *s, size_t n, void *ctx)
{
	struct demangled *d = ctx;

	if (n > DEMANGLE_MAX - d->len)
		longjmp(d->too_long, 1);
	if (n == 0) /* libiberty passes NULL with an empty piece ("_RC0") */
		return;
	memcpy(d->text + d->len, s, n);
	d->len += n;
}

/* Rust v0 names (_R...) are walked before libiberty sees them, to bound
 * what it would print. A callback cannot bound all of its work: it goes
 * through the lifetimes of a "for<...>" binder one by one, also where it
 * prints nothing (an impl's own path, the instantiating crate), and a
 * 29-byte name can hold a count of 62^7 of them. The walk follows
 * libiberty's rust-demangle.c production by production and adds up the
 * most each could print, the parts it does not print included; every
 * production is walked once per kind and position (a back-reference
 * reuses the earlier result), so the walk is linear in the name where
 * libiberty's output is not. What the walk cannot follow (a back-reference
 * forward or into itself, nesting past V0_DEPTH_MAX) is left mangled:
 * libiberty fails on most of it too, and rustc writes none of it. */
enum v0_kind { V0_PATH, V0_TYPE, V0_CONST, V0_TRAIT, V0_KINDS };
enum v0_state { V0_UNSEEN, V0_WALKING, V0_DONE };

#define V0_DEPTH_MAX 256                /* nesting walked; libiberty gives up at 1024 */
#define V0_TOO_LONG  (DEMANGLE_MAX + 1) /* bounds saturate here */
/* the longest of libiberty's pieces: a lifetime ("'_" and a 64-bit
 * number), a 64-bit number, and what "N" adds around a name in a special
 * namespace ("::{closure:" NAME "#" NUMBER "}") */
#define V0_LIFETIME 22
#define V0_NUMBER   20
#define V0_NS_EXTRA (sizeof("::{closure:#}") - 1 + V0_NUMBER)

struct v0_memo {
	uint16_t len, end; /* the bound and where the production ends */
	uint8_t state;
};
_Static_assert(V0_TOO_LONG <= UINT16_MAX && DEMANGLE_MAX <= UINT16_MAX,
	       "v0_memo holds bounds and positions in 16 bits");

struct v0_walk {
	const char *s; /* after "_R", as libiberty counts back-references */
	size_t n, at;
	unsigned depth;
	bool bad;
	struct v0_memo *memo; /* n * V0_KINDS */
};

static size_t v0_production(struct v0_walk *w, enum v0_kind kind);

static size_t sat(size_t a, size_t b) { return a + b < V0_TOO_LONG ? a + b : V0_TOO_LONG; }

static bool v0_eat(struct v0_walk *w, char c)
{
	if (w->at < w->n && w->s[w->at] == c) {
		w->at++;
		return true;
	}
	return false;
}

static char v0_next(struct v0_walk *w)
{
	if (w->at >= w->n) {
		w->bad = true;
		return 0;
	}
	return w->s[w->at++];
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

/* "_" is 0, base-62 digits and "_" their value + 1, wrapping at 2^64 as
 * libiberty's does (crate disambiguators are 64-bit hashes). */
static uint64_t v0_int62(struct v0_walk *w)
{
	uint64_t x = 0;

	if (v0_eat(w, '_'))
		return 0;
	while (!w->bad && !v0_eat(w, '_')) {
		char c = v0_next(w);
		if (is_digit(c))
			x = x * 62 + (uint64_t)(c - '0');
		else if (is_lower(c))
			x = x * 62 + 10 + (uint64_t)(c - 'a');
		else if (is_upper(c))
			x = x * 62 + 36 + (uint64_t)(c - 'A');
		else
			w->bad = true;
	}
	return x + 1;
}

static void v0_disambiguator(struct v0_walk *w)
{
	if (v0_eat(w, 's'))
		v0_int62(w);
}

/* ["u"] length ["_"] bytes; in Punycode ("u") each byte may become a code
 * point of up to 4 bytes. */
static size_t v0_ident(struct v0_walk *w)
{
	bool punycode = v0_eat(w, 'u');
	char c = v0_next(w);
	size_t len;

	if (!is_digit(c)) {
		w->bad = true;
		return 0;
	}
	len = (size_t)(c - '0');
	while (c != '0' && w->at < w->n && is_digit(w->s[w->at])) {
		len = len * 10 + (size_t)(w->s[w->at++] - '0');
		if (len > w->n) {
			w->bad = true;
			return 0;
		}
	}
	v0_eat(w, '_');
	if (len > w->n - w->at) {
		w->bad = true;
		return 0;
	}
	w->at += len;
	return punycode ? 4 * len : len;
}

/* "B" base-62: the production of the same kind at an earlier position,
 * printed again in full (at: where the "B" is). */
static size_t v0_backref(struct v0_walk *w, enum v0_kind kind, size_t at)
{
	uint64_t to = v0_int62(w);
	size_t back = w->at, len;

	if (w->bad || to >= at) { /* libiberty takes later ones too: they loop */
		w->bad = true;
		return 0;
	}
	w->at = (size_t)to;
	len = v0_production(w, kind);
	w->at = back;
	return len;
}

/* "G" base-62: "for<'a, 'b, ...> " with that many lifetimes */
static size_t v0_binder(struct v0_walk *w)
{
	uint64_t n;

	if (!v0_eat(w, 'G'))
		return 0;
	n = v0_int62(w) + 1;
	if (n == 0 || n > DEMANGLE_MAX) /* 0: 2^64 of them */
		return V0_TOO_LONG;
	return sat(sizeof("for<> ") - 1, (size_t)n * (V0_LIFETIME + sizeof(", ") - 1));
}

/* Generic arguments (lifetimes, constants, types) up to "E", and the
 * ", " between them. */
static size_t v0_generic_args(struct v0_walk *w)
{
	size_t len = 0;

	for (bool first = true; !w->bad && !v0_eat(w, 'E'); first = false) {
		len = sat(len, first ? 0 : 2);
		if (v0_eat(w, 'L')) {
			v0_int62(w);
			len = sat(len, V0_LIFETIME);
		} else if (v0_eat(w, 'K')) {
			len = sat(len, v0_production(w, V0_CONST));
		} else {
			len = sat(len, v0_production(w, V0_TYPE));
		}
	}
	return len;
}

/* Types up to "E", and the ", " between them; *n: how many. */
static size_t v0_types(struct v0_walk *w, size_t *n)
{
	size_t len = 0;

	for (*n = 0; !w->bad && !v0_eat(w, 'E'); ++*n)
		len = sat(len, sat(v0_production(w, V0_TYPE), *n ? 2 : 0));
	return len;
}

static size_t v0_path(struct v0_walk *w)
{
	size_t at = w->at, len = 0;
	char tag = v0_next(w), ns;

	switch (tag) {
	case 'C': /* crate root */ v0_disambiguator(w); return v0_ident(w);
	case 'N': /* a name in a namespace of a path */
		ns = v0_next(w);
		if (!is_lower(ns) && !is_upper(ns)) {
			w->bad = true;
			return 0;
		}
		len = v0_production(w, V0_PATH);
		v0_disambiguator(w);
		return sat(len, sat(v0_ident(w), V0_NS_EXTRA));
	case 'M': /* <T>, <T as Trait>: the impl's own path is walked, not printed */
	case 'X':
		v0_disambiguator(w);
		len = v0_production(w, V0_PATH);
		/* fall through */
	case 'Y':
		len = sat(len, v0_production(w, V0_TYPE));
		if (tag != 'M')
			len = sat(len, v0_production(w, V0_PATH));
		return sat(len, sizeof("< as >") - 1);
	case 'I': /* path::<generic args> */
		len = v0_production(w, V0_PATH);
		return sat(len, sat(v0_generic_args(w), sizeof("::<>") - 1));
	case 'B': return v0_backref(w, V0_PATH, at);
	default: w->bad = true; return 0;
	}
}

/* The path of a dyn type's trait; its "<..." stays open for the
 * associated types after it (libiberty's
 * demangle_path_maybe_open_generics). */
static size_t v0_trait(struct v0_walk *w)
{
	size_t at = w->at, len;

	if (v0_eat(w, 'B'))
		return v0_backref(w, V0_TRAIT, at);
	if (!v0_eat(w, 'I'))
		return v0_production(w, V0_PATH);
	len = v0_production(w, V0_PATH); /* then "<" and the arguments */
	return sat(len, sat(v0_generic_args(w), 1));
}

/* A dyn type's trait with its associated types ("p" name type), in
 * "<...>" with ", " and " = ". */
static size_t v0_dyn_trait(struct v0_walk *w)
{
	size_t len = v0_production(w, V0_TRAIT);

	while (!w->bad && v0_eat(w, 'p')) {
		len = sat(len, v0_ident(w));
		len =
		    sat(len, sat(v0_production(w, V0_TYPE), sizeof(", ") - 1 + sizeof(" = ") - 1));
	}
	return sat(len, 1);
}

static size_t v0_type(struct v0_walk *w)
{
	size_t at = w->at, len = 0, n;
	char tag = v0_next(w);

	/* the basic types: bool, char, str, (), i8 ... usize, f32, f64, !, _, ... */
	static const char basic[] = "bceuaslxnihtmyojfdzpv";
	static const uint8_t basic_len[] = { 4, 4, 3, 2, 2, 3, 3, 3, 4, 5, 2,
					     3, 3, 3, 4, 5, 3, 3, 1, 1, 3 };
	_Static_assert(sizeof(basic_len) == sizeof(basic) - 1, "a length per basic type");

	if (tag && strchr(basic, tag))
		return basic_len[strchr(basic, tag) - basic];
	switch (tag) {
	case 'R': /* &'a mut T */
	case 'Q':
		if (v0_eat(w, 'L')) {
			v0_int62(w);
			len = V0_LIFETIME + 1;
		}
		return sat(len, sat(v0_production(w, V0_TYPE), sizeof("&mut ") - 1));
	case 'P': /* *const T, *mut T */
	case 'O': return sat(v0_production(w, V0_TYPE), sizeof("*const ") - 1);
	case 'A': /* [T; N], [T] */
	case 'S':
		len = sat(v0_production(w, V0_TYPE), sizeof("[; ]") - 1);
		return tag == 'A' ? sat(len, v0_production(w, V0_CONST)) : len;
	case 'T': /* (A, B), (A,) */ len = v0_types(w, &n); return sat(len, n == 1 ? 3 : 2);
	case 'F': /* for<...> unsafe extern "abi" fn(...) -> T */
		len = v0_binder(w);
		if (v0_eat(w, 'U'))
			len = sat(len, sizeof("unsafe ") - 1);
		if (v0_eat(w, 'K'))
			len = sat(
			    len, sat(v0_eat(w, 'C') ? 1 : v0_ident(w), sizeof("extern \"\" ") - 1));
		len = sat(len, sat(v0_types(w, &n), sizeof("fn() -> ") - 1));
		return v0_eat(w, 'u') ? len : sat(len, v0_production(w, V0_TYPE));
	case 'D': /* dyn for<...> Trait + Trait + 'a */
		len = sat(v0_binder(w), sizeof("dyn ") - 1);
		while (!w->bad && !v0_eat(w, 'E'))
			len = sat(len, sat(v0_dyn_trait(w), sizeof(" + ") - 1));
		if (!v0_eat(w, 'L'))
			w->bad = true;
		v0_int62(w);
		return sat(len, sizeof(" + ") - 1 + V0_LIFETIME);
	case 'B': return v0_backref(w, V0_TYPE, at);
	default: /* a named type: a path */ w->at = at; return v0_production(w, V0_PATH);
	}
}

/* Hex digits up to "_"; their count, at least min and at most max. */
static size_t v0_hex(struct v0_walk *w, size_t min, size_t max)
{
	size_t n = 0;

	while (!w->bad && !v0_eat(w, '_')) {
		char c = v0_next(w);
		if (!is_digit(c) && !(c >= 'a' && c <= 'f'))
			w->bad = true;
		n++;
	}
	if (n < min || n > max)
		w->bad = true;
	return n;
}

static size_t v0_const(struct v0_walk *w)
{
	size_t at = w->at, n;
	char tag;

	if (v0_eat(w, 'B'))
		return v0_backref(w, V0_CONST, at);
	tag = v0_next(w);
	if (tag == 'p') /* a placeholder, "_" */
		return 1;
	if (tag && strchr("htmyoj", tag)) { /* unsigned: decimal, or 0x and the digits */
		n = v0_hex(w, 1, SIZE_MAX);
		return n + 2 > V0_NUMBER ? sat(n, 2) : V0_NUMBER;
	}
	if (tag && strchr("aslxni", tag)) { /* signed: "-" and the same */
		v0_eat(w, 'n');
		n = v0_hex(w, 1, SIZE_MAX);
		return n + 2 > V0_NUMBER ? sat(n, 3) : V0_NUMBER + 1;
	}
	if (tag == 'b') { /* "false" */
		v0_hex(w, 1, 1);
		return sizeof("false") - 1;
	}
	if (tag == 'c') { /* "'\u{10ffff}'", longer for values past Unicode */
		v0_hex(w, 1, 8);
		return sizeof("'\\u{ffffffff}'") - 1;
	}
	w->bad = true;
	return 0;
}

/* Walks the production of this kind at w->at once; a second visit takes
 * the bound and the end from the first. */
static size_t v0_production(struct v0_walk *w, enum v0_kind kind)
{
	size_t at = w->at, len = 0;
	struct v0_memo *m;

	if (w->bad || at >= w->n || w->depth >= V0_DEPTH_MAX) {
		w->bad = true;
		return 0;
	}
	m = &w->memo[at * V0_KINDS + kind];
	if (m->state == V0_WALKING) { /* a back-reference into itself */
		w->bad = true;
		return 0;
	}
	if (m->state == V0_DONE) {
		w->at = m->end;
		return m->len;
	}
	m->state = V0_WALKING;
	w->depth++;
	switch (kind) {
	case V0_PATH: len = v0_path(w); break;
	case V0_TYPE: len = v0_type(w); break;
	case V0_CONST: len = v0_const(w); break;
	default: len = v0_trait(w); break;
	}
	w->depth--;
	*m = (struct v0_memo){ (uint16_t)len, (uint16_t)w->at, V0_DONE };
	return len;
}

/* Whether libiberty may demangle this Rust v0 name: it is one (libiberty
 * refuses the others itself) and what it prints is at most DEMANGLE_MAX. */
static bool v0_bounded(const char *name)
{
	struct v0_walk w = { .s = name + 2 };
	size_t len;
	bool ok;

	/* only [_0-9a-zA-Z], up to a "." suffix libiberty ignores */
	while (w.s[w.n] && w.s[w.n] != '.') {
		char c = w.s[w.n++];
		if (c != '_' && !is_digit(c) && !is_lower(c) && !is_upper(c))
			return false;
	}
	if (!w.n || !is_upper(w.s[0]))
		return false;
	w.memo = calloc(w.n * V0_KINDS, sizeof(*w.memo));
	if (!w.memo)
		return false;
	len = v0_production(&w, V0_PATH);
	/* the instantiating crate: not printed, but libiberty goes through its
	 * binders all the same */
	if (!w.bad && w.at < w.n)
		len = sat(len, v0_production(&w, V0_PATH));
	ok = !w.bad && w.at == w.n && len <= DEMANGLE_MAX;
	free(w.memo);
	return ok;
}

char *cy_demangle(const char *name)
{
	struct demangled *d;
	volatile int ok = 0; /* set between setjmp and a longjmp */
	char *readable = NULL;

	/* C++ (Itanium ABI) names start with _Z, Rust's with _ZN (legacy, with
	 * a hash that libiberty drops) or _R (v0); leave everything else */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R') ||
	    strnlen(name, DEMANGLE_MAX + 1) > DEMANGLE_MAX)
		return NULL;
	if (name[1] == 'R' && !v0_bounded(name))
		return NULL;
	d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	d->len = 0;
	if (setjmp(d->too_long) == 0) {
		/* as cplus_demangle does: Rust first, as legacy Rust names are
		 * also C++ names (with the hash as a last component) */
		ok = rust_demangle_callback(name, DEMANGLE_OPTS, demangled_put, d);
		if (!ok && name[1] == 'Z') {
			d->len = 0;
			ok = cplus_demangle_v3_callback(name, DEMANGLE_OPTS, demangled_put, d);
		}
	}
	if (ok && d->len) {
		d->text[d->len] = '\0';
		readable = strdup(d->text);
	}
	free(d);
	return readable;
}
