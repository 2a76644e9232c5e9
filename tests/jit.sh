#!/usr/bin/env bash
# jit.sh - the translation tier against the interpreter: each guest given
# runs under `--engine jit` with CYCLOPS_JIT_EAGER=1 (every function the run
# samples, every 256 cycles, is translated at once, with the paths it has
# not taken yet) and under `--engine interp`, and stdout, stderr (the summary
# without its timing), the exit status and the JSON report must be the same
# bytes. The compiled regions are kept in $JIT_CACHE (shared by the runs).
#
#   tests/jit.sh CYCLOPS JIT_CACHE [--max-cycles N] [--model M] ELF...
#
# --model M runs both under the cost model M (its report, paging totals
# and segments are in stderr and the JSON report).
#
# Prints "ok - jit: NAME" or "not ok - jit: NAME: why" per guest.
set -u
CYCLOPS=$(realpath "$1")
export CYCLOPS_JIT_CACHE=$2
shift 2
limit=20000000
model=unit
model_opt=()
if [ "${1:-}" = --max-cycles ]; then
	limit=$2
	shift 2
fi
if [ "${1:-}" = --model ]; then
	model=$2
	model_opt=(--model "$2")
	shift 2
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/cyclops-jit.XXXXXX")
trap 'rm -rf "$W"' EXIT

run() { # run DIR ENGINE ELF: into DIR/ENGINE.*
	local d=$1 e=$2
	if [ "$e" = jit ]; then
		CYCLOPS_JIT_EAGER=1 timeout 300 "$CYCLOPS" run --engine jit --max-cycles "$limit" "${model_opt[@]}" \
			--report "$d/$e.json" "$3" </dev/null >"$d/$e.out" 2>"$d/$e.raw"
	else
		timeout 120 "$CYCLOPS" run --engine interp --max-cycles "$limit" "${model_opt[@]}" \
			--report "$d/$e.json" "$3" </dev/null >"$d/$e.out" 2>"$d/$e.raw"
	fi
	echo $? >"$d/$e.status"
	sed -E 's/, [0-9.]+ s, [0-9.]+ [KMG]?IPS$//' "$d/$e.raw" >"$d/$e.err"
}

check() { # check DIR ELF: both engines, the verdict into DIR/verdict
	local d=$1 elf=$2 why="" f
	mkdir -p "$d"
	if [ ! -f "$elf" ]; then # a guest the build did not make: no comparison
		echo "not ok - jit: $elf: no such file (is it built?)" >"$d/verdict"
		return
	fi
	run "$d" jit "$elf"
	run "$d" interp "$elf"
	for f in status out err json; do
		# a run refused (an RV64 guest under risc0) writes no report
		[ ! -e "$d/jit.$f" ] && [ ! -e "$d/interp.$f" ] && continue
		cmp -s "$d/jit.$f" "$d/interp.$f" || why="$why $f differs"
	done
	if [ -z "$why" ]; then
		echo "ok - jit: $elf (limit $limit, $model): the same as the interpreter (status $(cat "$d/jit.status"))"
	else
		echo "not ok - jit: $elf (limit $limit, $model):$why"
	fi >"$d/verdict"
}

# JIT_JOBS guests at a time (the machine's processors by default: the runs
# are independent, and the jit's cache lets one process compile a region
# that several want)
. "$(dirname "$0")/each_guest.sh"
each_guest "${JIT_JOBS:-$(nproc)}" "$W" "jit (limit $limit, $model)" "$@"
