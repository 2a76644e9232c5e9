/* journal.h - the guest's host I/O, recorded and replayed (journal.c). A
 * chunked run's fast pass records what each of the guest's reads, writes
 * and fstats returned, and a read's bytes; a chunk replays them, so that it
 * touches no host file and its guest sees exactly what the fast pass's
 * did (docs/scale-out.md). */
#ifndef CY_JOURNAL_H
#define CY_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cy_vm;

enum journal_mode { JOURNAL_OFF, JOURNAL_RECORD, JOURNAL_REPLAY };

/* What an entry is of. */
enum journal_kind { JOURNAL_WRITE = 'W', JOURNAL_READ = 'R', JOURNAL_FSTAT = 'S' };

struct journal {
	enum journal_mode mode;
	uint8_t *buf;
	size_t len, cap, pos; /* pos: the next entry replayed */
};

/* Recording: one entry (rc, and len bytes of data). */
void journal_put(struct cy_vm *vm, enum journal_kind kind, int64_t rc, const void *data,
		 size_t len);
/* Replaying: the next entry, which must be of kind; false (and the run
 * stops with a host fault naming it) when the journal does not go on so. */
bool journal_get(struct cy_vm *vm, enum journal_kind kind, int64_t *rc, const uint8_t **data,
		 size_t *len);
/* Stops the run: the chunk did not do what its fast pass did. */
void journal_diverged(struct cy_vm *vm, enum journal_kind kind);
void journal_free(struct journal *j);

#endif
