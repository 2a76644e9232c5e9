/* cli_mpi.c - the MPI transport of cli_channel.h: rank 0 is the driver,
 * every other rank a worker. A message is a header (its type and length)
 * and its bytes in pieces of at most 1 GiB (an MPI count is an int), all
 * point to point with rank 0: programs, checkpoints and results travel in
 * messages, no file system is shared. Built when Open MPI's development
 * files are there (mk/config.mk, MPI=0 to leave it out); without it the
 * functions say so. libmpi is opened when MPI starts, not linked: linked,
 * it and the libraries it brings would load into every run (5 ms of
 * start-up) for the few that use it. */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_channel.h"

bool mpi_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK") ||
	       getenv("PMI_SIZE");
}

#ifdef CY_MPI
#include <mpi.h>

#define TAG_HEADER 1
#define TAG_DATA   2
#define PIECE      ((size_t)1 << 30)

struct header {
	uint64_t type, len;
};

/* Open MPI's library: its ABI's soname since 3.0 (4.x and 5.x keep it);
 * -DLIBMPI=... names another (a build that checks the message when it
 * cannot be opened names one that is not there). */
#ifndef LIBMPI
#define LIBMPI "libmpi.so.40"
#endif

/* The entry points this file calls and the two predefined objects it
 * names (MPI_COMM_WORLD and MPI_BYTE are the addresses of these Open MPI
 * symbols), looked up in libmpi. */
