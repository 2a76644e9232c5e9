/* journal.c - the guest's host I/O recorded by a fast pass and replayed in
 * a chunk (journal.h): entries of a kind, a result and the bytes read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/journal.h"
#include "core/vm.h"

void journal_put(struct cy_vm *vm, enum journal_kind kind, int64_t rc, const void *data, size_t len)
{
	struct journal *j = &vm->journal;
	size_t need = j->len + 1 + 8 + 8 + len;
	uint64_t n = len;

	if (need > j->cap) {
		size_t cap = j->cap ? j->cap : 4096;
		uint8_t *b;
		while (cap < need)
			cap *= 2;
		if (!(b = realloc(j->buf, cap))) {
			vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
			return;
		}
		j->buf = b;
		j->cap = cap;
	}
	j->buf[j->len++] = (uint8_t)kind;
	memcpy(j->buf + j->len, &rc, 8);
	memcpy(j->buf + j->len + 8, &n, 8);
	if (len)
		memcpy(j->buf + j->len + 16, data, len);
	j->len = need;
}

void journal_diverged(struct cy_vm *vm, enum journal_kind kind)
{
	vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
	snprintf(vm->stop_message, sizeof(vm->stop_message),
		 "the chunk's host I/O (a %s) differs from its fast pass's",
		 kind == JOURNAL_WRITE  ? "write"
		 : kind == JOURNAL_READ ? "read"
					: "fstat");
}

bool journal_get(struct cy_vm *vm, enum journal_kind kind, int64_t *rc, const uint8_t **data,
		 size_t *len)
{
	struct journal *j = &vm->journal;
	uint64_t n;

	if (j->len - j->pos < 17 || j->buf[j->pos] != (uint8_t)kind ||
	    (memcpy(&n, j->buf + j->pos + 9, 8), n > j->len - j->pos - 17)) {
		journal_diverged(vm, kind);
		return false;
	}
	memcpy(rc, j->buf + j->pos + 1, 8);
	*data = j->buf + j->pos + 17;
	*len = (size_t)n;
	j->pos += 17 + (size_t)n;
	return true;
}

void journal_free(struct journal *j)
{
	free(j->buf);
	memset(j, 0, sizeof(*j));
}

/* The API (include/cyclops.h). */
void cy_vm_journal_record(cy_vm *vm)
{
	journal_free(&vm->journal);
	vm->journal.mode = JOURNAL_RECORD;
}

int cy_vm_journal_take(cy_vm *vm, uint8_t **bytes, size_t *len)
{
	struct journal *j = &vm->journal;

	*bytes = j->buf ? j->buf : malloc(1);
	*len = j->len;
	j->buf = NULL;
	j->len = j->cap = 0;
	return *bytes ? 0 : -ENOMEM;
}

int cy_vm_journal_replay(cy_vm *vm, const void *bytes, size_t len)
{
	struct journal *j = &vm->journal;

	journal_free(j);
	j->mode = JOURNAL_REPLAY;
	if (!(j->buf = malloc(len ? len : 1)))
		return -ENOMEM;
	memcpy(j->buf, bytes, len);
	j->len = j->cap = len;
	return 0;
}

size_t cy_vm_journal_left(const cy_vm *vm) { return vm->journal.len - vm->journal.pos; }
