# tests/scale/tests.sh - checkpoints, resume, chunked runs on worker
# processes and over MPI, and batches (sourced by tests/run.sh; layer
# scale, docs/scale-out.md).
#
# The reference is the same command run serially in one process: the other
# layers check what that run writes; here every byte of every output of a
# chunked, an MPI or a resumed run must be the same (the guest's stdout,
# every profile format, the report, the histogram, the timers' and the
# counters' tables; stderr but for the summary line's wall time).

SCALE=tests/scale/build
# mpirun as root (CI containers) needs to be told it may. Under the
# sanitizers, Open MPI leaves allocations at MPI_Finalize in plugins it has
# unloaded (no suppression can name them): leak checking is off for the MPI
# runs, and the same driver's leaks are checked in the --jobs runs.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi_run() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 timeout 120 mpirun "$@"
}
# Every output a run with all the profilers writes, named by its prefix.
all_outputs() {
	local p=$1
	echo "--report $p.json --cycle-tracker --timers --counters --sample-out $p.samples"
	for e in pb.gz speedscope.json folded svg callgrind trace.json html; do
		echo "--profile $p.$e"
	done
}

# Whether run $2 wrote what run $1 wrote (stdout, stderr without the wall
# time, every output); the first difference on stderr of the caller.
same_outputs() {
	local a=$1 b=$2 e
	for e in out json samples pb.gz speedscope.json folded svg callgrind trace.json html; do
		[ -e "$a.$e" ] || continue
		case $e in
		pb.gz) cmp <(zcat "$a.$e") <(zcat "$b.$e") >/dev/null ;;
		*) cmp "$a.$e" "$b.$e" >/dev/null ;;
		esac || { echo "$b.$e differs from $a.$e" >&2 && return 1; }
	done
	# stderr names the outputs (a warning may): by their prefixes' place
	cmp <(sed -e 's/, [0-9.]* s, [0-9.]* MIPS$//' -e "s|$a\.|OUT.|g" "$a.err") \
		<(sed -e 's/, [0-9.]* s, [0-9.]* MIPS$//' -e "s|$b\.|OUT.|g" "$b.err") >/dev/null ||
		{ echo "$b.err differs from $a.err" >&2 && return 1; }
}

# Whether run $2 ended with run $1's status and bytes.
same_run() { cmp -s "$1.rc" "$2.rc" && same_outputs "$1" "$2"; }

# scale_case NAME ELF "OPTIONS" CHUNK EVERY [ARGS]: the serial run, then the
# same in chunks of EVERY cycles on 2 worker processes and on 3 MPI ranks.
scale_case() {
	local name=$1 elf=$2 opts=$3 chunk=$4 every=$5 args=${6:-} d=$OUT/scale/$1 n
	mkdir -p "$d"
	echo stdin | cy run $opts --chunk-cycles $chunk $(all_outputs "$d/s") "$elf" $args \
		>"$d/s.out" 2>"$d/s.err"
	echo "$?" >"$d/s.rc"
	echo stdin | CYCLOPS_CHUNK_STATS="$d/j.stats" cy run $opts --chunk-cycles $chunk \
		$(all_outputs "$d/j") --jobs 2 --checkpoint-every $every "$elf" $args \
		>"$d/j.out" 2>"$d/j.err"
	echo "$?" >"$d/j.rc"
	n=$(grep -vc '^#' "$d/j.stats" 2>/dev/null)
	expect "scale: $name: --jobs 2 in $n chunks of $every cycles writes the serial run's bytes, status $(cat "$d/s.rc")" \
		eval '[ "${n:-0}" -ge 4 ] && same_run "$d/s" "$d/j"' 
	if ! command -v mpirun >/dev/null; then
		ok "scale: $name: mpirun: skipped (openmpi-bin is not installed)"
		return
	fi
	echo stdin | mpi_run -n 3 --oversubscribe "$CYCLOPS" run $opts --chunk-cycles $chunk \
		$(all_outputs "$d/m") --mpi --checkpoint-every $every "$elf" $args \
		>"$d/m.out" 2>"$d/m.err"
	echo "$?" >"$d/m.rc"
	expect "scale: $name: mpirun -n 3 --mpi writes the serial run's bytes" same_run "$d/s" "$d/m"
}

