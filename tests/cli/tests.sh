# tests/cli/tests.sh - the command line as a user meets it (sourced by
# tests/run.sh): help that lists what the parser takes, the man page and
# completions written from the same tables, and a clear word for each
# misparse issue 24 names.

# The options a help text lists: "--name" at the start of its option lines.
help_options() { sed -n 's/^  \(-., \)\{0,1\}\(--[a-z0-9-]*\).*/\2/p'; }

test_cli_help() {
	local d=$OUT/cli-help o opts missing=
	mkdir -p "$d"
	"$CYCLOPS" --help >"$d/top.txt"
	expect "cli: --help lists every command (run, hist, models)" \
		sh -c "grep -q '^  run ' '$d/top.txt' && grep -q '^  hist ' '$d/top.txt' && grep -q '^  models ' '$d/top.txt'"
	"$CYCLOPS" run --help >"$d/run.txt"
	# the options docs/cli.md documents, read from its table, not from the code
	# (the other commands' sections, between hist's and run's, have their own)
	opts=$(sed '/^## cyclops annotate/,/^## cyclops run/d' docs/cli.md |
		sed -n 's/^| `\(-q`, `\)\{0,1\}\(--[a-z0-9-]*\).*/\2/p' | sort -u)
	for o in $opts; do
		help_options <"$d/run.txt" | grep -qx -- "$o" || missing="$missing $o"
	done
	expect "cli: run --help lists every option docs/cli.md documents (missing:${missing:- none})" \
		[ -z "$missing" -a -n "$opts" ]
	expect "cli: run --help lists --model and --segment-po2" \
		sh -c "grep -q -- '^  --model NAME|FILE' '$d/run.txt' && grep -q -- '^  --segment-po2 N' '$d/run.txt'"
	# every option the help names is one the parser knows
	missing=
	for o in $(help_options <"$d/run.txt"); do
		"$CYCLOPS" run "$o" 2>&1 | grep -q 'unknown option' && missing="$missing $o"
	done
	expect "cli: the parser knows every option run --help lists (unknown:${missing:- none})" [ -z "$missing" ]
	for cmd in hist annotate diff models; do
		"$CYCLOPS" $cmd --help >"$d/$cmd.txt"
		expect "cli: $cmd --help exits 0 with a usage line and -h, --help" \
			sh -c "grep -q '^usage: cyclops $cmd' '$d/$cmd.txt' && grep -q -- '^  -h, --help' '$d/$cmd.txt'"
	done
	# annotate's table in docs/cli.md against its --help: every option, and
	# every --NAME at the start of a row (a row may name two)
	opts=$(sed -n '/^## cyclops annotate/,/^## /p' docs/cli.md | grep '^| `--' |
		grep -o '`--[a-z0-9-]*' | tr -d '`' | sort -u)
	expect "cli: docs/cli.md's annotate table has every option of annotate --help and no other" \
		[ "$(echo $opts)" = "$(help_options <"$d/annotate.txt" | grep -v -- --help | sort -u | tr '\n' ' ' | sed 's/ $//')" ]
	opts=$(sed -n '/^## cyclops diff/,/^## /p' docs/cli.md | grep '^| `--' |
		grep -o '^| `--[a-z0-9-]*' | tr -d '`| ' | sort -u)
	expect "cli: docs/cli.md's diff table has every option of diff --help and no other" \
		[ "$(echo $opts)" = "$(help_options <"$d/diff.txt" | grep -v -- --help | sort -u | tr '\n' ' ' | sed 's/ $//')" ]
	expect "cli: hist --help lists --elf, --top, --json, --trim-path and --source-root" \
		sh -c "[ \"\$(help_options() { sed -n 's/^  \(-., \)\{0,1\}\(--[a-z0-9-]*\).*/\2/p'; }; help_options <'$d/hist.txt' | tr '\n' ' ')\" = '--elf --top --json --trim-path --source-root --help ' ]"
	"$CYCLOPS" models --frobnicate 2>"$d/models.err"
	expect "cli: models with an unknown option exits 250 and names it" \
		sh -c "[ $? = 250 ] && grep -q \"unknown option '--frobnicate'\" '$d/models.err'"
}

test_cli_man() {
	local d=$OUT/cli-man o missing=
	mkdir -p "$d"
	"$CYCLOPS" --man >"$d/cyclops.1"
	if ! command -v man >/dev/null; then
		not_ok "man page" "man (man-db) is not installed"
		return
	fi
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$d/cyclops.1" >"$d/man.txt" 2>"$d/man.err"
	expect "man: cyclops.1 renders without a warning" \
		sh -c "[ -s '$d/man.txt' ] && [ ! -s '$d/man.err' ]"
	for o in $("$CYCLOPS" run --help | help_options); do
		grep -Eq -- "^       (-., )?$o\\b" "$d/man.txt" || missing="$missing $o"
	done
	expect "man: every option of run --help has its paragraph (missing:${missing:- none})" [ -z "$missing" ]
	expect "man: NAME, SYNOPSIS, the three commands, ENVIRONMENT and EXIT statuses" \
		sh -c "grep -q '^NAME' '$d/man.txt' && grep -q '^SYNOPSIS' '$d/man.txt' &&
			grep -q '^COMMAND: run' '$d/man.txt' && grep -q '^COMMAND: hist' '$d/man.txt' &&
			grep -q '^COMMAND: annotate' '$d/man.txt' && grep -q '^COMMAND: diff' '$d/man.txt' &&
			grep -q '^COMMAND: models' '$d/man.txt' && grep -q 'CYCLOPS_MODELS' '$d/man.txt' &&
			grep -q '253 cycle limit' '$d/man.txt'"
}

