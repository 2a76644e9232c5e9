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
QEMU64=${QEMU64:-qemu-riscv64}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/cyclops-tests.XXXXXX")
[ -n "${KEEP_OUT:-}" ] || trap 'rm -rf "$OUT"' EXIT

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

# tally FILE: counts the "ok - " / "not ok - " lines a checker printed.
tally() {
	pass=$((pass + $(grep -c '^ok - ' "$1")))
	fail=$((fail + $(grep -c '^not ok - ' "$1")))
	grep '^not ok - ' "$1"
}

# tally for the engines' comparison of translated against interpreted
# runs (tests/engines.sh): a failure says which engines it compared.
tally_translated() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass=$((pass + 1)) ;;
		"not ok - "*) fail=$((fail + 1)) && echo "$line (translated against interpreted)" ;;
		esac
	done <"$1"
}

# The summary line's instruction count: "cyclops: N instructions, ..."
summary_insns() { sed -n 's/^cyclops: \([0-9]*\) instructions.*/\1/p' "$1" | tail -1; }

# The figure before WORD on the translation tier's debug line in FILE
# (CYCLOPS_JIT_DEBUG: "jit: R regions compiled, L loaded, E entries, C
# cycles translated, ..."): "cycles" for C, "entries," for E; empty if the
# line is missing.
jit_figure() {
	awk -v w="$2" '/^jit: .* cycles translated/ { for (i = 1; i < NF; i++) if ($(i + 1) == w) t = $i }
		END { if (t != "") print t }' "$1"
}

# Whether FILE's debug line says at least PERMILLE / 1000 of TOTAL cycles
# ran translated.
translated_permille() {
	local t
	t=$(jit_figure "$1" cycles)
	[ -n "$t" ] && [ -n "$2" ] && [ $((t * 1000)) -ge $(($2 * $3)) ]
}