# The translation tier in a chunked run (docs/scale-out.md): with every
# function translated as soon as it is sampled, the fast pass runs its lean
# regions and hands them to the workers, which load them (for their own
# profilers) before they fork a chunk's process. The bytes are still the
# interpreter's serial run's; each worker process loaded regions and ran no
# guest code itself (its chunks run in processes of their own), the driver
# ran translated.
scale_jit() {
	local d=$OUT/scale/jit elf=$SCALE/chunks.elf opts="--significant 1 --sample=3 --chunk-cycles 5000"
	mkdir -p "$d"
	echo stdin | cy run --engine interp $opts $(all_outputs "$d/s") "$elf" >"$d/s.out" 2>"$d/s.err"
	echo "$?" >"$d/s.rc"
	echo stdin | CYCLOPS_JIT_CACHE=$d/cache CYCLOPS_JIT_EAGER=1 cy run $opts $(all_outputs "$d/j") \
		--jobs 2 --checkpoint-every 20000 "$elf" >"$d/j.out" 2>"$d/j.err"
	echo "$?" >"$d/j.rc"
	expect "scale: translated at once, --jobs 2 writes the interpreter's serial bytes" \
		same_run "$d/s" "$d/j"
	echo stdin | CYCLOPS_JIT_CACHE=$d/cache CYCLOPS_JIT_EAGER=1 CYCLOPS_JIT_DEBUG=1 cy run -q $opts \
		--report "$d/d.json" --profile "$d/d.folded" --timers --jobs 2 --checkpoint-every 20000 "$elf" \
		>/dev/null 2>"$d/d.err"
	# "jit: C regions compiled, L loaded, E entries, T cycles translated, ...", a line per process
	expect "scale: translated at once, both workers load the fast pass's regions, which ran translated" \
		awk '/^jit: / && $5 >= 1 && $7 == 0 { w++ } /^jit: / && $7 > 0 { f++ }
			END { exit !(w == 2 && f == 1) }' "$d/d.err"
}

test_scale() {
	local d=$OUT/scale
	mkdir -p "$d"
	# chunks.elf: a span, a timer and a call stack 40 deep open across
	# chunks of 20000 cycles (its phases are 150000 to 250000 cycles), the
	# sampler reset and paused by the guest, stdin read: the premise
	# checked first, on the serial run
	cy run --report "$d/premise.json" --chunk-cycles 5000 $SCALE/chunks.elf </dev/null \
		>/dev/null 2>&1
	expect "scale: chunks.elf's span 'all' and each 'phase' outlast a chunk of 20000 cycles" \
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["cycle_tracker"]
sys.exit(not (r["all"][0] > 4 * 20000 and len(r["phase"]) == 4 and min(r["phase"]) > 2 * 20000))' \
		"$d/premise.json"
	scale_case rv32 $SCALE/chunks.elf "--significant 1 --sample=3" 5000 20000
	scale_case rv32-zero-riscy $SCALE/chunks.elf "--model zero-riscy --sample=5" 5000 20000 60
	scale_case rv64 $SCALE/rv64/chunks.elf "--significant 1 --sample=3" 5000 20000
	# risc0's paging: each chunk starts with the segment's bitmaps
	scale_case risc0-timers guest/build/timed.elf "--model risc0 --sample=7" 1000 2000
	# quiet tracking: the fast pass filters the guest's output
	scale_case tracked-quiet guest/build/tracked.elf "--cycle-tracker=quiet --sample=1" 50000 200000
	# zkVM unconstrained blocks roll the clock back: checkpoints wait for
	# their end, the sampler's phase follows the clock's highest point
	scale_case zkvm-blocks $SCALE/zkvm_blocks.elf "--abi sp1 --sample=7" 3000 6000
	# the bare platform: timer interrupts in every chunk
	scale_case bare-timer-irq guest/bare/build/timer_irq.elf "" 2000 4000
	scale_jit
}

