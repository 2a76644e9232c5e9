#!/usr/bin/env bash
# bench/run.sh - cyclops against qemu-riscv32 on the guest workloads, side by side.
# The measuring is done by bench/bench.py; this wrapper finds the tree and the tools.
#
#   bench/run.sh [--update] [--runs=N] [--quick] [WORKLOAD...]
#   env: BENCH_RUNS=N BENCH_QUICK=1 BENCH_UPDATE=1 BENCH_WORKLOADS="sha256 sort"
#        BENCH_TIMEOUT=SECONDS QEMU=qemu-riscv32 O=build (the build directory)
# See bench/README.md.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

if ! command -v python3 >/dev/null 2>&1; then
	echo "bench: python3 not found (it does the timing)" >&2
	exit 1
fi
exec python3 bench/bench.py "$@"
