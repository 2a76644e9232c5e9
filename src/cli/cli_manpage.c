/* cli_manpage.c - the man page cyclops(1) and the bash and zsh completion
 * scripts, written from the option tables (cli_options.c) by
 * "cyclops --man" and "cyclops --completion SHELL"; make builds the
 * installed files with them. */
#include <string.h>

#include "cli/cli_options.h"
#include "cyclops.h"

/* text for troff: backslashes and dashes escaped, no line starting with a
 * control character. A newline in text starts a paragraph. */
static void man_inline(FILE *f, const char *s)
{
	bool line_start = true;

	for (; *s; s++) {
		if (line_start && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		line_start = false;
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\n') {
			fputs("\n.PP\n", f);
			line_start = true;
		} else
			fputc(*s, f);
	}
}

static void man_text(FILE *f, const char *s)
{
	man_inline(f, s);
	fputc('\n', f);
}

static void man_option(FILE *f, const struct cli_option *o)
{
	fputs(".TP\n", f);
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
	fputs("\\fB\\-\\-", f);
	for (const char *s = o->name; *s; s++)
		fputs(*s == '-' ? "\\-" : (char[2]){ *s, 0 }, f);
	fputs("\\fR", f);
	if (o->arg == CLI_ARG_REQUIRED) {
		fputs(" \\fI", f);
		man_inline(f, o->value);
		fputs("\\fR\n", f);
	} else if (o->arg == CLI_ARG_OPTIONAL) {
		fputs("[=\\fI", f);
		man_inline(f, o->value);
		fputs("\\fR]\n", f);
	} else {
		fputc('\n', f);
	}
	man_text(f, o->help);
}

void cli_print_man(FILE *f)
{
	fprintf(f,
		".\\\" cyclops.1 - written by cyclops --man from the option tables; do not edit\n"
		".TH CYCLOPS 1 \"\" \"cyclops %s\" \"User Commands\"\n"
		".SH NAME\n"
		"cyclops \\- a RISC\\-V virtual machine that tells where every cycle goes\n"
		".SH SYNOPSIS\n",
		CY_VERSION);
	for (int k = 0; k < n_cli_commands; k++) {
		fprintf(f, ".B cyclops %s\n", cli_commands[k]->name);
		if (*cli_commands[k]->synopsis)
			man_text(f, cli_commands[k]->synopsis);
		fputs(".br\n", f);
	}
	fputs(".B cyclops\n\\-\\-help | \\-\\-version | \\-\\-man | \\-\\-completion bash|zsh\n"
	      ".SH DESCRIPTION\n"
	      "cyclops runs statically linked RV32IMAC programs (Linux user mode, zkVM guests "
	      "or bare\\-metal firmware) and counts every instruction and cycle exactly, under "
	      "a cost model that says what a cycle is. It profiles them: cycle trackers, "
	      "performance counters, channel timers, call\\-stack profiles and PC sampling.\n",
	      f);
	for (int k = 0; k < n_cli_commands; k++) {
		const struct cli_command *c = cli_commands[k];
		fprintf(f, ".SH COMMAND: %s\n.B cyclops %s\n", c->name, c->name);
		man_text(f, c->synopsis);
		fputs(".PP\n", f);
		man_text(f, c->description);
		fputs(".SS Options\n", f);
		for (int j = 0; j < c->n_options; j++)
			man_option(f, &c->options[j]);
		if (c->notes) {
			fputs(".PP\n", f);
			man_text(f, c->notes);
		}
	}
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B CYCLOPS_MODELS\n"
	      "Directories, separated by colons, that \\fB\\-\\-model\\fR \\fINAME\\fR and "
	      "\\fBcyclops models\\fR search instead of the default: \\fImodels\\fR beside "
	      "the program's directory, or \\fIshare/cyclops/models\\fR beside it in an "
	      "installation.\n"
	      ".TP\n.B NO_COLOR\n"
	      "When set and not empty, human output uses no colour (colour is used only on a "
	      "terminal).\n"
	      ".SH FILES\n"
	      ".TP\n.I PREFIX/share/cyclops/models/*.model\n"
	      "The cost models of an installation.\n"
	      ".TP\n.I PREFIX/share/cyclops/guest\n"
	      "The guest kit: headers (\\fIcyclops/track.h\\fR, \\fIcyclops/timer.h\\fR, "
	      "\\fIcyclops/sample.h\\fR, ...), start files and the linker script for building "
	      "guests; its README says how.\n"
	      ".TP\n.I PREFIX/lib/pkgconfig/cyclops.pc\n"
	      "For programs that embed the VM: \\fBpkg\\-config \\-\\-cflags \\-\\-libs "
	      "cyclops\\fR.\n"
	      ".SH EXAMPLES\n"
	      ".nf\n"
	      "cyclops run \\-\\-model risc0 prog.elf\n"
	      "cyclops run \\-\\-cycle\\-tracker=quiet \\-\\-report r.json prog.elf\n"
	      "cyclops run \\-q \\-\\-profile prog.html prog.elf\n"
	      "cyclops run \\-\\-sample prog.elf && cyclops hist cyclops.samples \\-\\-elf "
	      "prog.elf\n"
	      ".fi\n"
	      ".SH SEE ALSO\n"
	      "\\fBqemu\\-riscv32\\fR(1), \\fBvalgrind\\fR(1), \\fBpprof\\fR(1); the guides in "
	      "the source tree's \\fIdocs/\\fR.\n",
	      f);
}

