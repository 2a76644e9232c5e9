/* cli_channel.h - how the driver of a chunked run or a batch talks with its
 * workers: typed messages, each one whole buffer. On one machine over a
 * socket pair per worker process (cli_channel.c); on many over MPI
 * (cli_mpi.c), where every rank but 0 is a worker. The drivers (cli_jobs.c,
 * cli_batch.c) are the same over both. */
#ifndef CY_CLI_CHANNEL_H
#define CY_CLI_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum msg_type {
	MSG_SETUP = 1,  /* driver: the run's command line and the program's bytes */
	MSG_CHECKPOINT, /* driver: a fast-pass checkpoint (its memory applies to all) */
	MSG_JOB,        /* driver: profile a chunk, or run a line of a batch */
	MSG_QUIT,       /* driver: no more work */
	MSG_RESULT,     /* worker: a chunk's results, or a batch line's outcome */
	MSG_FAILED,     /* worker: a message saying why it could not go on */
};

/* A worker's end of its channel: blocking. Each returns 0 or -errno; recv
 * hands over a malloc'd buffer. */
struct channel {
	int (*send)(struct channel *ch, uint32_t type, const void *p, size_t len);
	int (*recv)(struct channel *ch, uint32_t *type, uint8_t **p, size_t *len);
	int fd;     /* the local channel's socket */
	int rank;   /* the MPI channel's own rank */
	bool local; /* a process forked by the driver (may fork again) */
};

/* The driver's end: every worker. send queues (the bytes are copied), poll
 * moves what is queued on and returns the next message from any worker. */
struct workers {
	int n;
	int (*send)(struct workers *ws, int w, uint32_t type, const void *p, size_t len);
	/* Waits at most timeout_ms (-1: until one comes) for a message: 1 with
	 * it (*w, *type, *p malloc'd, *len), 0 when none came, -errno when a
	 * worker is gone or the transport failed. */
	int (*poll)(struct workers *ws, int timeout_ms, int *w, uint32_t *type, uint8_t **p,
		    size_t *len);
	/* Sends what is still queued, then waits for the workers to end. */
	void (*close)(struct workers *ws);
	void *impl;
	uint64_t bytes_sent, bytes_received; /* what travelled, for docs/scale-out.md */
};

typedef int (*worker_fn)(struct channel *ch, void *ctx);

/* Forks n worker processes, each running fn on its channel (and exiting
 * with what it returns); NULL after a message. */
struct workers *workers_fork(int n, worker_fn fn, void *ctx);

/* MPI (cli_mpi.c; without it, mpi_available is false and the rest fail). */
bool mpi_available(void);
/* Whether an MPI launcher (mpirun, srun) started this process. */
bool mpi_launched(void);
/* Initialises MPI: this rank and the number of ranks; 0 or -1 after a message. */
int mpi_start(int *rank, int *size);
/* Rank 0's end: the other ranks are its workers. */
struct workers *workers_mpi(int size);
/* A worker rank's end: rank 0 is its driver. */
struct channel *channel_mpi(int rank);
void mpi_stop(void);

#endif
