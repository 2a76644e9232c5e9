/* Cycle tracking in a C guest (<cyclops/track.h>): spans around the phases of
 * a small workload - make pseudo-random data, heap-sort it, CRC-32 it two
 * ways - with nesting, a function wrapped whole (CY_TRACK_FUNCTION), a scope
 * guard and the report variant in a loop. Try
 *	cyclops run --cycle-tracker guest/build/tracked.elf
 * Elsewhere (qemu) the tracker lines are ordinary output. */

#include <stdint.h>
#include <stdio.h>

#include <cyclops/track.h>

#define N_WORDS 8192
#define BLOCKS  8
#define CRC_POLY 0xedb88320u /* CRC-32 (IEEE 802.3), reflected */

static uint32_t data[N_WORDS];
static uint32_t crc_table[256];

static void make_data(uint32_t seed)
{
	uint32_t x = seed;

	for (int i = 0; i < N_WORDS; i++) {
		x ^= x << 13; /* xorshift32 */
		x ^= x >> 17;
		x ^= x << 5;
		data[i] = x;
	}
}

static void build_crc_table(void)
{
	CY_TRACK_FUNCTION();

	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ CRC_POLY : c >> 1;
		crc_table[i] = c;
	}
}

static void sift_down(uint32_t *a, int start, int end)
{
	int root = start;

	while (2 * root + 1 <= end) {
		int child = 2 * root + 1;
		if (child + 1 <= end && a[child] < a[child + 1])
			child++;
		if (a[root] >= a[child])
			return;
		uint32_t t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

static void heap_sort(uint32_t *a, int n)
{
	for (int start = n / 2 - 1; start >= 0; start--)
		sift_down(a, start, n - 1);
	for (int end = n - 1; end > 0; end--) {
		uint32_t t = a[0];
		a[0] = a[end];
		a[end] = t;
		sift_down(a, 0, end - 1);
	}
}

/* Running CRC state: start from ~0, finish with ~. */
static uint32_t crc_update_table(uint32_t crc, const uint8_t *p, size_t n)
{
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

static uint32_t crc_update_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ CRC_POLY : crc >> 1;
	}
	return crc;
}

int main(void)
{
	static const uint8_t check[] = "123456789";
	const uint8_t *bytes = (const uint8_t *)data;
	const size_t block = sizeof(data) / BLOCKS;
	uint32_t by_table = ~0u, by_bits;
	int sorted = 1;

	CY_TRACK_START("setup");
	make_data(0x2545f491u);
	build_crc_table();
	CY_TRACK_END("setup");

	CY_TRACK_START("sort");
	heap_sort(data, N_WORDS);
	CY_TRACK_END("sort");
	for (int i = 1; i < N_WORDS; i++)
		sorted &= data[i - 1] <= data[i];

	CY_TRACK_START("checksum");
	for (int b = 0; b < BLOCKS; b++) {
		CY_TRACK_REPORT_START("crc32-table block");
		by_table = crc_update_table(by_table, bytes + b * block, block);
		CY_TRACK_REPORT_END("crc32-table block");
	}
	by_table = ~by_table;
	{
		CY_TRACK_SCOPE("crc32-bitwise");
		by_bits = ~crc_update_bitwise(~0u, bytes, sizeof(data));
	}
	CY_TRACK_END("checksum");

	uint32_t known = ~crc_update_table(~0u, check, sizeof(check) - 1);
	printf("sorted: %s\n", sorted ? "yes" : "no");
	printf("crc32(\"123456789\") = %08lx (expected cbf43926)\n", (unsigned long)known);
	printf("crc32(data) = %08lx by table, %08lx bitwise\n", (unsigned long)by_table,
	       (unsigned long)by_bits);
	if (!sorted || known != 0xcbf43926u || by_table != by_bits) {
		printf("tracked: self-check FAILED\n");
		return 1;
	}
	printf("tracked: self-check passed\n");
	return 0;
}
