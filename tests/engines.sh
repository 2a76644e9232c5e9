#!/usr/bin/env bash
# engines.sh - the differential test of the accounting interface: runs each
# guest given with every profiler on (call-stack profile in every format, the
# cycle tracker and its JSON report, channel timers, performance counters,
# PC sampling) under `--engine interp` (the profilers on the accounting
# interface) and `--engine reference` (every instruction's events), and
# compares every byte they write: stdout, stderr, exit status and each file;
# then once more with no profiler (the plain interpreters against the
# per-instruction ones: the summary line, paging and segments included),
# once sampling every cycle, and with PHASES=1 once every 8 cycles beside
# the call stack, the tracker and the timers.
#
#   [ENGINES="A B"] [PHASES=1] tests/engines.sh CYCLOPS MODEL ELF...
#
# Prints "ok - engines: MODEL: NAME" or "not ok - ...: why" per guest.
set -u
CYCLOPS=$(realpath "$1")
MODEL=$2
shift 2
W=$(mktemp -d "${TMPDIR:-/tmp}/cyclops-engines.XXXXXX")
trap 'rm -rf "$W"' EXIT

run() { # run ENGINE ELF DIR: everything it writes goes to DIR/ENGINE
	local d=$3/$1
	rm -rf "$d" && mkdir -p "$d" && cd "$d" || return
	timeout 300 "$CYCLOPS" run -q --engine "$1" --model "$MODEL" --max-cycles 20000000 \
		--cycle-tracker --report r.json --timers --counters --sample=7 --sample-out s.samples \
		--out-dir . --profile p.folded --profile p.callgrind --profile p.pb.gz \
		--profile p.trace.json --profile p.speedscope.json --profile p.svg \
		--profile p.html "$2" </dev/null >stdout 2>stderr
	echo $? >status
	# and with no profiler: the plain interpreters (exec_fast, exec_inline)
	# against the per-instruction ones; the summary without its timing
	timeout 120 "$CYCLOPS" run --engine "$1" --model "$MODEL" --max-cycles 20000000 \
		--report plain.json "$2" </dev/null >plain.stdout 2>plain.raw
	echo $? >plain.status
	sed -E 's/, [0-9.]+ s, [0-9.]+ [KMG]?IPS$//' plain.raw >plain.stderr && rm -f plain.raw
	# and sampling every cycle alone (by the blocks' run counts), with the
	# files a guest saves in the middle of its run
	mkdir -p saves
	timeout 300 "$CYCLOPS" run -q --engine "$1" --model "$MODEL" --max-cycles 20000000 \
		--sample=1 --sample-out every.samples --guest-saves --out-dir saves "$2" \
		</dev/null >every.stdout 2>every.stderr
	echo $? >every.status
	# and with PHASES=1 sampling every 8 cycles beside the call stack, the
	# tracker and the timers: on the plain clock, translated code counts
	# whole runs by phase (acct.phases) and leaves at the blocks flagged
	# for the timers' announcement or outside the histogram's ranges
	[ "${PHASES:-0}" = 1 ] || { cd - >/dev/null && return; }
	timeout 300 "$CYCLOPS" run -q --engine "$1" --model "$MODEL" --max-cycles 20000000 \
		--sample=8 --sample-out phase.samples --profile phase.folded --cycle-tracker \
		--timers --report phase.json "$2" </dev/null >phase.stdout 2>phase.stderr
	echo $? >phase.status
	cd - >/dev/null || return
}

# ENGINES="A B" compares two others (the jit layer: "jit interp", with
# CYCLOPS_JIT_EAGER=1 in the environment)
read -r A B <<<"${ENGINES:-interp reference}"

check() { # check DIR ELF: both engines, the verdict into DIR/verdict
	local d=$1 name=${2#./} why
	mkdir -p "$d"
	run "$A" "$(realpath "$2")" "$d"
	run "$B" "$(realpath "$2")" "$d"
	# a file only one engine wrote, or one whose bytes differ
	why=$(diff -rq "$d/$A" "$d/$B" 2>&1 | head -3 | tr '\n' ' ')
	if [ -z "$why" ]; then
		echo "ok - engines: $MODEL: $name: every output the same ($(ls "$d/$A" | wc -l) files)"
	else
		echo "not ok - engines: $MODEL: $name: $why"
	fi >"$d/verdict"
	rm -rf "${d:?}/$A" "${d:?}/$B"
}

# ENGINES_JOBS guests at a time (the machine's processors by default: the runs
# are independent, and the jit's cache lets one process compile a region
# that several want)
. "$(dirname "$0")/each_guest.sh"
each_guest "${ENGINES_JOBS:-$(nproc)}" "$W" "engines: $MODEL" "$@"
