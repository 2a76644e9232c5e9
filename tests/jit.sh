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

run() { # run ENGINE ELF: into $W/ENGINE.*
	local e=$1
	if [ "$e" = jit ]; then
		CYCLOPS_JIT_EAGER=1 timeout 300 "$CYCLOPS" run --engine jit --max-cycles "$limit" "${model_opt[@]}" \
			--report "$W/$e.json" "$2" </dev/null >"$W/$e.out" 2>"$W/$e.raw"
	else
		timeout 120 "$CYCLOPS" run --engine interp --max-cycles "$limit" "${model_opt[@]}" \
			--report "$W/$e.json" "$2" </dev/null >"$W/$e.out" 2>"$W/$e.raw"
	fi
	echo $? >"$W/$e.status"
	sed -E 's/, [0-9.]+ s, [0-9.]+ [KMG]?IPS$//' "$W/$e.raw" >"$W/$e.err"
}

for elf in "$@"; do
	run jit "$elf"
	run interp "$elf"
	why=""
	for f in status out err json; do
		cmp -s "$W/jit.$f" "$W/interp.$f" || why="$why $f differs"
	done
	if [ -z "$why" ]; then
		echo "ok - jit: $elf (limit $limit, $model): the same as the interpreter (status $(cat "$W/jit.status"))"
	else
		echo "not ok - jit: $elf (limit $limit, $model):$why"
	fi
done
