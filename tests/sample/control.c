/* Every guest-control call and every misuse code, in order; prints
 * "call result" per line. tests/sample/control.expected is the answer on
 * cyclops (derived from docs/sampling.md), control.qemu.expected the answer
 * anywhere else (every call CY_ENOT_ON_CYCLOPS). */
#include <stdio.h>
#include <string.h>

#include "cyclops/sample.h"

static void show(const char *what, int rc) { printf("%s %d\n", what, rc); }

int main(void)
{
	static char long_name[300];
	int on = cy_on_cyclops();

	printf("on_cyclops %d\n", on);
	/* nothing started yet: no buffer */
	show("pause", cy_sample_pause());
	show("resume", cy_sample_resume());
	show("reset", cy_sample_reset());
	show("save", cy_sample_save());
	show("stop", cy_sample_stop());
	show("start", cy_sample_start());
	show("pause", cy_sample_pause());
	show("pause-again", cy_sample_pause());
	show("resume", cy_sample_resume());
	show("resume-again", cy_sample_resume());
	show("reset", cy_sample_reset());
	/* names the output directory must not be left by */
	show("save-absolute", cy_sample_save_to("/tmp/cyclops-evil.samples"));
	show("save-dotdot", cy_sample_save_to("../up.samples"));
	show("save-inner-dotdot", cy_sample_save_to("sub/../../up.samples"));
	show("save-only-dotdot", cy_sample_save_to(".."));
	show("save-newline", cy_sample_save_to("bad\nname"));
	show("save-escape", cy_sample_save_to("bad\033name"));
	show("save-empty", cy_sample_save_to(""));
	memset(long_name, 'a', 256);
	show("save-too-long", cy_sample_save_to(long_name));
	if (on) {
		/* a name that runs to the end of the 4 GiB space (only cyclops
		 * lets a guest write there) */
		memset((char *)0xfffffff0, 'a', 16);
		show("save-past-memory", cy_sample_save_to((const char *)0xfffffff0));
	} else {
		show("save-past-memory", CY_ENOT_ON_CYCLOPS);
	}
	show("save-no-directory", cy_sample_save_to("no-such-dir/x.samples"));
	/* names that are fine */
	show("save-dots-in-name", cy_sample_save_to("a..b.samples"));
	show("save-default", cy_sample_save());
	show("save-named", cy_sample_save_to("control.samples"));
	show("stop", cy_sample_stop());
	/* stopped: the buffer is gone */
	show("pause-after-stop", cy_sample_pause());
	show("resume-after-stop", cy_sample_resume());
	show("save-after-stop", cy_sample_save_to("late.samples"));
	show("start-again", cy_sample_start());
	show("start-while-running", cy_sample_start());
	show("stop", cy_sample_stop());
	return 0;
}
