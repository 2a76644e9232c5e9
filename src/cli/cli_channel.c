/* cli_channel.c - the local transport of cli_channel.h: a socket pair per
 * forked worker, messages framed as a type, a length and the bytes. The
 * driver never blocks on a worker: what it sends is queued and written as
 * the socket takes it, while it reads whatever comes back (a worker that
 * writes its results while the driver writes it a checkpoint would
 * otherwise hold both). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_channel.h"

struct frame {
	uint32_t type, pad;
	uint64_t len;
};

static int write_all(int fd, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len) {
		ssize_t n = write(fd, b, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t len)
{
	uint8_t *b = p;

	while (len) {
		ssize_t n = read(fd, b, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

static int fd_send(struct channel *ch, uint32_t type, const void *p, size_t len)
{
	struct frame f = { type, 0, len };
	int rc = write_all(ch->fd, &f, sizeof(f));

	return rc ? rc : write_all(ch->fd, p, len);
}

static int fd_recv(struct channel *ch, uint32_t *type, uint8_t **p, size_t *len)
{
	struct frame f;
	int rc = read_all(ch->fd, &f, sizeof(f));

	if (rc)
		return rc;
	if (!(*p = malloc(f.len + 1)))
		return -ENOMEM;
	if ((rc = read_all(ch->fd, *p, f.len)) != 0) {
		free(*p);
		return rc;
	}
	*type = f.type;
	*len = f.len;
	return 0;
}

/* The driver's side: per worker a queue of whole frames to write, and the
 * frame being read. */
struct out {
	uint8_t *buf;
	size_t len, done;
	struct out *next;
};

struct peer {
	int fd;
	pid_t pid;
	struct out *head, *tail;
	struct frame in;
	size_t in_have; /* bytes of the frame header, then of the body */
	uint8_t *body;
	bool gone;
};

struct local {
	struct peer *peers;
};

static int local_send(struct workers *ws, int w, uint32_t type, const void *p, size_t len)
{
	struct local *l = ws->impl;
	struct peer *pe = &l->peers[w];
	struct out *o = malloc(sizeof(*o));
	struct frame f = { type, 0, len };

	if (!o || !(o->buf = malloc(sizeof(f) + len))) {
		free(o);
		return -ENOMEM;
	}
	memcpy(o->buf, &f, sizeof(f));
	if (len)
		memcpy(o->buf + sizeof(f), p, len);
	o->len = sizeof(f) + len;
	o->done = 0;
	o->next = NULL;
	if (pe->tail)
		pe->tail->next = o;
	else
		pe->head = o;
	pe->tail = o;
	ws->bytes_sent += len;
	return 0;
}

/* Writes what peer pe's socket takes now. */
static int flush_some(struct peer *pe)
{
	while (pe->head) {
		struct out *o = pe->head;
		ssize_t n =
		    send(pe->fd, o->buf + o->done, o->len - o->done, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		o->done += (size_t)n;
		if (o->done < o->len)
			return 0;
		pe->head = o->next;
		if (!pe->head)
			pe->tail = NULL;
		free(o->buf);
		free(o);
	}
	return 0;
}

/* Reads what has come from pe; 1 when a whole message is there. */
static int read_some(struct peer *pe)
{
	for (;;) {
		bool header = pe->in_have < sizeof(pe->in);
		uint8_t *to = header ? (uint8_t *)&pe->in + pe->in_have
				     : pe->body + (pe->in_have - sizeof(pe->in));
		size_t want = header ? sizeof(pe->in) - pe->in_have
				     : sizeof(pe->in) + pe->in.len - pe->in_have;
		ssize_t n;
		if (!header && want == 0)
			return 1;
		n = recv(pe->fd, to, want, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		pe->in_have += (size_t)n;
		if (pe->in_have == sizeof(pe->in) && !(pe->body = malloc(pe->in.len + 1)))
			return -ENOMEM;
	}
}

static int local_poll(struct workers *ws, int timeout_ms, int *w, uint32_t *type, uint8_t **p,
		      size_t *len)
{
	struct local *l = ws->impl;
	struct pollfd fds[ws->n];

	for (;;) {
		for (int i = 0; i < ws->n; i++) {
			struct peer *pe = &l->peers[i];
			int rc;
			fds[i] = (struct pollfd){ -1, 0, 0 };
			if (pe->gone)
				continue;
			if (flush_some(pe) != 0 || (rc = read_some(pe)) < 0) {
				pe->gone = true;
				return -EPIPE;
			}
			if (rc == 1) {
				*w = i;
				*type = pe->in.type;
				*p = pe->body;
				*len = pe->in.len;
				ws->bytes_received += pe->in.len;
				pe->body = NULL;
				pe->in_have = 0;
				return 1;
			}
			fds[i] = (struct pollfd){ pe->fd, POLLIN | (pe->head ? POLLOUT : 0), 0 };
		}
		if (timeout_ms == 0)
			return 0;
		int n = poll(fds, (nfds_t)ws->n, timeout_ms);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			return 0; /* the time is up, or a signal came: the caller looks */
	}
}

static void local_close(struct workers *ws)
{
	struct local *l = ws->impl;

	for (int i = 0; i < ws->n; i++) {
		struct peer *pe = &l->peers[i];
		/* what is queued still goes: the QUIT among it */
		while (pe->head && !pe->gone) {
			struct pollfd fd = { pe->fd, POLLOUT, 0 };
			if (flush_some(pe) != 0 || poll(&fd, 1, 1000) < 0)
				break;
		}
		while (pe->head) {
			struct out *o = pe->head;
			pe->head = o->next;
			free(o->buf);
			free(o);
		}
		free(pe->body);
		close(pe->fd);
	}
	for (int i = 0; i < ws->n; i++)
		waitpid(l->peers[i].pid, NULL, 0);
	free(l->peers);
	free(l);
	free(ws);
}

struct workers *workers_fork(int n, worker_fn fn, void *ctx)
{
	struct workers *ws = calloc(1, sizeof(*ws));
	struct local *l = calloc(1, sizeof(*l));

	if (!ws || !l || !(l->peers = calloc((size_t)n, sizeof(*l->peers)))) {
		free(l);
		free(ws);
		cli_error("out of host memory");
		return NULL;
	}
	ws->n = n;
	ws->impl = l;
	ws->send = local_send;
	ws->poll = local_poll;
	ws->close = local_close;
	fflush(NULL);
	for (int i = 0; i < n; i++) {
		int sv[2];
		pid_t pid;
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 ||
		    (pid = fork()) < 0) {
			cli_error("cannot start worker %d: %s", i + 1, strerror(errno));
			ws->n = i;
			local_close(ws);
			return NULL;
		}
		if (pid == 0) {
			struct channel ch = { fd_send, fd_recv, sv[1], 0, true };
			/* the driver decides what a signal ends; it tells its workers */
			signal(SIGINT, SIG_IGN);
			signal(SIGHUP, SIG_IGN);
			signal(SIGTERM, SIG_DFL);
			close(sv[0]);
			for (int k = 0; k < i; k++)
				close(l->peers[k].fd);
			_exit(fn(&ch, ctx));
		}
		close(sv[1]);
		l->peers[i] = (struct peer){ .fd = sv[0], .pid = pid };
	}
	return ws;
}
