/* fuzz_json.c - the JSON reader (cyclops diff's reports and speedscope
 * files): arbitrary bytes as a document, then a walk of the tree. */
#include <stdint.h>
#include <stdlib.h>

#include "util/json.h"

static size_t walk(const struct json *v)
{
	size_t n = 1;

	for (size_t i = 0; i < v->n; i++)
		n += walk(&v->items[i]);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json doc;
	char err[128];

	if (json_parse(&doc, (const char *)data, size, err, sizeof(err)) != 0)
		return 0;
	walk(&doc);
	json_get(&doc, "cycles");
	json_free(&doc);
	return 0;
}
