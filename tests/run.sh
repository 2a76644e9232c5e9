#!/usr/bin/env bash
# run.sh - runs every test layer of cyclops (make check): formatting, unit
# tests, the ISA tests, differential runs against qemu-riscv32, hand-counted
# instruction totals, fault reports, the command line and the embedding API.
# Prints "ok - NAME" or "not ok - NAME: why" per test, then "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

CYCLOPS=${CYCLOPS:-build/cyclops}
EMBED=${EMBED:-build/embed}
UNIT_DIR=${UNIT_DIR:-build/tests/unit}
QEMU=${QEMU:-qemu-riscv32}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/cyclops-tests.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

# Every run is bounded, so that a VM that hangs fails its test, not CI.
cy() { timeout 120 "$CYCLOPS" "$@"; }
emb() { timeout 120 "$EMBED" "$@"; }

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1: $2"; }
# expect NAME CONDITION-COMMAND... : ok when the command succeeds
expect() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name" "failed: $*"; fi
}

# The summary line's instruction count: "cyclops: N instructions, ..."
summary_insns() { sed -n 's/^cyclops: \([0-9]*\) instructions.*/\1/p' "$1" | tail -1; }

test_format() {
	local files
	files=$(ls include/*.h src/*.c src/*.h src/cli/*.c src/cli/*.h examples/*.c tests/unit/*.c 2>/dev/null)
	if ! command -v clang-format >/dev/null; then
		not_ok "format" "clang-format is not installed"
	elif clang-format --dry-run --Werror $files >"$OUT/format.txt" 2>&1; then
		ok "format: sources match .clang-format"
	else
		not_ok "format" "$(grep -c 'clang-format-violations' "$OUT/format.txt") places differ (make format)"
	fi
}

# Unit test binaries print "ok - ..." / "not ok - ..." lines themselves.
test_unit() {
	local t rc
	for t in "$UNIT_DIR"/test_*; do
		[ -x "$t" ] || continue
		case $(basename "$t") in
		test_elf) "$t" guest/build/hello.elf /bin/true >"$OUT/unit.txt" 2>&1 ;;
		*) "$t" >"$OUT/unit.txt" 2>&1 ;;
		esac
		rc=$?
		pass=$((pass + $(grep -c '^ok - ' "$OUT/unit.txt")))
		fail=$((fail + $(grep -c '^not ok - ' "$OUT/unit.txt")))
		grep '^not ok - ' "$OUT/unit.txt"
		if [ $rc -ne 0 ] && ! grep -q '^not ok - ' "$OUT/unit.txt"; then
			not_ok "$(basename "$t")" "exited $rc: $(tail -1 "$OUT/unit.txt")"
		fi
	done
}

# Self-checking ISA tests print "PASS name" and exit 0, in each of the
# interpreters: plain (unit), detailed (zero-riscy, risc0) and observed.
test_isa() {
	local elf name model
	for model in unit zero-riscy risc0; do
		for elf in tests/isa/build/*.elf; do
			name=$(basename "$elf" .elf)
			case $name in illegal*) continue ;; esac
			cy run -q --model $model "$elf" >"$OUT/isa.out" 2>"$OUT/isa.err"
			local rc=$?
			if [ $rc -eq 0 ] && grep -qx "PASS $name" "$OUT/isa.out"; then
				ok "isa: $name ($model)"
			else
				not_ok "isa: $name ($model)" "exit $rc, $(head -c 300 "$OUT/isa.out" "$OUT/isa.err" | tr '\n' ' ')"
			fi
		done
	done
	for elf in tests/isa/build/*.elf; do
		name=$(basename "$elf" .elf)
		case $name in illegal*) continue ;; esac
		emb --observe "$elf" >"$OUT/isa.out" 2>"$OUT/isa.err"
		expect "isa: $name (observed)" grep -qx "PASS $name" "$OUT/isa.out"
	done
}

# Same stdout and exit code as qemu-riscv32, for every program both can run.
differential() {
	local name=$1
	shift
	"$QEMU" "$@" >"$OUT/q.out" 2>/dev/null </dev/null
	local qrc=$?
	cy run -q ${CY_RUN_OPTS:-} "$@" >"$OUT/c.out" 2>"$OUT/c.err" </dev/null
	local crc=$?
	if [ $qrc -ne $crc ]; then
		not_ok "differential: $name" "exit $crc, qemu $qrc ($(head -c 200 "$OUT/c.err"))"
	elif ! cmp -s "$OUT/q.out" "$OUT/c.out"; then
		not_ok "differential: $name" "stdout differs from qemu's"
	else
		ok "differential: $name (exit $crc, $(wc -c <"$OUT/c.out") bytes of output)"
	fi
}

test_differential() {
	local elf name
	if ! command -v "$QEMU" >/dev/null; then
		not_ok "differential" "$QEMU is not installed (apt-get install qemu-user)"
		return
	fi
	for elf in guest/build/*.elf tests/isa/build/*.elf tests/count/build/*.elf; do
		name=$(basename "$elf" .elf)
		case $name in illegal*) continue ;; esac
		differential "$name" "$elf"
	done
	differential "hello with arguments" guest/build/hello.elf "first arg" second "" 'with "quotes"'
	for elf in guest/build/rv32im/*.elf; do
		[ -e "$elf" ] && differential "rv32im $(basename "$elf" .elf)" "$elf"
	done
}

# Instruction totals derived by hand in each guest's EXPECT-INSTRUCTIONS line.
test_counts() {
	local src name want got
	for src in tests/count/*.S; do
		name=$(basename "$src" .S)
		want=$(sed -n 's/^# EXPECT-INSTRUCTIONS: *\([0-9]*\).*/\1/p' "$src")
		cy run "tests/count/build/$name.elf" >/dev/null 2>"$OUT/count.err"
		got=$(summary_insns "$OUT/count.err")
		if [ -n "$want" ] && [ "$want" = "$got" ]; then
			ok "count: $name executes $want instructions"
		else
			not_ok "count: $name" "expected $want instructions, cyclops counted '$got'"
		fi
	done
}

# fault NAME EXPECTED-STATUS MESSAGE-REGEX ARGS... : runs cyclops, checks the
# exit status and that stderr has one line matching the regex.
fault() {
	local name=$1 want=$2 re=$3
	shift 3
	cy run "$@" >"$OUT/f.out" 2>"$OUT/f.err" </dev/null
	local rc=$?
	if [ $rc -ne "$want" ]; then
		not_ok "$name" "exit $rc, expected $want ($(head -c 200 "$OUT/f.err"))"
	elif ! grep -Eq -- "$re" "$OUT/f.err"; then
		not_ok "$name" "stderr '$(head -c 300 "$OUT/f.err")' does not match '$re'"
	else
		ok "$name"
	fi
}

test_faults() {
	local f=tests/faults/build
	fault "fault: illegal instruction names the word, pc and symbol" 252 \
		'^cyclops: illegal instruction 0x0000 at 0x00010000 <_start>$' tests/isa/build/illegal.elf
	fault "fault: write to a read-only CSR is illegal" 252 \
		'^cyclops: illegal instruction 0x[0-9a-f]{8} at 0x[0-9a-f]{8} <_start\+0x[0-9a-f]+>: csrrw x0,instret,x[0-9]+ ' \
		tests/isa/build/illegal_csrw.elf
	fault "fault: ebreak reports pc, symbol and instruction" 252 \
		'^cyclops: ebreak at 0x[0-9a-f]{8} <trap_here\+0x4>: ebreak \(no debugger attached\)$' $f/ebreak.elf
	expect "fault: output before the ebreak is kept" grep -qx "before ebreak" "$OUT/f.out"
	expect "fault: summary still printed after a fault" grep -q "^cyclops: [0-9]* instructions" "$OUT/f.err"
	fault "fault: c.ebreak stops like ebreak" 252 \
		'^cyclops: ebreak at 0x00010000 <_start>: ebreak \(no debugger attached\)$' $f/cebreak.elf
	fault "fault: jump to unmapped code names the target and the jump" 252 \
		'^cyclops: jump to unmapped address 0x50000000 from 0x[0-9a-f]{8} <leap\+0x[0-9a-f]+>: jalr x1,0\(x5\)$' \
		$f/jump_unmapped.elf
	# spin.S: 2 instructions, then a 2-instruction loop at `spin`; after N
	# cycles (N >= 2) the pc is spin for even N and spin+4 for odd N.
	local n
	for n in 2 3 1000 1001 64 65 100000 100001; do
		local at='<spin>: addi'
		[ $((n % 2)) -eq 1 ] && at='<spin\+0x4>: jal'
		fault "cycle limit: --max-cycles $n stops exactly at $n" 253 \
			"^cyclops: cycle limit $n reached at 0x[0-9a-f]{8} $at" --max-cycles "$n" $f/spin.elf
		expect "cycle limit: $n instructions retired" [ "$(summary_insns "$OUT/f.err")" = "$n" ]
	done
	fault "unsupported syscall: -ENOSYS to the guest, a warning naming it" 0 \
		'^cyclops: warning: unsupported syscall openat \(56\) at 0x[0-9a-f]{8}: returning -ENOSYS$' \
		$f/enosys.elf
	expect "unsupported syscall: one warning per number" \
		[ "$(grep -c 'unsupported syscall openat' "$OUT/f.err")" = 1 ]
	expect "unsupported syscall: an unnamed number is warned too" \
		grep -Eq '^cyclops: warning: unsupported syscall 1234 at 0x[0-9a-f]{8}: returning -ENOSYS$' "$OUT/f.err"
	fault "bad program: 64-bit ELF" 251 '^cyclops: /bin/true: 64-bit ELF' /bin/true
	fault "bad program: missing file" 251 '^cyclops: /nonexistent.elf: No such file or directory$' /nonexistent.elf
	printf 'not an elf at all' >"$OUT/text.elf"
	fault "bad program: not an ELF" 251 "^cyclops: $OUT/text.elf: not an ELF file" "$OUT/text.elf"
	fault "bad program: a directory" 251 '^cyclops: tests: not a regular file$' tests
}

test_cli() {
	fault "usage: no program" 250 '^cyclops: run: no program given' 
	fault "usage: unknown option" 250 "^cyclops: run: unknown option '--frobnicate'" --frobnicate x.elf
	fault "usage: bad --max-cycles" 250 '^cyclops: run: --max-cycles needs a positive number' --max-cycles 12x guest/build/hello.elf
	cy frobnicate >/dev/null 2>"$OUT/cli.err"
	expect "usage: unknown command exits 250" [ $? -eq 250 ]
	expect "usage: unknown command is named" grep -q "unknown command 'frobnicate'" "$OUT/cli.err"
	expect "cli: --version" sh -c "'$CYCLOPS' --version | grep -q '^cyclops [0-9]'"
	expect "cli: --help lists run" sh -c "'$CYCLOPS' --help | grep -q '^  run'"
	expect "cli: run --help lists --max-cycles" sh -c "'$CYCLOPS' run --help | grep -q -- '--max-cycles'"
	cy run guest/build/hello.elf >"$OUT/hello.out" 2>"$OUT/hello.err"
	expect "cli: summary line has instructions, cycles, time and MIPS" \
		grep -Eq '^cyclops: [0-9]+ instructions, [0-9]+ cycles, [0-9.]+ s, [0-9.]+ MIPS$' "$OUT/hello.err"
	cy run -q guest/build/hello.elf >/dev/null 2>"$OUT/hello.err"
	expect "cli: -q suppresses the summary" sh -c "! grep -q '^cyclops:' '$OUT/hello.err'"
	cy run -q guest/build/hello.elf -- --not-an-option >"$OUT/hello.out" 2>/dev/null
	expect "cli: arguments after -- go to the guest" grep -qx -- "argv\[1\] = --not-an-option" "$OUT/hello.out"
	cy run -q tests/count/build/count_straight.elf
	expect "cli: the exit status is the guest's (94)" [ $? -eq 94 ]
}

# Cost models: the totals derived by hand in tests/cost/*.S, lines
#   # EXPECT-CYCLES MODEL [OPTIONS]: N      (the summary's cycles)
#   # EXPECT-SUMMARY MODEL [OPTIONS]: TEXT  (the paging summary line)
#   # EXPECT-PARTS MODEL: TEXT              (an observer's sum of cost parts)
summary_cycles() { sed -n 's/^cyclops: [0-9]* instructions, \([0-9]*\) cycles.*/\1/p' "$1" | tail -1; }

test_cost() {
	local src elf name spec want opts model line
	for src in tests/cost/*.S; do
		name=$(basename "$src" .S)
		elf=tests/cost/build/$name.elf
		while IFS= read -r line; do
			spec=${line%%:*}
			want=${line#*: }
			model=${spec#* }
			model=${model#* }
			model=${model%% *}
			opts=${spec#* }
			opts=${opts#* }
			opts=${opts#"$model"}
			case $spec in
			"# EXPECT-CYCLES "*)
				cy run --model "$model" $opts "$elf" >/dev/null 2>"$OUT/cost.err"
				expect "cost: $name under $model$opts costs $want cycles" \
					[ "$(summary_cycles "$OUT/cost.err")" = "$want" ]
				expect "cost: $name under $model$opts retires the same instructions" \
					[ "$(summary_insns "$OUT/cost.err")" = "$(sed -n 's/^# EXPECT-INSTRUCTIONS: *//p' "$src")" ]
				;;
			"# EXPECT-SUMMARY "*)
				cy run --model "$model" $opts "$elf" >/dev/null 2>"$OUT/cost.err"
				expect "cost: $name under $model$opts: summary '$want'" \
					grep -qxF "cyclops: $want" "$OUT/cost.err"
				;;
			"# EXPECT-PARTS "*)
				emb --observe --model="$model" "$elf" >/dev/null 2>"$OUT/cost.err"
				expect "cost: $name under $model: an observer's parts are $want" \
					grep -qxF "embed: parts: $want" "$OUT/cost.err"
				local whole
				whole=$(sed -n 's/^embed: exited .*, \([0-9]* instructions, [0-9]* cycles\)$/\1/p' "$OUT/cost.err")
				for slice in 1 3 1000; do
					emb --slice=$slice --model="$model" "$elf" >/dev/null 2>"$OUT/slice.err"
					expect "cost: $name under $model in slices of $slice cycles: $whole" \
						grep -q "^embed: exited .*, $whole$" "$OUT/slice.err"
				done
				;;
			esac
		done < <(grep -E '^# EXPECT-(CYCLES|SUMMARY|PARTS) ' "$src")
	done
	cy models >"$OUT/models.out" 2>&1
	for model in unit zero-riscy risc0; do
		expect "cost: cyclops models lists $model with a description" \
			grep -Eq "^$model +[A-Z].{20,}" "$OUT/models.out"
	done
	fault "cost: an unknown model is named" 251 "^cyclops: no cost model 'frob' \\(see cyclops models\\)$" \
		--model frob guest/build/hello.elf
	printf 'cost alu 1\ncost load -2\n' >"$OUT/bad.model"
	fault "cost: a bad model file gives file, line and reason" 251 \
		"^cyclops: $OUT/bad.model:2: 'load' cannot be negative \\(-2\\)$" --model "$OUT/bad.model" guest/build/hello.elf
	fault "cost: --segment-po2 out of range" 250 "^cyclops: run: --segment-po2 needs a number from 13 to 24, got '12'$" \
		--model risc0 --segment-po2 12 guest/build/hello.elf
	fault "cost: risc0 segments of 2^14 leave no room after the margin" 251 \
		"^cyclops: model risc0: segments of 2\\^14 cycles leave no room after 25000$" \
		--model risc0 --segment-po2 14 guest/build/hello.elf
	fault "cost: --segment-po2 needs a paging model" 251 "^cyclops: model zero-riscy has no segments" \
		--model zero-riscy --segment-po2 16 guest/build/hello.elf
	for model in zero-riscy risc0; do
		CY_RUN_OPTS="--model $model" differential "under $model: sort" guest/build/sort.elf
	done
}

