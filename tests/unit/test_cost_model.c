/* test_cost_model.c - the cost model file parser: good files give the
 * numbers written in them, bad ones a message with the file, the line and
 * the reason. Prints "ok - ..." / "not ok - ..." per check. */
#include <stdio.h>
#include <string.h>

#include "cost/model.h"

static int failures;

static void check(int cond, const char *what, const char *detail)
{
	if (cond) {
		printf("ok - %s\n", what);
	} else {
		printf("not ok - %s: %s\n", what, detail);
		failures++;
	}
}

/* The text must fail with exactly this message. */
static void bad(const char *text, const char *want)
{
	struct cost_model m;
	char err[300] = "", what[400];
	int rc = cost_model_parse(&m, text, "t.model", err, sizeof(err));

	snprintf(what, sizeof(what), "model parser: rejects with \"%s\"", want);
	check(rc < 0 && strcmp(err, want) == 0, what, err);
}

static void good_files(void)
{
	struct cost_model m;
	char err[300] = "";
	int rc;

	rc = cost_model_parse(&m,
			      "# comment\n\ndescription A test model\ncost alu 2   # inline\n"
			      "cost branch 2\nbranch-taken 5\ncost div 30\n",
			      "dir/fast.model", err, sizeof(err));
	check(rc == 0, "model parser: a good file parses", err);
	check(strcmp(m.name, "fast") == 0, "model parser: the name comes from the file name",
	      m.name);
	check(strcmp(m.description, "A test model") == 0,
	      "model parser: description is the rest of the line", m.description);
	check(m.class_cost[CY_CLASS_ALU] == 2 && m.class_cost[CY_CLASS_LOAD] == 1,
	      "model parser: listed classes take their cost, others cost 1", "");
	check(m.branch_taken == 5, "model parser: branch-taken", "");
	check(m.div_by_zero == 30, "model parser: div-by-zero defaults to the div cost", "");
	check(!cost_model_is_detailed(&m), "model parser: no memory timing: not detailed", "");

	rc = cost_model_parse(&m, "cost branch 3\n", "b.model", err, sizeof(err));
	check(rc == 0 && m.branch_taken == 3,
	      "model parser: branch-taken defaults to the branch cost", err);

	rc = cost_model_parse(&m, "data-wait-states 2\nfast-data-memory 0x1000 0x1fff\n", "w.model",
			      err, sizeof(err));
	check(rc == 0 && m.data_wait_states == 2 && m.fast_data_lo == 0x1000 &&
		  m.fast_data_hi == 0x1fff && cost_model_is_detailed(&m),
	      "model parser: hex ranges and wait states make a detailed model", err);

	for (int i = 0; i < 3; i++) {
		static const char *const shipped[] = { "models/unit.model",
						       "models/zero-riscy.model",
						       "models/risc0.model" };
		char what[200];
		rc = cost_model_load(&m, shipped[i], err, sizeof(err));
		snprintf(what, sizeof(what), "model parser: %s parses and has a description",
			 shipped[i]);
		check(rc == 0 && m.description[0], what, err);
	}
	rc = cost_model_load(&m, "models/risc0.model", err, sizeof(err));
	check(rc == 0 && m.paging && m.page_size == 1024 && m.page_in == 322 &&
		  m.merkle_node == 13 && m.merkle_depth == 22 && m.segment_po2 == 20 &&
		  m.segment_margin == 25000 && m.segment_reserved == 4113 && m.segment_paging == 10,
	      "model parser: risc0 has the issue's paging numbers", err);
	check(cost_model_segment_capacity(&m) == (1u << 20) - 25000,
	      "model parser: risc0 segment capacity is 2^20 - 25000", "");
	rc = cost_model_load(&m, "models/zero-riscy.model", err, sizeof(err));
	check(rc == 0 && m.class_cost[CY_CLASS_ALU] == 1 && m.class_cost[CY_CLASS_LOAD] == 2 &&
		  m.class_cost[CY_CLASS_STORE] == 2 && m.class_cost[CY_CLASS_JUMP] == 2 &&
		  m.class_cost[CY_CLASS_BRANCH] == 1 && m.branch_taken == 3 &&
		  m.class_cost[CY_CLASS_MUL] == 3 && m.class_cost[CY_CLASS_MULH] == 4 &&
		  m.class_cost[CY_CLASS_DIV] == 37 && m.div_by_zero == 2 &&
		  m.class_cost[CY_CLASS_CSR] == 1,
	      "model parser: zero-riscy has the issue's timings", err);
	rc = cost_model_load(&m, "no-such-model", err, sizeof(err));
	check(rc < 0 && strcmp(err, "no cost model 'no-such-model' (see cyclops models)") == 0,
	      "model loader: an unknown name says so", err);
	rc = cost_model_load(&m, "/nonexistent/x.model", err, sizeof(err));
	check(rc < 0 && strcmp(err, "/nonexistent/x.model: No such file or directory") == 0,
	      "model loader: a missing file names the file and the reason", err);
}

int main(void)
{
	good_files();
	bad("frobnicate 3\n", "t.model:1: unknown key 'frobnicate'");
	bad("# one\n\ncost alu -1\n", "t.model:3: 'alu' cannot be negative (-1)");
	bad("cost load\n", "t.model:1: 'load' needs a value");
	bad("cost\n", "t.model:1: 'cost' needs a class and a value");
	bad("cost frob 1\n", "t.model:1: unknown instruction class 'frob'");
	bad("cost none 1\n", "t.model:1: unknown instruction class 'none'");
	bad("cost alu two\n", "t.model:1: 'two' is not a number for 'alu'");
	bad("cost alu 70000\n", "t.model:1: 'alu' 70000 is too large (at most 65535)");
	bad("cost jump 0\n", "t.model:1: 'cost jump' must be at least 1 cycle");
	bad("branch-taken\n", "t.model:1: 'branch-taken' needs a value");
	bad("cost branch 3\nbranch-taken 2\n",
	    "t.model:0: branch-taken (2) is less than the not-taken cost (3)");
	bad("description\n", "t.model:1: 'description' needs a value");
	bad("fast-data-memory 0x2000\n", "t.model:1: 'fast-data-memory' needs a value");
	bad("fast-data-memory 0x2000 0x1000\n",
	    "t.model:1: 'fast-data-memory' range is empty (0x2000 > 0x1000)");
	bad("paging maybe\n", "t.model:1: 'paging' is on or off, not 'maybe'");
	bad("paging on\n", "t.model:0: paging needs page-size, merkle-depth and segment-po2");
	bad("page-size 1000\n", "t.model:1: 'page-size' must be a power of two >= 4");
	bad("segment-po2 12\n", "t.model:1: 'segment-po2' must be 13..24");
	bad("segment-po2 25\n", "t.model:1: 'segment-po2' 25 is too large (at most 24)");
	bad("paging on\npage-size 1024\nmerkle-depth 20\nsegment-po2 20\n",
	    "t.model:0: a Merkle tree of depth 20 cannot hold 4194304 pages");
	bad("paging on\npage-size 1024\nmerkle-depth 22\nsegment-po2 14\nsegment-margin 25000\n",
	    "t.model:0: segments of 2^14 cycles leave no room after the margin 25000");
	bad("cost alu 1\x01\n", "t.model:1: control character in the line");
	return failures ? 1 : 0;
}
