/* hint_read.c - reads a 4-byte frame without asking HINT_LEN first and
 * exits with it: a frame of another length must stop the run. */
#include <cyclops/zkvm.h>

int main(void)
{
	uint32_t v = 0;

	zk_hint_read(&v, 4);
	return (int)v;
}