test_format() {
	local files
	files=$(ls include/*.h src/*/*.c src/*/*.h examples/*.c tests/unit/*.c fuzz/*.c 2>/dev/null)
	if ! command -v clang-format >/dev/null; then
		not_ok "format" "clang-format is not installed"
	elif clang-format --dry-run --Werror $files >"$OUT/format.txt" 2>&1; then
		ok "format: sources match .clang-format"
	else
		not_ok "format" "$(grep -c 'clang-format-violations' "$OUT/format.txt") places differ (make format)"
	fi
}

# The source tree's stages (docs/architecture.md): no include against their
# direction, no include cycle; and the check itself catches both, on a copy
# of the tree with one backward include and one cycle added.
test_layout() {
	local t=$OUT/layout
	expect "layout: includes follow the stages, no cycle" \
		sh -c "python3 scripts/check-layout.py . >'$OUT/layout.txt'"
	mkdir -p "$t" && cp -r src include "$t/"
	printf '#include "observe/tracker.h"\n' >>"$t/src/core/mem.c"
	expect "layout: a core file including an observer is refused" \
		sh -c "python3 scripts/check-layout.py '$t' >'$t.1.txt'; [ \$? -eq 1 ] &&
			grep -q 'src/core/mem.c:[0-9]*: core/ may not include observe/tracker.h' '$t.1.txt'"
	rm -rf "$t/src" && cp -r src "$t/" # undo it
	printf '#include "core/mem.h"\n' >>"$t/src/core/isa.h"
	printf '#include "core/isa.h"\n' >>"$t/src/core/mem.h"
	expect "layout: an include cycle is refused" \
		sh -c "python3 scripts/check-layout.py '$t' >'$t.2.txt'; [ \$? -eq 1 ] &&
			grep -q 'include cycle: src/core/isa.h -> src/core/mem.h -> src/core/isa.h' '$t.2.txt'"
}

# Assembles generated programs (tests/gen/gen-programs.py) at their width:
# gen64-* for RV64, the others for RV32.
gen_build() {
	local f arch
	for f in "$@"; do
		case $(basename "$f") in
		gen64-*) arch="-march=rv64imac_zicsr_zifencei -mabi=lp64" ;;
		*) arch="-march=rv32imac_zicsr_zifencei -mabi=ilp32" ;;
		esac
		riscv64-unknown-elf-gcc $arch -mno-relax -nostdlib -nostartfiles -static \
			-Wl,-Ttext=0x10000 -Wl,--no-relax -o "${f%.S}.elf" "$f" ||
			not_ok "generated: $f" "does not assemble"
	done
}

# The accounting interface against the per-instruction reference: every
# guest of the suite, under each shipped model, with every profiler on, must
# write the same bytes under both engines (tests/engines.sh).
test_engines() {
	local m elfs line f seed=${ENGINES_SEED:-1} n=${ENGINES_PROGRAMS:-200}
	# and generated programs (tests/gen/gen-programs.py; ENGINES_SEED picks others)
	python3 tests/gen/gen-programs.py "$seed" "$n" "$OUT/gen" &&
		python3 tests/gen/gen-programs.py --xlen 64 "$seed" $((n / 2)) "$OUT/gen"
	gen_build "$OUT"/gen/*.S
	# write_2g.elf writes 2 GiB to stdout: the faults layer checks it alone
	elfs="$(ls guest/build/*.elf guest/bare/build/*.elf tests/*/build/*.elf | grep -v '/write_2g\.elf$') $(ls "$OUT"/gen/gen-*.elf)"
	# RV64 guests: not under risc0, whose paging prices a 32-bit machine
	elfs64="$(ls guest/build/rv64imac-lp64/*.elf tests/*/build/rv64/*.elf 2>/dev/null) $(ls "$OUT"/gen/gen64-*.elf)"
	echo "# engines: the suite's guests and $n + $((n / 2)) programs (rv32, rv64) generated with seed $seed"
	for m in unit zero-riscy risc0; do
		if [ $m = risc0 ]; then
			tests/engines.sh "$CYCLOPS" "$m" $elfs >"$OUT/engines.txt" 2>&1
		else
			tests/engines.sh "$CYCLOPS" "$m" $elfs $elfs64 >"$OUT/engines.txt" 2>&1
		fi
		tally "$OUT/engines.txt"
		echo "# engines: $m: $(grep -c "^ok - " "$OUT/engines.txt") guests write the same under both engines"
	done
	# the comparison itself sees one byte of difference in one file
	cat >"$OUT/skewed" <<EOF
#!/usr/bin/env bash
"$(realpath "$CYCLOPS")" "\$@"; rc=\$?
case " \$* " in *" --engine interp "*) printf x >>p.callgrind ;; esac
exit \$rc
EOF
	chmod +x "$OUT/skewed"
	expect "engines: a profile one byte longer under one engine is caught" \
		sh -c "tests/engines.sh '$OUT/skewed' unit guest/build/hello.elf | grep -q '^not ok - .*p.callgrind'"
}

# Two builds against each other (tests/versions.sh): with CYCLOPS_BEFORE=PATH
# (cyclops built from another commit, such as main's before a change meant
# only to make profiling cheaper), every guest of the kit and of the profile,
# lines, tracker, sample, scale, zkVM, timer and cost suites writes the same
# bytes under both, for each model and engine (about 15 minutes on two
# cores); without it, only the comparison itself is checked.
test_versions() {
	local line elfs
	# the comparison sees one byte of difference in one file
	cat >"$OUT/skewed" <<EOF
#!/usr/bin/env bash
"$(realpath "$CYCLOPS")" "\$@"; rc=\$?
[ -e p.callgrind ] && printf x >>p.callgrind
exit \$rc
EOF
	chmod +x "$OUT/skewed"
	expect "versions: a profile one byte longer under one build is caught" \
		sh -c "MODELS=unit RUN_ENGINES=interp tests/versions.sh '$CYCLOPS' '$OUT/skewed' guest/build/hello.elf | grep -q '^not ok - .*p.callgrind'"
	expect "versions: a build against itself writes the same" \
		sh -c "MODELS=unit RUN_ENGINES=interp tests/versions.sh '$CYCLOPS' '$CYCLOPS' guest/build/hello.elf | grep -q '^ok - '"
	if [ -z "${CYCLOPS_BEFORE:-}" ]; then
		ok "versions: skipped (CYCLOPS_BEFORE, a build of another commit, not given)"
		return
	fi
	elfs=$( (find guest/build -name '*.elf' && find tests/profile/build tests/lines/build \
		tests/tracker/build tests/sample/build tests/scale/build tests/zkvm/build \
		tests/timer/build tests/cost/build -name '*.elf') | sort)
	MAX_CYCLES=100000000 tests/versions.sh "$CYCLOPS_BEFORE" "$CYCLOPS" $elfs >"$OUT/versions.txt" 2>&1
	tally "$OUT/versions.txt"
	echo "# versions: $(grep -c '^ok - ' "$OUT/versions.txt") runs write the same under $CYCLOPS_BEFORE and $CYCLOPS"
}

# scripts/debian-packages.txt is honest: what the build, tests, demo and
# benchmark run comes from a listed package (docs/testing.md).
test_deps() {
	if ! command -v dpkg >/dev/null; then
		ok "deps: skipped (not a Debian system: no dpkg)"
		return
	fi
	python3 scripts/check-deps.py >"$OUT/deps.txt" 2>&1 ||
		grep -q '^not ok - ' "$OUT/deps.txt" || echo "not ok - deps: check-deps.py failed: $(tail -1 "$OUT/deps.txt")" >>"$OUT/deps.txt"
	pass=$((pass + $(grep -c '^ok - ' "$OUT/deps.txt")))
	fail=$((fail + $(grep -c '^not ok - ' "$OUT/deps.txt")))
	cat "$OUT/deps.txt"
}

# The docs: no table split by a blank line, every example's output still
# what cyclops prints, the example table's counts (scripts/check-docs.py).
test_docs() {
	python3 scripts/check-docs.py "$CYCLOPS" >"$OUT/docs.txt" 2>&1 ||
		grep -q '^not ok - ' "$OUT/docs.txt" || echo "not ok - docs: check-docs.py failed: $(tail -1 "$OUT/docs.txt")" >>"$OUT/docs.txt"
	pass=$((pass + $(grep -c '^ok - ' "$OUT/docs.txt")))
	fail=$((fail + $(grep -c '^not ok - ' "$OUT/docs.txt")))
	cat "$OUT/docs.txt"
}

# Unit test binaries print "ok - ..." / "not ok - ..." lines themselves.
test_unit() {
	local t rc
	for t in "$UNIT_DIR"/test_*; do
		[ -x "$t" ] || continue
		case $(basename "$t") in
		test_elf) "$t" guest/build/hello.elf /bin/true guest/build/rv64imac-lp64/hello.elf >"$OUT/unit.txt" 2>&1 ;;
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
	test_disasm_objdump
}

# The decoder and disassembler against GNU objdump on compiled code: the
# guest examples built for RV32 and RV64 (tests/unit/objdump_compare.py).
test_disasm_objdump() {
	local f d=$OUT/disasm line
	mkdir -p "$d"
	for f in sha256 sort bytecode matmul; do
		riscv64-unknown-elf-gcc --specs=picolibc.specs -march=rv32imac -mabi=ilp32 -O2 \
			-Iguest/include -c -o "$d/${f}32.o" "guest/examples/$f.c" &&
			riscv64-unknown-elf-gcc --specs=picolibc.specs -march=rv64imac -mabi=lp64 -O2 \
				-Iguest/include -c -o "$d/${f}64.o" "guest/examples/$f.c" ||
			not_ok "disasm: $f" "does not compile"
	done
	python3 tests/unit/objdump_compare.py "$UNIT_DIR/disasm_words" \
		riscv64-unknown-elf-objdump "$d"/*.o >"$d/out.txt" 2>&1
	tally "$d/out.txt"
	# the comparison sees a decoder that takes an RV64 file for RV32
	printf '#!/bin/sh\nsed "s/^64 /32 /" | "%s"\n' "$(realpath "$UNIT_DIR/disasm_words")" >"$d/skewed"
	chmod +x "$d/skewed"
	expect "disasm: decoding RV64 code at XLEN 32 is caught" \
		sh -c "python3 tests/unit/objdump_compare.py '$d/skewed' riscv64-unknown-elf-objdump '$d/sha25664.o' | grep -q '^not ok - '"
}

# Self-checking ISA tests print "PASS name" and exit 0, in each of the
# interpreters: plain (unit), detailed (zero-riscy, risc0) and observed.
test_isa() {
	local elf name model
	for model in unit zero-riscy risc0; do
		for elf in tests/isa/build/*.elf tests/isa/build/rv64/*.elf; do
			name=$(basename "$elf" .elf)
			case $name in illegal*) continue ;; esac
			# risc0's paging prices a 32-bit machine: RV64 guests are refused
			case $model/$elf in risc0/*/rv64/*) continue ;; esac
			cy run -q --model $model "$elf" >"$OUT/isa.out" 2>"$OUT/isa.err"
			local rc=$?
			if [ $rc -eq 0 ] && grep -qx "PASS $name" "$OUT/isa.out"; then
				ok "isa: $name ($model)"
			else
				not_ok "isa: $name ($model)" "exit $rc, $(head -c 300 "$OUT/isa.out" "$OUT/isa.err" | tr '\n' ' ')"
			fi
		done
	done
	for elf in tests/isa/build/*.elf tests/isa/build/rv64/*.elf; do
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
	timeout 120 "$QEMU" "$@" >"$OUT/q.out" 2>/dev/null </dev/null
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
	local elf name f n=${DIFFERENTIAL_PROGRAMS:-100}
	if ! command -v "$QEMU" >/dev/null || ! command -v "$QEMU64" >/dev/null; then
		not_ok "differential" "$QEMU or $QEMU64 is not installed (apt-get install qemu-user)"
		return
	fi
	for elf in guest/build/*.elf tests/isa/build/*.elf tests/count/build/*.elf; do
		name=$(basename "$elf" .elf)
		# qemu-riscv32 (user mode) has no performance counter CSRs
		case $name in illegal* | counters_*) continue ;; esac
		differential "$name" "$elf"
	done
	differential "hello with arguments" guest/build/hello.elf "first arg" second "" 'with "quotes"'
	for elf in guest/build/rv32im/*.elf; do
		[ -e "$elf" ] && differential "rv32im $(basename "$elf" .elf)" "$elf"
	done
	# RV64: the guest kit's examples and the RV64 ISA tests against qemu-riscv64
	for elf in guest/build/rv64imac-lp64/*.elf tests/isa/build/rv64/*.elf; do
		name=$(basename "$elf" .elf)
		case $name in illegal* | counters_*) continue ;; esac
		QEMU=$QEMU64 differential "rv64 $name" "$elf"
	done
	QEMU=$QEMU64 differential "rv64 hello with arguments" guest/build/rv64imac-lp64/hello.elf \
		"first arg" second "" 'with "quotes"'
	# generated programs of both widths, which end by writing their registers
	python3 tests/gen/gen-programs.py 11 "$n" "$OUT/dgen" &&
		python3 tests/gen/gen-programs.py --xlen 64 11 "$n" "$OUT/dgen"
	gen_build "$OUT"/dgen/*.S
	for f in "$OUT"/dgen/gen-*.elf; do
		differential "generated rv32 $(basename "$f" .elf)" "$f"
	done
	for f in "$OUT"/dgen/gen64-*.elf; do
		QEMU=$QEMU64 differential "generated rv64 $(basename "$f" .elf)" "$f"
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
	fault_cmd "$name" "$want" "$re" run "$@"
}

# fault_cmd NAME STATUS REGEX COMMAND ARGS...: the same for any subcommand
fault_cmd() {
	local name=$1 want=$2 re=$3
	shift 3
	cy "$@" >"$OUT/f.out" 2>"$OUT/f.err" </dev/null
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
	# limit_illegal.S: the limit at the boundary before an illegal
	# instruction stops the run there, under each model and engine
	local m e
	for m in unit zero-riscy; do
		for e in interp reference; do
			fault "cycle limit: --max-cycles 2 before an illegal instruction stops at the limit ($m, $e)" 253 \
				'^cyclops: cycle limit 2 reached at 0x[0-9a-f]{8} <_start\+0x8>: illegal 0x0000$' \
				--model $m --engine $e --max-cycles 2 $f/limit_illegal.elf
		done
	done
	fault "cycle limit: --max-cycles 3 past an illegal instruction: the fault" 252 \
		'^cyclops: illegal instruction 0x0000 at 0x[0-9a-f]{8} <_start\+0x8>$' --max-cycles 3 $f/limit_illegal.elf
	fault "unsupported syscall: -ENOSYS to the guest, a warning naming it" 0 \
		'^cyclops: warning: unsupported syscall openat \(56\) at 0x[0-9a-f]{8}: returning -ENOSYS$' \
		$f/enosys.elf
	expect "unsupported syscall: one warning per number" \
		[ "$(grep -c 'unsupported syscall openat' "$OUT/f.err")" = 1 ]
	expect "unsupported syscall: an unnamed number is warned too" \
		grep -Eq '^cyclops: warning: unsupported syscall 1234 at 0x[0-9a-f]{8}: returning -ENOSYS$' "$OUT/f.err"
	# RV64: the 1 TiB space and the 4 GiB code limit
	fault "rv64 fault: an access past 2^40 names the address and the instruction" 252 \
		'^cyclops: access to 0x10000000000, outside the guest.s 1 TiB address space, at 0x[0-9a-f]{8} <reach>: ld x11,0\(x10\)$' \
		$f/rv64/beyond_space.elf
	expect "rv64 fault: the two instructions before it retired" [ "$(summary_insns "$OUT/f.err")" = 2 ]
	for e in interp reference; do
		fault "rv64 fault: a misaligned access past 2^40 ($e engine, zero-riscy) stops before it" 252 \
			'^cyclops: access to 0x10000000002, outside the guest.s 1 TiB address space, at 0x[0-9a-f]{8} <reach>: ld x11,0\(x10\)$' \
			--engine $e --model zero-riscy $f/rv64/beyond_misaligned.elf
		expect "rv64 fault: ... costing nothing: the three instructions before it, 3 cycles ($e)" \
			[ "$(summary_cycles "$OUT/f.err")" = 3 ]
	done
	fault "rv64 fault: a jump to 4 GiB names the target and the jump" 252 \
		'^cyclops: jump to 0x100000000, past 4 GiB where no code can be, at 0x[0-9a-f]{8} <leap>: jalr x1,0\(x5\)$' \
		$f/rv64/jump_high.elf
	fault "rv64: data at 0x1c00000000 and at 2^40 - 8 is memory" 51 '^cyclops: 14 instructions' \
		$f/rv64/high_data.elf
	fault "rv64: the risc0 model (paging a 32-bit machine) is refused" 251 \
		"^cyclops: guest/build/rv64imac-lp64/hello.elf: model risc0 pages a 32-bit machine's memory" \
		--model risc0 guest/build/rv64imac-lp64/hello.elf
	fault "bad program: an x86-64 ELF" 251 '^cyclops: /bin/true: not a RISC-V ELF \(e_machine 62\)$' /bin/true
	fault "bad program: missing file" 251 '^cyclops: /nonexistent.elf: No such file or directory$' /nonexistent.elf
	printf 'not an elf at all' >"$OUT/text.elf"
	fault "bad program: not an ELF" 251 "^cyclops: $OUT/text.elf: not an ELF file" "$OUT/text.elf"
	fault "bad program: a directory" 251 '^cyclops: tests: not a regular file \(a directory\)$' tests
	test_hostile_files
	cy run -q tests/faults/build/write_2g.elf >/dev/null
	expect "a write of 2 GiB moves 0x7ffff000 bytes and returns that count, as Linux (not a negative one)" [ $? -eq 0 ]
}

# Files that are not what they seem: FIFOs are refused without waiting for
# a writer, a stream is read up to a bound, a large file is not read whole
# before its first bytes are checked, a model file's extra words are
# errors, and an output that cannot be written stops the run before it
# starts (docs/robustness.md).
test_hostile_files() {
	local d="$OUT/hostile" out
	mkdir -p "$d"
	mkfifo "$d/fifo"
	fault "bad program: a FIFO is refused at once" 251 "^cyclops: $d/fifo: not a regular file \(a FIFO\)$" "$d/fifo"
	fault "bad model: a FIFO is refused at once" 251 "^cyclops: $d/fifo: not a regular file \(a FIFO\)$" \
		--model "$d/fifo" guest/build/hello.elf
	fault "bad model: a directory" 251 "^cyclops: models/: not a regular file \(a directory\)$" \
		--model models/ guest/build/hello.elf
	printf 'cost alu 1 2\n' >"$d/extra.model"
	fault "bad model: an extra word after a key's values" 251 "^cyclops: $d/extra.model:1: 'cost' takes 2 values; '2' is one too many$" \
		--model "$d/extra.model" guest/build/hello.elf
	printf 'paging off on\n' >"$d/extra2.model"
	fault "bad model: an extra word after a one-value key" 251 "^cyclops: $d/extra2.model:1: 'paging' takes 1 value; 'on' is one too many$" \
		--model "$d/extra2.model" guest/build/hello.elf
	cy run -q --sample=1 --sample-out "$d/h.samples" guest/build/hello.elf >/dev/null 2>&1 </dev/null
	timeout 20 "$CYCLOPS" hist "$d/fifo" --elf guest/build/hello.elf >/dev/null 2>"$d/h.err"
	expect "hist: a FIFO as a histogram is refused at once (exit 1)" \
		sh -c "[ $? -eq 1 ] && grep -q 'fifo: not a regular file (a FIFO)' '$d/h.err'"
	timeout 20 "$CYCLOPS" hist "$d/h.samples" --elf "$d/fifo" >/dev/null 2>"$d/h.err"
	expect "hist: a FIFO as --elf is refused at once (exit 1)" \
		sh -c "[ $? -eq 1 ] && grep -q '^cyclops: hist: $d/fifo: not a regular file (a FIFO)$' '$d/h.err'"
	# 1.5 GB of zeros (sparse): the first four bytes are read, not the rest
	truncate -s 1500M "$d/big.bin"
	out=$(python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=60)
print(r.returncode, r.stderr.strip(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 500 * 1024)' \
		"$CYCLOPS" run "$d/big.bin")
	expect "bad program: a 1.5 GB file that is not an ELF is refused from its first bytes, under 500 MB of memory" \
		test "$out" = "251 cyclops: $d/big.bin: not an ELF file True"
	truncate -s 3G "$d/big.bin"
	fault "bad program: a file over 2 GiB is refused before it is read" 251 \
		"^cyclops: $d/big.bin: larger than 2147483648 bytes \(3221225472\)$" "$d/big.bin"
	rm -f "$d/big.bin"
	# outputs are checked before the guest runs: it prints nothing
	fault "usage: --sample-out in a missing directory stops the run before it starts" 250 \
		"^cyclops: run: cannot write the histogram to '/nonexistent/x.samples': /nonexistent: No such file or directory$" \
		--sample --sample-out /nonexistent/x.samples guest/build/hello.elf
	expect "usage: ... and the guest did not run" test ! -s "$OUT/f.out"
	fault "usage: --public-values in a missing directory stops the run before it starts" 250 \
		"^cyclops: run: cannot write the public values to '/nonexistent/pv.bin': /nonexistent: No such file or directory$" \
		--public-values /nonexistent/pv.bin guest/build/hello.elf
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

	fault "usage: bad --cycle-tracker value" 250 "^cyclops: run: --cycle-tracker takes quiet, got 'loud'$" \
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

# Performance counters: each tests/counters/*.S checks the counts derived by
# hand in its comments itself and exits with the number of the first check
# that failed (0: all passed). Its "# RUN: OPTIONS [-- GUEST ARGS]" lines
# say how to run it.
test_counters() {
	local src name elf line opts guest rc m c=tests/counters/build
	for src in tests/counters/*.S; do
		name=$(basename "$src" .S)
		elf=$c/$name.elf
		while IFS= read -r line; do
			opts=${line%% -- *}
			guest=
			case $line in *" -- "*) guest=${line#* -- } ;; esac
			cy run -q $opts "$elf" $guest >/dev/null 2>"$OUT/ctr.err" </dev/null
			rc=$?
			if [ $rc -eq 0 ]; then
				ok "counters: $name ($line)"
			else
				not_ok "counters: $name ($line)" "check $rc failed: $(head -c 200 "$OUT/ctr.err")"
			fi
		done < <(sed -n 's/^# RUN: *//p' "$src")
	done

	# a written mcycle reads back the same under any model (the writing
	# instruction's own cost, fetch stalls and page-ins included): hpm.S's
	# checks 1-6 hold everywhere, check 7 is the first with zero-riscy costs
	for m in unit risc0 tests/cost/zero-riscy-slow.model; do
		cy run -q --model "$m" "$c/hpm.elf" >/dev/null 2>&1
		rc=$?
		expect "counters: hpm under $m: mcycle and minstret read back what was written (stops at check 7)" [ $rc -eq 7 ]
	done

	# through the API: in slices of 1 and 3 cycles, and with an observer
	# (the observed interpreter), the checks pass the same
	local slice
	for slice in 1 3; do
		emb --slice=$slice --model=zero-riscy "$c/pulp_events.elf" fpga >/dev/null 2>"$OUT/ctr.err"
		expect "counters: pulp_events in slices of $slice cycles" grep -q '^embed: exited .* a0 0,' "$OUT/ctr.err"
		emb --slice=$slice --model=zero-riscy "$c/hpm.elf" >/dev/null 2>"$OUT/ctr.err"
		expect "counters: hpm in slices of $slice cycles" grep -q '^embed: exited .* a0 0,' "$OUT/ctr.err"
		emb --slice=$slice --model=tests/cost/zero-riscy-slow.model "$c/pulp_ext.elf" fpga >/dev/null 2>"$OUT/ctr.err"
		expect "counters: pulp_ext in slices of $slice cycles" grep -q '^embed: exited .* a0 0,' "$OUT/ctr.err"
	done
	emb --observe --model=zero-riscy "$c/pulp_modes.elf" fpga >/dev/null 2>"$OUT/ctr.err"
	expect "counters: pulp_modes with an observer attached" grep -q '^embed: exited .* a0 0,' "$OUT/ctr.err"

	# the table: the counters the guest enabled, values from pulp_events.S
	cy run --counters --model zero-riscy "$c/pulp_events.elf" fpga >/dev/null 2>"$OUT/ctr.err"
	expect "counters: the table names the build" grep -qx 'cyclops: performance counters (fpga build)' "$OUT/ctr.err"
	expect "counters: the table has pccr0 CYCLES = 26" grep -Eqx 'pccr0 +0x780 +26  CYCLES' "$OUT/ctr.err"
	expect "counters: the table has pccr5 LD = 3" grep -Eqx 'pccr5 +0x785 +3  LD' "$OUT/ctr.err"
	expect "counters: the table has pccr9 BTAKEN = 1" grep -Eqx 'pccr9 +0x789 +1  BTAKEN' "$OUT/ctr.err"
	cy run --counters asic --model zero-riscy "$c/pulp_events.elf" asic >/dev/null 2>"$OUT/ctr.err"
	expect "counters: the ASIC table has one counter, with the last mask's 0" \
		grep -Eqx 'pccr \(asic\) +0x780 +0  IMISS\|LD_EXT\|ST_EXT\|LD_EXT_CYC\|ST_EXT_CYC\|TCDM_CONT' "$OUT/ctr.err"
	cy run -q --model zero-riscy "$c/pulp_events.elf" fpga >/dev/null 2>"$OUT/ctr.err"
	expect "counters: no table without --counters" [ ! -s "$OUT/ctr.err" ]
	cy run -q --counters=fpga --model zero-riscy --report "$OUT/ctr.json" "$c/hpm.elf" >/dev/null 2>&1
	expect "counters: the report lists the HPM counters hpm.S derives" python3 -c "
import json, sys
r = json.load(open('$OUT/ctr.json'))
c = {x['name']: x for x in r['counters']}
sys.exit(not (r['counters_build'] == 'fpga' and c['mhpmcounter3']['value'] == 3
              and c['mhpmcounter3']['events'] == ['LD'] and c['mhpmcounter4']['value'] == 2
              and c['mhpmcounter5']['value'] == 22 and c['mhpmcounter8']['value'] == 0x100000008
              and c['mhpmcounter8']['csr'] == 0xb08))"

	# the examples: the ASIC one, counting each event alone, gets the FPGA
	# one's numbers (same measuring code), with fast and with slow memory
	local model
	for model in zero-riscy tests/cost/zero-riscy-slow.model; do
		cy run -q --model "$model" --counters fpga guest/build/counters_pulp.elf >"$OUT/fpga.out" 2>/dev/null
		rc=$?
		cy run -q --model "$model" --counters asic guest/build/counters_asic.elf >"$OUT/asic.out" 2>/dev/null
		expect "counters: the examples pass and agree event by event under $model" \
			bash -c "[ $rc -eq 0 ] && [ \$(wc -l <'$OUT/fpga.out') -eq 17 ] && cmp -s <(sed -n 2,17p '$OUT/fpga.out') <(sed -n 2,17p '$OUT/asic.out')"
	done

	fault "counters: csrw cycle is illegal (read-only)" 252 \
		'^cyclops: illegal instruction 0xc0001073 at 0x[0-9a-f]+ <_start\+0x[0-9a-f]+>: csrrw x0,cycle,x0 \(unknown or read-only CSR\)$' \
		"$c/write_cycle.elf"
	fault "counters: a faulting instruction is not counted (PCCR1 = 2)" 252 \
		'^pccr1 +0x781 +2  INSTR$' --counters "$c/write_cycle.elf"
	fault "counters: a counter CSR that does not exist is illegal" 252 \
		'csrrs x6,0xb01,x0 \(unknown or read-only CSR\)$' "$c/write_cycle.elf" x
	fault "usage: --counters with a build that does not exist" 250 \
		"^cyclops: run: --counters takes fpga or asic, got 'gpu'$" --counters=gpu "$c/hpm.elf"
	expect "cli: run --help lists --counters" sh -c "'$CYCLOPS' run --help | grep -q -- '--counters'"
}

. tests/zkvm/tests.sh
. tests/cli/tests.sh
. tests/install/tests.sh
. tests/scale/tests.sh
# Channel timers. Each tests/timer/*.S runs with --timers --report under the
# model of its "# MODEL:" line (unit if none), and once more per "# RUN TAG:
# ARGS" line; check.py holds each run to the EXPECT lines derived by hand.
# "Walking on water": "# EXPECT-DIFF MODEL: N" is what the timers cost the
# guest (the build with timers minus the one without), and the VM's
# --timers changes no count.
summary_counts() { echo "$(summary_insns "$1") $(summary_cycles "$1") $(grep '^cyclops: [0-9]* segments' "$1")"; }

# Runs elf with --timers and the arguments after it under the reference
# engine, the interpreter and translated code (every region compiled before
# it runs, EAGER, so that the announced timers run translated: the lean
# variant reports their channel stores, docs/jit.md) and expects the same
# report, stdout, stderr and status; what names the case in the message.
timers_same_bytes() {
	local what=$1 elf=$2 d=$OUT/tm-engines e x why=
	shift 2
	for e in reference interp jit; do
		CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_CACHE="$OUT/tm-cache" \
			timeout 300 "$CYCLOPS" run -q --engine $e "$@" --timers \
			--report "$d/$e.json" "$elf" >"$d/$e.out" 2>"$d/$e.err" </dev/null
		echo $? >"$d/$e.rc"
	done
	for e in interp jit; do
		for x in json out err rc; do
			cmp -s "$d/reference.$x" "$d/$e.$x" || why="$why $e.$x"
		done
	done
	expect "timers: $elf $what: the same bytes under interp and jit as under the reference engine${why:+ (differ:$why)}" \
		[ -z "$why" ]
}

# Announced, the timers run on the accounting interface where it gives
# every instruction's answer (docs/timers.md): the channel words watched,
# steps from ecalls and extra events. Every timers guest writes the same
# bytes (report, stdout, stderr, exit status) under the interpreter and
# translated code as under the reference engine (every instruction's
# events), under unit, events.model, zero-riscy and risc0 (on the
# interface: risc0's extras carry their instruction's store and cost parts,
# risc0_edges.S holds the stores an AMO and an sc make, and an ecall that
# pages in; zero-riscy's wait states cannot reach its threshold of 1000);
# and sp1-gas above its 1086-cycle division's threshold (every
# instruction's events: its memory rows make every access an extra).
timers_engines() {
	local elf m d=$OUT/tm-engines lim
	mkdir -p "$d"
	for elf in tests/timer/build/events.elf tests/timer/build/long.elf \
		tests/timer/build/many_slices.elf tests/timer/build/many_timers.elf \
		tests/timer/build/nested.elf tests/timer/build/risc0.elf tests/timer/build/walk.elf \
		tests/timer/build/risc0_edges.elf tests/timer/build/hot_announce.elf \
		tests/zkvm/build/risc0_timer.elf tests/zkvm/build/risc0_timer_sha.elf \
		guest/build/timed.elf guest/build/long/bytecode-timed.elf; do
		for m in unit tests/timer/events.model zero-riscy risc0; do
			# the long guest whole under unit only: its reference run takes 8 s
			lim=
			case $elf in */long/*) [ $m = unit ] || lim="--max-cycles 3000000" ;; esac
			timers_same_bytes "under $m" "$elf" --model $m $lim
		done
	done
	# the sampler every 5 cycles beside them: the variant without counts
	# (docs/jit.md, "Samples"), which must leave its region at the
	# announcement's flagged block when that runs in a hot loop
	# (hot_announce.S: without the exit, its timers hear of nothing)
	for elf in tests/timer/build/hot_announce.elf guest/build/timed.elf; do
		timers_same_bytes "with --sample=5" "$elf" --sample=5 --sample-out "$d/samples"
	done
	for elf in tests/timer/build/risc0_edges.elf tests/zkvm/build/risc0_timer_sha.elf \
		guest/build/timed.elf; do
		timers_same_bytes "under sp1-gas, --significant 2000" "$elf" --model sp1-gas \
			--significant 2000
	done
	# under risc0 at 50 cycles, the SHA ecall's charge (1 + 5 + 70) is a
	# step whose parts are the account's (its base, 1), as the reference's
	# RETIRE event carries them
	timers_same_bytes "under risc0, --significant 50" tests/zkvm/build/risc0_timer_sha.elf \
		--model risc0 --significant 50
	# wait states found inline (no cost parts in their extras): at 300, an
	# access to waits.model's slow memory (400 wait states) is a step, so
	# the timers watch every instruction's events; at 2000 none can be (at
	# most 37 + 2 + 2 * (2 * 400 + 1) = 1641 cycles): on the interface
	for lim in 300 2000; do
		timers_same_bytes "under waits.model, --significant $lim" tests/timer/build/risc0_edges.elf \
			--model tests/timer/waits.model --significant $lim
	done
	# a step from an ecall's charge (risc0_timer_sha.S, derived there): the
	# same bytes under the three engines, and the step as derived
	timers_same_bytes "under risc0_sha_step.model" tests/zkvm/build/risc0_timer_sha.elf \
		--model tests/zkvm/risc0_sha_step.model
	expect "timers: an ecall's charge is its timer's step (risc0_timer_sha.S)" python3 -c "
import json, sys
r = json.load(open('$d/interp.json')); t = r['timers']
sys.exit(not (r['instructions'] == 38 and r['cycles'] == 1043 and t['warnings'] == []
              and [(n['label'], n['count'], n['cycles'], n['instructions'], n['significant_steps']) for n in t['tree']] == [('t', 1, 1019, 14, 1)]
              and [(s['cycle_before'], s['cycle_after'], s['insn'], s['jump'], s['writes']) for s in t['tree'][0]['steps']] == [(29, 1035, 'ecall', None, [])]))"
	# chunked (docs/scale-out.md): the steps from events, in chunks of 1
	# and 7 cycles (a chunk starting at each instruction: the div after
	# events.S's jal and the ecall inherit the jump before the chunk), the
	# chunked run's bytes are the serial run's
	for x in "tests/timer/build/events.elf tests/timer/events.model" \
		"tests/zkvm/build/risc0_timer_sha.elf tests/zkvm/risc0_sha_step.model"; do
		set -- $x
		for lim in 1 7; do
			"$CYCLOPS" run -q --model "$2" --timers --report "$d/serial.json" --chunk-cycles $lim \
				"$1" >"$d/serial.out" 2>"$d/serial.err" </dev/null
			"$CYCLOPS" run -q --model "$2" --timers --report "$d/jobs.json" --chunk-cycles $lim \
				--checkpoint-every $lim --jobs 2 "$1" >"$d/jobs.out" 2>"$d/jobs.err" </dev/null
			expect "timers: $1 in chunks of $lim cycles on 2 jobs: the serial run's bytes" \
				sh -c "cmp -s '$d/serial.json' '$d/jobs.json' && cmp -s '$d/serial.err' '$d/jobs.err' && cmp -s '$d/serial.out' '$d/jobs.out'"
		done
	done
	# and the interface path is the one taken: a run every instruction's
	# events watch is never translated (the observed interpreter has no
	# translated code), while this one (a loop whose 23 instructions start
	# and stop a timer, N = 270000 times) runs most of its cycles so (the
	# rest: the interpreter from each watched store on to the next block a
	# region starts at), under unit, zero-riscy and risc0 (its page-ins are
	# the interpreter's)
	for m in unit zero-riscy risc0; do
		CYCLOPS_JIT_CACHE=$d/cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 \
			"$CYCLOPS" run --engine jit --model $m --timers tests/timer/build/many_slices.elf \
			>/dev/null 2>"$d/jit.err"
		expect "timers: announced, the timers leave the run translated under $m (many_slices.S: more than half its cycles)" \
			translated_permille "$d/jit.err" "$(summary_cycles "$d/jit.err")" 501
	done
}

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
	timers_engines
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

# Call-stack profiles (tests/profile/): each guest's folded stacks against
# its hand-derived EXPECT-FOLDED lines, its functions' self and inclusive
# cycles (EXPECT-PPROF) as go tool pprof and check.py's own protobuf decoder
# read them, and every format's total against the run's cycles.
PROFILE_EXTS="folded pb.gz speedscope.json callgrind trace.json svg html"
profile_args() { local e; for e in $PROFILE_EXTS; do printf -- '--profile %s.%s ' "$1" "$e"; done; }
pprof_row() { # FILE NAME: "NAME flat F cum C" from go tool pprof -top
	HOME=$OUT GOFLAGS=-mod=mod timeout 60 go tool pprof -top "$1" 2>/dev/null |
		awk -v n="$2" '$6 == n { print n " flat " $1 " cum " $4 }'
}
# Outputs whose path names a symbolic link, a FIFO or /dev/stdout are
# written through it, in place; a regular file is replaced whole (docs/robustness.md).
test_output_targets() {
	local d="$OUT/targets"
	mkdir -p "$d"
	ln -s real.folded "$d/link.folded"
	cy run -q --profile "$d/link.folded" guest/build/hello.elf >/dev/null 2>&1 </dev/null
	expect "profile: a symbolic link given as the output is written through, and stays a link" \
		sh -c "[ -L '$d/link.folded' ] && grep -q '^_start;' '$d/real.folded'"
	mkfifo "$d/p.folded"
	(timeout 60 cat "$d/p.folded" >"$d/from-fifo.folded") &
	cy run -q --profile "$d/p.folded" guest/build/hello.elf >/dev/null 2>&1 </dev/null
	wait
	expect "profile: a FIFO given as the output gets the profile and stays a FIFO" \
		sh -c "[ -p '$d/p.folded' ] && grep -q '^_start;' '$d/from-fifo.folded'"
	cy run -q --format folded --profile /dev/stdout guest/build/hello.elf >"$d/stdout.txt" 2>/dev/null </dev/null
	expect "profile: --profile /dev/stdout writes to stdout and leaves /dev/stdout a link" \
		sh -c "[ -L /dev/stdout ] && grep -q '^_start;' '$d/stdout.txt'"
}

test_profile() {
	test_output_targets
	local src name elf base want got rc line
	local have_go=0
	command -v go >/dev/null && have_go=1
	for src in tests/profile/*.S; do
		# the guests of the limits, below, have too many stacks to list
		grep -q '^# EXPECT-FOLDED:' "$src" || continue
		name=$(basename "$src" .S)
		elf=tests/profile/build/$name.elf
		base=$OUT/prof-$name
		cy run -q $(profile_args "$base") "$elf" >/dev/null 2>"$base.err"
		rc=$?
		expect "profile: $name exits $(sed -n 's/^# EXPECT-EXIT: *//p' "$src")" \
			[ "$rc" = "$(sed -n 's/^# EXPECT-EXIT: *//p' "$src")" ]
		sed -n 's/^# EXPECT-FOLDED: *//p' "$src" | sort >"$base.want"
		sort "$base.folded" >"$base.got" 2>/dev/null
		if cmp -s "$base.want" "$base.got"; then
			ok "profile: $name: stacks and self cycles as derived by hand"
		else
			not_ok "profile: $name: stacks" "$(diff "$base.want" "$base.got" | tr '\n' ' ')"
		fi
		# the per-pc costs are the blocks' run counts handed to each stack
		# (a hand-over to the wrong stack moves them); the stacks' own
		# totals come from the clock
		expect "profile: $name: pprof's per-pc costs add up per stack to the stacks derived by hand" \
			python3 tests/profile/check.py pprof-folded "$base.pb.gz" "$base.want"
		want=$(sed -n 's/^# EXPECT-CYCLES: *//p' "$src")
		expect "profile: $name: every format totals $want cycles" \
			python3 tests/profile/check.py totals "$want" $(for e in $PROFILE_EXTS; do echo "$base.$e"; done)
		python3 tests/profile/check.py pprof-top "$base.pb.gz" >"$base.top" 2>&1
		while IFS= read -r line; do
			expect "profile: $name: $line (check.py's protobuf decoder)" grep -qxF "$line" "$base.top"
			if [ $have_go = 1 ]; then
				got=$(pprof_row "$base.pb.gz" "${line%% *}")
				expect "profile: $name: $line (go tool pprof -top)" [ "$got" = "$line" ]
			fi
		done < <(sed -n 's/^# EXPECT-PPROF: *//p' "$src")
		got=$(callgrind_annotate "$base.callgrind" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | head -1 | tr -d ,)
		expect "profile: $name: callgrind_annotate's program total is $want" [ "$got" = "$want" ]
	done
	# deep recursion (tests/profile/deep.S, 2002 frames at the bottom): the
	# stack-per-line formats keep 256 frames a stack, the middle marked, so
	# they grow with depth, not with its square; every format still totals
	base=$OUT/prof-deep
	cy run -q $(profile_args "$base") tests/profile/build/deep.elf >/dev/null 2>&1
	expect "profile: deep: every format totals the 22006 cycles derived in deep.S" \
		python3 tests/profile/check.py totals 22006 $(for e in $PROFILE_EXTS; do echo "$base.$e"; done)
	expect "profile: deep: .folded lines of at most 256 frames; the 1746 stacks deeper than 256 marked; the innermost as derived" \
		python3 -c '
import sys
lines = open(sys.argv[1]).read().splitlines()
frames = [l.rsplit(" ", 1)[0].split(";") for l in lines]
marked = [f for f in frames if any("frames elided]" in x for x in f)]
inner = [l for l in lines if "[1747 frames elided]" in l]
want = ";".join(["_start"] + ["sum"] * 127 + ["[1747 frames elided]"] + ["sum"] * 127) + " 2"
sys.exit(not (max(map(len, frames)) == 256 and len(marked) == 1746 and inner == [want]))' "$base.folded"
	expect "profile: deep: speedscope samples of at most 256 frames, the 129th the [frames elided] frame" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = [f["name"] for f in d["shared"]["frames"]]
el = names.index("[frames elided]")
s = d["profiles"][0]["samples"]
sys.exit(not (max(map(len, s)) == 256 and all(x[128] == el for x in s if el in x)
              and sum(1 for x in s if el in x) == 1746))' "$base.speedscope.json"
	expect "profile: deep: .folded under 2.5 MB (written whole it would be 8 MB)" \
		[ "$(stat -c %s "$base.folded")" -lt 2500000 ]
	[ $have_go = 1 ] || ok "profile: go tool pprof checks skipped: go is not installed (check.py decoded the files)"

	# paging as pseudo-frames, the parts derived in tests/cost/risc0_pages.S
	# (_start there has no size: the entry's label names the root frame, issue 19)
	cy run -q --model risc0 --profile "$OUT/pages.folded" tests/cost/build/risc0_pages.elf
	printf '%s\n' '_start 13' '_start;[page-in] 2556' '_start;[page-out] 1769' \
		'_start;[segment] 4123' '_start;[ecall exit] 1' | sort >"$OUT/pages.want"
	expect "profile: risc0 paging: [page-in] 2556, [page-out] 1769, [segment] 4123 as derived" \
		cmp -s "$OUT/pages.want" <(sort "$OUT/pages.folded")

	# a compiled program under a detailed model: the totals still match
	local m
	for m in unit zero-riscy; do
		cy run --model $m $(profile_args "$OUT/sha-$m") guest/build/sha256.elf >/dev/null 2>"$OUT/sha.err"
		want=$(summary_cycles "$OUT/sha.err")
		expect "profile: sha256 ($m): every format totals the summary's $want cycles" \
			python3 tests/profile/check.py totals "$want" $(for e in $PROFILE_EXTS; do echo "$OUT/sha-$m.$e"; done)
	done
	expect "profile: sha256: callgrind has DWARF lines of examples/sha256.c, the path absolute" \
		grep -qx "fl=$PWD/guest/examples/sha256.c" "$OUT/sha-unit.callgrind"
	# segments on the clock: 4 of them, derived in tests/cost/risc0_segments.S
	cy run -q --model risc0 --segment-po2 15 --profile "$OUT/seg.trace.json" tests/cost/build/risc0_segments.elf
	expect "profile: trace.json: the 4 segments of risc0_segments.S, ending at its 28929 cycles" \
		python3 -c 'import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("tid") == 3 and e["ph"] == "X"]
sys.exit(not (len(ev) == 4 and ev[0]["ts"] == 0 and round((ev[-1]["ts"] + ev[-1]["dur"]) * 1000) == 28929))' "$OUT/seg.trace.json"

	test_timeline

	# the HTML report in headless Chromium
	mkdir -p "$OUT/chromium"
	tests/profile/html_chromium.sh "$OUT/sha-unit.html" "$OUT/chromium" main sha256_compress sha256_update \
		>"$OUT/chromium.txt" 2>&1
	rc=$?
	if [ $rc = 2 ]; then
		ok "profile: html in Chromium - skipped: chromium is not installed"
	else
		expect "profile: html renders in headless Chromium with the flame graph and no console errors" \
			[ $rc = 0 ]
		[ $rc = 0 ] || cat "$OUT/chromium.txt"
		mkdir -p build/artifacts && cp "$OUT/chromium/report.png" build/artifacts/profile-report.png 2>/dev/null
		test_html_chromium
	fi

	# bad requests
	fault "profile: unknown extension" 250 "^cyclops: run: --profile x.prof: unknown format" \
		--profile x.prof guest/build/hello.elf
	fault "profile: unknown --format" 250 "^cyclops: run: --format needs one of pprof" \
		--format nope --profile x guest/build/hello.elf
	fault "profile: --format without a --profile after it" 250 "^cyclops: run: --format applies to a --profile after it" \
		--format folded guest/build/hello.elf
	fault "profile: unwritable directory" 250 "^cyclops: run: cannot write the profile to '/nonexistent/p.folded': /nonexistent: No such file or directory$" \
		--profile /nonexistent/p.folded guest/build/hello.elf
	cy run -q --format folded --profile "$OUT/any.name" guest/build/hello.elf >/dev/null 2>&1
	expect "profile: --format folded writes folded stacks whatever the name" grep -q '^_start;main' "$OUT/any.name"
	cy run -q --max-cycles 1000 --profile "$OUT/limit.folded" guest/build/sha256.elf >/dev/null 2>&1
	expect "profile: written after the cycle limit, totalling 1000 cycles" \
		python3 tests/profile/check.py totals 1000 "$OUT/limit.folded"
	test_profile_limits
	test_profile_names
	test_profile_escapes
	test_profile_handover
}

# Hand-overs from a list of the blocks that ran that keeps none
# (CYCLOPS_ACCT_RAN_MAX=1: each hand-over visits every block, as when
# translated code fills the list) write the same bytes as with room for
# them, interpreted and translated at once: a recursion whose levels run
# different blocks and one function called through a pointer from three
# sites (tests/profile/handover.S), and qsort's comparison function.
test_profile_handover() {
	local elf name e max d cyc abs
	cyc=$(realpath "$CYCLOPS")
	for elf in tests/profile/build/handover.elf guest/build/sort.elf; do
		name=$(basename "$elf" .elf)
		abs=$(realpath "$elf")
		for e in interp jit; do
			for max in 0 1; do
				d=$OUT/ran-$name-$e-$max
				mkdir -p "$d"
				(cd "$d" && CYCLOPS_JIT_CACHE=$OUT/ran-cache CYCLOPS_JIT_EAGER=1 \
					CYCLOPS_ACCT_RAN_MAX=$max timeout 300 "$cyc" run -q --engine $e \
					--profile p.pb.gz --profile p.callgrind --profile p.folded \
					"$abs" >stdout 2>stderr)
			done
			expect "profile: $name ($e): the same profiles when the list of the blocks that ran keeps none" \
				diff -r "$OUT/ran-$name-$e-0" "$OUT/ran-$name-$e-1"
		done
		expect "profile: $name: the same profiles translated and interpreted" \
			diff -r "$OUT/ran-$name-interp-0" "$OUT/ran-$name-jit-1"
	done
}

# The report's interactive parts in headless Chromium, through its
# self-test (#selftest:search=NAME): sorting, search, zoom, reset, details
# and folded recursion against what the page itself holds
# (tests/profile/html_check.py); the annotated listing against qemu; the
# diff page. Screenshots go to build/artifacts/.
test_html_chromium() {
	local d=$OUT/chromium2 rc
	mkdir -p "$d/rec" "$d/inl" "$d/sha" "$d/diff" build/artifacts
	# recursion.S: sum recursing 4 deep, one frame when folded
	cy run -q --profile "$d/rec.html" tests/profile/build/recursion.elf >/dev/null 2>&1
	CY_HASH='#selftest:search=sum' tests/profile/html_chromium.sh "$d/rec.html" "$d/rec" sum >"$d/rec.txt" 2>&1
	expect "html: recursion.elf in Chromium: sort, search, zoom, reset, details; sum's 4 frames are 1 folded" \
		sh -c "[ $? = 0 ] && python3 tests/profile/html_check.py '$d/rec/dom.html' sum 1"
	cy run -q --profile "$d/sha.html" guest/build/sha256.elf >/dev/null 2>&1
	CY_HASH='#selftest:search=sha256' tests/profile/html_chromium.sh "$d/sha.html" "$d/sha" main >"$d/sha.txt" 2>&1
	expect "html: sha256.elf in Chromium: sort, search, zoom, reset, details, thousands separators" \
		sh -c "[ $? = 0 ] && python3 tests/profile/html_check.py '$d/sha/dom.html' sha256"
	cp "$d/sha/report.png" build/artifacts/profile-report-sha256.png 2>/dev/null
	if command -v "$QEMU" >/dev/null; then
		cy run -q --profile "$d/inl.html" tests/lines/build/inline.elf >/dev/null 2>&1
		CY_HASH='#selftest:search=mix' tests/profile/html_chromium.sh "$d/inl.html" "$d/inl" checksum step mix \
			>"$d/inl.txt" 2>&1
		expect "html: inline.elf in Chromium: the inlined frames, the search for mix" \
			sh -c "[ $? = 0 ] && python3 tests/profile/html_check.py '$d/inl/dom.html' mix"
		python3 -c 'import html, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<details[^>]*><summary>checksum:[^<]*</summary>\s*<pre>(.*?)</pre>", t, re.S)
print("checksum: 0 cycles\n" + html.unescape(m.group(1)) if m else "")' "$d/inl/dom.html" >"$d/inl-annotated.txt"
		expect "html: inline.elf: the annotated listing of checksum in the page, its counts as qemu and binutils give them" \
			python3 tests/lines/oracle.py annotate tests/lines/build/inline.elf "$d/inl-annotated.txt" checksum
		cp "$d/inl/report.png" build/artifacts/profile-report-inline.png 2>/dev/null
	fi
	cy run -q --profile "$d/a.pb.gz" tests/lines/build/diff_a.elf >/dev/null 2>&1
	cy run -q --profile "$d/b.pb.gz" tests/lines/build/diff_b.elf >/dev/null 2>&1
	cy diff --html "$d/diff.html" "$d/a.pb.gz" "$d/b.pb.gz" >/dev/null 2>&1
	tests/profile/html_chromium.sh "$d/diff.html" "$d/diff" scale fold main >"$d/diff.txt" 2>&1
	rc=$?
	expect "html: the diff page in Chromium: the differential flame graph drawn, scale red, no console errors" \
		sh -c "[ $rc = 0 ] && grep -Eq 'data-delta=\"[1-9][0-9]*\" data-name=\"scale\"' '$d/diff/dom.html' &&
		       grep -Eq 'data-delta=\"0\" data-name=\"fold\"' '$d/diff/dom.html'"
	[ $rc = 0 ] || cat "$d/diff.txt"
	cp "$d/diff/report.png" build/artifacts/diff-report.png 2>/dev/null
}

# The timeline (.trace.json): its spans at their clocks, 1 cycle = 1 ns
# (ts and dur in microseconds), checked against the tracker's and the
# timers' reports, and a call's clock against qemu's trace.
test_timeline() {
	local b=$OUT/timeline
	cy run -q --cycle-tracker=quiet --chunk-cycles 1000000 --report "$b.json" \
		--profile "$b.trace.json" guest/build/tracked.elf >/dev/null 2>&1
	expect "timeline: tracked.elf: each span's instances on the spans track, their cycles the report's, in the report's order" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
ev = [e for e in t["traceEvents"] if e["ph"] == "X"]
spans = {}
for e in ev:
    if e["tid"] == 4:
        spans.setdefault(e["name"], []).append(round(e["dur"] * 1000))
want = r["cycle_tracker"]
sys.exit(not (spans == want and t["displayTimeUnit"] == "ns"))' "$b.json" "$b.trace.json"
	expect "timeline: tracked.elf: the chunks track is the report's chunks, the run track the whole run" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
ev = [e for e in t["traceEvents"] if e["ph"] == "X"]
ch = [(round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000)) for e in ev if e["tid"] == 2]
run = [(e["ts"], round(e["dur"] * 1000)) for e in ev if e["tid"] == 1]
want = [(c["start_cycle"], c["end_cycle"]) for c in r["chunks"]]
sys.exit(not (ch == want and len(ch) > 1 and run == [(0, r["cycles"])]))' "$b.json" "$b.trace.json"
	cy run -q --timers --report "$b-t.json" --profile "$b-t.trace.json" tests/timer/build/nested.elf >/dev/null 2>&1
	expect "timeline: nested.S: the timers track is the report's slices, at their clocks" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
names = [n["label"] for n in r["timers"]["tree"]]
ev = [(e["name"], round(e["ts"] * 1000), round(e["dur"] * 1000)) for e in t["traceEvents"]
      if e["ph"] == "X" and e["tid"] == 5]
want = [(names[s["timer"]], s["start_cycle"], s["end_cycle"] - s["start_cycle"]) for s in r["timers"]["slices"]]
sys.exit(not (ev == want and len(ev) > 2))' "$b-t.json" "$b-t.trace.json"
	# a call at its clock: checksum, entered once, calling nothing, runs
	# from the trace's position of its first instruction for as many
	# instructions as lie in it (qemu's single-step trace and nm)
	if command -v "$QEMU" >/dev/null; then
		cy run -q --profile "$b-c.trace.json" tests/lines/build/inline.elf >/dev/null 2>&1
		expect "timeline: inline.elf: checksum's call on the calls track at qemu's clock, as long as qemu counts" \
			python3 -c 'import json, sys, subprocess, re
elf, path = sys.argv[1], sys.argv[2]
lo, size = [int(x, 16) for x in subprocess.run(["riscv64-unknown-elf-nm", "-S", elf], capture_output=True,
    text=True).stdout.split("\n") and [l.split()[:2] for l in subprocess.run(["riscv64-unknown-elf-nm", "-S", elf],
    capture_output=True, text=True).stdout.splitlines() if l.endswith(" checksum")][0]]
log = subprocess.run([sys.argv[3], "-singlestep", "-d", "exec,nochain", "-D", "/dev/stdout", elf],
    capture_output=True, text=True).stdout
pcs = [int(m.group(1), 16) for m in (re.match(r"^Trace [0-9]+: [^[]*\[[0-9a-f]*/([0-9a-f]+)/", l) for l in log.splitlines()) if m]
inside = [i for i, pc in enumerate(pcs) if lo <= pc < lo + size]
ev = [e for e in json.load(open(path))["traceEvents"] if e["ph"] == "X" and e["tid"] == 6 and e["name"] == "checksum"]
sys.exit(not (len(ev) == 1 and round(ev[0]["ts"] * 1000) == inside[0] and round(ev[0]["dur"] * 1000) == len(inside)))' \
				tests/lines/build/inline.elf "$b-c.trace.json" "$QEMU"
	fi
}

