/* debug.c - "cyclops run --gdb": the listening socket, the session's
 * setup and end (debug.h). The protocol is gdb_stub.c's, the VM side
 * target.c's, running backwards history.c's. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "debug/session.h"

/* The session of this process (forks copy it; a process spawned from a
 * snapshot starts again at the setjmp in debug_run). */
static struct debug session;

/* Splits "[HOST:]PORT" and resolves it to an IPv4 address. */
static int parse_address(const char *text, struct sockaddr_in *sa, char *err, size_t err_size)
{
	const char *colon = strrchr(text, ':'), *port_text = colon ? colon + 1 : text;
	char host[256], *end;
	struct addrinfo hints = { 0 }, *res = NULL;
	unsigned long port;
	int rc;

	errno = 0;
	port = strtoul(port_text, &end, 10);
	if (!*port_text || *end || errno || port > 65535 || *port_text == '-' ||
	    *port_text == '+') {
		snprintf(err, err_size, "--gdb %s: the port must be a number 0..65535", text);
		return -1;
	}
	if (!colon)
		snprintf(host, sizeof(host), "%s", DEBUG_DEFAULT_HOST);
	else if ((size_t)(colon - text) >= sizeof(host) || colon == text) {
		snprintf(err, err_size, "--gdb %s: no host before the port", text);
		return -1;
	} else
		snprintf(host, sizeof(host), "%.*s", (int)(colon - text), text);
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &sa->sin_addr) == 1)
		return 0;
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc != 0 || !res) {
		snprintf(err, err_size, "--gdb %s: host %s: %s", text, host,
			 rc ? gai_strerror(rc) : "no IPv4 address");
		return -1;
	}
	sa->sin_addr = ((struct sockaddr_in *)res->ai_addr)->sin_addr;
	freeaddrinfo(res);
	return 0;
}

static bool is_loopback(const struct sockaddr_in *sa)
{
	return (ntohl(sa->sin_addr.s_addr) >> 24) == 127;
}

int debug_check_address(const char *text, bool *loopback, char *err, size_t err_size)
{
	struct sockaddr_in sa;

	if (parse_address(text, &sa, err, err_size) != 0)
		return -1;
	*loopback = is_loopback(&sa);
	return 0;
}

/* A listening socket on the address; its fd, or -1 with a message. */
static int listen_on(const char *address, bool quiet, char *err, size_t err_size)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	char shown[INET_ADDRSTRLEN];
	int fd, one = 1;

	if (parse_address(address, &sa, err, err_size) != 0)
		return -1;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fd, 1) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
		snprintf(err, err_size, "--gdb %s: %s", address, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	inet_ntop(AF_INET, &sa.sin_addr, shown, sizeof(shown));
	if (!is_loopback(&sa) && !quiet)
		fprintf(stderr,
			"cyclops: warning: --gdb %s listens beyond this machine: whoever "
			"connects controls the guest and reads its memory\n",
			address);
	/* always shown: with port 0 it is the only way to learn the port */
	fprintf(stderr, "cyclops: waiting for GDB on %s:%u\n", shown, ntohs(sa.sin_port));
	return fd;
}

static int accept_client(int lfd, cy_vm *vm)
{
	int fd;

	for (;;) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0 || errno != EINTR || vm->interrupt)
			return fd;
	}
}

int debug_run(cy_vm *vm, const struct debug_opts *opts, cy_stop *stop, bool *killed, char *err,
	      size_t err_size)
{
	struct debug *d = &session;
	struct debug_shared *sh;
	int lfd, fd, rc;

	*killed = false;
	memset(d, 0, sizeof(*d));
	d->vm = vm;
	d->opts = *opts;
	d->cs = opts->callstack;
	lfd = listen_on(opts->address, opts->quiet, err, err_size);
	if (lfd < 0)
		return -1;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(err, err_size, "--gdb: out of host memory");
		close(lfd);
		return -1;
	}
	memset(sh, 0, sizeof(*sh));
	d->sh = sh;
	rc = target_init(d);
	if (rc == 0)
		rc = history_init(d, &target_runner);
	if (rc != 0) {
		snprintf(err, err_size, "--gdb: out of host memory");
		close(lfd);
		return -1;
	}
	fd = accept_client(lfd, vm);
	close(lfd);
	if (fd >= 0 && vm->interrupt) { /* a signal came with the client */
		close(fd);
		fd = -1;
	}
	if (fd < 0) { /* interrupted while waiting: the run stops before it began */
		*stop = cy_vm_run(vm, 1);
		target_free(d);
		return 0;
	}
	gdb_stub_init(&sh->stub, fd, &debug_target_ops, d, sh->history);
	sigaction(SIGINT, NULL, &d->sa_int);
	sigaction(SIGHUP, NULL, &d->sa_hup);
	sigaction(SIGTERM, NULL, &d->sa_term);
	if (setjmp(d->serve) != 0) {
		/* a process a snapshot spawned: it carries out its request and
		 * takes GDB over (history.c) */
		struct gdb_stop st;
		history_carry_out(d, &st);
		gdb_stub_report_stop(&session.sh->stub, &st);
	} else if (history_start(d) != 0) {
		fprintf(stderr, "cyclops: --gdb: cannot fork (%s): no reverse execution\n",
			strerror(errno));
		sh->history = sh->stub.reverse = false;
	}
	d = &session;
	sh = d->sh;
	gdb_stub_serve(&sh->stub);
	if (sh->stub.end == GDB_END_KILL) {
		cy_vm_interrupt(vm, SIGKILL);
		target_piece(d, 1); /* the stop, and the last chunk */
		*killed = true;
	} else if (sh->stub.end == GDB_END_INTERRUPTED) {
		target_piece(d, 1); /* the signal's stop, as in a plain run */
	} else {                    /* detached or gone: the guest runs on to its end */
		sh->n_points = 0;
		sh->points_gen++;
		sh->until_cycle = 0;
		while (vm->stop == CY_STOP_NONE)
			target_run_cycles(d, UINT64_MAX);
	}
	history_finish(d);
	close(sh->stub.fd);
	target_free(d);
	*stop = vm->stop;
	return 0;
}