# Waits until the run checkpointing into $1 has cut its first checkpoint
# (a slow build may take seconds), then $2 seconds more.
after_first_checkpoint() {
	local n=0
	while ! ls "$1"/ckpt-*.cyc >/dev/null 2>&1 && [ $n -lt 1200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	sleep "$2"
}

# Resume: a run interrupted at pseudo-random points (SIGINT, SIGKILL as a
# host crash, --max-cycles) goes on from its latest checkpoint and ends
# with the uninterrupted run's bytes.
test_scale_resume() {
	# interpreted: 1.3 s, where translated code ends the run (0.4 s) before
	# some of the points below (and the checkpoint keeps the engine)
	local d=$OUT/resume elf=guest/build/long/bytecode.elf
	local opts="--engine interp --sample=9 --significant 500"
	local ck=$d/ck t i rc
	mkdir -p "$d"
	RANDOM=21 # the points are pseudo-random, the same each time
	cy run $opts $(all_outputs "$d/s") "$elf" >"$d/s.out" 2>"$d/s.err"
	for i in 1 2 3; do
		t=0.$((RANDOM % 5 + 1)) # well before the run's end, even on a fast machine
		rm -rf "$ck" "$d"/r.*
		"$CYCLOPS" run $opts $(all_outputs "$d/r") --checkpoint-every 20M \
			--checkpoint-dir "$ck" "$elf" >"$d/r.out" 2>"$d/r.err" &
		pid=$!
		after_first_checkpoint "$ck" "$t"
		kill -INT $pid
		wait $pid
		rc=$?
		cy resume "$ck" >>"$d/r.out" 2>"$d/r.err"
		expect "scale: resume after SIGINT $t s after the first checkpoint (status $rc) ends with the uninterrupted run's bytes" \
			eval '[ $rc = 130 ] && same_outputs "$d/s" "$d/r"' 
	done
	rm -rf "$ck" "$d"/r.*
	"$CYCLOPS" run $opts $(all_outputs "$d/r") --checkpoint-every 20M --checkpoint-dir "$ck" \
		"$elf" >"$d/r.out" 2>"$d/r.err" &
	pid=$!
	after_first_checkpoint "$ck" 0.$((RANDOM % 5 + 1))
	kill -KILL $pid
	{ wait $pid; } 2>/dev/null # no word from the shell about the kill
	cy resume "$ck" >>"$d/r.out" 2>"$d/r.err"
	expect "scale: resume after SIGKILL (a host crash) ends with the uninterrupted run's bytes" \
		same_outputs "$d/s" "$d/r"
	rm -rf "$ck" "$d"/r.*
	cy run $opts $(all_outputs "$d/r") --checkpoint-every 20M --checkpoint-dir "$ck" \
		--max-cycles 100M "$elf" >"$d/r.out" 2>"$d/r.err"
	rc=$?
	cy resume "$ck" >>"$d/r.out" 2>"$d/r.err"
	expect "scale: resume after --max-cycles (status $rc) ends with the uninterrupted run's bytes" \
		eval '[ $rc = 253 ] && same_outputs "$d/s" "$d/r"' 
	expect "scale: resume keeps the checkpoints going and prunes those before a whole one" \
		sh -c "n=\$(ls '$ck' | grep -c '^ckpt-.*\\.cyc\$'); [ \$n -ge 1 ] && [ \$n -le 33 ] && [ -f '$ck/program.elf' ]"
}

# Damaged, cut, foreign and other versions' checkpoints are refused with the
# file's name and the reason; nothing runs.
test_scale_damaged() {
	local d=$OUT/damaged ck last
	mkdir -p "$d"
	cy run -q --checkpoint-every 1M --checkpoint-dir "$d/ck" guest/build/sort.elf >/dev/null 2>&1
	last=$(ls "$d/ck"/ckpt-*.cyc | tail -1)
	damage() { # NAME HOW: a copy of the directory, its last checkpoint damaged so
		rm -rf "$d/$1" && cp -r "$d/ck" "$d/$1"
		python3 -c "$2" "$d/$1/$(basename "$last")"
		cy resume "$d/$1" >"$d/$1.out" 2>"$d/$1.err"
		echo $? >"$d/$1.rc"
	}
	damage flip 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) // 2] ^= 0x10; open(p, "wb").write(b)'
	expect "scale: a checkpoint with a flipped bit is refused, named, as damaged (status 251)" \
		sh -c "[ \$(cat '$d/flip.rc') = 251 ] && grep -q \"^cyclops: resume: .*flip/$(basename "$last"): damaged\" '$d/flip.err' && [ ! -s '$d/flip.out' ]"
	damage cut 'import sys; p = sys.argv[1]; b = open(p, "rb").read(); open(p, "wb").write(b[:len(b) - 100])'
	expect "scale: a checkpoint cut short is refused as such" \
		sh -c "[ \$(cat '$d/cut.rc') = 251 ] && grep -q 'cut/.*: cut short' '$d/cut.err'"
	damage foreign 'import sys, shutil; shutil.copy("guest/build/hello.elf", sys.argv[1])'
	expect "scale: a file that is not a checkpoint is refused as such" \
		sh -c "[ \$(cat '$d/foreign.rc') = 251 ] && grep -q 'foreign/.*: not a cyclops checkpoint' '$d/foreign.err'"
	damage version 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[16:32] = b"9.9.9".ljust(16, b"\0"); open(p, "wb").write(b)'
	expect "scale: a checkpoint of another cyclops version is refused, naming both" \
		sh -c "[ \$(cat '$d/version.rc') = 251 ] && grep -q 'version/.*: written by cyclops 9.9.9; this is cyclops' '$d/version.err'"
	rm -rf "$d/empty" && mkdir "$d/empty"
	cy resume "$d/empty" 2>"$d/empty.err"
	expect "scale: a directory without checkpoints is refused" \
		sh -c "[ $? = 251 ] && grep -q 'no checkpoint there' '$d/empty.err'"
	# usage errors
	cy run --checkpoint-every 1M guest/build/hello.elf 2>"$d/u1.err"
	expect "scale: --checkpoint-every without a directory or --jobs is a usage error" \
		sh -c "[ $? = 250 ] && grep -q 'needs --checkpoint-dir' '$d/u1.err'"
	cy run --jobs 2 --checkpoint-dir "$d/x" guest/build/hello.elf 2>"$d/u2.err"
	expect "scale: --jobs with --checkpoint-dir is a usage error, with the reason" \
		sh -c "[ $? = 250 ] && grep -q 'cannot go with --jobs' '$d/u2.err'"
	cy run --jobs 2 --guest-saves guest/build/hello.elf 2>"$d/u3.err"
	expect "scale: --jobs with --guest-saves is a usage error, with the reason" \
		sh -c "[ $? = 250 ] && grep -q 'guest-saves cannot go with --jobs' '$d/u3.err'"
	cy run --jobs 2 --sample guest/bare/build/timer_irq.elf 2>"$d/u5.err"
	expect "scale: --jobs with --sample on the bare platform is refused, with the reason" \
		sh -c "[ $? = 250 ] && grep -q 'bare platform' '$d/u5.err'"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 cy run --mpi guest/build/hello.elf \
		2>"$d/u4.err"
	expect "scale: --mpi with one rank says it needs two" \
		sh -c "[ $? = 250 ] && grep -q 'at least 2 ranks' '$d/u4.err'"
}

