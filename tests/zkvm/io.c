/* io.c - the zkVM I/O syscalls: hints (a u32, a string as bincode writes
 * it, then a frame the guest queued itself through the hint descriptor:
 * 4, or 14 from SP1 v4 on), WRITE to each fd,
 * COMMIT, a cycle-tracker span through WRITE, and an unconstrained block
 * whose stores, on a page it touches first, are undone. Exits with the u32
 * input modulo 256. It also names a proof to verify (VERIFY_SP1_PROOF). */
#include <cyclops/zkvm.h>

static uint32_t fresh_page[1024] __attribute__((aligned(4096)));

static uint32_t read_u32(void)
{
	uint32_t v __attribute__((aligned(8))) = 0;

	if (zk_hint_len() != 4)
		zk_halt(101);
	zk_hint_read(&v, 4);
	return v;
}

int main(void)
{
	uint32_t n = read_u32(), len, words[16] __attribute__((aligned(8)));
	char text[64];

	/* str: u64 length, then the bytes */
	len = zk_hint_len();
	if (len < 8 || len > sizeof(words))
		zk_halt(102);
	zk_hint_read(words, len);
	memcpy(text, (char *)words + 8, len - 8);
	text[len - 8] = '\n';
	zk_puts(ZK_FD_STDOUT, "hint: ");
	zk_write(ZK_FD_STDOUT, text, len - 7);

	zk_puts(ZK_FD_STDOUT, "cycle-tracker-start: loop\n");
	for (volatile int i = 0; i < 10; i++)
		;
	zk_puts(ZK_FD_STDOUT, "cycle-tracker-end: loop\n");

	zk_puts(ZK_FD_STDERR, "to stderr\n");
	zk_write(ZK_FD_PUBLIC_VALUES, &n, 4);
	zk_write(ZK_FD_PUBLIC_VALUES, "pv", 2);
	zk_write(ZK_FD_INPUT, "\x2a\0\0\0", 4);
	if (read_u32() != 42)
		zk_halt(103);

	if (zk_ecall(ZK_ENTER_UNCONSTRAINED, 0, 0, 0)) {
		fresh_page[5] = 77;
		n = 0;
		zk_write(ZK_FD_PUBLIC_VALUES, "lost", 4);
		zk_puts(ZK_FD_STDOUT, "unconstrained\n");
		zk_ecall(ZK_EXIT_UNCONSTRAINED, 0, 0, 0);
	}
	if (fresh_page[5] != 0)
		zk_halt(104);

	/* a proof to verify: the run records its digests (the report's
	 * verified_proofs); VERIFY_PICO_PROOF has the same code */
	static const uint32_t vkey[8] __attribute__((aligned(8))) = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint32_t pv_digest[8] __attribute__((aligned(8))) = { 9, 10, 11, 12,
									     13, 14, 15, 16 };
	zk_ecall(ZK_VERIFY_PROOF, (zk_reg)vkey, (zk_reg)pv_digest, 0);
	for (uint32_t i = 0; i < 8; i++)
		zk_commit(i, 0x11111111u * i);
	zk_ecall(ZK_COMMIT_DEFERRED_PROOFS, 0, 0xabcdef01u, 0);
	return (int)(n & 0xff);
}
