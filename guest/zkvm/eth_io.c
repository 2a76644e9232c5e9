/* eth_io.c - the Ethereum zkVM standards' io-interface and termination on
 * the zkVM ABI (cyclops/zkvm_io.h). The input is read once, on the first
 * call, into memory past the program's end (the kit has no heap of its
 * own); later calls give the same buffer, as the standard asks. */
#include <cyclops/zkvm.h>
#include <cyclops/zkvm_io.h>

extern unsigned char _end[];

static const uint8_t *input;
static size_t input_size;
static int input_read;

void read_input(const uint8_t **buf_ptr, size_t *buf_size)
{
	if (!input_read) {
		size_t n = zk_hint_len(); /* all ones: none (SP1 v4 and later) */
		uintptr_t at = ((uintptr_t)_end + 7) & ~(uintptr_t)7;
		input_read = 1;
		if (n != (size_t)-1) {
			zk_hint_read((void *)at, n);
			input = (const uint8_t *)at;
			input_size = n;
		}
	}
	*buf_ptr = input;
	*buf_size = input_size;
}

void write_output(const uint8_t *output, size_t size) { zk_write(ZK_FD_PUBLIC_VALUES, output, size); }

void exit(int code) { zk_halt((uint32_t)code & 0xff); }

void abort(void) { zk_halt(134); }