struct mpi_lib {
	void *lib;
	MPI_Comm world;
	MPI_Datatype byte;
	int (*init_thread)(int *, char ***, int, int *);
	int (*comm_rank)(MPI_Comm, int *);
	int (*comm_size)(MPI_Comm, int *);
	int (*finalize)(void);
	int (*send)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
	int (*recv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
	int (*isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
	int (*wait)(MPI_Request *, MPI_Status *);
	int (*test)(MPI_Request *, int *, MPI_Status *);
	int (*iprobe)(int, int, MPI_Comm, int *, MPI_Status *);
};

static struct mpi_lib mpi;

/* Opens libmpi and looks its symbols up; false, with why, when it cannot. */
static bool mpi_load(const char **why)
{
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
#define SYM(field, name) { name, offsetof(struct mpi_lib, field) }
		SYM(world, "ompi_mpi_comm_world"),
		SYM(byte, "ompi_mpi_byte"),
		SYM(init_thread, "MPI_Init_thread"),
		SYM(comm_rank, "MPI_Comm_rank"),
		SYM(comm_size, "MPI_Comm_size"),
		SYM(finalize, "MPI_Finalize"),
		SYM(send, "MPI_Send"),
		SYM(recv, "MPI_Recv"),
		SYM(isend, "MPI_Isend"),
		SYM(wait, "MPI_Wait"),
		SYM(test, "MPI_Test"),
		SYM(iprobe, "MPI_Iprobe"),
#undef SYM
	};

	if (mpi.lib)
		return true;
	/* global: Open MPI's components, which it opens in turn, use its symbols */
	if (!(mpi.lib = dlopen(LIBMPI, RTLD_NOW | RTLD_GLOBAL))) {
		*why = dlerror();
		return false;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *p = dlsym(mpi.lib, syms[i].name);
		if (!p) {
			*why = dlerror();
			dlclose(mpi.lib);
			mpi.lib = NULL;
			return false;
		}
		/* an object's address, or a function's (POSIX: as a void *) */
		memcpy((char *)&mpi + syms[i].off, &p, sizeof(p));
	}
	return true;
}

bool mpi_available(void)
{
	const char *why;

	return mpi_load(&why);
}

int mpi_start(int *rank, int *size)
{
	const char *why = NULL;
	int provided;

	if (!mpi_load(&why)) {
		cli_error("MPI could not start: %s", why ? why : LIBMPI " cannot be opened");
		return -1;
	}
	/* workers fork a process per chunk that never calls MPI: no warning */
	setenv("OMPI_MCA_mpi_warn_on_fork", "0", 0);
	if (mpi.init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
		cli_error("MPI could not start");
		return -1;
	}
	mpi.comm_rank(mpi.world, rank);
	mpi.comm_size(mpi.world, size);
	return 0;
}

void mpi_stop(void)
{
	if (mpi.lib)
		mpi.finalize();
}

/* Blocking, for a worker rank. */
static int mpi_send(struct channel *ch, uint32_t type, const void *p, size_t len)
{
	struct header h = { type, len };

	(void)ch;
	if (mpi.send(&h, sizeof(h), mpi.byte, 0, TAG_HEADER, mpi.world) != MPI_SUCCESS)
		return -EIO;
	for (size_t at = 0; at < len; at += PIECE) {
		size_t n = len - at < PIECE ? len - at : PIECE;
		if (mpi.send((const uint8_t *)p + at, (int)n, mpi.byte, 0, TAG_DATA, mpi.world) !=
		    MPI_SUCCESS)
			return -EIO;
	}
	return 0;
}

static int recv_body(int from, uint8_t **p, size_t len)
{
	if (!(*p = malloc(len + 1)))
		return -ENOMEM;
	for (size_t at = 0; at < len; at += PIECE) {
		size_t n = len - at < PIECE ? len - at : PIECE;
		if (mpi.recv(*p + at, (int)n, mpi.byte, from, TAG_DATA, mpi.world,
			     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
			free(*p);
			return -EIO;
		}
	}
	return 0;
}

static int mpi_recv(struct channel *ch, uint32_t *type, uint8_t **p, size_t *len)
{
	struct header h;

	(void)ch;
	if (mpi.recv(&h, sizeof(h), mpi.byte, 0, TAG_HEADER, mpi.world, MPI_STATUS_IGNORE) !=
	    MPI_SUCCESS)
		return -EIO;
	*type = (uint32_t)h.type;
	*len = h.len;
	return recv_body(0, p, h.len);
}

struct channel *channel_mpi(int rank)
{
	static struct channel ch;

	ch = (struct channel){ mpi_send, mpi_recv, -1, rank, false };
	return &ch;
}

/* Rank 0: sends go out with MPI_Isend and are kept until they complete. */
struct pending {
	MPI_Request req;
	uint8_t *buf;
	struct pending *next;
};

struct mpi_driver {
	struct pending *sends;
};

/* Frees the sends that completed. */
static void reap(struct mpi_driver *d, bool wait)
{
	for (struct pending **pp = &d->sends; *pp;) {
		int done = 0;
		if (wait)
			mpi.wait(&(*pp)->req, MPI_STATUS_IGNORE), done = 1;
		else
			mpi.test(&(*pp)->req, &done, MPI_STATUS_IGNORE);
		if (!done) {
			pp = &(*pp)->next;
			continue;
		}
		struct pending *p = *pp;
		*pp = p->next;
		free(p->buf);
		free(p);
	}
}

static int isend(struct mpi_driver *d, const void *p, size_t len, int dest, int tag, bool copy)
{
	struct pending *s = calloc(1, sizeof(*s));

	if (!s || (copy && !(s->buf = malloc(len ? len : 1)))) {
		free(s);
		return -ENOMEM;
	}
	if (copy && len)
		memcpy(s->buf, p, len);
	if (mpi.isend(copy ? s->buf : p, (int)len, mpi.byte, dest, tag, mpi.world, &s->req) !=
	    MPI_SUCCESS) {
		free(s->buf);
		free(s);
		return -EIO;
	}
	s->next = d->sends;
	d->sends = s;
	return 0;
}

static int driver_send(struct workers *ws, int w, uint32_t type, const void *p, size_t len)
{
	struct mpi_driver *d = ws->impl;
	struct header h = { type, len };
	uint8_t *copy = malloc(len ? len : 1);
	int rc;

	if (!copy)
		return -ENOMEM;
	if (len)
		memcpy(copy, p, len);
	rc = isend(d, &h, sizeof(h), w + 1, TAG_HEADER, true);
	/* the pieces point into one copy, freed with the last of them */
	for (size_t at = 0; rc == 0 && at < len; at += PIECE) {
		size_t n = len - at < PIECE ? len - at : PIECE;
		rc = isend(d, copy + at, n, w + 1, TAG_DATA, false);
		if (rc == 0 && at + n == len)
			d->sends->buf = copy, copy = NULL;
	}
	free(copy);
	ws->bytes_sent += len;
	return rc;
}

static int driver_poll(struct workers *ws, int timeout_ms, int *w, uint32_t *type, uint8_t **p,
		       size_t *len)
{
	struct mpi_driver *d = ws->impl;
	int waited = 0;

	for (;;) {
		MPI_Status st;
		int flag = 0;
		reap(d, false);
		mpi.iprobe(MPI_ANY_SOURCE, TAG_HEADER, mpi.world, &flag, &st);
		if (flag) {
			struct header h;
			int rc;
			mpi.recv(&h, sizeof(h), mpi.byte, st.MPI_SOURCE, TAG_HEADER, mpi.world,
				 MPI_STATUS_IGNORE);
			rc = recv_body(st.MPI_SOURCE, p, h.len);
			if (rc != 0)
				return rc;
			*w = st.MPI_SOURCE - 1;
			*type = (uint32_t)h.type;
			*len = h.len;
			ws->bytes_received += h.len;
			return 1;
		}
		if (timeout_ms >= 0 && waited >= timeout_ms)
			return 0;
		usleep(1000); /* MPI has no descriptor to wait on */
		waited++;
	}
}

static void driver_close(struct workers *ws)
{
	struct mpi_driver *d = ws->impl;

	reap(d, true);
	free(d);
	free(ws);
}

struct workers *workers_mpi(int size)
{
	struct workers *ws = calloc(1, sizeof(*ws));
	struct mpi_driver *d = calloc(1, sizeof(*d));

	if (!ws || !d) {
		free(ws);
		free(d);
		cli_error("out of host memory");
		return NULL;
	}
	ws->n = size - 1;
	ws->impl = d;
	ws->send = driver_send;
	ws->poll = driver_poll;
	ws->close = driver_close;
	return ws;
}

#else /* built without MPI */

bool mpi_available(void) { return false; }

int mpi_start(int *rank, int *size)
{
	*rank = 0;
	*size = 1;
	cli_error("this cyclops was built without MPI (install libopenmpi-dev and rebuild; "
		  "docs/scale-out.md)");
	return -1;
}

void mpi_stop(void) {}

struct workers *workers_mpi(int size)
{
	(void)size;
	return NULL;
}

struct channel *channel_mpi(int rank)
{
	(void)rank;
	return NULL;
}

#endif
