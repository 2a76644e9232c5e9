/* cli_counters.c - the performance counters at the end of a run
 * (--counters): a table for people on stderr and the "counters" member of
 * the JSON report. Both list what cy_vm_counters returns. */
#include <string.h>

#include "cli/cli.h"

#define COLOUR_HEAD "\033[1m"
#define COLOUR_OFF  "\033[0m"

/* "LD|ST" for an event mask, "-" for none */
static void event_list(char *buf, size_t size, uint32_t events)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < 32; i++) {
		const char *name = cy_counter_event_name(i);
		if (!(events & (1u << i)) || !name)
			continue;
		used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s%s",
					 used ? "|" : "", name);
	}
	if (!used)
		snprintf(buf, size, "-");
}

void cli_print_counters(FILE *f, const cy_vm *vm, bool colour)
{
	cy_counter rows[CY_MAX_COUNTERS];
	size_t n = cy_vm_counters(vm, rows, CY_MAX_COUNTERS);
	char events[200];

	if (n > CY_MAX_COUNTERS)
		n = CY_MAX_COUNTERS;
	fprintf(f, "cyclops: performance counters (%s build)\n", cy_vm_counters_build(vm));
	fprintf(f, "%s%-14s %-6s %20s  %s%s\n", colour ? COLOUR_HEAD : "", "counter", "csr",
		"value", "events", colour ? COLOUR_OFF : "");
	for (size_t i = 0; i < n; i++) {
		event_list(events, sizeof(events), rows[i].events);
		fprintf(f, "%-14s 0x%03x  %20llu  %s\n", rows[i].name, rows[i].csr,
			(unsigned long long)rows[i].value, events);
	}
}
