/* cyclops/zkvm_io.h - the C interfaces of the Ethereum zkVM standards
 * (github.com/eth-act/zkvm-standards) on the zkVM guest kit, so that a
 * guest written against them runs unchanged (docs/zkvm.md, "The Ethereum
 * zkVM standards"):
 *   io-interface: read_input gives the private input, the first frame of
 *   the input queue (cyclops run --input FILE); write_output appends to
 *   the public part, the public values (--public-values FILE);
 *   standard termination: main's return value, exit(code) and abort()
 *   halt the zkVM; 0 is success, any other code a failure reported as the
 *   exit status (abort's is 134, as a shell reports SIGABRT). */
#ifndef CYCLOPS_ZKVM_IO_H
#define CYCLOPS_ZKVM_IO_H

#include <stddef.h>
#include <stdint.h>

void read_input(const uint8_t **buf_ptr, size_t *buf_size);
void write_output(const uint8_t *output, size_t size);

void exit(int code) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));

#endif