# Completions: what bash offers after a typed prefix, by calling the function.
bash_complete() { # LINE...: the words typed, the last one being completed
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cyclops; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$OUT/cli-comp/cyclops.bash" "$@"
}

test_cli_completion() {
	local d=$OUT/cli-comp
	mkdir -p "$d"
	"$CYCLOPS" --completion bash >"$d/cyclops.bash"
	"$CYCLOPS" --completion zsh >"$d/_cyclops"
	expect "completion: bash script parses" bash -n "$d/cyclops.bash"
	expect "completion: bash offers the commands" \
		[ "$(bash_complete cyclops '' | grep -v '^--' | tr '\n' ' ')" = "run resume batch hist annotate diff models " ]
	expect "completion: bash completes run --seg to --segment-po2" \
		[ "$(bash_complete cyclops run --seg)" = "--segment-po2" ]
	expect "completion: bash offers the ABIs after run --abi" \
		[ "$(bash_complete cyclops run --abi '' | tr '\n' ' ')" = "linux sp1 sp1@v3 sp1@v4 sp1@v5 sp1@v6 pico pico@v1 risc0 auto " ]
	expect "completion: bash completes hist --j to --json" \
		[ "$(bash_complete cyclops hist --j)" = "--json" ]
	if command -v zsh >/dev/null; then
		expect "completion: zsh script parses" zsh -n "$d/_cyclops"
	else
		# without zsh: its quoting read by bash, which shares it, and a spec
		# line for each option of every command (counted from their
		# --help, not from the script's writer)
		local want=0 got
		for c in run resume batch hist annotate diff models; do
			want=$((want + $("$CYCLOPS" $c --help | help_options | wc -l)))
		done
		got=$(grep -cE "^$(printf '\t\t\t')'(\(-|--)" "$d/_cyclops")
		expect "completion: zsh script has #compdef, balanced quotes and a spec for each of the $want options ($got) (zsh not installed)" \
			sh -c "head -1 '$d/_cyclops' | grep -qx '#compdef cyclops' && bash -n '$d/_cyclops' && [ '$got' = '$want' ]"
	fi
	"$CYCLOPS" --completion fish 2>"$d/err"
	expect "completion: another shell is a usage error" [ $? = 250 ]
}

test_cli_misparse() {
	local h=guest/build/hello.elf c=tests/counters/build
	fault "usage: --counters gpu PROGRAM is an unknown build, not a program named gpu" 250 \
		"^cyclops: run: --counters takes fpga or asic, got 'gpu'$" --counters gpu "$h"
	fault "cli: --counters PROGRAM: the next word is the program when it is a file" 0 \
		'^cyclops: performance counters \(fpga build\)$' --counters "$h"
	fault "cli: --counters asic PROGRAM takes the build" 0 \
		'^cyclops: performance counters \(asic build\)$' --counters asic "$h"
	fault "usage: --chunk-cycles without --report is an error" 250 \
		"^cyclops: run: --chunk-cycles sets the report's chunks, and there is no --report FILE.json$" \
		--chunk-cycles 300 "$h"
	fault "cli: an option after the program is the guest's, with a warning naming it" 0 \
		"^cyclops: warning: --max-cycles is after the program, so it goes to the guest" \
		"$h" --max-cycles 5
	expect "cli: ... and the guest got it" grep -qx -- 'argv\[1\] = --max-cycles' "$OUT/f.out"
	expect "cli: ... and it did not limit the run" grep -q '^cyclops: [0-9]* instructions' "$OUT/f.err"
	cy run "$h" -- --max-cycles 5 >"$OUT/f.out" 2>"$OUT/f.err"
	expect "cli: no warning when -- says the arguments are the guest's" \
		sh -c "! grep -q warning '$OUT/f.err' && grep -qx -- 'argv\[1\] = --max-cycles' '$OUT/f.out'"
	cy run "$h" --maxcycles x >"$OUT/f.out" 2>"$OUT/f.err"
	expect "cli: no warning for a guest argument that is not a cyclops option" \
		sh -c "! grep -q warning '$OUT/f.err'"
	fault "usage: a flag given a value" 250 "^cyclops: run: --timers takes no value, got 'yes'$" \
		--timers=yes "$h"
}