# The API in slices gives the same totals as one run of the command.
test_api() {
	local elf name whole
	for elf in tests/count/build/count_nested.elf guest/build/sort.elf; do
		name=$(basename "$elf" .elf)
		cy run "$elf" >/dev/null 2>"$OUT/whole.err"
		whole=$(summary_insns "$OUT/whole.err")
		for slice in 1 7 100000; do
			emb --slice=$slice "$elf" >/dev/null 2>"$OUT/api.err"
			expect "api: $name in slices of $slice cycles retires $whole instructions" \
				grep -q "exited after .*, $whole instructions" "$OUT/api.err"
		done
	done
	emb --observe guest/build/sha256.elf >/dev/null 2>"$OUT/obs.err"
	local total
	total=$(sed -n 's/^embed: [a-z]* *\([0-9]*\) instructions.*/\1/p' "$OUT/obs.err" | awk '{s += $1} END {print s}')
	cy run guest/build/sha256.elf >/dev/null 2>"$OUT/whole.err"
	expect "api: an observer sees every retired instruction ($total)" \
		[ "$total" = "$(summary_insns "$OUT/whole.err")" ]
}

# tally FILE: counts the "ok - " / "not ok - " lines a checker printed.
tally() {
	pass=$((pass + $(grep -c '^ok - ' "$1")))
	fail=$((fail + $(grep -c '^not ok - ' "$1")))
	grep '^not ok - ' "$1"
}

