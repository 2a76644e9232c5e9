# each_guest.sh - sourced by tests/jit.sh and tests/engines.sh: their
# guests checked JOBS at a time, the verdicts printed in the guests' order.
#
#   each_guest JOBS DIR LABEL ELF...
#
# calls the caller's `check DIR/I ELF` (I = 1, 2, ... in the order given)
# in the background, at most JOBS at once, then prints each DIR/I/verdict;
# a check that wrote none prints "not ok - LABEL: ELF: no verdict".
each_guest() {
	local jobs=$1 dir=$2 label=$3 elf i=0
	shift 3
	for elf in "$@"; do
		i=$((i + 1))
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n
		done
		check "$dir/$i" "$elf" &
	done
	wait
	i=0
	for elf in "$@"; do
		i=$((i + 1))
		cat "$dir/$i/verdict" 2>/dev/null || echo "not ok - $label: ${elf#./}: no verdict"
	done
}
