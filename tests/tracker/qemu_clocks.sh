#!/bin/sh
# Prints the clock of every ecall a guest executes under qemu-riscv32: the
# number of instructions executed before it, as the reference for the
# "ecall at N" values derived by hand in each tests/tracker/*.S.
# Usage: qemu_clocks.sh prog.elf   ->   "5 11 17 ..." (the exit ecall last)
#
# -singlestep and nochain give one "Trace" line per executed instruction (see
# tests/count/qemu_count.sh); an ecall's clock is its line's position.
set -eu
elf=$1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
${QEMU:-qemu-riscv32} -singlestep -d exec,nochain -D "$log" "$elf" >/dev/null 2>&1 || true
ecalls=$(${CROSS:-riscv64-unknown-elf-}objdump -d "$elf" |
	sed -n 's/^ *\([0-9a-f]*\):[[:space:]]*00000073[[:space:]]*ecall.*/\1/p')
sed -n 's/^Trace [0-9]*: [^[]*\[[0-9a-f]*\/\([0-9a-f]*\)\/.*/\1/p' "$log" |
	awk -v ecalls="$ecalls" '
		function bare(a) { sub(/^0+/, "", a); return a }
		BEGIN { n = split(ecalls, e, "\n"); for (i = 1; i <= n; i++) is[bare(e[i])] = 1 }
		bare($1) in is { out = out (out == "" ? "" : " ") NR - 1 }
		END { print out }'