# embed_chunks_agree FILE: embed --track --chunk=N's per-chunk results,
# concatenated per name (report totals summed), equal its whole-run results.
embed_chunks_agree() {
	python3 - "$1" <<'PY'
import re, sys
chunks, run = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r'embed: (chunk \d+|run) "(.*)"((?: \d+)*)(?: report (\d+)/(\d+))?$', line.rstrip("\n"))
    if not m:
        continue
    into = run if m.group(1) == "run" else chunks
    values, total, count = into.setdefault(m.group(2), ([], [0], [0]))
    values.extend(int(v) for v in m.group(3).split())
    total[0] += int(m.group(4) or 0)
    count[0] += int(m.group(5) or 0)
sys.exit(0 if run and chunks == run else 1)
PY
}

# The cycle tracker. Each tests/tracker/*.S runs with --report and check.py
# holds the report, stdout and stderr to the EXPECT lines derived by hand in
# it (an "ARGS:" line replaces --cycle-tracker); then the command line, the
# example guest and the chunked API.
test_tracker() {
	local src name args rc hand f=tests/tracker/build
	if ! command -v python3 >/dev/null; then
		not_ok "tracker" "python3 is not installed"
		return
	fi
	for src in tests/tracker/*.S; do
		name=$(basename "$src" .S)
		args=$(sed -n 's/^# ARGS: *//p' "$src")
		rm -f "$OUT/t.json"
		"$CYCLOPS" run ${args:---cycle-tracker} --report "$OUT/t.json" "$f/$name.elf" \
			>"$OUT/t.out" 2>"$OUT/t.err" </dev/null
		rc=$?
		if [ $rc -ne 0 ]; then
			not_ok "tracker: $name" "exit $rc ($(head -c 200 "$OUT/t.err"))"
			continue
		fi
		python3 tests/tracker/check.py "$src" "$OUT/t.json" "$OUT/t.out" "$OUT/t.err" \
			>"$OUT/check.txt" 2>&1
		rc=$?
		tally "$OUT/check.txt"
		if [ $rc -ne 0 ] && ! grep -q '^not ok - ' "$OUT/check.txt"; then
			not_ok "tracker: $name: check.py" "exited $rc: $(tail -1 "$OUT/check.txt")"
		fi
		# the guests are plain Linux programs: the same output under qemu,
		# and qemu's trace confirms every "ecall at N" derived by hand
		# (the exit ecall's clock is the instruction total minus one)
		if command -v "$QEMU" >/dev/null; then
			differential "tracker guest $name" "$f/$name.elf"
			hand="$(sed -n 's/.*ecall at *\([0-9]*\).*/\1/p' "$src" | tr '\n' ' ')"
			hand="$hand$(($(sed -n 's/.*: \([0-9]*\) instructions.*/\1/p' "$src") - 1))"
			expect "tracker: $name: the ecall clocks derived by hand are qemu's ($hand)" \
				[ "$(QEMU=$QEMU tests/tracker/qemu_clocks.sh "$f/$name.elf")" = "$hand" ]
		fi
	done
	expect "tracker: the report leaves no temporary file behind" \
		sh -c "! ls '$OUT'/t.json.* 2>/dev/null | grep -q ."

	# off: the lines are ordinary output and there is no tree
	"$CYCLOPS" run "$f/twice.elf" >"$OUT/t.out" 2>"$OUT/t.err"
	expect "tracker: off, the lines are ordinary output" \
		[ "$(cat "$OUT/t.out")" = "$(printf 'cycle-tracker-start: c\ncycle-tracker-end: c\ncycle-tracker-end: c')" ]
	expect "tracker: off, no tree" sh -c "! grep -q 'cycle tracker' '$OUT/t.err'"

	# the example: quiet keeps stdout to the program's own lines
	"$CYCLOPS" run --cycle-tracker=quiet --report "$OUT/t.json" guest/build/tracked.elf \
		>"$OUT/t.out" 2>"$OUT/t.err"
	expect "tracker: quiet, stdout is the guest's output without tracker lines" \
		sh -c "[ \$(wc -l <'$OUT/t.out') -eq 4 ] && ! grep -q cycle-tracker '$OUT/t.out'"
	expect "tracker: the tree goes to stderr, nested" \
		sh -c "grep -q '^setup ' '$OUT/t.err' && grep -q '^  build_crc_table ' '$OUT/t.err' && grep -q '^  crc32-bitwise ' '$OUT/t.err'"
	expect "tracker: example's spans and report totals" python3 -c "
import json, sys
r = json.load(open('$OUT/t.json'))
spans = [(s['name'], s['depth']) for s in r['spans']]
sys.exit(not (spans == [('setup', 0), ('build_crc_table', 1), ('sort', 0), ('checksum', 0),
                        ('crc32-table block', 1), ('crc32-bitwise', 1)]
              and r['cycle_tracker_report']['crc32-table block']['count'] == 8
              and len(r['cycle_tracker']['crc32-table block']) == 8
              and r['exit_code'] == 0 and r['stop'] == 'exit'))"
	expect "tracker: no colour when piped" sh -c "! grep -q \$(printf '\\033') '$OUT/t.err'"
	if command -v script >/dev/null; then
		script -qec "'$CYCLOPS' run --cycle-tracker $f/twice.elf >/dev/null" /dev/null >"$OUT/tty.txt" 2>&1 </dev/null
		expect "tracker: colour on a terminal" grep -q "$(printf '\033')\[1m" "$OUT/tty.txt"
		NO_COLOR=1 script -qec "'$CYCLOPS' run --cycle-tracker $f/twice.elf >/dev/null" /dev/null >"$OUT/tty.txt" 2>&1 </dev/null
		expect "tracker: no colour on a terminal with NO_COLOR" sh -c "! grep -q \$(printf '\\033') '$OUT/tty.txt'"
	else
		not_ok "tracker: colour on a terminal" "script (util-linux) is not installed"
	fi

	# what was measured before a fault or the cycle limit is written out
	fault "tracker: report after a fault" 252 '^cyclops: ebreak at' --report "$OUT/f.json" tests/faults/build/ebreak.elf
	expect "tracker: the fault's report names the stop" python3 -c "
import json, sys
r = json.load(open('$OUT/f.json'))
sys.exit(not (r['stop'] == 'fault' and r['exit_code'] is None and r['status'] == 252
              and r['message'].startswith('ebreak at') and r['chunks'][-1]['done']))"
	fault "tracker: report at the cycle limit" 253 '^cyclops: cycle limit 1000 reached' \
		--max-cycles 1000 --chunk-cycles 300 --report "$OUT/f.json" tests/faults/build/spin.elf
	expect "tracker: the cycle limit's report has chunks up to it" python3 -c "
import json, sys
r = json.load(open('$OUT/f.json'))
sys.exit(not (r['stop'] == 'cycle_limit' and r['cycles'] == 1000 and
              [(c['start_cycle'], c['end_cycle']) for c in r['chunks']] == [(0, 300), (300, 600), (600, 900), (900, 1000)]))"

	fault "usage: bad --cycle-tracker value" 250 "^cyclops: run: --cycle-tracker takes no value or 'quiet', got 'loud'$" \
		--cycle-tracker=loud guest/build/hello.elf
	fault "usage: --report without a file" 250 '^cyclops: run: --report needs a file name$' --report
	fault "usage: --report into a missing directory" 250 \
		"^cyclops: run: cannot write the report to '/nonexistent/r.json': /nonexistent: No such file or directory$" \
		--report /nonexistent/r.json guest/build/hello.elf
	fault "usage: --chunk-cycles 0" 250 '^cyclops: run: --chunk-cycles needs a positive number' \
		--chunk-cycles 0 guest/build/hello.elf
	expect "cli: run --help lists --cycle-tracker and --report" \
		sh -c "'$CYCLOPS' run --help | grep -q -- '--cycle-tracker' && '$CYCLOPS' run --help | grep -q -- '--report'"

	# the API: per-chunk results concatenated are the whole run's
	for args in "1000 guest/build/tracked.elf" "1000000 guest/build/tracked.elf" \
		"10 $f/chunks.elf" "1 $f/report.elf"; do
		set -- $args
		"$EMBED" --track --chunk="$1" "$2" >/dev/null 2>"$OUT/embed.err"
		expect "api: $(basename "$2" .elf) in chunks of $1 cycles: chunks add up to the run" \
			embed_chunks_agree "$OUT/embed.err"
	done
}

