/* test_demangle.c - cy_demangle's bounds (docs/robustness.md#symbol-names):
 * names whose readable form fits in 4096 bytes come out as libiberty
 * writes them, longer ones and names that would blow up stay mangled, and
 * no name takes more than a moment or a few MB. The hostile names are
 * built here from the grammars (the Rust v0 mangling RFC 2603, the Itanium
 * C++ ABI), their expected forms derived from the same rules.
 * Prints "ok - ..." / "not ok - ...". */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cyclops.h"
#include "unit_check.h"

/* each name is demangled by a child held to these */
#define CPU_SECONDS 1
#define AS_BYTES    (256L * 1024 * 1024)
#define RSS_KB_MAX  (16 * 1024)

/* AddressSanitizer reserves terabytes of shadow at start, so the sanitizer
 * run cannot cap the address space: there the CPU limit and the growth of
 * the peak RSS still catch a demangler that blows up. */
#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_LIMIT 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDRESS_LIMIT 0
#endif
#endif
#ifndef ADDRESS_LIMIT
#define ADDRESS_LIMIT 1
#endif

/* A Rust v0 base-62 number: "_" for 0, else the digits of n - 1 and "_". */
static void b62(char *out, uint64_t n)
{
	static const char digits[] =
	    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char tmp[16];
	int k = 0;

	if (n == 0) {
		strcpy(out, "_");
		return;
	}
	for (n--; k == 0 || n; n /= 62)
		tmp[k++] = digits[n % 62];
	while (k)
		*out++ = tmp[--k];
	strcpy(out, "_");
}

/* a::f::<X_k> where X_0 = u8 and X_j+1 = (X_j, X_j), the second X_j a
 * back-reference to the first: "_R" "INvC1a1f" "T"*k "h", then per level
 * "B<where X_j starts>E", then "E". Positions count from after "_R". */
static char *rust_tuples(int k)
{
	const char *head = "INvC1a1f";
	size_t h = strlen(head);
	char *s = malloc(2 + h + (size_t)k * 8 + 4), *p = s, num[16];
	size_t inner = h + (size_t)k; /* where X_0, the "h", is */

	p += sprintf(p, "_R%s", head);
	for (int j = 0; j < k; j++)
		*p++ = 'T';
	*p++ = 'h';
	for (int j = 0; j < k; j++) {
		b62(num, inner);
		p += sprintf(p, "B%sE", num);
		inner = h + (size_t)k - 1 - (size_t)j; /* X_j+1 starts at its "T" */
	}
	strcpy(p, "E");
	return s;
}

/* The readable form of rust_tuples(k), from the same recursion. */
static char *rust_tuples_readable(int k)
{
	char *x = strdup("u8");

	for (int j = 0; j < k; j++) {
		char *y = malloc(2 * strlen(x) + 5);
		sprintf(y, "(%s, %s)", x, x);
		free(x);
		x = y;
	}
	char *out = malloc(strlen(x) + 9);
	sprintf(out, "a::f::<%s>", x);
	free(x);
	return out;
}

/* f(A<int, int>, A<S0, S0>, ...) in C++: S_ is A, S0_ A<int, int>, and
 * each new A<Sk, Sk> the next substitution, so each doubles the last. */
static char *cxx_templates(int k)
{
	static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char *s = malloc(16 + (size_t)k * 16), *p = s;

	p += sprintf(p, "_Z1f1AIiiE");
	for (int j = 1; j < k; j++) {
		char sub[8]; /* S<j-1 in base 36>_, j < 36 here */
		sprintf(sub, "S%c_", digits[j - 1]);
		p += sprintf(p, "S_I%s%sE", sub, sub);
	}
	return s;
}

/* _Z "1f" and n times "i": f(int, int, ..., int), 5n + 1 bytes */
static char *cxx_ints(int n)
{
	char *s = malloc((size_t)n + 8);

	strcpy(s, "_Z1f");
	memset(s + 4, 'i', (size_t)n);
	s[4 + n] = '\0';
	return s;
}