# A batch: each line's files are those of the line run alone; its status
# says whether every line exited 0.
test_scale_batch() {
	local d=$OUT/batch rc
	mkdir -p "$d"
	cat >"$d/list" <<EOF
# three runs and a comment
--report $d/b1.json guest/build/tracked.elf
--profile $d/b2.folded --profile $d/b2.pb.gz guest/build/sort.elf
-q --sample=64 --sample-out $d/b3.samples guest/build/hello.elf 'one arg' two
EOF
	cy run --report "$d/a1.json" guest/build/tracked.elf >"$d/a1.out" 2>/dev/null
	cy run --profile "$d/a2.folded" --profile "$d/a2.pb.gz" guest/build/sort.elf >/dev/null 2>&1
	cy run -q --sample=64 --sample-out "$d/a3.samples" guest/build/hello.elf 'one arg' two \
		>"$d/a3.out" 2>/dev/null
	cy batch --jobs 2 --out-dir "$d/out" "$d/list" 2>"$d/batch.err"
	rc=$?
	expect "scale: batch --jobs 2: every line's files and output are its own run's" \
		sh -c "[ $rc = 0 ] && cmp -s '$d/a1.json' '$d/b1.json' && cmp -s '$d/a2.folded' '$d/b2.folded' &&
			cmp -s '$d/a3.samples' '$d/b3.samples' && cmp -s '$d/a1.out' '$d/out/1.stdout' &&
			cmp -s '$d/a3.out' '$d/out/3.stdout'"
	expect "scale: batch: a line per run and a summary of the three" \
		sh -c "[ \$(grep -c '^cyclops: batch: [123]/3 ' '$d/batch.err') = 3 ] &&
			grep -q '^cyclops: batch: 3 runs, 0 failed; ' '$d/batch.err'"
	if command -v mpirun >/dev/null; then
		rm -f "$d"/b*.json "$d"/b*.folded "$d"/b*.samples
		mpi_run -n 3 --oversubscribe "$CYCLOPS" batch -q "$d/list" 2>"$d/mpi.err"
		rc=$?
		expect "scale: mpirun -n 3 cyclops batch: the same files, one summary" \
			sh -c "[ $rc = 0 ] && cmp -s '$d/a1.json' '$d/b1.json' && cmp -s '$d/a2.folded' '$d/b2.folded' &&
				cmp -s '$d/a3.samples' '$d/b3.samples' && [ \$(grep -c '^cyclops: batch: 3 runs' '$d/mpi.err') = 1 ]"
	else
		ok "scale: batch under mpirun: skipped (openmpi-bin is not installed)"
	fi
	printf '%s\n' "tests/faults/build/ebreak.elf" "guest/build/hello.elf" >"$d/fail"
	cy batch -q "$d/fail" 2>"$d/fail.err"
	expect "scale: batch: a line that does not exit 0 makes the status 1" \
		sh -c "[ $? = 1 ] && grep -q '2 runs, 1 failed' '$d/fail.err'"
	printf '%s\n' "--jobs 2 guest/build/hello.elf" >"$d/bad"
	cy batch "$d/bad" 2>"$d/bad.err"
	expect "scale: batch: a line it cannot run is refused before any runs, with its line" \
		sh -c "[ $? = 250 ] && grep -q 'bad:1: --jobs is not for a batch line' '$d/bad.err'"
}