. tests/zkvm/tests.sh
# Channel timers. Each tests/timer/*.S runs with --timers --report under the
# model of its "# MODEL:" line (unit if none), and once more per "# RUN TAG:
# ARGS" line; check.py holds each run to the EXPECT lines derived by hand.
# "Walking on water": "# EXPECT-DIFF MODEL: N" is what the timers cost the
# guest (the build with timers minus the one without), and the VM's
# --timers changes no count.
summary_counts() { echo "$(summary_insns "$1") $(summary_cycles "$1") $(grep '^cyclops: [0-9]* segments' "$1")"; }

test_timer() {
	local src name model tag args rc on off want m f=tests/timer/build
	if ! command -v python3 >/dev/null; then
		not_ok "timers" "python3 is not installed"
		return
	fi
	for src in tests/timer/*.S; do
		name=$(basename "$src" .S)
		model=$(sed -n 's/^# MODEL: *//p' "$src")
		model=${model:-unit}
		while IFS='|' read -r tag args; do
			rm -f "$OUT/tm.json"
			cy run --model "$model" $args --report "$OUT/tm.json" "$f/$name.elf" \
				>"$OUT/tm.out" 2>"$OUT/tm.err" </dev/null
			rc=$?
			if [ $rc -ne 0 ]; then
				not_ok "timers: $name ($tag)" "exit $rc ($(head -c 200 "$OUT/tm.err"))"
				continue
			fi
			python3 tests/timer/check.py "$src" "$tag" "$OUT/tm.json" "$OUT/tm.out" \
				"$OUT/tm.err" >"$OUT/check.txt" 2>&1
			rc=$?
			tally "$OUT/check.txt"
			if [ $rc -ne 0 ] && ! grep -q '^not ok - ' "$OUT/check.txt"; then
				not_ok "timers: $name: check.py" "exited $rc: $(tail -1 "$OUT/check.txt")"
			fi
		done < <(echo "default|--timers"; sed -n 's/^# RUN \([a-z0-9]*\): */\1|/p' "$src")
		while read -r m want; do
			cy run --model "$m" "$f/$name.elf" >/dev/null 2>"$OUT/on.err"
			cy run --model "$m" "$f/$name-off.elf" >/dev/null 2>"$OUT/off.err"
			on=$(summary_cycles "$OUT/on.err")
			off=$(summary_cycles "$OUT/off.err")
			expect "timers: $name under $m: the timers cost the guest exactly their own $want cycles ($on - $off)" \
				[ "$((on - off))" = "$want" ]
		done < <(sed -n 's/^# EXPECT-DIFF \([a-z0-9-]*\): */\1 /p' "$src")
		for m in unit zero-riscy risc0; do
			cy run --model $m "$f/$name.elf" >/dev/null 2>"$OUT/off.err"
			cy run --model $m --timers "$f/$name.elf" >/dev/null 2>"$OUT/on.err"
			expect "timers: $name under $m: watching the timers changes no count" \
				[ "$(summary_counts "$OUT/off.err")" = "$(summary_counts "$OUT/on.err")" ]
		done
	done
	# --significant N: in risc0.S, the steps of 453, 453 and 957 cycles reach
	# 400, the auipc's 323 does not
	cy run -q --model risc0 --significant 400 --report "$OUT/tm.json" "$f/risc0.elf" 2>"$OUT/tm.err"
	expect "timers: --significant 400 keeps the three steps of 400 cycles or more" python3 -c "
import json, sys
t = json.load(open('$OUT/tm.json'))['timers']
sys.exit(not (t['significant'] == 400 and [s['cycle_after'] - s['cycle_before'] for s in t['tree'][0]['steps']] == [453, 453, 957]))"
	fault "usage: bad --significant" 250 "^cyclops: run: --significant needs a positive number of cycles, got '0'$" \
		--significant 0 guest/build/hello.elf
	cy run -q --timers guest/build/hello.elf >/dev/null 2>"$OUT/tm.err"
	expect "timers: a guest that never announces its channels is told so" \
		grep -qx 'cyclops: timers: the guest never announced its channels (CY_TIMER_INIT)' "$OUT/tm.err"
	cy run -q "$f/nested.elf" 2>"$OUT/tm.err"
	expect "timers: off, nothing about timers" sh -c "! grep -q timer '$OUT/tm.err'"
	expect "cli: run --help lists --timers and --significant" \
		sh -c "'$CYCLOPS' run --help | grep -q -- '--timers' && '$CYCLOPS' run --help | grep -q -- '--significant'"
	# the C example: the header's announcement is recognised as compiled
	cy run -q --timers --report "$OUT/tm.json" guest/build/timed.elf >/dev/null 2>"$OUT/tm.err"
	expect "timers: the C example's tree" python3 -c "
import json, sys
t = json.load(open('$OUT/tm.json'))['timers']
sys.exit(not ([(n['label'], n['depth'], n['count']) for n in t['tree']] == [('workload', 0, 1), ('fill', 1, 1), ('strided sum', 1, 1), ('sort', 1, 1)]
              and t['warnings'] == []))"
	# under risc0 fill stores to 64 fresh pages of 1 KiB, one per step: 64
	# explained steps, each a store paging in and dirtying the page it wrote
	cy run -q --model risc0 --timers --report "$OUT/tm.json" guest/build/timed.elf >/dev/null 2>"$OUT/tm.err"
	expect "timers: the C example under risc0: fill's 64 fresh pages explained" python3 -c "
import json, sys
t = json.load(open('$OUT/tm.json'))['timers']
fill = [n for n in t['tree'] if n['label'] == 'fill'][0]
ok = fill['significant_steps'] == 64 and all(
    [(p['page'], p['reason']) for p in s['pages_in']] == [(s['writes'][0]['addr'] & ~1023, 'store')]
    and s['pages_out'] == [s['writes'][0]['addr'] & ~1023] for s in fill['steps'])
sys.exit(not ok)"
	if command -v script >/dev/null; then
		script -qec "'$CYCLOPS' run -q --timers $f/nested.elf" /dev/null >"$OUT/tty.txt" 2>&1 </dev/null
		expect "timers: colour on a terminal" grep -q "$(printf '\033')\[1mouter" "$OUT/tty.txt"
		NO_COLOR=1 script -qec "'$CYCLOPS' run -q --timers $f/nested.elf" /dev/null >"$OUT/tty.txt" 2>&1 </dev/null
		expect "timers: no colour with NO_COLOR" sh -c "! grep -q \$(printf '\\033') '$OUT/tty.txt'"
	fi
}