/* cy_demangle(name) in a child held to CPU_SECONDS of CPU and AS_BYTES of
 * memory, so that a demangler that blows up fails the test rather than
 * the machine. The child writes how much its peak RSS grew while it
 * demangled, in KB, then "+" and the readable form, or "-" for none. The
 * whole output, or NULL with why. */
static char *demangle_in_child(const char *name, char *why, size_t why_size)
{
	struct rlimit cpu = { CPU_SECONDS, CPU_SECONDS + 1 }, as = { AS_BYTES, AS_BYTES };
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fd) != 0 || (pid = fork()) < 0) {
		snprintf(why, why_size, "cannot start a child");
		return NULL;
	}
	if (pid == 0) {
		struct rusage before, after;
		char *got;
		close(fd[0]);
		setrlimit(RLIMIT_CPU, &cpu);
		if (ADDRESS_LIMIT)
			setrlimit(RLIMIT_AS, &as);
		getrusage(RUSAGE_SELF, &before);
		got = cy_demangle(name);
		getrusage(RUSAGE_SELF, &after);
		dprintf(fd[1], "%ld %s%s", after.ru_maxrss - before.ru_maxrss, got ? "+" : "-",
			got ? got : "");
		_exit(0);
	}
	close(fd[1]);
	do {
		if (cap - len < 4096) {
			cap = 2 * cap + 8192;
			if (!(buf = realloc(buf, cap)))
				abort();
		}
		n = read(fd[0], buf + len, cap - len - 1);
		len += n > 0 ? (size_t)n : 0;
	} while (n > 0);
	close(fd[0]);
	buf[len] = '\0';
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return buf;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
		snprintf(why, why_size, "stopped after %d s of CPU", CPU_SECONDS);
	else if (WIFSIGNALED(status))
		snprintf(why, why_size, "killed by signal %d (memory limit %ld MB)",
			 WTERMSIG(status), AS_BYTES >> 20);
	else
		snprintf(why, why_size, "exited %d", WEXITSTATUS(status));
	free(buf);
	return NULL;
}

/* Checks the readable form (want NULL: the name stays mangled), that it
 * came within the CPU and memory limits and in under RSS_KB_MAX. */
static void expect(const char *what, const char *name, const char *want)
{
	char why[128], got_len[32], want_len[32];
	char *out = demangle_in_child(name, why, sizeof(why));
	char *mark = out ? strchr(out, ' ') : NULL;
	const char *got = !mark ? why : mark[1] == '+' ? mark + 2 : "(mangled)";
	bool same = mark && (want ? mark[1] == '+' && strcmp(mark + 2, want) == 0 : mark[1] == '-');

	/* long names are reported by their length */
	snprintf(got_len, sizeof(got_len), "%zu bytes", strlen(got));
	snprintf(want_len, sizeof(want_len), "%zu bytes", want ? strlen(want) : 0);
	check(same, strlen(got) > 100 ? got_len : got,
	      !want                ? "(mangled)"
	      : strlen(want) > 100 ? want_len
				   : want,
	      "demangle: %s", what);
	if (mark) {
		snprintf(got_len, sizeof(got_len), "%ld KB", atol(out));
		check(atol(out) < RSS_KB_MAX, got_len, "less",
		      "demangle: %s: the peak grows by under %d MB", what, RSS_KB_MAX / 1024);
	}
	free(out);
}

