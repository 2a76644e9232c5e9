#!/usr/bin/env bash
# versions.sh - two builds of cyclops against each other: a change meant to
# make the profilers cheaper must not change a byte they write. Each guest
# given runs under both binaries, under each model and engine, twice: with
# the call-stack profile alone in every format, and with every profiler on
# (the cycle tracker and its JSON report, channel timers, counters, PC
# sampling, the profile in every format); stdout, stderr, the exit status
# and every file written must be the same bytes.
#
#   [MODELS="unit zero-riscy risc0"] [RUN_ENGINES="interp jit"]
#   [MAX_CYCLES=N] tests/versions.sh OLD NEW ELF...
#
# RV64 guests are not run under risc0 (its paging prices a 32-bit machine).
# A zkVM guest (zkvm in its path) runs once more under its ABI (--abi pico
# for Pico's, else --abi sp1), which most of them need to get past their
# first ecall.
# The translation tier (jit) runs with its default policy, each binary with a
# code cache of its own. Prints "ok - versions: ..." or "not ok - ...: why"
# per guest, model and engine.
set -u
OLD=$(realpath "$1")
NEW=$(realpath "$2")
shift 2
MODELS=${MODELS:-unit zero-riscy risc0}
RUN_ENGINES=${RUN_ENGINES:-interp jit}
MAX_CYCLES=${MAX_CYCLES:-400000000}
# both read the tree's models (a binary copied elsewhere has no models/ beside it)
export CYCLOPS_MODELS=${CYCLOPS_MODELS:-$(realpath "$(dirname "$0")/../models")}
W=$(mktemp -d "${TMPDIR:-/tmp}/cyclops-versions.XXXXXX")
trap 'rm -rf "$W"' EXIT

run() { # run SIDE BINARY ENGINE MODEL ELF [OPTION...]: everything it writes goes to $W/$SIDE
	local d=$W/$1
	rm -rf "$d" && mkdir -p "$d" && cd "$d" || return
	export CYCLOPS_JIT_CACHE=$W/jit-$1
	local bin=$2 engine=$3 model=$4 elf=$5
	shift 5
	timeout 300 "$bin" run -q --engine "$engine" --model "$model" --max-cycles "$MAX_CYCLES" \
		--out-dir . "$@" --profile p.folded --profile p.callgrind --profile p.pb.gz --profile p.trace.json \
		--profile p.speedscope.json --profile p.svg --profile p.html "$elf" \
		</dev/null >stdout 2>stderr
	echo $? >status
	mkdir all && cd all || return
	timeout 300 "$bin" run -q --engine "$engine" --model "$model" --max-cycles "$MAX_CYCLES" \
		--out-dir . "$@" --cycle-tracker --report r.json --timers --counters --sample=7 --sample-out s.samples \
		--profile p.folded --profile p.callgrind --profile p.pb.gz --profile p.trace.json \
		--profile p.speedscope.json --profile p.svg --profile p.html "$elf" \
		</dev/null >stdout 2>stderr
	echo $? >status
}

compare() { # compare MODEL ENGINE ELF [OPTION...]: one line, ok or not ok
	local m=$1 e=$2 elf=$3 why name
	shift 3
	# the two at once: one core each
	(run old "$OLD" "$e" "$m" "$elf" "$@") &
	(run new "$NEW" "$e" "$m" "$elf" "$@")
	wait
	why=$(diff -rq "$W/old" "$W/new" 2>&1 | head -3 | tr '\n' ' ')
	name="versions: $m, $e${1:+, $*}: ${elf#"$PWD"/}"
	# what both refused is no comparison: a profile is written even after a fault
	[ -e "$W/old/p.folded" ] && [ -e "$W/old/all/p.folded" ] ||
		why=${why:-"no profile written (status $(cat "$W/old/status"): $(head -c 200 "$W/old/stderr"))"}
	if [ -z "$why" ]; then
		echo "ok - $name: the same ($(find "$W/old" -type f | wc -l) files, status $(cat "$W/old/status")/$(cat "$W/old/all/status"))"
	else
		echo "not ok - $name: $why"
	fi
}

for elf in "$@"; do
	elf=$(realpath "$elf")
	rv64=$([ "$(od -An -tu1 -j4 -N1 "$elf" | tr -d ' ')" = 2 ] && echo 1)
	abis=-
	case $elf in
	*zkvm*pico*) abis="- pico" ;;
	*zkvm*) abis="- sp1" ;;
	esac
	for m in $MODELS; do
		[ "$m" = risc0 ] && [ -n "$rv64" ] && continue
		for e in $RUN_ENGINES; do
			for abi in $abis; do
				if [ "$abi" = - ]; then
					compare "$m" "$e" "$elf"
				else
					compare "$m" "$e" "$elf" --abi "$abi"
				fi
			done
		done
	done
done
