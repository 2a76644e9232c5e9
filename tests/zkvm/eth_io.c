/* eth_io.c - a guest written against the Ethereum zkVM standards' C
 * interfaces only (read_input, write_output, returning from main): it
 * writes the input's length as 4 bytes little-endian, then the input
 * reversed, to the public output; it reads the input twice (the same
 * buffer, as the standard promises) and exits with the input's first byte
 * (a nonzero exit is a failure the zkVM reports). */
#include <cyclops/zkvm_io.h>

int main(void)
{
	const uint8_t *in, *again;
	size_t n, m;
	uint8_t len[4], b;

	read_input(&in, &n);
	read_input(&again, &m);
	if (again != in || m != n)
		abort();
	for (int i = 0; i < 4; i++)
		len[i] = (uint8_t)(n >> (8 * i));
	write_output(len, 4);
	for (size_t i = n; i-- > 0;) {
		b = in[i];
		write_output(&b, 1);
	}
	return n ? in[0] : 0;
}
