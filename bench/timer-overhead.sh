#!/usr/bin/env bash
# bench/timer-overhead.sh - measures what one channel-timer pair costs the
# guest against one pair of cycle-tracker lines: builds bench/timer_overhead.c
# in its variants with the guest kit's flags, runs each under the unit and
# risc0 models, and prints the differences to the bare variant as a
# Markdown table (docs/timers.md keeps the result). Needs `make` and
# `make guest` first.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
CYCLOPS=${CYCLOPS:-build/cyclops}
CC=${CROSS:-riscv64-unknown-elf-}gcc
out=$(mktemp -d "${TMPDIR:-/tmp}/timer-overhead.XXXXXX")
trap 'rm -rf "$out"' EXIT

rt="guest/build/crt/crt0.o guest/build/lib/stdio.o guest/build/lib/syscalls.o"
for v in 0 1 2 3 4; do
	"$CC" --specs=picolibc.specs -march=rv32imac_zicsr_zifencei -mabi=ilp32 -O2 \
		-std=c11 -Wall -Wextra -Werror -Iguest/include -DVARIANT=$v \
		-c -o "$out/v$v.o" bench/timer_overhead.c
	"$CC" --specs=picolibc.specs -march=rv32imac -mabi=ilp32 -static -nostartfiles \
		-T guest/link.ld -Wl,--gc-sections -o "$out/v$v.elf" $rt "$out/v$v.o"
done

# counts FILE MODEL: "instructions cycles" of one run
counts() {
	"$CYCLOPS" run --model "$2" "$1" 2>&1 >/dev/null |
		sed -n 's/^cyclops: \([0-9]*\) instructions, \([0-9]*\) cycles.*/\1 \2/p'
}

read -r i0 u0 < <(counts "$out/v0.elf" unit)
read -r _ r0 < <(counts "$out/v0.elf" risc0)
read -r i1 u1 < <(counts "$out/v1.elf" unit)
read -r _ r1 < <(counts "$out/v1.elf" risc0)
echo "| what the guest runs | instructions | cycles (unit) | cycles (risc0) |"
echo "| --- | ---: | ---: | ---: |"
row() {
	local name=$1 v=$2 base_i=$3 base_u=$4 base_r=$5 i u r
	read -r i u < <(counts "$out/v$v.elf" unit)
	read -r _ r < <(counts "$out/v$v.elf" risc0)
	echo "| $name | $((i - base_i)) | $((u - base_u)) | $((r - base_r)) |"
}
row "CY_TIMER_INIT() (once per program)" 1 "$i0" "$u0" "$r0"
row "one channel-timer pair: CY_TIMER_START(\"phase\"), CY_TIMER_STOP()" 2 "$i1" "$u1" "$r1"
row "one pair of <cyclops/track.h> lines (one write ecall each)" 3 "$i0" "$u0" "$r0"
row "one pair of cycle-tracker lines through printf + fflush" 4 "$i0" "$u0" "$r0"