# bounded NAME CMD... : runs CMD held to 10 s of CPU (a hang fails rather
# than holds the suite), its stdout and stderr to NAME.out and NAME.err;
# NAME.use gets "STATUS CPU-SECONDS PEAK-RSS-KB".
bounded() {
	local name=$1
	shift
	python3 -c 'import os, resource, subprocess, sys
def limit(): resource.setrlimit(resource.RLIMIT_CPU, (10, 11))
with open(sys.argv[1] + ".out", "wb") as o, open(sys.argv[1] + ".err", "wb") as e:
    p = subprocess.Popen(sys.argv[2:], preexec_fn=limit, stdout=o, stderr=e)
# this child alone: RUSAGE_CHILDREN would also count what ran before python
# in this process (a pyenv shim and its children: 0.3 s and up to 39 MB)
_, status, ru = os.wait4(p.pid, 0)
print(os.waitstatus_to_exitcode(status), "%.2f" % (ru.ru_utime + ru.ru_stime), ru.ru_maxrss)' "$name" "$@" >"$name.use"
}
# within NAME BASE : the run of bounded NAME exited 0 and took under 2 s of
# CPU and 32 MB more than the run of bounded BASE (the same command on an
# ordinary ELF: its floor is the build's, some 10 MB plain, 40 MB under ASan)
within() {
	awk 'NR == FNR { cpu = $2; kb = $3; next } { exit !($1 == 0 && $2 < cpu + 2 && $3 < kb + 32768) }' \
		"$2.use" "$1.use"
}
usage() { awk '{ printf "status %s, %s s, %s KB", $1, $2, $3 }' "$1.use"; }

