/* chunks.c - the guest of the chunked-run tests (tests/run.sh, layer
 * scale): what it measures lasts longer than the tests' chunks (a few
 * thousand cycles), so that every profiler's state at a chunk's start
 * matters and must reach the chunk's worker:
 *   - a cycle-tracker span and a channel timer open over the whole run,
 *     and nested ones over each phase;
 *   - recursion argv[1] deep (default 40) whose innermost call loops for
 *     many chunks: the call stack at those chunks' starts is that deep,
 *     and the returns close frames pushed chunks earlier;
 *   - the sampler reset in phase 1 and paused over phase 2 by the guest;
 *   - lines on stdout as it goes, and stdin read at the start (host I/O a
 *     chunk replays). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cyclops/sample.h>
#include <cyclops/timer.h>
#include <cyclops/track.h>

static volatile uint32_t sink;

static __attribute__((noinline)) uint32_t work(uint32_t n, uint32_t seed)
{
	uint32_t h = seed;

	for (uint32_t i = 0; i < n; i++)
		h = h * 31 + (i ^ (h >> 7));
	return h;
}

static __attribute__((noinline)) uint32_t descend(int depth, uint32_t seed, uint32_t leaf)
{
	uint32_t r;

	if (depth == 0)
		return work(leaf, seed);
	r = descend(depth - 1, seed * 3 + 1, leaf);
	if (depth % 8 == 0) /* work on the way back up, deep in the stack */
		r ^= work(500, r);
	return r + 1;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 40;
	char line[64];
	ssize_t got = read(0, line, sizeof(line) - 1);

	CY_TIMER_INIT();
	CY_TRACK_START("all");
	CY_TIMER_START("all");
	for (int phase = 0; phase < 4; phase++) {
		CY_TRACK_START("phase");
		CY_TIMER_START("phase");
		if (phase == 1)
			cy_sample_reset();
		if (phase == 2)
			cy_sample_pause();
		sink += descend(depth, (uint32_t)phase, 20000 + 5000 * (uint32_t)phase);
		if (phase == 2)
			cy_sample_resume();
		CY_TIMER_STOP();
		CY_TRACK_END("phase");
		printf("phase %d: %08x\n", phase, (unsigned)sink);
	}
	CY_TIMER_STOP();
	CY_TRACK_END("all");
	printf("read %d bytes from stdin\n", (int)got);
	return 0;
}
