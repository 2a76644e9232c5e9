/* CoreMark-style kernels as a guest benchmark, written for cyclops (not
 * CoreMark's code): each iteration builds, walks, reverses and sorts a
 * linked list; multiplies and scans small integer matrices; runs a state
 * machine that classifies numbers in a text; and folds every result into a
 * CRC-16, which the program prints. The iteration count is argv[1]
 * (default 20), so the bench can make a run as long as it needs.
 *   kernels.elf [ITERATIONS] */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LIST_NODES 256
#define MAT_N	   24

struct node {
	struct node *next;
	int32_t key;
	uint16_t data;
};

static uint16_t crc16(uint16_t crc, uint32_t value)
{
	for (int i = 0; i < 32; i++) {
		unsigned bit = (crc ^ value) & 1;
		crc >>= 1;
		value >>= 1;
		if (bit)
			crc ^= 0xa001;
	}
	return crc;
}

static uint32_t seed = 12345;
static uint32_t next_random(void)
{
	seed = seed * 1664525u + 1013904223u;
	return seed >> 7;
}

/* ---- the list: walk, find, reverse, merge sort ---- */
static struct node pool[LIST_NODES];

static struct node *list_build(uint32_t salt)
{
	struct node *head = NULL;

	for (int i = 0; i < LIST_NODES; i++) {
		pool[i].key = (int32_t)((next_random() ^ salt) % 10007) - 5000;
		pool[i].data = (uint16_t)(i * 7 + salt);
		pool[i].next = head;
		head = &pool[i];
	}
	return head;
}

static struct node *list_reverse(struct node *head)
{
	struct node *prev = NULL;

	while (head) {
		struct node *next = head->next;
		head->next = prev;
		prev = head;
		head = next;
	}
	return prev;
}

static const struct node *list_find(const struct node *head, int32_t key)
{
	for (; head; head = head->next)
		if (head->key == key)
			return head;
	return NULL;
}

static struct node *merge(struct node *a, struct node *b)
{
	struct node head, *tail = &head;

	while (a && b) {
		if (a->key <= b->key) {
			tail->next = a;
			a = a->next;
		} else {
			tail->next = b;
			b = b->next;
		}
		tail = tail->next;
	}
	tail->next = a ? a : b;
	return head.next;
}

static struct node *list_sort(struct node *head)
{
	struct node *slow = head, *fast;

	if (!head || !head->next)
		return head;
	for (fast = head->next; fast && fast->next; fast = fast->next->next)
		slow = slow->next;
	fast = slow->next;
	slow->next = NULL;
	return merge(list_sort(head), list_sort(fast));
}

static uint16_t list_kernel(uint16_t crc, uint32_t iteration)
{
	struct node *head = list_build(iteration);
	int32_t sum = 0;

	head = list_reverse(head);
	for (int k = -5000; k < 5000; k += 997) {
		const struct node *n = list_find(head, k);
		crc = crc16(crc, n ? n->data : 0xffffu);
	}
	head = list_sort(head);
	for (const struct node *n = head; n; n = n->next)
		sum = sum * 31 + n->key;
	return crc16(crc, (uint32_t)sum);
}

/* ---- matrices: multiply, add a constant, extract bits ---- */
static int16_t ma[MAT_N][MAT_N], mb[MAT_N][MAT_N];
static int32_t mc[MAT_N][MAT_N];

static uint16_t matrix_kernel(uint16_t crc, uint32_t iteration)
{
	int32_t acc = 0;

	for (int i = 0; i < MAT_N; i++)
		for (int j = 0; j < MAT_N; j++) {
			ma[i][j] = (int16_t)((i * 13 + j * 7 + iteration) % 255 - 127);
			mb[i][j] = (int16_t)((i * 5 + j * 11 + iteration * 3) % 199 - 99);
		}
	for (int i = 0; i < MAT_N; i++)
		for (int j = 0; j < MAT_N; j++) {
			int32_t s = 0;
			for (int k = 0; k < MAT_N; k++)
				s += ma[i][k] * mb[k][j];
			mc[i][j] = s + (int32_t)iteration;
		}
	for (int i = 0; i < MAT_N; i++)
		for (int j = 0; j < MAT_N; j++)
			acc += (mc[i][j] >> 3) & 0x3f;
	return crc16(crc, (uint32_t)acc);
}

/* ---- a state machine: integers, decimals, exponents, invalid ---- */
enum state { START, INT, FRAC, EXP_SIGN, EXP, INVALID, N_STATES };

static const char *const words[] = { "5012",   "-31.25", "6.02e23", "1e-3", "+--7",
				     "0.0001", "42x",	 "3.14159", "-9e+9", "." };

static uint16_t state_kernel(uint16_t crc, uint32_t iteration)
{
	uint32_t counts[N_STATES] = { 0 };

	for (unsigned w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		const char *p = words[(w + iteration) % (sizeof(words) / sizeof(words[0]))];
		enum state s = START;
		for (; *p && s != INVALID; p++) {
			char ch = *p;
			switch (s) {
			case START:
				s = (ch >= '0' && ch <= '9') || ch == '+' || ch == '-' ? INT
				    : ch == '.'					   ? FRAC
										   : INVALID;
				break;
			case INT:
				s = ch == '.'		    ? FRAC
				    : ch == 'e'		    ? EXP_SIGN
				    : ch >= '0' && ch <= '9' ? INT
							     : INVALID;
				break;
			case FRAC:
				s = ch == 'e' ? EXP_SIGN : ch >= '0' && ch <= '9' ? FRAC : INVALID;
				break;
			case EXP_SIGN:
				s = ch == '+' || ch == '-' || (ch >= '0' && ch <= '9') ? EXP : INVALID;
				break;
			case EXP: s = ch >= '0' && ch <= '9' ? EXP : INVALID; break;
			default: break;
			}
		}
		counts[s]++;
	}
	for (int s = 0; s < N_STATES; s++)
		crc = crc16(crc, counts[s]);
	return crc;
}

int main(int argc, char **argv)
{
	uint32_t iterations = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 20;
	uint16_t crc = 0;

	for (uint32_t i = 0; i < iterations; i++) {
		crc = list_kernel(crc, i);
		crc = matrix_kernel(crc, i);
		crc = state_kernel(crc, i);
	}
	printf("kernels: %u iterations, crc 0x%04x\n", (unsigned)iterations, crc);
	return 0;
}