int main(void)
{
	char *name, *want;

	/* ordinary names, as libiberty writes them */
	expect("C++ foo::bar()", "_ZN3foo3barEv", "foo::bar()");
	expect("Rust legacy, hash dropped", "_ZN7mycrate4work17h0123456789abcdefE",
	       "mycrate::work");
	expect("Rust v0, a crate name with a leading digit", "_RNvC6_123foo3bar", "123foo::bar");
	expect("Rust v0 impl: its own path is not printed", "_RNvMINvC1a1fFG0_EuEh1g", "<u8>::g");
	expect("Rust v0 binder: G_ is one lifetime", "_RINvC1a1fFG_EuE", "a::f::<for<'a> fn()>");
	expect("not a mangled name", "main", NULL);

	/* back-references: X_9 is 6 * 2^9 - 4 bytes, a::f::<X_9> 3076, shown;
	 * X_10 makes 6148, past 4096: mangled */
	name = rust_tuples(2);
	expect("Rust v0 back-references, 2 levels", name, "a::f::<((u8, u8), (u8, u8))>");
	free(name);
	name = rust_tuples(9);
	want = rust_tuples_readable(9);
	expect("Rust v0 back-references, 9 levels: 3076 bytes", name, want);
	free(name);
	free(want);
	name = rust_tuples(10);
	expect("Rust v0 back-references, 10 levels: 6148 bytes, mangled", name, NULL);
	free(name);
	/* 26 levels: 135 bytes asking for 6 * 2^26 (400 MB) */
	name = rust_tuples(26);
	expect("Rust v0 back-references, 26 levels (400 MB readable): mangled", name, NULL);
	free(name);
	name = rust_tuples(600); /* 3.6 KB */
	expect("Rust v0 back-references, 600 levels: mangled", name, NULL);
	free(name);

	/* binders: "G" and a base-62 count of lifetimes, 62^4 (90 MB
	 * readable) and 62^5; in an impl's path and in the instantiating crate
	 * libiberty goes through them one by one without printing any */
	expect("Rust v0 binder of 62^4 lifetimes: mangled", "_RINvC1a1fFGzzzz_EuE", NULL);
	expect("Rust v0 binder of 62^5 lifetimes in an impl's path: mangled",
	       "_RNvMINvC1a1fFGzzzzz_EuEh1g", NULL);
	expect("Rust v0 binder of 62^5 lifetimes in the instantiating crate: mangled",
	       "_RNvC1a1fINvC1b1gFGzzzzz_EuE", NULL);
	expect("Rust v0 back-reference into itself: mangled", "_RINvC1a1fTB8_B8_EE", NULL);

	/* C++ substitutions: 3 templates, then 26 (2^26 A<int, int>) */
	name = cxx_templates(3);
	expect("C++ substitutions, 3", name,
	       "f(A<int, int>, A<A<int, int>, A<int, int> >, "
	       "A<A<A<int, int>, A<int, int> >, A<A<int, int>, A<int, int> > >)");
	free(name);
	name = cxx_templates(26);
	expect("C++ substitutions, 26 (over a GB readable): mangled", name, NULL);
	free(name);

	/* the length bounds: 800 ints are 4001 bytes, 900 are 4501 */
	name = cxx_ints(800);
	want = malloc(5 * 800 + 2);
	strcpy(want, "f(");
	for (int j = 0; j < 800; j++)
		strcat(want, j ? ", int" : "int");
	strcat(want, ")");
	expect("C++ readable form of 4001 bytes", name, want);
	free(name);
	free(want);
	name = cxx_ints(900);
	expect("C++ readable form of 4501 bytes: mangled", name, NULL);
	free(name);
	/* a Rust v0 name of 4114 bytes whose readable form is "a::f": its
	 * instantiating crate (C and a name of 4100 "b") is not printed */
	name = malloc(4200);
	sprintf(name, "_RNvC1a1fC4100%s", "");
	memset(name + strlen(name), 'b', 4100);
	name[14 + 4100] = '\0';
	expect("a mangled name of 4114 bytes: mangled, however short its readable form", name,
	       NULL);
	free(name);
	expect("the same with a crate name of 4 bytes", "_RNvC1a1fC4bbbb", "a::f");

	return failures ? 1 : 0;
}
