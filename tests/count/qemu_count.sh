#!/bin/sh
# Counts the instructions a guest executes under qemu-riscv32, as the
# reference for the hand-derived EXPECT-INSTRUCTIONS of each tests/count/*.S.
# Usage: qemu_count.sh prog.elf [--pcs]   (--pcs: also print "count pc" lines)
#
# -singlestep makes every translation block a single instruction and nochain
# stops qemu from chaining blocks, so the "exec" log has exactly one "Trace"
# line per executed instruction, the final ecall included.
set -eu
elf=$1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
${QEMU:-qemu-riscv32} -singlestep -d exec,nochain -D "$log" "$elf" || status=$?
if [ "${2:-}" = "--pcs" ]; then
	sed -n 's/^Trace [0-9]*: [^[]*\[[0-9a-f]*\/\([0-9a-f]*\)\/.*/\1/p' "$log" |
		sort | uniq -c
fi
echo "instructions $(grep -c '^Trace ' "$log") exit $status"