/* The long names of c's options, "--max-cycles --model ...", into buf. */
static void option_words(const struct cli_command *c, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (int k = 0; k < c->n_options && n < size; k++) {
		const struct cli_option *o = &c->options[k];
		if (o->short_name)
			n += (size_t)snprintf(buf + n, size - n, "%s-%c", n ? " " : "",
					      o->short_name);
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s--%s%s", n ? " " : "", o->name,
					      o->arg == CLI_ARG_OPTIONAL ? " --" : "");
		if (o->arg == CLI_ARG_OPTIONAL && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s=", o->name);
	}
}

static void print_bash(FILE *f)
{
	char words[2048];

	fputs("# bash completion for cyclops - written by cyclops --completion bash\n"
	      "_cyclops()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W '",
	      f);
	for (int k = 0; k < n_cli_commands; k++)
		fprintf(f, "%s ", cli_commands[k]->name);
	fputs("--help --version --man --completion' -- \"$cur\"))\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase ${COMP_WORDS[1]} in\n",
	      f);
	for (int k = 0; k < n_cli_commands; k++) {
		const struct cli_command *c = cli_commands[k];
		fprintf(f, "\t%s)\n\t\tcase $prev in\n", c->name);
		for (int j = 0; j < c->n_options; j++) {
			const struct cli_option *o = &c->options[j];
			if (o->arg != CLI_ARG_REQUIRED)
				continue;
			fprintf(f, "\t\t--%s) ", o->name);
			if (o->choices)
				fprintf(f, "COMPREPLY=($(compgen -W '%s' -- \"$cur\"))",
					o->choices);
			else if (o->complete == CLI_COMPLETE_FILE)
				fputs("COMPREPLY=($(compgen -f -- \"$cur\"))", f);
			else if (o->complete == CLI_COMPLETE_DIR)
				fputs("COMPREPLY=($(compgen -d -- \"$cur\"))", f);
			else
				fputs("COMPREPLY=()", f);
			fputs("; return ;;\n", f);
		}
		option_words(c, words, sizeof(words));
		fprintf(f,
			"\t\tesac\n"
			"\t\tif [[ $cur == -* ]]; then\n"
			"\t\t\tCOMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n"
			"\t\telse\n"
			"\t\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
			"\t\tfi\n"
			"\t\t;;\n",
			words);
	}
	fputs("\tesac\n}\ncomplete -o filenames -F _cyclops cyclops\n", f);
}

/* s for a zsh _arguments spec in single quotes: its first clause (up to
 * ';' or '(' or max bytes), no trailing blank, quotes closed and reopened,
 * no bracket or colon (they end a description or a message). */
static void zsh_text(FILE *f, const char *s, size_t max)
{
	size_t n = strcspn(s, ";(");

	if (n > max)
		n = max;
	while (n > 0 && s[n - 1] == ' ')
		n--;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\'')
			fputs("'\\''", f);
		else if (s[i] == '[' || s[i] == ']' || s[i] == ':' || s[i] == '\\')
			fputc(s[i] == ':' ? ',' : ' ', f);
		else
			fputc(s[i], f);
	}
}

static void print_zsh(FILE *f)
{
	fputs("#compdef cyclops\n"
	      "# zsh completion for cyclops - written by cyclops --completion zsh\n"
	      "_cyclops() {\n"
	      "\tlocal -a commands\n"
	      "\tcommands=(\n",
	      f);
	for (int k = 0; k < n_cli_commands; k++) {
		fprintf(f, "\t\t'%s:", cli_commands[k]->name);
		zsh_text(f, cli_commands[k]->summary, 200);
		fputs("'\n", f);
	}
	fputs("\t)\n"
	      "\tif (( CURRENT == 2 )); then\n"
	      "\t\t_describe command commands\n"
	      "\t\t_arguments '--help[the commands]' '--version[the version]' "
	      "'--man[the manual page]' '--completion[a completion script]:shell:(bash zsh)'\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tlocal cmd=$words[2]\n"
	      "\tshift words\n"
	      "\t(( CURRENT-- ))\n"
	      "\tcase $cmd in\n",
	      f);
	for (int k = 0; k < n_cli_commands; k++) {
		const struct cli_command *c = cli_commands[k];
		fprintf(f, "\t%s)\n\t\t_arguments -s", c->name);
		for (int j = 0; j < c->n_options; j++) {
			const struct cli_option *o = &c->options[j];
			/* an optional value (--sample=N) is left to the user */
			const char *eq = o->arg == CLI_ARG_REQUIRED ? "=" : "";
			fputs(" \\\n\t\t\t'", f);
			if (o->short_name)
				fprintf(f, "(-%c --%s)'{-%c,--%s%s}'", o->short_name, o->name,
					o->short_name, o->name, eq);
			else
				fprintf(f, "--%s%s", o->name, eq);
			fputc('[', f);
			zsh_text(f, o->help, 70);
			fputc(']', f);
			if (o->arg == CLI_ARG_REQUIRED) {
				fputc(':', f);
				zsh_text(f, o->value, 40);
				fputc(':', f);
				if (o->choices)
					fprintf(f, "(%s)", o->choices);
				else if (o->complete == CLI_COMPLETE_FILE)
					fputs("_files", f);
				else if (o->complete == CLI_COMPLETE_DIR)
					fputs("_files -/", f);
				else
					fputs(" ", f);
			}
			fputc('\'', f);
		}
		fputs(" \\\n\t\t\t'*:file:_files'\n\t\t;;\n", f);
	}
	fputs("\tesac\n}\n_cyclops \"$@\"\n", f);
}

int cli_print_completion(FILE *f, const char *shell)
{
	if (strcmp(shell, "bash") == 0)
		print_bash(f);
	else if (strcmp(shell, "zsh") == 0)
		print_zsh(f);
	else
		return -1;
	return 0;
}
