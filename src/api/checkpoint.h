/* checkpoint.h - what the checkpoint file's code (checkpoint.c) offers
 * beyond the API: its fuzz harness (fuzz/fuzz_checkpoint.c) makes files
 * whose header and checksums are right around contents of its own, so
 * that what lies behind them is fuzzed too. */
#ifndef CY_CHECKPOINT_H
#define CY_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cyclops.h"

/* The most a checkpoint's contents may be when read (the fuzzer lowers it). */
extern uint64_t checkpoint_max_raw;

/* A file around raw (sections): a checkpoint (index, whole when base is
 * 0) or a chunk's results. 0 or -ENOMEM. */
int checkpoint_wrap(const uint8_t *raw, size_t len, bool chunk, uint64_t index, uint64_t base,
		    uint8_t **blob, size_t *size);
/* The contents (sections) of a checkpoint read back. */
const uint8_t *checkpoint_contents(const cy_checkpoint *ck, size_t *len);

#endif