# The bare platform (docs/bare-metal.md): the machine-mode conformance set
# under every interpreter, the firmware examples, the differential against
# the Linux build of the same program, and bad input.
test_bare() {
	local elf name model want rc b=guest/bare/build
	for model in unit zero-riscy risc0; do
		for elf in tests/bare/build/*.elf; do
			name=$(basename "$elf" .elf)
			want=$(sed -n 's/^# EXPECT-EXIT: *\([0-9]*\).*/\1/p' "tests/bare/$name.S")
			cy run -q --model $model "$elf" >"$OUT/bare.out" 2>"$OUT/bare.err"
			rc=$?
			if [ $rc -eq "${want:-0}" ]; then
				ok "bare: $name exits ${want:-0} through tohost ($model)"
			else
				not_ok "bare: $name ($model)" "exit $rc, expected ${want:-0} $(head -c 300 "$OUT/bare.err")"
			fi
		done
	done
	for elf in tests/bare/build/*.elf; do
		name=$(basename "$elf" .elf)
		want=$(sed -n 's/^# EXPECT-EXIT: *\([0-9]*\).*/\1/p' "tests/bare/$name.S")
		emb --observe "$elf" >"$OUT/bare.out" 2>"$OUT/bare.err"
		expect "bare: $name (observed)" [ $? -eq "${want:-0}" ]
	done
	# trap events: interrupts.S takes 3 interrupts (tests 5, 11, 13) and the
	# passing ecall, and returns 3 times (the handler twice, the vector once);
	# traps.S traps in each of its 17 EXPECT tests and at the end, and
	# returns 17 times from its handler plus test 20's own mret
	emb --observe tests/bare/build/interrupts.elf >/dev/null 2>"$OUT/bare.err"
	expect "bare: observers see 4 traps (3 interrupts) and 3 returns" \
		grep -qx "embed: traps 4 (3 interrupts), returns 3, last \[trap ecall\]" "$OUT/bare.err"
	emb --observe tests/bare/build/traps.elf >/dev/null 2>"$OUT/bare.err"
	expect "bare: observers see 18 traps and 18 returns in traps.S" \
		grep -qx "embed: traps 18 (0 interrupts), returns 18, last \[trap ecall\]" "$OUT/bare.err"
	cy run -q tests/bare/build/htif_console.elf >"$OUT/bare.out" 2>"$OUT/bare.err"
	expect "bare: the HTIF console prints" [ "$(cat "$OUT/bare.out")" = "htif ok" ]
	# firmware examples
	cy run $b/uart_hello.elf >"$OUT/bare.out" 2>"$OUT/bare.err"
	expect "bare: uart_hello prints through the UART" \
		[ "$(cat "$OUT/bare.out")" = "Hello from machine mode, hart 0" ]
	cy run $b/illegal_count.elf >"$OUT/bare.out" 2>"$OUT/bare.err"
	expect "bare: illegal_count: 20 illegal instructions trapped and resumed" \
		grep -qx "illegal instructions trapped: 20 (want 20), last mtval 0x0000" "$OUT/bare.out"
	expect "bare: illegal_count: the summary counts 20 exceptions" \
		grep -qx "cyclops: bare: 20 exceptions, 0 interrupts" "$OUT/bare.err"
	for model in unit zero-riscy; do
		cy run --model $model $b/timer_irq.elf >"$OUT/bare.out" 2>"$OUT/bare.err"
		expect "bare: timer_irq: 10 timer interrupts on the $model clock" \
			grep -qx "10 timer interrupts, on time" "$OUT/bare.out"
		expect "bare: timer_irq: the summary counts 10 interrupts ($model)" \
			grep -qx "cyclops: bare: 0 exceptions, 10 interrupts" "$OUT/bare.err"
	done
	# 10 periods of 5000 cycles pass while main waits in wfi
	expect "bare: timer_irq: wfi skips to the interrupts (>= 50000 cycles)" \
		[ "$(summary_cycles "$OUT/bare.err")" -ge 50000 ]
	cy run -q $b/selftest.elf >"$OUT/bare.out" 2>"$OUT/bare.err"
	expect "bare: selftest passes through tohost" [ $? -eq 0 ]
	expect "bare: selftest reports on the HTIF console" grep -qx "selftest passed" "$OUT/bare.out"
	# the same program as a Linux guest and as firmware prints the same
	cy run -q guest/build/portable.elf >"$OUT/linux.out" 2>/dev/null
	rc=$?
	cy run -q $b/portable.elf >"$OUT/bare.out" 2>/dev/null
	expect "bare: differential: portable prints the same on linux and bare" \
		sh -c "[ $rc -eq 0 ] && [ $? -eq 0 ] && [ -s '$OUT/bare.out' ] && cmp -s '$OUT/linux.out' '$OUT/bare.out'"
	cy run -q --cycle-tracker $b/portable.elf >"$OUT/bare.out" 2>"$OUT/bare.err"
	expect "bare: the cycle tracker measures spans printed through the UART" \
		grep -Eq '^primes +1 +[1-9][0-9]+' "$OUT/bare.err"
	# platform selection and bad input
	fault "bare: mret on the linux platform is an illegal instruction" 252 \
		'^cyclops: illegal instruction 0x30200073 at 0x00010000 <_start>: mret \(machine mode only' \
		tests/faults/build/mret.elf
	fault "bare: --platform bare on a Linux program: the double fault is reported" 252 \
		'^cyclops: jump to unmapped address 0x00000000' --platform bare guest/build/hello.elf
	fault "bare: a handler that traps to itself stops the run" 252 \
		'^cyclops: ecall at 0x[0-9a-f]{8} <handler> would trap to itself \(mtvec\)$' \
		tests/faults/build/bare_trap_loop.elf
	fault "usage: bad --platform" 250 "^cyclops: run: --platform needs linux, bare or auto, got 'bsd'" \
		--platform bsd $b/uart_hello.elf
	fault "bad --ram: not ADDR:SIZE" 251 "--ram '0x80000000': expected ADDR:SIZE" \
		--ram 0x80000000 $b/uart_hello.elf
	fault "bad --ram: past 4 GiB" 251 "--ram: region 0xffff0000:1M is empty or passes 4 GiB" \
		--ram 0xffff0000:1M $b/uart_hello.elf
	fault "bad --ram: a size that overflows" 251 "--ram: region 0x0:99999999999999999G is empty or passes 4 GiB" \
		--ram 0x0:99999999999999999G $b/uart_hello.elf
	fault "bad --uart: misaligned" 251 "--uart 0x10000003: not 8-byte aligned" \
		--uart 0x10000003 $b/uart_hello.elf
	fault "usage: bad --uart" 250 "^cyclops: run: --uart needs a non-zero 32-bit address, got 'x'" \
		--uart x $b/uart_hello.elf
	fault "bare: no syscall ABI" 251 "the bare platform has no syscall ABI \(--abi sp1\)" \
		--abi sp1 $b/uart_hello.elf
	# the UART moved: the firmware's poll of LSR at 0x10000005 is a load
	# access fault (mcause 5: exit 100 + 5 from start.S's handler)
	fault "bare: --uart moves the UART; the old address faults" 105 '' \
		--uart 0x20000000 $b/uart_hello.elf
	# --ram too small for the stack: the store faults (exit 100 + 7)
	fault "bare: --ram limits the memory map" 107 '' --ram 0x80000000:4K $b/uart_hello.elf
}

echo "# cyclops tests"
test_format
test_unit
test_isa
test_differential
test_counts
test_cost
test_faults
test_cli
test_api
test_tracker
test_zkvm
test_timer
test_bare
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