# Symbol names from a hostile ELF (docs/robustness.md#symbol-names), put on
# mangled.S's mycrate::helper with objcopy: names that would have libiberty
# print hundreds of MB, or count through 62^7 lifetimes without printing
# any, stay mangled, and the profile and cyclops hist take well under a
# second and a few MB (before the bounds: 0.8 s and 200 MB, 3 s and 550 MB,
# and no end).
test_profile_names() {
	local d=$OUT/names spec name
	mkdir -p "$d"
	bounded "$d/base-run" "$CYCLOPS" run -q --profile "$d/base.folded" --sample=1 \
		--sample-out "$d/base.samples" tests/profile/build/mangled.elf
	bounded "$d/base-hist" "$CYCLOPS" hist --json "$d/base.samples" --elf tests/profile/build/mangled.elf
	for spec in rust-backrefs rust-binder cxx-substitutions; do
		# a::f::<X_24>, X_0 = u8 and X_k+1 = (X_k, X_k), the second a back-
		# reference: 6 * 2^24 bytes readable; for<62^7 lifetimes> in an
		# impl's path; C++ f(A<int, int>, A<S0, S0>, ...) with 24 templates,
		# each a substitution doubling the last
		name=$(python3 -c 'import sys
def b62(n):
    d = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if n == 0: return "_"
    n -= 1; s = ""
    while True:
        s = d[n % 62] + s; n //= 62
        if n == 0: return s + "_"
k = 24
if sys.argv[1] == "rust-backrefs":
    s, at = "INvC1a1f" + "T" * k + "h", 8 + k
    for j in range(k):
        s += "B" + b62(at) + "E"
        at = 8 + k - 1 - j
    print("_R" + s + "E")
elif sys.argv[1] == "rust-binder":
    print("_RNvMINvC1a1fFGzzzzzzz_EuEh1g")
else:
    print("_Z1f1AIiiE" + "".join("S_IS%s_S%s_E" % (("0123456789ABCDEFGHIJKLMN"[j - 1],) * 2) for j in range(1, k)))' "$spec")
		riscv64-unknown-elf-objcopy --redefine-sym "_RNvCs1234_7mycrate6helper=$name" \
			tests/profile/build/mangled.elf "$d/$spec.elf"
		bounded "$d/$spec-run" "$CYCLOPS" run -q --profile "$d/$spec.folded" --sample=1 \
			--sample-out "$d/$spec.samples" "$d/$spec.elf"
		expect "profile: names: $spec (${#name} bytes): the run exits 0 in under 2 s and 32 MB more than with an ordinary name ($(usage "$d/$spec-run"); $(usage "$d/base-run"))" \
			within "$d/$spec-run" "$d/base-run"
		printf '%s\n' '_start 4' '_start;[ecall exit] 1' '_start;foo::bar() 2' '_start;mycrate::work 4' \
			"_start;mycrate::work;$name 1" | sort >"$d/$spec.want"
		expect "profile: names: $spec: the folded stacks have the name mangled" \
			cmp -s "$d/$spec.want" <(sort "$d/$spec.folded")
		bounded "$d/$spec-hist" "$CYCLOPS" hist --json "$d/$spec.samples" --elf "$d/$spec.elf"
		expect "profile: names: $spec: cyclops hist exits 0 in under 2 s and 32 MB more than with an ordinary name ($(usage "$d/$spec-hist"); $(usage "$d/base-hist"))" \
			within "$d/$spec-hist" "$d/base-hist"
		expect "profile: names: $spec: cyclops hist shows the name mangled" python3 -c 'import json, sys
got = sorted((f["name"], f["samples"]) for f in json.load(open(sys.argv[2]))["functions"])
sys.exit(got != [(sys.argv[1], 1), ("_start", 5), ("foo::bar()", 2), ("mycrate::work", 4)])' \
			"$name" "$d/$spec-hist.out"
	done
}

# The profiler's bounded tables (docs/robustness.md#limits), with guests
# whose numbers are derived by hand in their sources.
test_profile_limits() {
	local b=$OUT/many_stacks e=$OUT/many_ecalls rc
	cy run --profile "$b.folded" --profile "$b.callgrind" --profile "$b.html" \
		tests/profile/build/many_stacks.elf >/dev/null 2>"$b.err"
	rc=$?
	expect "profile: limits: many_stacks goes past 1048576 distinct stacks and exits 0" [ $rc = 0 ]
	# 13 pcs of each f on each of its stacks: past the (stack, pc) limit too
	expect "profile: limits: many_stacks: one warning that the stacks reached their limit, one that the pcs of each stack did" [ \
		"$(grep -c '^cyclops: warning: call-stack profile: more than 1048576 distinct stacks; a new one is charged to its caller from here on$' "$b.err")" = 1 \
		-a "$(grep -c '^cyclops: warning: call-stack profile: more than 2097152 distinct pcs on distinct stacks; the costs are kept per pc from here on' "$b.err")" = 1 \
		-a "$(grep -c warning "$b.err")" = 2 ]
	expect "profile: limits: many_stacks: 40000009 cycles, all in the folded stacks, callgrind and html" \
		sh -c "[ '$(summary_cycles "$b.err")' = 40000009 ] &&
			python3 tests/profile/check.py totals 40000009 '$b.folded' '$b.callgrind' '$b.html'"
	expect "profile: limits: many_stacks: 1048576 stacks, 782271 of them leaves, _start 7200009 self, each f 162500" \
		python3 -c 'import sys
lines = [l.rsplit(" ", 1) for l in open(sys.argv[1])]
depth = [s.count(";") for s, _ in lines]
self = dict((s, int(n)) for s, n in lines)
sys.exit(not (len(lines) == 1048576 and depth.count(4) == 782271 and self["_start"] == 7200009
              and all(self["_start;f%d" % k] == 162500 for k in range(64))
              and not any("finish" in s or "ecall" in s for s in self)))' "$b.folded"
	expect "profile: limits: many_stacks: callgrind and html say the profile was truncated" \
		python3 tests/profile/check.py truncated "more than 1048576 distinct stacks: new ones charged to their caller" \
		"$b.callgrind" "$b.html"

	cy run $(profile_args "$e") tests/profile/build/many_ecalls.elf >/dev/null 2>"$e.err"
	rc=$?
	expect "profile: limits: many_ecalls goes past 4096 ecall numbers and exits 0" [ $rc = 0 ]
	expect "profile: limits: many_ecalls: one warning that the ecall numbers reached their limit" [ \
		"$(grep -c '^cyclops: warning: call-stack profile: more than 4096 distinct ecall numbers; the cycles of a new one are charged to its caller from here on$' "$e.err")" = 1 ]
	expect "profile: limits: many_ecalls: every format totals 16394 cycles" \
		python3 tests/profile/check.py totals 16394 $(for x in $PROFILE_EXTS; do echo "$e.$x"; done)
	expect "profile: limits: many_ecalls: 4097 stacks, [ecall 1000] to [ecall 5095], _start 12298 self" \
		python3 -c 'import sys
self = dict(l.rsplit(" ", 1) for l in open(sys.argv[1]))
sys.exit(not (len(self) == 4097 and self["_start"] == "12298\n" and
              all(self["_start;[ecall %d]" % n] == "1\n" for n in range(1000, 5096))))' "$e.folded"
	expect "profile: limits: many_ecalls: every format with room for it says the profile was truncated" \
		python3 tests/profile/check.py truncated "more than 4096 ecall numbers: new ones charged to their caller" \
		"$e.pb.gz" "$e.speedscope.json" "$e.callgrind" "$e.trace.json" "$e.html"
	cy run -q --max-cycles 16392 --profile "$e-part.speedscope.json" tests/profile/build/many_ecalls.elf 2>/dev/null
	expect "profile: limits: speedscope's name says both truncated and partial" \
		sh -c "python3 tests/profile/check.py truncated 'more than 4096 ecall numbers' '$e-part.speedscope.json' &&
			python3 tests/profile/check.py partial 'cycle limit 16392' '$e-part.speedscope.json'"
}

# hist_field FILE.json EXPR : prints a Python expression of the report r.
hist_field() { python3 -c "import json; r = json.load(open('$1')); print($2)"; }

# The guest is untrusted: it writes files only with --guest-saves, only
# beneath --out-dir (no symbolic link, FIFO or directory taken for its
# file), within the quota of files and bytes; warnings about its calls are
# capped at 20 (docs/sampling.md).
test_guest_saves() {
	local s=tests/sample/build d="$OUT/saves" size
	mkdir -p "$d/out/sub" "$d/outside"
	cy run --out-dir "$d/out" "$s/control.elf" >"$d/c.out" 2>"$d/c.err" </dev/null
	expect "sample: without --guest-saves every well-named save is CY_EPERM (-7), no file written" \
		sh -c "sed -E 's/^(save-no-directory|save-dots-in-name|save-default|save-named) .*/\1 -7/' tests/sample/control.expected | cmp -s - '$d/c.out' &&
		       [ -z \"\$(ls -A '$d/out' | grep -v '^sub\$')\" ]"
	expect "sample: the refusal names --guest-saves" \
		grep -q 'cy_sample_save at 0x[0-9a-f]*: control.samples not written (CY_EPERM): the guest may write files only with cyclops run --guest-saves' "$d/c.err"
	ln -s ../outside "$d/out/link"
	echo keep >"$d/victim"
	ln -s ../victim "$d/out/f.samples"
	mkfifo "$d/out/p.samples"
	cy run -q --out-dir "$d/out" --guest-saves "$s/saves.elf" name link/x.samples f.samples \
		p.samples sub sub/y.samples >"$d/n.out" 2>&1 </dev/null
	expect "sample: a directory symlink, a file symlink, a FIFO and a directory are refused (CY_EBAD_NAME); a real subdirectory is not" \
		test "$(tr '\n' ' ' <"$d/n.out")" = "link/x.samples -3 f.samples -3 p.samples -3 sub -3 sub/y.samples 0 "
	expect "sample: nothing was written through the links, the FIFO and the links are still there" \
		sh -c "[ -z \"\$(ls -A '$d/outside')\" ] && [ \"\$(cat '$d/victim')\" = keep ] &&
		       [ -L '$d/out/f.samples' ] && [ -L '$d/out/link' ] && [ -p '$d/out/p.samples' ] &&
		       [ -s '$d/out/sub/y.samples' ]"
	rm -rf "$d/q" && mkdir "$d/q"
	cy run -q --out-dir "$d/q" --guest-saves=3 "$s/saves.elf" many 5 >"$d/m.out" 2>&1 </dev/null
	expect "sample: --guest-saves=3: three files, then CY_EQUOTA (-8)" \
		sh -c "[ \"\$(tr '\n' ' ' <'$d/m.out')\" = 's0.samples 0 s1.samples 0 s2.samples 0 s3.samples -8 s4.samples -8 ' ] &&
		       [ \$(ls '$d/q' | wc -l) -eq 3 ]"
	# every file of this guest has the same size: a quota of 2.5 files holds 2
	size=$(stat -c %s "$d/q/s0.samples")
	rm -rf "$d/q" && mkdir "$d/q"
	cy run -q --out-dir "$d/q" --guest-saves=100,$((size * 5 / 2)) "$s/saves.elf" many 4 >"$d/b.out" 2>&1 </dev/null
	expect "sample: --guest-saves=100,2.5 files' bytes: two files, then CY_EQUOTA" \
		sh -c "[ \"\$(tr '\n' ' ' <'$d/b.out')\" = 's0.samples 0 s1.samples 0 s2.samples -8 s3.samples -8 ' ] &&
		       [ \$(ls '$d/q' | wc -l) -eq 2 ]"
	cy run -q --out-dir "$d/q" --guest-saves "$s/saves.elf" many 70 >"$d/d.out" 2>&1 </dev/null
	expect "sample: --guest-saves alone allows 64 files" \
		sh -c "[ \$(grep -c ' 0\$' '$d/d.out') -eq 64 ] && [ \$(grep -c ' -8\$' '$d/d.out') -eq 6 ]"
	cy run "$s/saves.elf" misuse 100000 >"$d/w.out" 2>"$d/w.err" </dev/null
	expect "sample: 100000 misuses, 20 warnings, the last saying so" \
		sh -c "[ \"\$(cat '$d/w.out')\" = 'misuse 100000 of 100000' ] &&
		       [ \$(grep -c '^cyclops: warning: cy_sample_pause' '$d/w.err') -eq 20 ] &&
		       grep '^cyclops: warning' '$d/w.err' | tail -1 | grep -q 'further warnings about the guest.s sampling calls are not shown'"
	cy run "$s/saves.elf" name $'a\xff\xc2\x9bb.samples' >/dev/null 2>"$d/e.err" </dev/null
	expect "sample: a guest's file name is escaped in the warning (a bad byte and a C1 control as \\xNN)" \
		sh -c "grep -qF 'a\\xff\\xc2\\x9bb.samples not written (CY_EPERM)' '$d/e.err' &&
		       ! LC_ALL=C grep -q \"\$(printf '[\\377\\233]')\" '$d/e.err'"
	fault "usage: --guest-saves=0 is refused" 250 "^cyclops: run: --guest-saves=FILES\[,SIZE\] needs a positive number of files and a positive size such as 16M, got '0'\$" \
		--guest-saves=0 guest/build/hello.elf
	fault "usage: --guest-saves=2,x is refused" 250 "^cyclops: run: --guest-saves=FILES\[,SIZE\] needs .*got '2,x'\$" \
		--guest-saves=2,x guest/build/hello.elf
}

# Names and file names are the ELF's bytes (docs/profiles.md#names): a
# function named with ESC, newlines that look like callgrind lines, < & ; "
# ' \ CR, invalid UTF-8 and a C1 control, in a file whose DWARF name has the
# same, is written safely in every format and on the terminal. The expected
# forms are written out by hand in tests/profile/names.py from the rules
# documented there.
test_profile_escapes() {
	local d=$OUT/escapes f py=tests/profile/names.py
	mkdir -p "$d"
	# _start calls victim (li, ret: 2 cycles) and exits (jal, li, li: 3,
	# ecall 1); the DWARF line table gives every instruction the odd file
	for f in ret ebreak; do
		printf '%s\n' '    .option norvc' \
			'    .file 1 "dir\033]0;x\007/ev\033[31mil\nfl=forged\n<b>&amp;;\377\303.c"' \
			'    .text' '    .globl _start' '    .type _start, @function' '_start:' \
			'    .loc 1 10 0' '    jal ra, victim' '    li a0, 0' '    li a7, 93' '    ecall' \
			'    .size _start, .-_start' '    .type victim, @function' 'victim:' \
			'    .loc 1 20 0' '    li t0, 1' "    $f" '    .size victim, .-victim' >"$d/$f.S"
		riscv64-unknown-elf-gcc -march=rv32imac_zicsr_zifencei -mabi=ilp32 -mno-relax -nostdlib \
			-nostartfiles -static -Wl,-Ttext=0x10000 -Wl,--no-relax -o "$d/$f-plain.elf" "$d/$f.S"
		riscv64-unknown-elf-objcopy --redefine-sym "victim=$(python3 $py raw)" \
			"$d/$f-plain.elf" "$d/$f.elf"
	done
	# --trim-path: the files are relative to the directory they were
	# assembled in (the DWARF's), as names.py expects them
	cy run --trim-path "$PWD" $(profile_args "$d/p") --sample=1 --sample-out "$d/p.samples" \
		"$d/ret.elf" >"$d/run.out" 2>"$d/run.err"
	expect "profile: escapes: every format reads back, totalling 6 cycles" \
		python3 tests/profile/check.py totals 6 $(for e in $PROFILE_EXTS; do echo "$d/p.$e"; done)
	expect "profile: escapes: folded: 3 lines, ';' as '_', controls and bad bytes as \\xNN" \
		python3 $py folded "$d/p.folded"
	expect "profile: escapes: callgrind: fn= and fl= lines only for the 2 functions, escaped" \
		python3 $py callgrind "$d/p.callgrind"
	expect "profile: escapes: svg: well-formed XML (xml.etree), the name with U+FFFD for bad bytes" \
		python3 $py svg "$d/p.svg"
	expect "profile: escapes: html: valid UTF-8, no control character, the name and file escaped" \
		python3 $py html "$d/p.html"
	expect "profile: escapes: speedscope and trace JSON: the exact name and file, U+FFFD for bad bytes" \
		python3 $py json "$d/p.speedscope.json" "$d/p.trace.json"
	expect "profile: escapes: pprof: UTF-8 strings (check.py decodes them strictly)" \
		python3 $py pprof "$d/p.pb.gz"
	cy hist --trim-path "$PWD" "$d/p.samples" --elf "$d/ret.elf" >"$d/hist.out" 2>&1
	cy hist --trim-path "$PWD" --json "$d/p.samples" --elf "$d/ret.elf" >"$d/hist.json" 2>&1
	expect "profile: escapes: hist: the tables and annotation escaped, no control character" \
		python3 $py hist "$d/hist.out" "$d/hist.json"
	# the stop message names the function: on stderr and in the files
	cy run --trim-path "$PWD" --profile "$d/f.callgrind" --profile "$d/f.html" "$d/ebreak.elf" \
		>/dev/null 2>"$d/f.err"
	expect "profile: escapes: a fault in the function: one stop line on stderr, escaped" \
		python3 $py stderr "$d/f.err"
	expect "profile: escapes: the fault's callgrind desc: line and html partial row hold it whole" \
		python3 $py fault "$d/f.callgrind" "$d/f.html"
	# channel timers name the places of their steps (tests/timer/risc0.S's far)
	riscv64-unknown-elf-objcopy --redefine-sym "far=$(python3 $py raw)" \
		tests/timer/build/risc0.elf "$d/timer.elf"
	cy run -q --model risc0 --timers "$d/timer.elf" >/dev/null 2>"$d/timer.err"
	expect "profile: escapes: --timers names the step's function escaped, no ESC on stderr" \
		python3 $py timers "$d/timer.err"
}

# Source lines and inlined functions (docs/profiles.md): tests/lines/*.c
# are compiled at -O2 and say in their comments which line is hot and what
# is inlined into what; the counts to compare with come from qemu's
# single-step trace, binutils' line table and addr2line -i
# (tests/lines/oracle.py), never from cyclops. Under the unit model a cycle
# is an instruction.
test_lines() {
	local e=tests/lines/build/inline.elf b=$OUT/lines src=tests/lines/inline.c o=tests/lines/oracle.py
	# qemu's trace of each guest once for all the checks
	export ORACLE_CACHE=$OUT/oracle
	mkdir -p "$ORACLE_CACHE"
	if ! command -v "$QEMU" >/dev/null; then
		ok "lines: skipped: $QEMU is not installed (the counts come from its trace)"
		return
	fi
	cy run -q $(profile_args "$b") "$e" >/dev/null 2>&1
	expect "lines: inline.elf: every format totals the run's cycles" \
		python3 tests/profile/check.py totals "$(python3 -c "import subprocess, re
t = subprocess.run(['$QEMU', '-singlestep', '-d', 'exec,nochain', '-D', '/dev/stdout', '$e'], capture_output=True, text=True).stdout
print(sum(1 for l in t.splitlines() if l.startswith('Trace ')))")" $(for x in $PROFILE_EXTS; do echo "$b.$x"; done)
	expect "lines: folded: checksum's stacks with step and mix inlined, each as qemu and addr2line -i count it" \
		python3 $o folded "$e" "$b.folded" checksum "_start;main"
	if command -v go >/dev/null; then
		expect "lines: go tool pprof -top -lines: every line of inline.c as qemu and binutils count it" \
			python3 $o pprof-lines "$e" "$b.pb.gz" "$src"
		expect "lines: go tool pprof -top -lines: the top line is the HOT one, in mix (inlined)" \
			python3 $o hot "$e" "$b.pb.gz" "$src"
		expect "lines: go tool pprof -list: checksum, step and mix, flat and cum per line as qemu and addr2line -i count them" \
			python3 $o pprof-list "$e" "$b.pb.gz" "$src" checksum step mix
		expect "lines: go tool pprof -peek mix: called from step, inlined" \
			sh -c "go tool pprof -peek '^mix$' '$b.pb.gz' 2>/dev/null | grep -q '|   step (inline)$'"
		expect "lines: go tool pprof -top: the Mapping's build ID is the ELF's identity" \
			sh -c "go tool pprof -top '$b.pb.gz' 2>/dev/null | grep -qx 'Build ID: [0-9a-f]\{16,64\}'"
		# pprof -disasm: Go's own disassembler has no RV32, so go tool pprof
		# cannot; the standalone pprof (its Debian source package, built
		# here) runs binutils' objdump, the RISC-V one through PPROF_TOOLS
		if [ -d /usr/share/gocode/src/github.com/google/pprof ]; then
			mkdir -p "$b-tools"
			for t in objdump addr2line nm; do ln -sf "$(command -v riscv64-unknown-elf-$t)" "$b-tools/$t"; done
			GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$PWD/build/gocache" GOFLAGS= \
				go build -o "$b-tools/pprof" github.com/google/pprof >"$b-pprof-build.txt" 2>&1
			PPROF_TOOLS="$b-tools" "$b-tools/pprof" -disasm=checksum "$e" "$b.pb.gz" >"$b.disasm.txt" 2>&1
			expect "lines: pprof -disasm (the standalone pprof, binutils' objdump): checksum's instructions as qemu counts them" \
				python3 $o disasm "$e" "$b.disasm.txt" checksum
		else
			ok "lines: pprof -disasm skipped: golang-github-google-pprof-dev is not installed"
		fi
	else
		ok "lines: go tool pprof checks skipped: go is not installed"
	fi
	expect "lines: callgrind_annotate --auto=yes: every line of inline.c as qemu and binutils count it" \
		python3 $o callgrind "$e" "$b.callgrind" "$src"
	# --no-inline: the inlined functions' cycles are checksum's own again
	cy run -q --no-inline --profile "$b-flat.folded" "$e" >/dev/null 2>&1
	expect "lines: --no-inline: no step or mix frame, their cycles checksum's" \
		sh -c "! grep -q 'step\|mix' '$b-flat.folded' && grep -q '^_start;main;checksum ' '$b-flat.folded'"
	# the paths: absolute (the unit's directory), trimmed, rooted
	cy run -q --profile "$b-abs.callgrind" "$e" >/dev/null 2>&1
	expect "lines: source paths are absolute" grep -qx "fl=$PWD/tests/lines/inline.c" "$b-abs.callgrind"
	cy run -q --trim-path "$PWD/tests" --source-root /src --profile "$b-rel.callgrind" "$e" >/dev/null 2>&1
	expect "lines: --trim-path and --source-root move them" grep -qx "fl=/src/lines/inline.c" "$b-rel.callgrind"
	test_annotate
	test_diff
}

# cyclops diff: two builds of tests/lines/diff.c that differ in scale()
# alone; what changed, and by how much, from qemu's trace and nm
# (tests/lines/oracle.py diff), never from cyclops
test_diff() {
	local a=tests/lines/build/diff_a.elf bb=tests/lines/build/diff_b.elf b=$OUT/diff o=tests/lines/oracle.py
	local v pct
	for v in a b; do
		cy run -q --cycle-tracker=quiet --profile "$b-$v.pb.gz" --profile "$b-$v.folded" \
			--profile "$b-$v.callgrind" --profile "$b-$v.speedscope.json" --report "$b-$v.json" \
			tests/lines/build/diff_$v.elf >/dev/null 2>&1
	done
	cy diff --top 0 "$b-a.pb.gz" "$b-b.pb.gz" --html "$b.html" --pprof "$b-d.pb.gz" >"$b.txt" 2>&1
	expect "diff: pprof: the total, and scale alone changed, by what qemu and nm count" \
		python3 $o diff "$a" "$bb" "$b.txt"
	cy diff "$b-a.json" "$b-b.json" >"$b.json.txt" 2>&1
	expect "diff: reports: the total and the loop span's change, as qemu's ecall clocks give it" \
		python3 $o diff "$a" "$bb" "$b.json.txt"
	for v in folded callgrind speedscope.json; do
		cy diff --top 0 "$b-a.$v" "$b-b.$v" >"$b.$v.txt" 2>&1
		expect "diff: $v: scale alone changed, by what qemu and nm count" \
			python3 $o diff "$a" "$bb" "$b.$v.txt"
	done
	if command -v go >/dev/null; then
		expect "diff: --pprof: go tool pprof -top shows scale's change first, the others' nothing" \
			sh -c "go tool pprof -top '$b-d.pb.gz' 2>/dev/null | grep -A1 '^ *flat' | tail -1 |
				grep -Eq '^ +[0-9]+ .* scale\$' &&
				[ \"\$(go tool pprof -top '$b-d.pb.gz' 2>/dev/null | grep -c '^ *[1-9][0-9]* ')\" = 1 ]"
		expect "diff: go tool pprof -diff_base takes cyclops's profiles: scale first" \
			sh -c "go tool pprof -top -diff_base='$b-a.pb.gz' '$b-b.pb.gz' 2>/dev/null | grep -A1 '^ *flat' | tail -1 | grep -q ' scale\$'"
	fi
	expect "diff: --html: the differential flame graph has scale's frame, its change on it" \
		grep -q 'data-delta="[1-9][0-9]*" data-name="scale"' "$b.html"
	# --fail-above: the growth in percent, from qemu's totals, just above and below
	pct=$(python3 -c "import sys; sys.argv = ['o', '', '']
exec(open('$o').read().split('def main')[0])
a = sum(counts('$a').values()); b = sum(counts('$bb').values()); print(100.0 * (b - a) / a)")
	cy diff --fail-above "$(python3 -c "print($pct + 0.01)")" "$b-a.pb.gz" "$b-b.pb.gz" >/dev/null 2>&1
	expect "diff: --fail-above just over the growth ($pct%): exit 0" [ $? = 0 ]
	cy diff --fail-above "$(python3 -c "print($pct - 0.01)")" "$b-a.json" "$b-b.json" >/dev/null 2>"$b.fail.err"
	expect "diff: --fail-above just under it: exit 3, and it says so" \
		sh -c "[ $? = 3 ] && grep -q '^cyclops: diff: .*above --fail-above' '$b.fail.err'"
	cy run -q --profile "$b.trace.json" "$a" >/dev/null 2>&1
	fault_cmd "diff: a trace is not compared, and it says why" 1 \
		"^cyclops: diff: $b.trace.json: a trace \(a timeline\) is not compared" diff "$b.trace.json" "$b-b.json"
	fault_cmd "diff: a missing file" 1 "^cyclops: diff: $b.none: No such file or directory" diff "$b.none" "$b-b.json"
	fault_cmd "diff: one file" 250 "^cyclops: diff: two files are needed" diff "$b-b.json"
	fault_cmd "diff: --pprof with a report" 250 "^cyclops: diff: --pprof needs two pprof profiles" \
		diff --pprof "$b.x.pb.gz" "$b-a.json" "$b-b.json"
}

# cyclops annotate (and cyclops hist, which shares its listing): the counts
# against qemu and binutils (tests/lines/oracle.py), from a profile, a run
# and a histogram alike; colour only on a terminal
test_annotate() {
	local e=tests/lines/build/inline.elf b=$OUT/annotate o=tests/lines/oracle.py
	cy run -q --profile "$b.pb.gz" --sample=1 --sample-out "$b.samples" "$e" >/dev/null 2>&1
	cy annotate "$b.pb.gz" >"$b.prof.txt" 2>"$b.err"
	expect "annotate: from a profile: checksum's instructions and source lines as qemu and binutils count them" \
		python3 $o annotate "$e" "$b.prof.txt" checksum
	expect "annotate: the table: checksum first; the HOT line's row says mix, inlined" \
		sh -c "sed -n 4p '$b.prof.txt' | grep -q ' checksum\$' &&
		       grep -q '/\* HOT \*/  \[mix, inlined\]\$' '$b.prof.txt'"
	expect "annotate: objdump's forms: ret, mv, li, a branch back to its loop by name" \
		sh -c "grep -Eq '  [0-9a-f]{8}:  ret\$' '$b.prof.txt' && grep -Eq '  [0-9a-f]{8}:  li a[0-9],' '$b.prof.txt' &&
		       grep -Eq '  [0-9a-f]{8}:  bne a[0-9],a[0-9],[0-9a-f]+ <checksum\+0x[0-9a-f]+>\$' '$b.prof.txt'"
	cy annotate "$e" >"$b.run.txt" 2>"$b.run.err"
	expect "annotate: from a run: the same listing as from its profile; the guest's output on stderr" \
		bash -c "diff <(tail -n +2 '$b.prof.txt') <(tail -n +2 '$b.run.txt') >/dev/null &&
		       grep -q '^checksum ' '$b.run.err'"
	cy annotate --elf "$e" "$b.samples" >"$b.hist.txt" 2>&1
	expect "annotate: from a histogram of every cycle: the same counts" \
		python3 $o annotate "$e" "$b.hist.txt" checksum
	cy hist --top 1 "$b.samples" --elf "$e" >"$b.h.txt" 2>&1
	expect "annotate: cyclops hist lists checksum's instructions as annotate does" \
		bash -c "diff <(grep -E '  000101[3-7][0-9a-f]:  ' '$b.h.txt') <(grep -E '  000101[3-7][0-9a-f]:  ' '$b.hist.txt') >/dev/null"
	# colour: on a terminal only, never with NO_COLOR
	script -qec "'$CYCLOPS' annotate --functions 1 '$b.pb.gz'" /dev/null >"$b.tty.txt" 2>&1
	NO_COLOR=1 script -qec "'$CYCLOPS' annotate --functions 1 '$b.pb.gz'" /dev/null >"$b.nocolor.txt" 2>&1
	expect "annotate: colour on a terminal, none with NO_COLOR or through a pipe" \
		sh -c "grep -q \$(printf '\033')'\[1;31m' '$b.tty.txt' && ! grep -q \$(printf '\033') '$b.nocolor.txt' &&
		       ! grep -q \$(printf '\033') '$b.prof.txt'"
	# bad input: one clear line each, exit 1 (250 for usage)
	head -c 100 "$b.pb.gz" >"$b.cut.pb.gz"
	fault_cmd "annotate: a cut profile: exit 1, damaged gzip data" 1 \
		"^cyclops: annotate: $b.cut.pb.gz: not a pprof profile \(damaged gzip data\)\$" annotate "$b.cut.pb.gz"
	cy annotate --elf guest/build/hello.elf "$b.pb.gz" >/dev/null 2>"$b.other.err"
	expect "annotate: a profile of another program: refused, named" \
		grep -q "^cyclops: annotate: $b.pb.gz: taken from another program (build ID [0-9a-f]*), not guest/build/hello.elf" "$b.other.err"
	fault_cmd "annotate: no input" 250 '^cyclops: annotate: no profile, histogram or program given' annotate
	fault_cmd "annotate: bad --min-share" 250 "^cyclops: annotate: --min-share needs a percentage from 0 to 100, got 'x'" \
		annotate --min-share x "$b.pb.gz"
	fault_cmd "annotate: histograms without --elf" 1 '^cyclops: annotate: histograms need --elf' annotate "$b.samples"
	# damaged profiles: 60 with bytes of the protocol buffer changed or cut,
	# each read by annotate and diff: a message and exit 1, or a listing,
	# never a crash (a status past 128) or a hang
	expect "annotate, diff: 60 damaged profiles: exit 0 or 1, one line on stderr when 1, no crash" \
		python3 -c 'import gzip, random, subprocess, sys
raw = gzip.open(sys.argv[1]).read(); rng = random.Random(20)
for i in range(60):
    b = bytearray(raw)
    if i % 4 == 0:
        b = b[:rng.randrange(len(b))]
    for _ in range(rng.randrange(1, 8)):
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
    open(sys.argv[3], "wb").write(gzip.compress(bytes(b)))
    for cmd in (["annotate", "--elf", sys.argv[2], sys.argv[3]], ["diff", sys.argv[1], sys.argv[3]]):
        r = subprocess.run([sys.argv[4]] + cmd, capture_output=True, timeout=20)
        if r.returncode not in (0, 1) or (r.returncode == 1 and len(r.stderr.splitlines()) != 1):
            sys.exit("%s: status %d: %r" % (cmd[0], r.returncode, r.stderr[-300:]))' \
		"$b.pb.gz" tests/lines/build/inline.elf "$b.bad.pb.gz" "$CYCLOPS"
}

# PC sampling (docs/sampling.md): exact counts derived by hand, qemu's
# instruction trace as the reference under the unit model, guest control,
# saved files and cyclops hist.
test_sample() {
	local s=tests/sample/build d="$OUT/sample" spec src model n log cycles cyclops root=$PWD
	mkdir -p "$d"
	cyclops=$(cd "$(dirname "$CYCLOPS")" && pwd)/$(basename "$CYCLOPS")
	for spec in "costs zero-riscy 1" "costs zero-riscy 4" "costs zero-riscy 5" "costs unit 1" \
		"costs unit 2" "loop zero-riscy 1" "loop zero-riscy 7" "loop zero-riscy 10" "loop unit 1" \
		"fallthrough unit 2" "fallthrough unit 4"; do
		set -- $spec
		src=$1 model=$2 n=$3
		cy run -q --model "$model" --sample="$n" --sample-out "$d/x.samples" "$s/$src.elf"
		cy hist --json "$d/x.samples" --elf "$s/$src.elf" >"$d/x.json" 2>"$d/x.err"
		if tests/sample/check.py expect "tests/sample/$src.S" "$s/$src.elf" "$d/x.json" "$model" "$n" >"$d/diff.txt"; then
			ok "sample: $src under $model, every $n cycles: the hand-derived counts"
		else
			not_ok "sample: $src under $model, every $n cycles" "$(head -3 "$d/diff.txt" "$d/x.err" | tr '\n' ' ')"
		fi
	done

	# unit model: the sample at clock kN is the kN-th instruction qemu ran
	if command -v "$QEMU" >/dev/null; then
		for elf in guest/build/hello.elf tests/count/build/count_nested.elf; do
			log="$d/qemu.log"
			"$QEMU" -singlestep -d exec,nochain -D "$log" "$elf" >/dev/null 2>&1 </dev/null
			for n in 1 7 32; do
				cy run -q --sample="$n" --sample-out "$d/q.samples" "$elf" >/dev/null 2>&1 </dev/null
				cy hist --json "$d/q.samples" --elf "$elf" >"$d/q.json"
				if tests/sample/check.py qemu "$log" "$d/q.json" "$n" >"$d/diff.txt"; then
					ok "sample: $(basename "$elf" .elf) every $n cycles matches qemu's trace"
				else
					not_ok "sample: $(basename "$elf" .elf) every $n cycles vs qemu" "$(head -3 "$d/diff.txt" | tr '\n' ' ')"
				fi
			done
			rm -f "$log"
		done
		"$QEMU" "$s/control.elf" >"$d/qc.out" 2>/dev/null </dev/null
		expect "sample: on qemu every call fails with CY_ENOT_ON_CYCLOPS, exit 0" \
			sh -c "[ $? -eq 0 ] && cmp -s '$d/qc.out' tests/sample/control.qemu.expected"
	else
		not_ok "sample: qemu trace" "$QEMU is not installed"
	fi

	# the total of a run sampled from start to end is floor(cycles / N)
	cy run --sample=5 --sample-out "$d/h.samples" guest/build/hello.elf >/dev/null 2>"$d/h.err" </dev/null
	cycles=$(summary_cycles "$d/h.err")
	cy hist --json "$d/h.samples" --elf guest/build/hello.elf >"$d/h.json"
	expect "sample: hello every 5 cycles: floor($cycles / 5) samples" \
		test "$(hist_field "$d/h.json" "r['total']")" = "$((cycles / 5))"
	(cd "$d" && timeout 120 "$cyclops" run --sample "$root/guest/build/hello.elf" >/dev/null 2>"$d/h2.err")
	cycles=$(summary_cycles "$d/h2.err")
	expect "sample: --sample alone saves cyclops.samples every 32 cycles" \
		test "$(cy hist --json "$d/cyclops.samples" --elf guest/build/hello.elf | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["interval"], r["total"])')" = "32 $((cycles / 32))"

	# guest control: every call and misuse, each misuse one warning
	mkdir -p "$d/out"
	cy run --out-dir "$d/out" --guest-saves "$s/control.elf" >"$d/c.out" 2>"$d/c.err" </dev/null
	expect "sample: guest control: every call returns its code (control.expected)" \
		cmp -s "$d/c.out" tests/sample/control.expected
	expect "sample: guest control: one warning per misuse (18)" \
		test "$(grep -c '^cyclops: warning: cy_sample_' "$d/c.err")" = 18
	expect "sample: a misuse's warning names the call and the code" \
		grep -Eq '^cyclops: warning: cy_sample_pause at 0x[0-9a-f]{8}: no histogram \(CY_ENO_BUFFER\)' "$d/c.err"
	expect "sample: the refused names' warnings give the reason" \
		sh -c "grep -q 'file name refused (CY_EBAD_NAME): an absolute path' '$d/c.err' &&
		       grep -q 'file name refused (CY_EBAD_NAME): a .\.\.. component' '$d/c.err' &&
		       grep -q 'file name refused (CY_EBAD_NAME): a control character' '$d/c.err'"
	expect "sample: guest saves land in --out-dir" \
		test -f "$d/out/cyclops.samples" -a -f "$d/out/control.samples" -a -f "$d/out/a..b.samples"
	expect "sample: nothing is written outside --out-dir" \
		sh -c "[ ! -e '$d/up.samples' ] && [ ! -e '$d/out/late.samples' ] && [ \$(ls '$d/out' | wc -l) -eq 3 ]"
	test_guest_saves

	# the example guest: only checksum() runs while sampling is on
	(cd "$d" && timeout 120 "$cyclops" run -q --guest-saves "$root/guest/build/sampled.elf" >/dev/null 2>&1)
	cy hist --json "$d/sampled.samples" --elf guest/build/sampled.elf >"$d/e.json" 2>"$d/e.err"
	local hot
	hot=$(grep -n 'the hot line' guest/examples/sampled.c | cut -d: -f1)
	expect "sample: example: all samples in checksum(), none in fill() (paused)" \
		test "$(hist_field "$d/e.json" "[(f['name'].split('.')[0], f['share']) for f in r['functions']]")" = "[('checksum', 100.0)]"
	expect "sample: example: the hottest line is the marked one (sampled.c:$hot)" \
		test "$(hist_field "$d/e.json" "(r['lines'][0]['file'].endswith('sampled.c'), r['lines'][0]['line'])")" = "(True, $hot)"
	expect "sample: example: paused and resumed, still floor(sampled cycles / 32)" \
		test "$(hist_field "$d/e.json" "r['total'] == r['cycles'] // 32 and r['total'] > 1000")" = True
	cy hist --top 1 "$d/sampled.samples" --elf guest/build/sampled.elf >"$d/e.txt" 2>&1
	expect "sample: hist text: function table, line table and annotated disassembly" \
		sh -c "grep -q '^ *samples *share *cumul *function' '$d/e.txt' &&
		       grep -q 'sampled.c:$hot\$' '$d/e.txt' &&
		       grep -Eq '^ +[0-9.]+% +[0-9]+  [0-9a-f]{8}:  (lw|add|slli|srli|or|xor|addi|bne) ' '$d/e.txt'"
	cy hist --json "$d/sampled.samples" "$d/sampled.samples" --elf guest/build/sampled.elf >"$d/e2.json"
	expect "sample: hist sums several files" \
		test "$(hist_field "$d/e2.json" "r['total']")" = "$(($(hist_field "$d/e.json" "r['total']") * 2))"

	# code run outside the ELF's executable segments: the table of other pcs
	cy run -q --sample=1 --sample-out "$d/o.samples" "$s/elsewhere.elf"
	expect "sample: code written to the stack is sampled: its 2 pcs, 1 each, no symbol" \
		test "$(cy hist --json "$d/o.samples" --elf "$s/elsewhere.elf" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["unattributed"], [i["samples"] for i in r["instructions"] if i["function"] is None and i["address"] >= 0x7f000000])')" = "2 [1, 1]"
	expect "sample: hist names them [no symbol]" \
		sh -c "'$CYCLOPS' hist '$d/o.samples' --elf '$s/elsewhere.elf' | grep -Eq '^ +2 +[0-9.]+% +\[no symbol\]$'"

	# more pcs outside the per-pc ranges than the table holds (wide.S derives it)
	cy run --sample=1 --sample-out "$d/w.samples" "$s/wide.elf" 2>"$d/w.err"
	cycles=$(summary_cycles "$d/w.err")
	cy hist --json "$d/w.samples" --elf "$s/wide.elf" >"$d/w.json"
	expect "sample: past 2^20 other pcs, the last 1000 new pcs' samples are at 0xffffffff" \
		test "$(hist_field "$d/w.json" "r['overflow'], r['total']")" = "1000 $cycles"
	expect "sample: the full table is said once" \
		test "$(grep -c '^cyclops: warning: sampling: more than 1048576 distinct pcs outside the ranges counted per pc (16 MiB of code); samples at further new pcs are counted at 0xffffffff$' "$d/w.err")" = 1
	expect "sample: the file holds 2^20 other pcs and the overflow" \
		python3 -c "import struct,sys; d = open('$d/w.samples', 'rb').read(); sys.exit(struct.unpack_from('<I', d, 112)[0] != (1 << 20) + 1)"
	cy hist --json "$d/w.samples" "$d/w.samples" "$d/w.samples" --elf "$s/wide.elf" >"$d/w3.json"
	expect "sample: three such files sum (a linear merge of the other pcs)" \
		test "$(hist_field "$d/w3.json" "r['overflow'], r['total']")" = "3000 $((cycles * 3))"
	cy hist "$d/w.samples" --elf "$s/wide.elf" >"$d/w.txt"
	expect "sample: hist shows the overflow on a line of its own" \
		grep -Eq '^ +1000 +0\.0% +\[table full: new pcs outside the code ranges\]$' "$d/w.txt"

	# C++ and Rust names demangled (tests/profile/mangled.S derives the counts)
	cy run -q --sample=1 --sample-out "$d/m.samples" tests/profile/build/mangled.elf
	expect "sample: hist demangles C++ and Rust (legacy, v0) names" \
		test "$(cy hist --json "$d/m.samples" --elf tests/profile/build/mangled.elf | python3 -c '
import json, sys
print(sorted((f["name"], f["samples"]) for f in json.load(sys.stdin)["functions"]))')" = \
		"[('_start', 5), ('foo::bar()', 2), ('mycrate::helper', 1), ('mycrate::work', 4)]"

	# saved at exit also after a fault and at the cycle limit
	fault "sample: --sample-out is written after a fault" 252 '^cyclops: ebreak at' \
		--sample=1 --sample-out "$d/f.samples" tests/faults/build/ebreak.elf
	cycles=$(summary_cycles "$OUT/f.err")
	expect "sample: the fault's histogram counts every cycle before it ($cycles)" \
		test "$(cy hist --json "$d/f.samples" --elf tests/faults/build/ebreak.elf | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" = "$cycles"
	fault "sample: --sample-out is written at the cycle limit" 253 '^cyclops: cycle limit 1000' \
		--max-cycles 1000 --sample=10 --sample-out "$d/l.samples" tests/faults/build/spin.elf
	expect "sample: the cycle limit's histogram has 1000 / 10 samples" \
		test "$(cy hist --json "$d/l.samples" --elf tests/faults/build/spin.elf | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" = 100

	# a program with a GNU build-id is identified by it (readelf's reading)
	local want_id
	want_id=$(riscv64-unknown-elf-readelf -n "$s/costs_build_id.elf" | sed -n 's/^ *Build ID: *//p')
	cy run -q --sample --sample-out "$d/b.samples" "$s/costs_build_id.elf"
	expect "sample: a build-id ELF's histogram carries its build-id ($want_id)" \
		test "$(cy hist --json "$d/b.samples" --elf "$s/costs_build_id.elf" | python3 -c 'import json,sys; print(json.load(sys.stdin)["identity"])')" = "build-id $want_id"

	# bad files get one clear message
	hist_fails() {
		local name=$1 re=$2
		shift 2
		cy hist "$@" >"$d/hf.out" 2>"$d/hf.err"
		local rc=$?
		if [ $rc -ne 0 ] && [ "$(wc -l <"$d/hf.err")" -eq 1 ] && grep -Eq -- "$re" "$d/hf.err"; then
			ok "$name"
		else
			not_ok "$name" "exit $rc: $(head -c 300 "$d/hf.err")"
		fi
	}
	cy run -q --sample=4 --sample-out "$d/costs.samples" "$s/costs.elf"
	hist_fails "hist: a histogram of another program is refused" \
		"^cyclops: hist: $d/costs.samples: taken from another program \(segment hash [0-9a-f]{16}\), not $s/loop.elf \(segment hash [0-9a-f]{16}\)$" \
		"$d/costs.samples" --elf "$s/loop.elf"
	head -c 100 "$d/costs.samples" >"$d/short.samples"
	hist_fails "hist: a file cut inside the header" "^cyclops: hist: $d/short.samples: truncated: 100 bytes, shorter than the 128-byte header$" \
		"$d/short.samples" --elf "$s/costs.elf"
	head -c $(($(wc -c <"$d/costs.samples") - 3)) "$d/costs.samples" >"$d/short.samples"
	hist_fails "hist: a file cut in its counts" "^cyclops: hist: $d/short.samples: truncated: [0-9]+ bytes, the header says [0-9]+$" \
		"$d/short.samples" --elf "$s/costs.elf"
	python3 -c "
d = bytearray(open('$d/costs.samples', 'rb').read()); d[150] ^= 1
open('$d/bad.samples', 'wb').write(d)"
	hist_fails "hist: a flipped bit is caught by the checksum" "^cyclops: hist: $d/bad.samples: damaged: the checksum does not match the contents$" \
		"$d/bad.samples" --elf "$s/costs.elf"
	python3 - "$d/o.samples" "$d/unsorted.samples" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
n_ranges, n_other = struct.unpack_from('<II', d, 108)
at = len(d) - 8 - 16 * n_other  # the other pcs: (pc, 0, count) each
d[at:at + 32] = d[at + 16:at + 32] + d[at:at + 16]  # swap the first two
h = 0xcbf29ce484222325  # FNV-1a over everything before the trailer
for b in d[:-8]:
    h = ((h ^ b) * 0x100000001b3) & (2**64 - 1)
d[-8:] = struct.pack('<Q', h)
open(sys.argv[2], 'wb').write(d)
PY
	hist_fails "hist: other pcs out of order are refused" \
		"^cyclops: hist: $d/unsorted.samples: damaged: pc 0x[0-9a-f]{8} outside the ranges is not after 0x[0-9a-f]{8}$" \
		"$d/unsorted.samples" --elf "$s/elsewhere.elf"
	hist_fails "hist: an ELF is not a sample file" "^cyclops: hist: $s/costs.elf: not a cyclops sample file \(no CYSAMPLE magic\)$" \
		"$s/costs.elf" --elf "$s/costs.elf"
	hist_fails "hist: a missing file" "^cyclops: hist: $d/none.samples: No such file or directory$" \
		"$d/none.samples" --elf "$s/costs.elf"
	hist_fails "hist: --elf is required" "^cyclops: hist: --elf PROGRAM.elf is required" "$d/costs.samples"
	hist_fails "hist: --elf must be an ELF, its magic read first (as run says it)" "^cyclops: hist: tests/sample/costs.S: not an ELF file$" \
		"$d/costs.samples" --elf tests/sample/costs.S
	cy run -q --sample=5 --sample-out "$d/costs5.samples" "$s/costs.elf"
	hist_fails "hist: files of different intervals are not summed" \
		"^cyclops: hist: $d/costs5.samples: cannot be added to $d/costs.samples: sampled every 5 cycles of model unit, the first file every 4 of unit$" \
		"$d/costs.samples" "$d/costs5.samples" --elf "$s/costs.elf"
	fault "usage: --sample=0" 250 "^cyclops: run: --sample=N needs a number of cycles from 1 to 4G, got '0'$" \
		--sample=0 guest/build/hello.elf
	fault "usage: --sample=5G" 250 "^cyclops: run: --sample=N needs a number of cycles from 1 to 4G, got '5G'$" \
		--sample=5G guest/build/hello.elf
	fault "usage: --out-dir that is not a directory" 250 "^cyclops: run: --out-dir /nonexistent: not a directory$" \
		--out-dir /nonexistent guest/build/hello.elf
	expect "cli: run --help lists --sample, --sample-out and --out-dir" \
		sh -c "'$CYCLOPS' run --help | grep -q -- '--sample-out' && '$CYCLOPS' run --help | grep -q -- '--out-dir'"
}

# The bare platform (docs/bare-metal.md): the machine-mode conformance set
# under every interpreter, the firmware examples, the differential against
# the Linux build of the same program, and bad input.
test_bare() {
	local elf name model want rc b=guest/bare/build
	# each test at XLEN 32 and 64 (build/rv64/: the same sources, and the
	# RV64-only ones in rv64/); risc0's paging prices a 32-bit machine
	local src
	for model in unit zero-riscy risc0; do
		for elf in tests/bare/build/*.elf tests/bare/build/rv64/*.elf; do
			name=${elf#tests/bare/build/}
			name=${name%.elf}
			case $model/$name in risc0/rv64/*) continue ;; esac
			src=tests/bare/$name.S
			[ -e "$src" ] || src=tests/bare/$(basename "$name").S
			want=$(sed -n 's/^# EXPECT-EXIT: *\([0-9]*\).*/\1/p' "$src")
			cy run -q --model $model "$elf" >"$OUT/bare.out" 2>"$OUT/bare.err"
			rc=$?
			if [ $rc -eq "${want:-0}" ]; then
				ok "bare: $name exits ${want:-0} through tohost ($model)"
			else
				not_ok "bare: $name ($model)" "exit $rc, expected ${want:-0} $(head -c 300 "$OUT/bare.err")"
			fi
		done
	done
	for elf in tests/bare/build/*.elf tests/bare/build/rv64/*.elf; do
		name=${elf#tests/bare/build/}
		name=${name%.elf}
		src=tests/bare/$name.S
		[ -e "$src" ] || src=tests/bare/$(basename "$name").S
		want=$(sed -n 's/^# EXPECT-EXIT: *\([0-9]*\).*/\1/p' "$src")
		emb --observe "$elf" >"$OUT/bare.out" 2>"$OUT/bare.err"
		expect "bare: $name (observed)" [ $? -eq "${want:-0}" ]
	done
	emb --observe tests/bare/build/rv64/interrupts.elf >/dev/null 2>"$OUT/bare.err"
	expect "bare: at XLEN 64 too, observers see 4 traps (3 interrupts: mcause bit 63) and 3 returns" \
		grep -qx "embed: traps 4 (3 interrupts), returns 3, last \[trap ecall\]" "$OUT/bare.err"
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
	# --signature (riscv-arch-test, RISCOF): signature.S's five words, as
	# its header derives them, a line per granularity bytes, highest first
	local sig=tests/bare/build/signature.elf g want
	for g in 4 8 1 16; do
		case $g in
		4) want="01234567 89abcdef 44332211 80000000 deadbeef " ;;
		8) want="89abcdef01234567 8000000044332211 00000000deadbeef " ;;
		1) want="67 45 23 01 ef cd ab 89 11 22 33 44 00 00 00 80 ef be ad de " ;;
		16) want="800000004433221189abcdef01234567 000000000000000000000000deadbeef " ;;
		esac
		cy run -q --signature "$OUT/sig" --signature-granularity $g "$sig"
		expect "bare: --signature, $g bytes a line: the words signature.S stored" \
			test "$? $(tr '\n' ' ' <"$OUT/sig")" = "0 $want"
	done
	cy run -q --max-cycles 3 --signature "$OUT/sig" "$sig"
	expect "bare: --signature is written at the cycle limit too, as the memory stands (253)" \
		test "$? $(tr '\n' ' ' <"$OUT/sig")" = "253 00000000 00000000 00000000 00000000 deadbeef "
	fault "usage: --signature on a program without begin_signature (250)" 250 \
		"^cyclops: run: --signature: tests/bare/build/rv32ui.elf has no begin_signature and end_signature symbols" \
		--signature "$OUT/sig" tests/bare/build/rv32ui.elf
	fault "usage: --signature-granularity 3 (250)" 250 \
		"^cyclops: run: --signature-granularity needs 1, 2, 4, 8 or 16 bytes, got '3'" \
		--signature "$OUT/sig" --signature-granularity 3 "$sig"
	# riscv-tests' linker script with binutils 2.40 leaves p_flags 0 in
	# every PT_LOAD: such a test loads and passes, and is sampled as code
	python3 -c '
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
phoff, = struct.unpack_from("<I", b, 28); phentsize, phnum = struct.unpack_from("<HH", b, 42)
for i in range(phnum):
    at = phoff + i * phentsize
    if struct.unpack_from("<I", b, at)[0] == 1:
        struct.pack_into("<I", b, at + 24, 0)
open(sys.argv[2], "wb").write(b)' tests/bare/build/rv32ui.elf "$OUT/noflags.elf"
	cy run -q --sample=1 --sample-out "$OUT/noflags.samples" "$OUT/noflags.elf" >/dev/null 2>&1
	expect "bare: rv32ui with p_flags 0 in every segment passes" [ $? -eq 0 ]
	# the file's header: ranges counted per pc at 108, other pcs at 112
	expect "bare: ... and its code is counted per pc (a range, no other pcs)" \
		test "$(python3 -c 'import struct, sys; r, o = struct.unpack_from("<II", open(sys.argv[1], "rb").read(), 108); print(r >= 1, o)' "$OUT/noflags.samples")" = "True 0"
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
	fault "bare: a handler whose load faults stops the run" 252 \
		'^cyclops: load access fault \(address 0x00000000\) at 0x[0-9a-f]{8} <handler>: lw x11,0\(x10\) would trap to itself \(mtvec\)$' \
		tests/faults/build/bare_handler_access.elf
	fault "usage: bad --platform" 250 "^cyclops: run: --platform needs linux, bare or auto, got 'bsd'" \
		--platform bsd $b/uart_hello.elf
	fault "usage: bad --ram: not ADDR:SIZE (250, before the program is read)" 250 "^cyclops: run: --ram '0x80000000': expected ADDR:SIZE" \
		--ram 0x80000000 $b/uart_hello.elf
	fault "usage: bad --ram: past 4 GiB" 250 "^cyclops: run: --ram: region 0xffff0000:1M is empty or passes 4 GiB" \
		--ram 0xffff0000:1M $b/uart_hello.elf
	fault "usage: bad --ram: a size that overflows" 250 "^cyclops: run: --ram: region 0x0:99999999999999999G is empty or passes 4 GiB" \
		--ram 0x0:99999999999999999G $b/uart_hello.elf
	fault "usage: bad --uart: misaligned" 250 "^cyclops: run: --uart 0x10000003: not 8-byte aligned" \
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

# Ctrl-C and kill: the run stops at the next slice, writes everything asked
# for, marked partial, and exits 128 + the signal (docs/robustness.md). The
# files are read back by the same readers as the export tests.
test_signals() {
	local d=$OUT/signals spin=tests/faults/build/spin.elf pid rc cycles e
	local exts="pb.gz speedscope.json trace.json callgrind html folded"
	mkdir -p "$d"
	"$CYCLOPS" run --report "$d/r.json" --sample=16 --sample-out "$d/s.samples" \
		$(for e in $exts; do echo "--profile $d/p.$e"; done) "$spin" 2>"$d/int.err" &
	pid=$!
	sleep 1
	kill -INT $pid
	( sleep 60; kill -KILL $pid 2>/dev/null ) &
	wait $pid
	rc=$?
	expect "signals: SIGINT ends a run with status 130 (128 + SIGINT)" [ $rc = 130 ]
	expect "signals: SIGINT: the stop is reported on stderr" \
		grep -q '^cyclops: interrupted by SIGINT at 0x[0-9a-f]* <spin>' "$d/int.err"
	expect "signals: SIGINT: the report is valid JSON, stop interrupted, partial, status 130" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (r["stop"] == "interrupted" and r["partial"] is True and r["status"] == 130
	and r["message"].startswith("interrupted by SIGINT at ")
	and r["exit_code"] is None and r["cycles"] == r["instructions"] > 0))' "$d/r.json"
	cycles=$(hist_field "$d/r.json" 'r["cycles"]')
	expect "signals: SIGINT: every profile totals the report's cycles" \
		python3 tests/profile/check.py totals "$cycles" $(for e in $exts; do echo "$d/p.$e"; done)
	expect "signals: SIGINT: every profile format that can is marked partial with the reason" \
		python3 tests/profile/check.py partial "interrupted by SIGINT" \
		$(for e in $exts; do [ $e = folded ] || echo "$d/p.$e"; done)
	cy hist --json "$d/s.samples" --elf "$spin" >"$d/h.json" 2>"$d/h.err"
	expect "signals: SIGINT: cyclops hist reads the histogram: one sample per 16 of the run's cycles" \
		python3 -c 'import json, sys
h = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2]))
sys.exit(not (h["cycles"] == r["cycles"] and h["total"] == r["cycles"] // 16
	and h["functions"][0]["name"] == "spin"))' "$d/h.json" "$d/r.json"
	expect "signals: SIGINT: cyclops hist says the histogram is partial" \
		grep -q 'partial: interrupted by SIGINT' "$d/h.err"
	expect "signals: no temporary files are left beside the outputs" \
		[ -z "$(ls "$d" | grep -v -x -e r.json -e s.samples -e 'p\..*' -e '.*\.err' -e h.json -e in)" ]

	"$CYCLOPS" run -q --report "$d/t.json" "$spin" 2>"$d/term.err" &
	pid=$!
	sleep 0.5
	kill -TERM $pid
	( sleep 60; kill -KILL $pid 2>/dev/null ) &
	wait $pid
	rc=$?
	expect "signals: SIGTERM ends a run with status 143, its report marked partial" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (int(sys.argv[2]) == 143 and r["partial"] is True and r["status"] == 143
	and r["message"].startswith("interrupted by SIGTERM at ")))' "$d/t.json" $rc

	# a signal while the outputs are written (strace delivers SIGINT when
	# cyclops syncs the Nth temporary file, after its body, before its
	# rename): that file is finished, the rest skipped, status 130, no
	# temporary file left
	for n in 1 2; do
		rm -rf "$d/w$n" && mkdir "$d/w$n"
		# LeakSanitizer cannot run under ptrace: the sanitizer run turns it off here
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -o /dev/null -e trace=fsync -e inject=fsync:signal=SIGINT:when=$n \
			"$CYCLOPS" run -q --report "$d/w$n/r.json" --profile "$d/w$n/p.folded" \
			--profile "$d/w$n/p.pb.gz" guest/build/hello.elf >/dev/null 2>"$d/w$n/err"
		rc=$?
		expect "signals: SIGINT while writing output $n of 3: status 130, $n written whole, the rest skipped, no temporary file" \
			sh -c "[ $rc = 130 ] && [ \"\$(ls '$d/w$n' | tr '\\n' ' ')\" = \"err $([ $n = 2 ] && echo 'p.folded ')r.json \" ] &&
			       grep -q 'stopping after the file being written; the rest are skipped' '$d/w$n/err'"
	done
	expect "signals: ... the report finished after the signal is whole JSON" \
		python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$d/w1/r.json"

	# a second signal while an output waits for a FIFO's reader: the wait
	# ends (no SA_RESTART), the rest is skipped, the report before it stays
	rm -rf "$d/ff" && mkdir "$d/ff" && mkfifo "$d/ff/p.folded"
	"$CYCLOPS" run -q --report "$d/ff/r.json" --profile "$d/ff/p.folded" "$spin" 2>"$d/ff.err" &
	pid=$!
	sleep 0.5
	kill -INT $pid
	sleep 1
	kill -INT $pid
	( sleep 20; kill -KILL $pid 2>/dev/null ) &
	wait $pid
	rc=$?
	expect "signals: a second SIGINT frees an output stuck on a FIFO without a reader: 130, the report whole" \
		sh -c "[ $rc = 130 ] && python3 -c 'import json, sys; json.load(open(sys.argv[1]))' '$d/ff/r.json' &&
		       grep -q 'stopping after the file being written' '$d/ff.err'"

	# a guest that retries read() after EINTR, on a pipe that never gets
	# data: SIGINT must still end the run, with its report
	mkfifo "$d/in"
	exec 8<>"$d/in" # a writer that never writes: the read blocks
	"$CYCLOPS" run --report "$d/rr.json" tests/faults/build/read_retry.elf <"$d/in" 2>"$d/rr.err" &
	pid=$!
	sleep 1
	pkill -INT -x -f "$CYCLOPS run --report $d/rr.json tests/faults/build/read_retry.elf"
	( sleep 20; pkill -KILL -x -f "$CYCLOPS run --report $d/rr.json tests/faults/build/read_retry.elf" ) 2>/dev/null &
	wait $pid
	rc=$?
	exec 8>&-
	expect "signals: a guest blocked in read() that retries after EINTR still stops at SIGINT (130)" [ $rc = 130 ]
	expect "signals: ... its report is written, partial, interrupted" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); sys.exit(not (r["partial"] is True and r["stop"] == "interrupted"))' "$d/rr.json"

	cy run -q --max-cycles 1000 --report "$d/c.json" "$spin" 2>/dev/null
	expect "signals: a cycle-limit report is partial too, the limit as reason" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (r["partial"] is True and r["cycles"] == 1000 and r["message"].startswith("cycle limit 1000 reached")))' "$d/c.json"
	cy run -q --report "$d/x.json" guest/build/hello.elf >/dev/null 2>&1
	expect "signals: a guest that exits writes a report that is not partial" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); sys.exit(not (r["partial"] is False and r["message"] is None))' "$d/x.json"
}

# --max-memory: touch.S touches a new 4 KiB page every 133 cycles (3 + 64 * 2
# + 2) up to 64 MiB. The limit is checked at least every 2^16 cycles, so the
# guest stops having touched more than the limit but at most 493 pages more.
test_memory() {
	local d=$OUT/memory t=tests/faults/build/touch.elf rc n
	mkdir -p "$d"
	cy run -q "$t"
	expect "memory: touch.elf touches 64 MiB and exits 0 without a limit" [ $? = 0 ]
	cy run -q --max-memory 100M "$t"
	expect "memory: --max-memory 100M: touch.elf exits 0" [ $? = 0 ]
	cy run -q --max-memory 8M --report "$d/r.json" "$t" 2>"$d/err"
	rc=$?
	expect "memory: --max-memory 8M stops touch.elf with status 254" [ $rc = 254 ]
	n=$(sed -n 's/^cyclops: memory limit of 8388608 bytes exceeded: the guest has touched \([0-9]*\), at 0x[0-9a-f]* <\(touch\|delay\).*/\1/p' "$d/err")
	expect "memory: the message names the limit, the bytes touched and the place" [ -n "$n" ]
	expect "memory: touched more than 8 MiB, by at most 493 pages" \
		[ "${n:-0}" -gt 8388608 -a "${n:-0}" -le $((8388608 + 493 * 4096)) ]
	expect "memory: the report is partial, a fault with status 254 and the message" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(not (r["partial"] is True and r["stop"] == "fault" and r["status"] == 254
	and r["message"].startswith("memory limit of 8388608 bytes exceeded")))' "$d/r.json"
	cy run -q --max-memory 1M tests/faults/build/touch_exit.elf 2>"$d/exit.err"
	expect "memory: a guest that passes the limit between two checks and exits is caught at exit (254)" \
		sh -c "[ $? -eq 254 ] && grep -q 'memory limit of 1048576 bytes exceeded: the guest has touched' '$d/exit.err'"
	cy run -q --max-memory 8M tests/faults/build/touch_exit.elf
	expect "memory: ... and under a limit it does not pass it exits 0" [ $? -eq 0 ]
	expect "memory: 1.5 GiB of heap given back with brk reads as zero after, and costs no host memory (under 200 MB)" \
		test "$(python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], timeout=60)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 200 * 1024)' \
		"$CYCLOPS" run -q tests/faults/build/brk_shrink.elf)" = "0 True"
	# a guest writing 1 GiB it never touched through the cycle tracker:
	# every byte arrives, and cyclops's memory stays small (the tracker gets
	# each write in pieces; pages the host never backed are read as zeros
	# without backing them, which reading them would on kernels that map
	# no shared zero page, such as this machine's)
	expect "memory: 1 GiB written through the quiet cycle tracker arrives whole, under 100 MB" \
		python3 - "$CYCLOPS" tests/faults/build/flood.elf <<'PY'
import os, subprocess, sys
p = subprocess.Popen([sys.argv[1], 'run', '-q', '--cycle-tracker=quiet', sys.argv[2]],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
n = 0
while chunk := p.stdout.read(1 << 20):
    n += len(chunk)
_, status, usage = os.wait4(p.pid, 0)
rc = os.waitstatus_to_exitcode(status)
print(f"status {rc}, {n} bytes, {usage.ru_maxrss} KB", file=sys.stderr)
sys.exit(not (rc == 0 and n == 1 << 30 and usage.ru_maxrss < 100 * 1024))
PY
	# one write of 320 KiB from memory touched in four places: byte for
	# byte what the guest wrote, the cycle tracker sees both requests (the
	# quiet tracker leaves their lines out), with both engines
	for e in interp jit; do
		expect "memory: a write of pages touched and never touched arrives byte for byte ($e)" \
			python3 - "$CYCLOPS" tests/faults/build/sparse_write.elf $e <<'PY'
import subprocess, sys
cy, elf, engine = sys.argv[1:]
start, end = b"\ncycle-tracker-start: x\n", b"\ncycle-tracker-end: x\n"
want = bytearray(327680)
want[5000] = ord('A')
want[70000:70000 + len(start)] = start
want[200000:200000 + len(end)] = end
want[-1] = ord('Z')
quiet = bytes(want).replace(start, b"\n").replace(end, b"\n")
plain = subprocess.run([cy, 'run', '-q', '--engine', engine, elf], capture_output=True)
track = subprocess.run([cy, 'run', '--cycle-tracker=quiet', '--engine', engine, elf],
                       capture_output=True)
ok = (plain.returncode == 0 and plain.stdout == bytes(want) and track.returncode == 0
      and track.stdout == quiet and b"\nx           1 " in track.stderr)
if not ok:
    print(plain.returncode, len(plain.stdout), track.returncode, len(track.stdout),
          track.stderr.decode(errors="replace"), file=sys.stderr)
sys.exit(not ok)
PY
	done
	cy run -q --max-memory 0 "$t" 2>"$d/usage"
	expect "memory: --max-memory 0 is a usage error (250)" [ $? = 250 ]
	expect "memory: --max-memory 64X is a usage error naming the value" \
		sh -c "'$CYCLOPS' run --max-memory 64X '$t' 2>&1 | grep -q \"needs a positive size such as 64M, got '64X'\""
}

# The progress line: on a terminal (a pty from script) a run longer than a
# second redraws "cycles, MIPS, elapsed" a few times a second and erases it
# before the stop line; never on a pipe, never with -q. (timeout --foreground
# signals cyclops only: without it the process group gets SIGINT again, and
# a second SIGINT ends cyclops at once, by design.)
test_progress() {
	local d=$OUT/progress spin=tests/faults/build/spin.elf n
	mkdir -p "$d"
	if ! command -v script >/dev/null; then
		not_ok "progress" "script (util-linux) is not installed"
		return
	fi
	script -qec "timeout --foreground -s INT 2.5 '$CYCLOPS' run $spin" /dev/null >"$d/tty.txt" 2>&1 </dev/null
	n=$(grep -o $'\r\033\\[Kcyclops: [0-9]* cycles, [0-9.]* MIPS, [0-9.]* s' "$d/tty.txt" | wc -l)
	expect "progress: on a terminal, redrawn several times in a 2.5 s run ($n lines)" [ "$n" -ge 3 ]
	expect "progress: erased before the stop line" \
		grep -q $'\r\033\\[Kcyclops: interrupted by SIGINT' "$d/tty.txt"
	timeout --foreground -s INT 2.5 "$CYCLOPS" run $spin 2>"$d/pipe.txt"
	expect "progress: never on a pipe" [ "$(grep -c $'\r' "$d/pipe.txt")" = 0 ]
	script -qec "timeout --foreground -s INT 2.5 '$CYCLOPS' run -q $spin" /dev/null >"$d/quiet.txt" 2>&1 </dev/null
	expect "progress: not with -q" [ "$(grep -c 'cycles, .* MIPS' "$d/quiet.txt")" = 0 ]
	# ticks.elf writes a line about every second: the progress line is up
	# by then, and must go before the tick is written, not be glued to it
	# (interpreted: the translation tier runs all four ticks in half a second)
	script -qec "timeout 60 '$CYCLOPS' run --engine interp tests/faults/build/ticks.elf" /dev/null >"$d/ticks.txt" 2>&1 </dev/null
	n=$(grep -c $'\r\033\\[Ktick\r\{0,1\}$' "$d/ticks.txt")
	expect "progress: erased before guest output ($n of 4 ticks came after an erased line)" [ "$n" -ge 1 ]
	expect "progress: guest output never shares a line with it" \
		[ "$(grep -c 'MIPS, [0-9.]* stick' "$d/ticks.txt")" = 0 -a "$(grep -c 'tick' "$d/ticks.txt")" = 4 ]
}

# The translation tier (docs/jit.md) against the interpreter: every guest
# of the suite and generated programs of both widths, translated as soon as
# sampled (CYCLOPS_JIT_EAGER), write the same bytes (tests/jit.sh); budgets
# that stop in the middle of translated code stop at the same instruction;
# the runs really are translated; a small code cache evicts and still
# agrees; no mapping is writable and executable; a damaged cached file is
# not run; the default policy (background compilation of hot code) agrees.
# Waits until the compilations runs left behind in code cache $1 are done:
# each compiler process holds its region's lock file (flock) while it
# works, and those a run queued are compiled one after the other after it,
# so the cache is settled when its files stay the same for a second with
# no lock held (two minutes at most).
jit_settle() {
	local before after i lock
	for i in $(seq 120); do
		before=$(ls "$1" 2>/dev/null)
		for lock in "$1"/*.lock; do
			[ -e "$lock" ] && flock "$lock" true
		done
		sleep 1
		after=$(ls "$1" 2>/dev/null)
		[ "$before" = "$after" ] && break
	done
}

test_jit() {
	local cache=$OUT/jit-cache elfs line f n=${JIT_PROGRAMS:-30} lim w pid i
	if ! "$CYCLOPS" run --engine jit -q guest/build/hello.elf >/dev/null 2>"$OUT/jit.err"; then
		ok "jit: skipped ($(head -c 200 "$OUT/jit.err"))"
		return
	fi
	python3 tests/gen/gen-programs.py 21 "$n" "$OUT/jgen" &&
		python3 tests/gen/gen-programs.py --xlen 64 21 "$n" "$OUT/jgen"
	gen_build "$OUT"/jgen/*.S
	# write_2g.elf writes 2 GiB to stdout: the faults layer checks it alone
	elfs="$(ls guest/build/*.elf guest/build/rv64imac-lp64/*.elf tests/*/build/*.elf tests/*/build/rv64/*.elf | grep -v '/write_2g\.elf$') $(ls "$OUT"/jgen/*.elf)"
	tests/jit.sh "$CYCLOPS" "$cache" $elfs >"$OUT/jit.txt" 2>&1
	tally "$OUT/jit.txt"
	echo "# jit: $(grep -c '^ok - ' "$OUT/jit.txt") guests write the same translated and interpreted"
	# under the detailed models (translated code leaves before an access
	# that costs more than its static cost, or a block whose code pages
	# are not loaded, and runs no further than a paging segment's end):
	# every suite guest and 10 generated programs of each width, the
	# report's paging totals and segments included
	local suite
	suite="$(echo "$elfs" | tr ' ' '\n' | grep -v "^$OUT/jgen/") $(ls "$OUT"/jgen/gen-*.elf | head -10) $(ls "$OUT"/jgen/gen64-*.elf | head -10)"
	for m in zero-riscy risc0; do
		tests/jit.sh "$CYCLOPS" "$cache" --model $m $suite >"$OUT/jit.txt" 2>&1
		tally "$OUT/jit.txt"
		echo "# jit: $(grep -c '^ok - ' "$OUT/jit.txt") guests write the same translated and interpreted under $m"
		# ... and the runs are translated (the model does not send them
		# to the interpreter): sha256 at least 99% of its cycles
		CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 \
			"$CYCLOPS" run -q --engine jit --model $m guest/build/sha256.elf >/dev/null 2>"$OUT/jit.err"
		expect "jit: sha256 under $m runs at least 99% of its cycles translated" \
			translated_permille "$OUT/jit.err" \
			"$(cy run --model $m guest/build/sha256.elf 2>&1 >/dev/null | summary_insns /dev/stdin)" 990
	done
	# budgets inside and between translated blocks and at a paging
	# segment's end (risc0's segments hold 2^20 - 25000 = 1023576 cycles)
	for lim in 1 1000 65537 1023575 1023576 1023577 2047153 3333331; do
		tests/jit.sh "$CYCLOPS" "$cache" --max-cycles $lim --model risc0 guest/build/sha256.elf >"$OUT/jit.txt" 2>&1
		expect "jit: sha256 under risc0 stops at --max-cycles $lim at the interpreter's instruction, with its segments" \
			grep -q '^ok - ' "$OUT/jit.txt"
	done
	# misaligned accesses split over two words cost zero-riscy's extra:
	# the region leaves before each and the interpreter runs it; the figures
	# (split_loop.S derives them) are the interpreter's, and the loop's
	# head still runs translated
	local sl=tests/misaligned/build/split_loop.elf mis sites cyc tmin
	read -r mis sites cyc tmin <<<"$(sed -n 's/^# EXPECT-SPLIT-LOOP: *//p' tests/misaligned/split_loop.S)"
	tests/jit.sh "$CYCLOPS" "$cache" --model zero-riscy $sl >"$OUT/jit.txt" 2>&1
	expect "jit: split_loop under zero-riscy: the same translated and interpreted" grep -q '^ok - ' "$OUT/jit.txt"
	CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 "$CYCLOPS" run --engine jit \
		--model zero-riscy --report "$OUT/jit-split.json" $sl >/dev/null 2>"$OUT/jit.err"
	expect "jit: split_loop under zero-riscy, translated: $cyc cycles, $mis misaligned accesses at $sites pcs, at least $tmin cycles translated" \
		python3 -c "
import json, re, sys
r = json.load(open('$OUT/jit-split.json'))
t = int('0$(jit_figure "$OUT/jit.err" cycles)')
sys.exit(not (r['cycles'] == $cyc and r['misaligned']['total'] == $mis
              and len(r['misaligned']['sites']) == $sites and t >= $tmin))"
	# with every profiler on (the accounting variant): the engines' comparison,
	# and sampling every 8 cycles (by phases) beside the call stack, the
	# tracker and the timers
	# (hot_announce: the announcement's flagged block first runs in a
	# translated region of the variant with counts, which must leave there)
	CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 ENGINES="jit interp" PHASES=1 tests/engines.sh \
		"$CYCLOPS" unit guest/build/sha256.elf guest/build/tracked.elf guest/build/timed.elf guest/build/sampled.elf \
		guest/build/sort.elf guest/build/rv64imac-lp64/sort.elf guest/build/rv64imac-lp64/bytecode.elf \
		tests/profile/build/*.elf tests/timer/build/nested.elf tests/timer/build/hot_announce.elf \
		tests/sample/build/loop.elf \
		$(ls "$OUT"/jgen/*.elf | head -20) >"$OUT/jit.txt" 2>&1
	tally_translated "$OUT/jit.txt"
	# ... and under the detailed models, where translated code with
	# subscribers leaves before each access the model prices (risc0's
	# page-ins and page-outs, zero-riscy's split words) and each division
	# by zero of another cost (zero-riscy), which the interpreter runs and
	# reports (ACCT_EXTRA): page_walk pages in and out inside a translated
	# loop that calls, zero_riscy and rv32m divide by zero in loops
	local m guests
	for m in zero-riscy risc0; do
		if [ $m = zero-riscy ]; then
			guests="tests/cost/build/zero_riscy.elf tests/isa/build/rv32m.elf tests/timer/build/events.elf
				tests/misaligned/build/split_loop.elf guest/build/sort.elf"
		else
			guests="tests/cost/build/risc0_page_walk.elf tests/cost/build/risc0_segments.elf
				tests/timer/build/risc0.elf tests/timer/build/walk.elf tests/zkvm/build/risc0_timer_sha.elf
				guest/build/sha256.elf"
		fi
		CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 ENGINES="jit interp" tests/engines.sh "$CYCLOPS" $m \
			$guests tests/profile/build/recursion.elf $(ls "$OUT"/jgen/gen-*.elf | head -5) >"$OUT/jit.txt" 2>&1
		tally_translated "$OUT/jit.txt"
	done
	# page_walk's 96 iterations each leave the region before the page-out
	# (and the misaligned page-in) and come back at the call's return
	# point at least: at least 96 entries, and at least the caller's five
	# instructions of each iteration translated (480 cycles)
	CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 "$CYCLOPS" run -q --engine jit \
		--model risc0 --profile "$OUT/walk.folded" --sample=7 --sample-out "$OUT/walk.samples" \
		tests/cost/build/risc0_page_walk.elf >/dev/null 2>"$OUT/jit.err"
	expect "jit: page_walk under risc0 with profilers: the loop runs translated between the page-ins" \
		sh -c '[ "$1" -ge 96 ] && [ "$2" -ge 480 ]' - "$(jit_figure "$OUT/jit.err" entries,)" \
		"$(jit_figure "$OUT/jit.err" cycles)"
	# samples counted inside translated code (the accounting variant's
	# tables of each block's cycles): periods of 1 cycle (a deadline on
	# every instruction of a block), a few cycles (several in a block, one
	# at a block's last instruction), about a block and far more than a
	# block (sha256's hot blocks hold tens of instructions), at both widths, with
	# budgets that stop the run inside a block that holds a sample; the
	# powers of two from 2 to 64 are counted by phases (the runs of each
	# block by the phase of their start, handed to the sampler at the end);
	# the histogram and the call-stack profile of the translated run are the
	# interpreter's, byte for byte
	for w in guest/build/sha256.elf guest/build/rv64imac-lp64/sha256.elf guest/build/kernels.elf; do
		for n in 1 2 3 5 31 32 64 1000; do
			for lim in 20000000 65537 1000003; do
				for e in jit interp; do
					CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 "$CYCLOPS" run -q --engine $e \
						--max-cycles $lim --sample=$n --sample-out "$OUT/jit-$e.samples" \
						--profile "$OUT/jit-$e.folded" "$w" >"$OUT/jit-$e.out" 2>&1
				done
				expect "jit: $w sampled every $n cycles, stopped at $lim: the same histogram and profile translated" \
					sh -c "cmp -s '$OUT/jit-jit.samples' '$OUT/jit-interp.samples' && cmp -s '$OUT/jit-jit.folded' '$OUT/jit-interp.folded' && cmp -s '$OUT/jit-jit.out' '$OUT/jit-interp.out'"
			done
		done
	done
	# by phases under a model whose taken branches cost more
	# (tests/sample/taken.model, static costs): the runs that end in a
	# taken branch are counted apart, at their own length; and every 3
	# cycles (by the deadline), where a multiplication holds two samples or
	# three
	for w in guest/build/kernels.elf guest/build/rv64imac-lp64/sha256.elf; do
		for n in 2 3 8 32; do
			for e in jit interp; do
				CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 "$CYCLOPS" run -q --engine $e \
					--model tests/sample/taken.model --max-cycles 20000000 --sample=$n \
					--sample-out "$OUT/jit-$e.samples" "$w" >"$OUT/jit-$e.out" 2>&1
			done
			expect "jit: $w under taken.model sampled every $n cycles: the same histogram translated" \
				sh -c "cmp -s '$OUT/jit-jit.samples' '$OUT/jit-interp.samples' && cmp -s '$OUT/jit-jit.out' '$OUT/jit-interp.out'"
		done
	done
	# a block the call stack flags (fallthrough.S: f's block falls into g)
	# in a translated loop sampled by phases: the region leaves at its end
	# for the driver to count its samples; the hand-derived counts
	for n in 2 4; do
		CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 "$CYCLOPS" run -q --engine jit \
			--sample=$n --sample-out "$OUT/ft.samples" --profile "$OUT/ft.folded" \
			tests/sample/build/fallthrough.elf >/dev/null 2>"$OUT/ft.err"
		"$CYCLOPS" hist --json "$OUT/ft.samples" --elf tests/sample/build/fallthrough.elf >"$OUT/ft.json"
		expect "jit: fallthrough.S every $n cycles beside the call stack, translated: the hand-derived counts" \
			sh -c 'tests/sample/check.py expect tests/sample/fallthrough.S tests/sample/build/fallthrough.elf \
				"$1" unit "$2" >/dev/null && [ "${3:-0}" -gt 0 ]' - "$OUT/ft.json" $n \
			"$(jit_figure "$OUT/ft.err" cycles)"
	done
	# a sampler that pauses and resumes (sampled.elf) sets no deadline while
	# paused, which changes the variant its regions need with no flush of
	# the decoded blocks (core/jit.c: jit_mode): the run reaches its end
	# translated, with the interpreter's histogram (before the driver let
	# the interpreter run a block patched for the other variant's region,
	# it sent the run back to that entry for ever)
	# (every 8 cycles: by phases, whose counts keep their phase across a
	# pause and resume and are handed out before the guest's saves)
	local e n
	for n in 7 8; do
		for e in jit interp; do
			rm -rf "$OUT/flip-$e" && mkdir -p "$OUT/flip-$e"
			CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 timeout 120 "$CYCLOPS" \
				run -q --engine $e --sample=$n --guest-saves --out-dir "$OUT/flip-$e" \
				guest/build/sampled.elf >"$OUT/flip-$e.out" 2>"$OUT/flip-$e.err"
			echo "exit $?" >>"$OUT/flip-$e.out"
		done
		expect "jit: sampled.elf every $n cycles, whose sampler pauses and resumes, ends translated with the interpreter's histograms" \
			sh -c 'cmp -s "$1/flip-jit.out" "$1/flip-interp.out" && grep -q "^exit 0$" "$1/flip-jit.out" &&
			       diff -r "$1/flip-jit" "$1/flip-interp" >/dev/null &&
			       [ "${2:-0}" -gt 0 ]' - "$OUT" "$(jit_figure "$OUT/flip-jit.err" cycles)"
	done
	# budgets anywhere: before, inside and at the end of translated blocks
	for w in guest/build/sha256.elf guest/build/rv64imac-lp64/sha256.elf guest/build/kernels.elf \
		guest/build/rv64imac-lp64/keccak.elf; do
		for lim in 1 2 3 17 64 65 1000 4097 65535 65536 65537 1000003 3333331; do
			tests/jit.sh "$CYCLOPS" "$cache" --max-cycles $lim "$w" >"$OUT/jit.txt" 2>&1
			expect "jit: $w stops at --max-cycles $lim at the interpreter's instruction" \
				grep -q '^ok - ' "$OUT/jit.txt"
		done
	done
	# the runs are translated: nearly every cycle of sha256 ran as host code;
	# and of bytecode, whose interpreter loop reaches its cases through a
	# jump table, some of them starting inside another block (a region that
	# lacks them leaves at every dispatch to one: 64% of its cycles
	# translated, xl/bytecode 8x slower, before its blocks said whether
	# control came to them from another block)
	for w in guest/build/sha256.elf guest/build/rv64imac-lp64/sha256.elf guest/build/bytecode.elf; do
		CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 \
			"$CYCLOPS" run -q --engine jit "$w" >/dev/null 2>"$OUT/jit.err"
		expect "jit: $w runs at least 99% of its cycles translated" \
			translated_permille "$OUT/jit.err" \
			"$(cy run "$w" 2>&1 >/dev/null | summary_insns /dev/stdin)" 990
	done
	# a second run finds what the first compiled at its function's first
	# sample (the function's index in the cache), though the region was
	# made later in the first run, with the blocks control had come to by
	# then: sha256 (about 44 M cycles, its region compiled after 2^25) runs
	# nearly all of it translated the second time; without the index only
	# what follows the point where the first run made its region (about
	# 10 M cycles)
	local prof="--sample --sample-out $OUT/jit-ix.samples --profile $OUT/jit-ix.folded --cycle-tracker --counters"
	cy run -q --engine interp $prof guest/build/sha256.elf >"$OUT/jit-ix-ref.out" 2>"$OUT/jit-ix-ref.err"
	mv "$OUT/jit-ix.samples" "$OUT/jit-ix-ref.samples" && mv "$OUT/jit-ix.folded" "$OUT/jit-ix-ref.folded"
	for p in "" "$prof"; do
		rm -rf "$OUT/jit-index" && mkdir -p "$OUT/jit-index"
		CYCLOPS_JIT_CACHE=$OUT/jit-index "$CYCLOPS" run -q --engine jit $p guest/build/sha256.elf >/dev/null 2>&1
		for i in $(seq 1200); do # the compilation finishes after the run
			ls "$OUT"/jit-index/*.so >/dev/null 2>&1 && ! ls "$OUT"/jit-index/*.tmp* >/dev/null 2>&1 && break
			sleep 0.1
		done
		sleep 0.5
		CYCLOPS_JIT_CACHE=$OUT/jit-index CYCLOPS_JIT_DEBUG=1 "$CYCLOPS" run -q --engine jit $p \
			guest/build/sha256.elf >"$OUT/jit-ix.out" 2>"$OUT/jit.err"
		expect "jit: a second run of sha256${p:+ with profilers} finds the first run's region at once (at least 95% of its cycles translated)" \
			translated_permille "$OUT/jit.err" \
			"$(cy run guest/build/sha256.elf 2>&1 >/dev/null | summary_insns /dev/stdin)" 950
	done
	grep -v '^jit: ' "$OUT/jit.err" >"$OUT/jit-ix.err"
	expect "jit: ... and writes what the interpreter writes (samples, profile, stdout and stderr)" \
		sh -c "cmp -s '$OUT/jit-ix.samples' '$OUT/jit-ix-ref.samples' && cmp -s '$OUT/jit-ix.folded' '$OUT/jit-ix-ref.folded' && cmp -s '$OUT/jit-ix.out' '$OUT/jit-ix-ref.out' && cmp -s '$OUT/jit-ix.err' '$OUT/jit-ix-ref.err'"
	# a region the run outgrows is made again, and the index names the
	# new one: long/bytecode (488 M cycles) runs three programs one after
	# the other, each using cases of its switch that the others do not;
	# the first run makes its region after 2^25 cycles, inside the first
	# program. The index used to keep that region for every later run
	# (the same one made again at each probe: 1.9 M exits to the
	# interpreter, 97.8% of the cycles translated, run after run); a run
	# whose interpreter keeps running the loaded region's function makes
	# it again from what ran, so that by the fourth run every program's
	# cases are in it. Each run's compilation finishes after it (the
	# compiler holds its lock file meanwhile: flock waits for it).
	rm -rf "$OUT/jit-grow" && mkdir -p "$OUT/jit-grow"
	for run in 1 2 3 4; do
		CYCLOPS_JIT_CACHE=$OUT/jit-grow CYCLOPS_JIT_DEBUG=1 "$CYCLOPS" run -q --engine jit \
			guest/build/long/bytecode.elf >"$OUT/jit-grow.out" 2>"$OUT/jit.err"
		jit_settle "$OUT/jit-grow"
	done
	expect "jit: by its fourth run, long/bytecode runs at least 99.9% of its cycles translated (its region made again as later programs used new cases)" \
		translated_permille "$OUT/jit.err" \
		"$(cy run guest/build/long/bytecode.elf 2>&1 >/dev/null | summary_insns /dev/stdin)" 999
	cy run -q --engine interp guest/build/long/bytecode.elf >"$OUT/jit-grow-ref.out" 2>/dev/null
	expect "jit: ... and prints what the interpreter prints" cmp -s "$OUT/jit-grow.out" "$OUT/jit-grow-ref.out"
	# a short run's hot functions are compiled for the next run: sort (49 M
	# cycles) spends half of them in memcpy and memset loops it runs
	# before 2^25 cycles, which were never sampled again, and queues more
	# regions than it lasts to compile (one was compiled a run: 13% of the
	# second run translated). Every function as hot as a compilation asks
	# for is queued when the run reaches 2^25 cycles, and what is queued
	# at its end is compiled after it.
	rm -rf "$OUT/jit-short" && mkdir -p "$OUT/jit-short"
	for run in 1 2; do
		CYCLOPS_JIT_CACHE=$OUT/jit-short CYCLOPS_JIT_DEBUG=1 "$CYCLOPS" run -q --engine jit \
			guest/build/sort.elf >"$OUT/jit-short.out" 2>"$OUT/jit.err"
		jit_settle "$OUT/jit-short"
	done
	expect "jit: sort's second run has at least 95% of its cycles translated (its first run's hot functions all compiled after it)" \
		translated_permille "$OUT/jit.err" \
		"$(cy run guest/build/sort.elf 2>&1 >/dev/null | summary_insns /dev/stdin)" 950
	cy run -q --engine interp guest/build/sort.elf >"$OUT/jit-short-ref.out" 2>/dev/null
	expect "jit: ... and prints what the interpreter prints" cmp -s "$OUT/jit-short.out" "$OUT/jit-short-ref.out"
	# ... and with every profiler on, the samples do not make the region
	# leave: sha256 (about 42 M cycles, 1.3 M samples of 32 cycles) enters
	# translated code far less than once per 1000 cycles (a leave at each
	# sample would be once per 32)
	CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 "$CYCLOPS" run -q --engine jit \
		--sample --sample-out "$OUT/jit.samples" --profile "$OUT/jit.folded" --timers --cycle-tracker \
		guest/build/sha256.elf >/dev/null 2>"$OUT/jit.err"
	expect "jit: sha256 with every profiler on enters translated code less than once per 1000 cycles" \
		sh -c '[ "$2" -gt 40000000 ] && [ "$1" -gt 0 ] && [ $(($1 * 1000)) -lt "$2" ]' - \
		"$(jit_figure "$OUT/jit.err" entries,)" "$(jit_figure "$OUT/jit.err" cycles)"
	# a code cache of two regions evicts as the run goes, and agrees
	CYCLOPS_JIT_MAX_REGIONS=2 tests/jit.sh "$CYCLOPS" "$cache" guest/build/kernels.elf guest/build/sort.elf >"$OUT/jit.txt" 2>&1
	expect "jit: with room for two regions, kernels and sort agree with the interpreter" \
		[ "$(grep -c '^ok - ' "$OUT/jit.txt")" = 2 ]
	# W^X: no mapping of the process is writable and executable
	# (a long run, its mappings looked at until a translation is in)
	CYCLOPS_JIT_CACHE=$cache CYCLOPS_JIT_EAGER=1 "$CYCLOPS" run -q --engine jit guest/build/kernels.elf 300000 >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 100); do
		cp /proc/$pid/maps "$OUT/jit.maps" 2>/dev/null
		grep -q "$cache/.*\.so" "$OUT/jit.maps" 2>/dev/null && break
		sleep 0.1
	done
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	expect "jit: translated code is mapped, and nothing is writable and executable at once" \
		sh -c "grep -q '$cache/.*\.so' '$OUT/jit.maps' && ! grep -q ' rwx' '$OUT/jit.maps'"
	# a cached file that does not hold what its name says is not run
	for f in "$cache"/*.so; do
		printf 'damaged' | dd of="$f" bs=1 seek=4096 conv=notrunc 2>/dev/null
	done
	tests/jit.sh "$CYCLOPS" "$cache" guest/build/sha256.elf guest/build/rv64imac-lp64/sort.elf >"$OUT/jit.txt" 2>&1
	expect "jit: with every cached file damaged, the runs still agree" \
		[ "$(grep -c '^ok - ' "$OUT/jit.txt")" = 2 ]
	# a signal stops an eager run after the compilation under way: the
	# sled of wide.elf (tests/sample/wide.S) is 2^20 instructions run once,
	# 512 pages each compiled before it runs, so the 2^20 cycles between
	# two of cy_vm_run's looks at an interruption took minutes (hours
	# with --timers, whose nops end blocks). TERM once two sled pages are
	# compiled (the first file is _start's loop).
	rm -rf "$OUT/jit-signal"
	CYCLOPS_JIT_CACHE=$OUT/jit-signal CYCLOPS_JIT_EAGER=1 "$CYCLOPS" run --engine jit \
		tests/sample/build/wide.elf >/dev/null 2>"$OUT/jit.sig" &
	pid=$!
	for i in $(seq 600); do
		[ "$(ls "$OUT/jit-signal"/*.so 2>/dev/null | wc -l)" -ge 3 ] && break
		sleep 0.2
	done
	kill -TERM $pid 2>/dev/null
	for i in $(seq 600); do # 2 minutes, then it is stopped
		kill -0 $pid 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL $pid 2>/dev/null
	wait $pid
	expect "jit: SIGTERM stops an eager run in wide.elf's sled after one compilation (status 143)" \
		[ $? -eq 143 ]
	expect "jit: the interrupted eager run says where: in the sled" \
		grep -q 'interrupted by SIGTERM at 0x[0-9a-f]* <sled+' "$OUT/jit.sig"
	# two runs at once on an empty cache (a chunked run's workers): a
	# region is compiled once, by one of them, the other waiting for it and
	# taking its file; every compilation is a file in the cache
	rm -rf "$OUT/jit-two"
	pid=
	for i in 1 2; do
		CYCLOPS_JIT_CACHE=$OUT/jit-two CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 \
			timeout 120 "$CYCLOPS" run -q --engine jit guest/build/sha256.elf >/dev/null 2>"$OUT/jit-two.$i" &
		pid="$pid $!"
	done
	wait $pid
	expect "jit: two runs at once on an empty cache compile each region once: their compilations are the cache's files" \
		sh -c "[ \$(cat '$OUT'/jit-two.[12] | awk '/^jit: .* regions compiled/ { n += \$2 } END { print n }') = \$(ls '$OUT'/jit-two/*.so | wc -l) ]"
	# the default policy: hot code compiled in the background while the
	# interpreter goes on, then loaded from the cache by the next run
	cy run --engine interp guest/build/keccak.elf 60 >"$OUT/jit.ref" 2>&1
	for n in 1 2; do
		CYCLOPS_JIT_CACHE=$OUT/jit-default "$CYCLOPS" run guest/build/keccak.elf 60 >"$OUT/jit.def" 2>&1
		expect "jit: the default engine's run $n of keccak agrees with the interpreter" \
			bash -c "sed -E 's/, [0-9.]+ s, [0-9.]+ [KMG]?IPS\$//' '$OUT/jit.def' | cmp -s - <(sed -E 's/, [0-9.]+ s, [0-9.]+ [KMG]?IPS\$//' '$OUT/jit.ref')"
	done
}

# Misaligned data accesses (Zicclsm, tests/misaligned/): each guest's
# header derives its total, its pcs and its functions' counts; the run
# exits with mhpmcounter3 counting the MISALIGNED event, the report lists
# every pc with its function and source line (the hottest one's line is the
# one marked in the source), and the summary names it. Under each model and
# engine; a guest with none prints no line.
test_misaligned() {
	local elf src want total npcs f1 c1 f2 c2 model engine hot lost i
	for elf in tests/misaligned/build/*.elf tests/misaligned/build/rv64/*.elf; do
		src=tests/misaligned/${elf#tests/misaligned/build/}
		src=${src%.elf}.S
		want=$(sed -n 's/^# EXPECT-MISALIGNED: *//p' "$src")
		[ -n "$want" ] || continue # table_full.S: below
		read -r total npcs f1 c1 f2 c2 <<<"$want"
		hot=$(grep -n 'the hottest misaligned pc' "$src" | cut -d: -f1)
		for model in unit zero-riscy; do
			for engine in interp reference; do
				cy run --model $model --engine $engine --report "$OUT/mis.json" "$elf" \
					>/dev/null 2>"$OUT/mis.err"
				expect "misaligned: $src ($model, $engine): mhpmcounter3 (MISALIGNED) counts $total" [ $? -eq "$total" ]
				expect "misaligned: $src ($model, $engine): the report has $total at $npcs pcs, $c1 in $f1, $c2 in $f2, the hottest at line $hot" \
					python3 -c "
import json, sys
m = json.load(open('$OUT/mis.json'))['misaligned']
f = {x['function']: x['count'] for x in m['functions']}
top = max(m['sites'], key=lambda x: x['count'])
ok = (m['total'] == $total and len(m['sites']) == $npcs and f == {'$f1': $c1, '$f2': $c2}
      and top['line'] == $hot and top['file'].endswith('$(basename "$src")'))
sys.exit(0 if ok else 1)"
			done
		done
		expect "misaligned: $src: the summary names the total and the hottest pc's line" \
			grep -Eq "^cyclops: $total misaligned data accesses at $npcs pcs; most at 0x[0-9a-f]{8} <$f1> \(.*$(basename "$src"):$hot\): " "$OUT/mis.err"
	done
	# the table of pcs full (table_full.S derives its figures): the same
	# pcs listed by both engines, where translated code (loaded from the
	# cache by the second run) reaches a new pc with no room left for it
	elf=tests/misaligned/build/table_full.elf
	src=tests/misaligned/table_full.S
	read -r total npcs lost <<<"$(sed -n 's/^# EXPECT-TABLE-FULL: *//p' $src)"
	cy run --engine interp --report "$OUT/mis-full.json" $elf >/dev/null 2>&1
	expect "misaligned: table_full.S: $total accesses, $npcs pcs listed (C's, not B's), $lost lost" \
		python3 -c "
import json, sys
m = json.load(open('$OUT/mis-full.json'))['misaligned']
lines = [x['line'] for x in m['sites']]
sys.exit(not (m['total'] == $total and len(m['sites']) == $npcs and m['lost'] == $lost
              and $(grep -n '# C:' $src | cut -d: -f1) in lines and $(grep -n '# B:' $src | cut -d: -f1) not in lines))"
	rm -rf "$OUT/mis-cache"
	for i in 1 2; do
		CYCLOPS_JIT_CACHE=$OUT/mis-cache CYCLOPS_JIT_DEBUG=1 cy run --engine jit \
			--report "$OUT/mis-full-jit.json" $elf >/dev/null 2>"$OUT/mis-full.err"
	done
	expect "misaligned: table_full.S translated (its second run, from the cache) lists the same pcs, byte for byte" \
		sh -c "cmp -s '$OUT/mis-full.json' '$OUT/mis-full-jit.json' &&
			grep -Eq '^jit: .*, [1-9][0-9]* cycles translated' '$OUT/mis-full.err'"
	cy run guest/build/sha256.elf >/dev/null 2>"$OUT/mis.err"
	expect "misaligned: a guest with none prints no misaligned line" \
		sh -c "! grep -q misaligned '$OUT/mis.err'"
}

# riscv-tests (not part of cyclops): with RISCV_TESTS=DIR, a riscv-tests
# checkout whose isa/ holds the built p-environment programs (make -C isa
# XLEN=64 ...; docs/conformance.md), every rv32/rv64 ui, um, ua, uc and mi
# program runs on the bare platform and must pass through tohost; the
# breakpoint tests need the debug triggers (Sdtrig), which cyclops lacks.
test_riscv_tests() {
	local t n=0
	if [ -z "${RISCV_TESTS:-}" ] || [ ! -d "$RISCV_TESTS/isa" ]; then
		ok "riscv-tests: skipped (RISCV_TESTS is not set to a riscv-tests checkout with built isa/ programs)"
		return
	fi
	for t in "$RISCV_TESTS"/isa/rv{32,64}{ui,um,ua,uc,mi}-p-*; do
		case $t in *.dump | *-breakpoint) continue ;; esac
		[ -x "$t" ] || continue
		n=$((n + 1))
		cy run -q "$t" >"$OUT/rt.out" 2>"$OUT/rt.err"
		expect "riscv-tests: $(basename "$t") passes" [ $? -eq 0 ]
	done
	expect "riscv-tests: $n programs found" [ $n -gt 0 ]
}

# The fuzz harnesses (fuzz/, docs/robustness.md): every regression input and
# seed once, then a short deterministic run of each target. They need clang.
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
test_fuzz() {
	local t runs d
	if [ ! -x "$FUZZ_DIR/fuzz_elf" ]; then
		ok "fuzz: skipped (no harnesses in $FUZZ_DIR: clang is not installed, or FUZZ_CC is empty)"
		return
	fi
	for t in fuzz/fuzz_*.c; do
		t=$(basename "$t" .c)
		t=${t#fuzz_}
		d=$OUT/fuzz-$t
		mkdir -p "$d"
		if [ -d fuzz/regressions/$t ]; then
			expect "fuzz: $t: every regression input runs clean" \
				"$FUZZ_DIR/fuzz_$t" -timeout=20 fuzz/regressions/$t/* >"$d/reg.txt" 2>&1
		fi
		# the VM targets create a VM per input: fewer runs
		# and jit compiles the code it is given, twice a second or so
		case $t in
		elf | exec | checkpoint) runs=${FUZZ_CHECK_RUNS_VM:-400} ;;
		jit) runs=${FUZZ_CHECK_RUNS_JIT:-40} ;;
		*) runs=${FUZZ_CHECK_RUNS:-20000} ;;
		esac
		if "$FUZZ_DIR/fuzz_$t" -seed=1 -runs=$runs -max_total_time=60 -timeout=20 \
			-artifact_prefix="$d/" "$d" fuzz/corpus/$t >"$d/log.txt" 2>&1; then
			ok "fuzz: $t: the seeds and $runs mutated inputs run clean"
		else
			not_ok "fuzz: $t" "$(grep -m1 -E 'ERROR|SUMMARY' "$d/log.txt") (input in $d)"
		fi
	done
}

# The GDB stub (docs/gdb.md): gdb-multiarch in batch mode against
# cyclops run --gdb, on the hand-counted tests/gdb/counter.S, C guests and
# bare-metal firmware; expected values are derived in counter.S's comments,
# taken from a plain run of the same guest (its summary, --max-cycles
# stops, profiles), or from a fresh session run to the same cycle.

# gdb_session NAME ELF CMDS [cyclops options...]: cyclops run --gdb 0
# under gdb-multiarch -batch running the commands in file CMDS; leaves
# $OUT/gdb-NAME.gdb (GDB's output), .out, .err and .status (cyclops's).
gdb_session() {
	local name=$1 elf=$2 cmds=$3 p=$OUT/gdb-$1 port="" i pid
	shift 3
	: >"$p.err"
	timeout 300 "$CYCLOPS" run "$@" --gdb 0 "$elf" <"${GDB_STDIN:-/dev/null}" >"$p.out" 2>"$p.err" &
	pid=$!
	for i in $(seq 200); do
		port=$(sed -n 's/^cyclops: waiting for GDB on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$p.err")
		[ -n "$port" ] && break
		sleep 0.05
	done
	timeout 300 gdb-multiarch -batch -nx -ex 'set pagination off' -ex 'set confirm off' \
		-ex "target remote 127.0.0.1:$port" -x "$cmds" "$elf" >"$p.gdb" 2>&1
	wait $pid
	echo $? >"$p.status"
}

# the values of "monitor cycles" in a session's output, in order
gdb_cycles() { sed -n 's/^cycles \([0-9]*\)$/\1/p' "$OUT/gdb-$1.gdb" | tr '\n' ' '; }
# the registers of the Nth "info registers" (lines "NAME 0x... ...": ra to
# t6 and pc; GDB leaves out zero)
gdb_regs() {
	awk -v n="$2" '/^ra /{k++} k==n && /^[a-z0-9]+ +0x/{print $1, $2} /^pc /{if (k==n) exit}' \
		"$OUT/gdb-$1.gdb"
}

test_gdb() {
	local g=tests/gdb/build c=$OUT/gdb f plain got want port pid
	if ! command -v gdb-multiarch >/dev/null; then
		not_ok "gdb" "gdb-multiarch is not installed (scripts/debian-packages.txt)"
		return
	fi
	mkdir -p "$c"
	# -- counter.S: breakpoints, stepping, reverse execution, a watchpoint,
	# until-cycle; every number from the file's hand count
	cat >"$c/counter.gdb" <<-'EOF'
		break bump
		continue
		monitor cycles
		continue
		continue
		monitor cycles
		printf "xlen=%d counter=%d cycle=%d instret=%d\n", sizeof($sp) * 8, *(int *)&counter, $cycle, $instret
		stepi
		stepi
		stepi
		monitor cycles
		printf "pc=bump+%d\n", $pc - (int)&bump
		reverse-stepi
		monitor cycles
		printf "pc=bump+%d\n", $pc - (int)&bump
		info registers
		reverse-continue
		monitor cycles
		reverse-continue
		monitor cycles
		printf "counter=%d\n", *(int *)&counter
		info registers
		reverse-continue
		monitor cycles
		reverse-continue
		monitor cycles
		printf "pc=start+%d\n", $pc - (int)&_start
		delete
		watch *(int *)&counter
		continue
		monitor cycles
		continue
		monitor cycles
		delete
		monitor until-cycle 40
		continue
		monitor cycles
		info registers
		monitor until-cycle 15
		reverse-continue
		monitor cycles
		continue
	EOF
	for w in 32 64; do
		elf=$g/counter.elf
		[ $w = 64 ] && elf=$g/rv64/counter.elf
		gdb_session counter$w "$elf" "$c/counter.gdb"
		f=$OUT/gdb-counter$w.gdb
		# bump is reached after 3, 13, 23 instructions; 3 steps, one back: 26, 25;
		# back to this call's arrival (23), the 2nd and 1st (13, 3), then the
		# start (0); the watchpoint stops after the 1st and 2nd stores (8, 18);
		# then cycle 40 and back to 15
		expect "gdb: counter.S (RV$w): monitor cycles at each stop as counted by hand" \
			test "$(gdb_cycles counter$w)" = "3 23 26 25 23 13 3 0 8 18 40 15 "
		expect "gdb: counter.S (RV$w): registers of $w bits, the variable, the cycle and instret CSRs at the 3rd arrival" \
			grep -q "^xlen=$w counter=2 cycle=23 instret=23\$" "$f"
		expect "gdb: counter.S (RV$w): stepi moves 3 instructions (la is 8 bytes, lw 4), reverse-stepi 1 back" \
			sh -c "grep '^pc=bump+' '$f' | tr '\n' ' ' | grep -q '^pc=bump+12 pc=bump+8 \$'"
		expect "gdb: counter.S (RV$w): reverse-continue reaches the previous breakpoint hits" \
			grep -q '^counter=1$' "$f"
		expect "gdb: counter.S (RV$w): reverse-continue past the first hit stops at the start of history" \
			sh -c "grep -q 'No more reverse-execution history' '$f' && grep -q '^pc=start+0\$' '$f'"
		expect "gdb: counter.S (RV$w): a watchpoint on counter sees 0 -> 1 and 1 -> 2" \
			sh -c "grep -A1 '^Old value = 0\$' '$f' | grep -q '^New value = 1\$' &&
				grep -A1 '^Old value = 1\$' '$f' | grep -q '^New value = 2\$'"
		expect "gdb: counter.S (RV$w): the guest exits normally (counter 5), 56 instructions as counted" \
			sh -c "grep -q 'exited normally' '$f' && [ \$(cat $OUT/gdb-counter$w.status) -eq 0 ] &&
				grep -q '^cyclops: 56 instructions, 56 cycles' $OUT/gdb-counter$w.err"
		# the same state as a fresh session run to the same cycle
		for want in 25:1 13:2 40:3; do
			printf 'monitor until-cycle %s\ncontinue\nmonitor cycles\ninfo registers\nkill\n' \
				"${want%:*}" >"$c/fresh.gdb"
			gdb_session "fresh$w-${want%:*}" "$elf" "$c/fresh.gdb"
			gdb_regs counter$w "${want#*:}" >"$c/regs-a$w-${want%:*}"
			gdb_regs "fresh$w-${want%:*}" 1 >"$c/regs-b$w-${want%:*}"
			expect "gdb: counter.S (RV$w): the registers at cycle ${want%:*} equal a fresh session's" \
				sh -c "[ \$(wc -l <'$c/regs-a$w-${want%:*}') -eq 32 ] &&
					cmp -s '$c/regs-a$w-${want%:*}' '$c/regs-b$w-${want%:*}'"
		done
	done
	# GDB's changes stay in the history: counter set to 100 at the 1st
	# arrival, so 102 at the 3rd, 101 and 100 going back, 101 forward
	# again; set to 50 at the 2nd (in the past: the future recorded is
	# forgotten), 52 two arrivals later, 50 back there, exit code 49
	cat >"$c/write.gdb" <<-'EOF'
		break bump
		continue
		set var *(int *)&counter = 100
		continue
		continue
		printf "c3=%d\n", *(int *)&counter
		reverse-continue
		printf "c2=%d\n", *(int *)&counter
		reverse-continue
		printf "c1=%d\n", *(int *)&counter
		continue
		printf "c2again=%d\n", *(int *)&counter
		set var *(int *)&counter = 50
		continue
		continue
		printf "c4=%d\n", *(int *)&counter
		reverse-continue
		reverse-continue
		printf "c2past=%d\n", *(int *)&counter
		delete
		continue
	EOF
	gdb_session write "$g/counter.elf" "$c/write.gdb"
	expect "gdb: counter.S: memory GDB wrote, at the present and in the past, is kept going back and forth" \
		sh -c "[ \"\$(grep '^c[0-9a-z]*=' $OUT/gdb-write.gdb | tr '\n' ' ')\" = 'c3=102 c2=101 c1=100 c2again=101 c4=52 c2past=50 ' ] &&
			[ \$(cat $OUT/gdb-write.status) -eq 49 ]"
	# under a model where cycles are not instructions: going back lands
	# where a fresh session that runs to the same cycle stops
	printf 'break bump\ncontinue\ncontinue\nmonitor cycles\ncontinue\nreverse-continue\nmonitor cycles\ninfo registers\nkill\n' >"$c/zr.gdb"
	gdb_session zr "$g/counter.elf" "$c/zr.gdb" --model zero-riscy
	set -- $(gdb_cycles zr)
	printf 'monitor until-cycle %s\ncontinue\nmonitor cycles\ninfo registers\nkill\n' "${2:-1}" >"$c/zr2.gdb"
	gdb_session zr2 "$g/counter.elf" "$c/zr2.gdb" --model zero-riscy
	gdb_regs zr 1 >"$c/zr-a"
	gdb_regs zr2 1 >"$c/zr-b"
	expect "gdb: counter.S (zero-riscy): reverse-continue lands on the 2nd hit's cycle ($1) and state, as a fresh run to it" \
		sh -c "[ '$1' = '${2:-x}' ] && [ '$(gdb_cycles zr2)' = '$1 ' ] && [ \$(wc -l <'$c/zr-a') -eq 32 ] && cmp -s '$c/zr-a' '$c/zr-b'"
	expect "gdb: counter.S: killed by GDB: status 137 (SIGKILL)" \
		test "$(cat "$OUT/gdb-fresh32-25.status")" -eq 137
	# -- a C guest: reverse-continue to the previous hit equals the forward
	# hit; monitor profile against a plain run stopped at the same cycle
	cat >"$c/sort.gdb" <<-'EOF'
		break insertion_sort
		continue
		continue
		monitor cycles
		info registers
		continue
		monitor cycles
		monitor profile 1000
		reverse-continue
		monitor cycles
		info registers
		reverse-finish
		bt 1
		reverse-step
		monitor cycles
		kill
	EOF
	gdb_session sort guest/build/sort.elf "$c/sort.gdb"
	f=$OUT/gdb-sort.gdb
	set -- $(gdb_cycles sort)
	expect "gdb: sort.c: reverse-continue arrives at the 2nd hit's cycle ($1)" test "${3:-x}" = "$1"
	gdb_regs sort 1 >"$c/sort-a"
	gdb_regs sort 2 >"$c/sort-b"
	expect "gdb: sort.c: ... with the registers the forward run had there" \
		sh -c "[ \$(wc -l <'$c/sort-a') -eq 32 ] && cmp -s '$c/sort-a' '$c/sort-b'"
	expect "gdb: sort.c: reverse-finish returns to the caller, reverse-step goes back further" \
		sh -c "grep -q '^#0 .* in quick_sort ' '$f' && [ \"\${4:-0}\" -lt \"\$1\" ]" -- "$@"
	# the plain run stopped at the 3rd hit's cycle: the same self cycles
	# (by function: the monitor has no inlined frames, as --no-inline)
	"$CYCLOPS" run -q --max-cycles "${2:-1}" --no-inline --profile "$c/sort.folded" guest/build/sort.elf >/dev/null 2>&1
	want=$(awk '{n=$NF; sub(/ [0-9]+$/, ""); k=split($0, f, ";"); c[f[k]]+=n}
		END {for (k in c) print c[k], k}' "$c/sort.folded" | sort)
	got=$(awk '/self cycles/{on=1; next} / cycles in all$/{on=0}
		on && $1 > 0 {n=$0; sub(/^ *[0-9]+ +[0-9.]+% +[0-9]+  /, "", n); print $1, n}' "$f" | sort)
	expect "gdb: sort.c: monitor profile equals the plain run's profile at the same cycle" \
		sh -c "[ -n '$want' ] && [ '$want' = '$got' ]"
	# -- profilers stay exact: everything written after a session with
	# breakpoints, steps and reverse steps equals a plain run's bytes
	cat >"$c/exact.gdb" <<-'EOF'
		break heap_sort
		break build_crc_table
		continue
		stepi
		stepi
		reverse-stepi
		continue
		next
		reverse-next
		monitor tracker
		monitor profile 3
		reverse-continue
		delete
		continue
	EOF
	plain="--report R --chunk-cycles 100000 --profile P.folded --profile P.callgrind --profile P.pb.gz --sample=64 --sample-out S"
	"$CYCLOPS" run $(echo "$plain" | sed "s#R#$c/r1.json#; s#P\.#$c/p1.#g; s#S\$#$c/s1.samples#") \
		guest/build/tracked.elf >"$c/plain.out" 2>"$c/plain.err"
	gdb_session exact guest/build/tracked.elf "$c/exact.gdb" \
		$(echo "$plain" | sed "s#R#$c/r2.json#; s#P\.#$c/p2.#g; s#S\$#$c/s2.samples#")
	expect "gdb: tracked.c: report, profiles (folded, callgrind, pprof) and samples equal a plain run's bytes" \
		sh -c "cmp -s $c/r1.json $c/r2.json && cmp -s $c/p1.folded $c/p2.folded &&
			cmp -s $c/p1.callgrind $c/p2.callgrind && cmp -s $c/p1.pb.gz $c/p2.pb.gz &&
			cmp -s $c/s1.samples $c/s2.samples"
	expect "gdb: tracked.c: the guest's output appears once, as in the plain run" \
		cmp -s "$c/plain.out" "$OUT/gdb-exact.out"
	expect "gdb: tracked.c: monitor tracker names the open span with its start" \
		grep -q '^open sort since cycle [0-9]* ([0-9]* cycles so far)$' "$OUT/gdb-exact.gdb"
	# at heap_sort, setup and build_crc_table have ended: their totals are
	# the plain run's report's
	expect "gdb: tracked.c: monitor tracker's ended spans equal the plain run's report" \
		python3 -c "
import json, re, sys
spans = {s['name']: s['total'] for s in json.load(open('$c/r1.json'))['spans']}
got = dict(re.findall(r'^ *span (\\S+): 1 ended, (\\d+) cycles$', open('$OUT/gdb-exact.gdb').read(), re.M))
sys.exit(0 if got and all(int(v) == spans[k] for k, v in got.items()) and 'setup' in got else 1)"
	# -- stdin is read once: the replay gives the guest the logged bytes
	cat >"$c/echo.gdb" <<-'EOF'
		break done
		continue
		reverse-continue
		continue
		x/s &buf
		continue
	EOF
	printf 'hello, debugger\n' >"$c/echo.in"
	for w in 32 64; do
		elf=$g/echo.elf
		[ $w = 64 ] && elf=$g/rv64/echo.elf
		GDB_STDIN=$c/echo.in gdb_session echo$w "$elf" "$c/echo.gdb"
		expect "gdb: echo.S (RV$w): after going back before read(), the buffer holds the same bytes" \
			grep -q 'hello, debugger\\n"$' "$OUT/gdb-echo$w.gdb"
		expect "gdb: echo.S (RV$w): the guest's output appears once" \
			sh -c "[ \"\$(cat $OUT/gdb-echo$w.out)\" = 'hello, debugger' ] && [ \$(cat $OUT/gdb-echo$w.status) -eq 0 ]"
	done
	# -- risc0 paging: the pages of tests/cost/risc0_pages.S, counted there
	printf 'stepi 11\nmonitor pages\nmonitor cycles\ncontinue\n' >"$c/pages.gdb"
	gdb_session pages tests/cost/build/risc0_pages.elf "$c/pages.gdb" --model risc0
	expect "gdb: risc0_pages.S: after 11 instructions 6 pages in, 4 dirty, 8459 cycles" \
		sh -c "grep -q '^segment 1: 6 pages paged in, 4 dirty' $OUT/gdb-pages.gdb &&
			grep -q '^so far: 6 pages in, 4 pages out, 4335 paging cycles' $OUT/gdb-pages.gdb &&
			[ '$(echo)' = '' ] && grep -q '^cycles 8459\$' $OUT/gdb-pages.gdb"
	# -- bare-metal firmware: a trap is a step; CSRs in the description
	cat >"$c/bare.gdb" <<-'EOF'
		break *on_trap
		continue
		printf "mcause=%d at_handler=%d\n", $mcause, (unsigned int)$pc == (unsigned int)&on_trap
		set $epc = $mepc
		reverse-stepi
		printf "back_at_mepc=%d\n", (unsigned int)$pc == (unsigned int)$epc
		stepi
		printf "at_handler=%d\n", (unsigned int)$pc == (unsigned int)&on_trap
		delete
		continue
	EOF
	gdb_session bare guest/bare/build/illegal_count.elf "$c/bare.gdb"
	expect "gdb: bare: the trap handler is hit with mcause 2 (illegal instruction)" \
		grep -q '^mcause=2 at_handler=1$' "$OUT/gdb-bare.gdb"
	expect "gdb: bare: reverse-stepi from the handler's entry is the trapping instruction (mepc)" \
		grep -q '^back_at_mepc=1$' "$OUT/gdb-bare.gdb"
	expect "gdb: bare: stepi from there takes the trap again" grep -q '^at_handler=1$' "$OUT/gdb-bare.gdb"
	expect "gdb: bare: the firmware runs to its end after the session" \
		test "$(cat "$OUT/gdb-bare.status")" -eq 0
	# -- a fault is a stop to look at and go back from: jump_unmapped.S
	# retires 4 instructions (call: 2, li, jalr) before its fetch fault
	printf 'continue\nmonitor cycles\nreverse-stepi\nmonitor cycles\ncontinue\ncontinue\n' >"$c/fault.gdb"
	gdb_session fault tests/faults/build/jump_unmapped.elf "$c/fault.gdb"
	expect "gdb: a fault stops the guest (SIGSEGV after 4 instructions), reverse-stepi goes back to 3, going on ends it (252)" \
		sh -c "[ '$(gdb_cycles fault)' = '4 3 ' ] && grep -q 'Program received signal SIGSEGV' $OUT/gdb-fault.gdb &&
			grep -q 'Program terminated with signal SIGSEGV' $OUT/gdb-fault.gdb && [ \$(cat $OUT/gdb-fault.status) -eq 252 ]"
	# -- a hardware breakpoint (Z1) is a breakpoint too: bump at 3 and 13
	printf 'hbreak bump\ncontinue\nmonitor cycles\ncontinue\nmonitor cycles\nkill\n' >"$c/hbreak.gdb"
	gdb_session hbreak "$g/counter.elf" "$c/hbreak.gdb"
	expect "gdb: hbreak stops at bump's 1st and 2nd arrivals (3, 13)" \
		sh -c "[ '$(gdb_cycles hbreak)' = '3 13 ' ] && grep -q 'Hardware assisted breakpoint 1' $OUT/gdb-hbreak.gdb"
	# -- detach: the guest runs on to its end, output and status whole
	printf 'break bump\ncontinue\ndetach\n' >"$c/detach.gdb"
	gdb_session detach "$g/counter.elf" "$c/detach.gdb"
	expect "gdb: detach lets the guest run to its end (status 0, 56 instructions)" \
		sh -c "[ \$(cat $OUT/gdb-detach.status) -eq 0 ] && grep -q '^cyclops: 56 instructions' $OUT/gdb-detach.err"
	# -- without history: reverse execution is refused, forward works
	# (GDB's batch mode stops at the error: reverse-stepi comes last)
	printf 'break bump\ncontinue\nmonitor history\ncontinue\nmonitor cycles\nreverse-stepi\n' >"$c/nohist.gdb"
	gdb_session nohist "$g/counter.elf" "$c/nohist.gdb" --gdb-history 0
	expect "gdb: --gdb-history 0: forward runs, reverse-stepi is refused" \
		sh -c "grep -q 'no history' $OUT/gdb-nohist.gdb && grep -q '^cycles 13\$' $OUT/gdb-nohist.gdb &&
			grep -q 'Target remote does not support this command' $OUT/gdb-nohist.gdb"
	# -- malformed packets, no-ack mode, and a client that goes away
	: >"$c/rsp.err"
	timeout 60 "$CYCLOPS" run --gdb 0 "$g/counter.elf" >"$c/rsp.out" 2>"$c/rsp.err" &
	pid=$!
	for port in $(seq 100); do grep -q 'waiting for GDB' "$c/rsp.err" && break; sleep 0.05; done
	port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\)$/\1/p' "$c/rsp.err")
	python3 tests/gdb/rsp.py "$port" >"$c/rsp.txt" 2>&1
	expect "gdb: malformed and unknown packets get the protocol's answers ($(grep -c '^ok' "$c/rsp.txt") checks)" \
		sh -c "! grep -q '^FAIL' '$c/rsp.txt' && grep -q '^ok .g. gives 33' '$c/rsp.txt'"
	wait $pid
	expect "gdb: a client that disconnects: the guest runs to its end, no crash" \
		sh -c "[ $? -eq 0 ] && grep -q '^cyclops: 56 instructions' '$c/rsp.err'"
	# -- GDB's interrupt byte stops a guest that would run for ever
	: >"$c/spin.err"
	timeout 60 "$CYCLOPS" run --gdb 0 tests/faults/build/spin.elf >"$c/spin.out" 2>"$c/spin.err" &
	pid=$!
	for port in $(seq 100); do grep -q 'waiting for GDB' "$c/spin.err" && break; sleep 0.05; done
	port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\)$/\1/p' "$c/spin.err")
	python3 tests/gdb/rsp.py "$port" interrupt >"$c/spin.txt" 2>&1
	got=$?
	wait $pid
	expect "gdb: the interrupt byte stops a running guest (T02), then kill: 137" \
		sh -c "[ $got -eq 0 ] && [ $? -eq 137 ] && ! grep -q FAIL '$c/spin.txt'"
	# -- a signal to cyclops while GDB is connected stops the guest as in a
	# plain run: status 130, the report written and partial
	: >"$c/sig.err"
	# (timeout --foreground: one signal, to cyclops only; see test_progress)
	timeout --foreground 60 "$CYCLOPS" run --report "$c/sig.json" --gdb 0 "$g/counter.elf" >/dev/null 2>"$c/sig.err" &
	pid=$!
	for port in $(seq 100); do grep -q 'waiting for GDB' "$c/sig.err" && break; sleep 0.05; done
	port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\)$/\1/p' "$c/sig.err")
	python3 -c "
import socket, sys
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=30)
s.sendall(b'\$qSupported#37')
s.recv(4096)
open(sys.argv[2], 'w').close()
while s.recv(4096):
    pass" "$port" "$c/sig.connected" &
	for port in $(seq 100); do [ -e "$c/sig.connected" ] && break; sleep 0.05; done
	kill -INT $pid
	wait $pid
	got=$?
	wait
	expect "gdb: SIGINT to cyclops while GDB waits: status 130, the report partial" \
		sh -c "[ $got -eq 130 ] && python3 -c \"import json,sys; r=json.load(open('$c/sig.json')); sys.exit(0 if r['partial'] and r['status'] == 130 else 1)\""
	# -- the address: loopback by default, others warned about, bad ones refused
	: >"$c/any.err"
	timeout 60 "$CYCLOPS" run --gdb 0.0.0.0:0 "$g/counter.elf" >/dev/null 2>"$c/any.err" &
	pid=$!
	for port in $(seq 100); do grep -q 'waiting for GDB' "$c/any.err" && break; sleep 0.05; done
	port=$(sed -n 's/.*0\.0\.0\.0:\([0-9]*\)$/\1/p' "$c/any.err")
	python3 -c "import socket,sys; s=socket.create_connection(('127.0.0.1', int(sys.argv[1]))); s.sendall(b'\$k#6b'); s.recv(1)" "$port" 2>/dev/null
	wait $pid
	expect "gdb: a non-loopback address is warned about" \
		grep -q 'warning: --gdb 0.0.0.0:0 listens beyond this machine' "$c/any.err"
	"$CYCLOPS" run --gdb foo "$g/counter.elf" >/dev/null 2>"$c/bad1.err"; got=$?
	expect "gdb: --gdb foo is a usage error" \
		sh -c "[ $got -eq 250 ] && grep -q 'the port must be a number 0..65535' '$c/bad1.err'"
	"$CYCLOPS" run --gdb 70000 "$g/counter.elf" >/dev/null 2>"$c/bad2.err"; got=$?
	expect "gdb: --gdb 70000 is a usage error" \
		sh -c "[ $got -eq 250 ] && grep -q '0..65535' '$c/bad2.err'"
	"$CYCLOPS" run --gdb nosuchhost.invalid:1 "$g/counter.elf" >/dev/null 2>"$c/bad3.err"; got=$?
	expect "gdb: an unknown host is a usage error naming it" \
		sh -c "[ $got -eq 250 ] && grep -q 'host nosuchhost.invalid' '$c/bad3.err'"
	"$CYCLOPS" run --gdb-history lots "$g/counter.elf" >/dev/null 2>"$c/bad4.err"; got=$?
	expect "gdb: a bad --gdb-history is a usage error" \
		sh -c "[ $got -eq 250 ] && grep -q 'gdb-history needs a size' '$c/bad4.err'"
}

# All layers, in this order; or only the ones named on the command line
# (tests/run.sh cli sample runs test_cli and test_sample), for quick rounds
# while working on one part; make check always runs them all.
LAYERS="format layout deps unit isa differential counts cost faults cli cli_help cli_man cli_completion cli_misparse api tracker counters zkvm zkvm_elfs timer profile lines sample misaligned jit bare riscv_tests signals memory progress scale scale_resume scale_damaged scale_batch gdb install deb docs fuzz engines versions"
echo "# cyclops tests"
for layer in ${*:-$LAYERS}; do
	if ! declare -F "test_$layer" >/dev/null; then
		echo "run.sh: no test layer '$layer' (layers: $LAYERS)" >&2
		exit 2
	fi
	layer_t0=$SECONDS
	"test_$layer"
	# where the time goes, in CI's log too (make check is to stay well
	# inside CI's limit)
	echo "# layer $layer: $((SECONDS - layer_t0)) s"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
