# tests.sh - the zkVM ABI layer of tests/run.sh (sourced from it): the
# guests in tests/zkvm/ run with --abi sp1/pico; outputs, exit codes and
# hand-counted cycles are checked, precompile results against expected.py.
ZK=tests/zkvm/build

test_zkvm() {
	local o=$OUT/zk
	mkdir -p "$o"

	cy run --abi sp1 $ZK/halt.elf 2>"$o/halt.err"
	expect "zkvm: HALT exits with a0" test $? -eq 7
	expect "zkvm: HALT guest counts 3 cycles (ecall included)" \
		test "$(summary_cycles "$o/halt.err")" = 3
	cy run $ZK/halt.elf >/dev/null 2>"$o/halt_linux.err"
	expect "zkvm: without symbols or --abi a guest is linux" \
		grep -q 'unsupported syscall' "$o/halt_linux.err"

	cy run --abi sp1 $ZK/unconstrained.elf 2>"$o/unc.err"
	expect "zkvm: a store in an unconstrained block is undone" test $? -eq 5
	expect "zkvm: the unconstrained block leaves the clock (10 cycles, as SP1)" \
		test "$(summary_cycles "$o/unc.err")" = 10

	# issue 19: nothing a block runs is counted anywhere, in any output
	cy run --abi sp1 --sample=1 --sample-out "$o/unc.samples" --report "$o/unc.json" \
		--profile "$o/unc.folded" $ZK/unconstrained.elf 2>/dev/null
	expect "zkvm: --sample=1 over an unconstrained block: one sample per constrained cycle (10), none in the block" \
		sh -c "\"$CYCLOPS\" hist --elf $ZK/unconstrained.elf '$o/unc.samples' | head -1 | grep -q '^10 samples'"
	expect "zkvm: the profile of the block totals the 10 constrained cycles, the enter's ecall 1 of them" \
		sh -c "python3 tests/profile/check.py totals 10 '$o/unc.folded' && grep -qx '_start;\[ecall ENTER_UNCONSTRAINED\] 1' '$o/unc.folded'"
	cy run -q --abi sp1 --cycle-tracker --report "$o/bw.json" $ZK/block_write.elf >/dev/null 2>&1
	expect "zkvm: a tracker start inside a block carries the clock before the enter: in = 7 of 12 cycles (block_write.S)" \
		python3 -c "import json; r = json.load(open('$o/bw.json')); assert r['cycle_tracker'] == {'in': [7]} and r['cycles'] == 12, r"
	cy run --abi sp1 $ZK/block_sha.elf >/dev/null 2>"$o/bsha.err"
	expect "zkvm: a precompile inside a block stops the run (252), naming it; the clock shown is the block's start, 2" \
		sh -c "test $? -eq 252 && grep -q '^cyclops: SHA_EXTEND at 0x[0-9a-f]* <_start+0x1c>: not allowed inside an unconstrained block (only WRITE and EXIT_UNCONSTRAINED are)$' '$o/bsha.err' && grep -q '^cyclops: 2 instructions, 2 cycles' '$o/bsha.err'"
	# the tracker's rules per ABI, derived in tracker_rules.S
	cy run -q --abi sp1 --cycle-tracker --report "$o/trs.json" $ZK/tracker_rules.elf >/dev/null 2>&1
	expect "zkvm: SP1's tracker rules: stdout only, trimmed names, an end takes its start away, an end with no start records nothing" \
		python3 -c "
import json
r = json.load(open('$o/trs.json'))
assert r['instructions'] == 51, r['instructions']
assert r['cycle_tracker'] == {'a': [6], 'sp': [6]}, r['cycle_tracker']
assert sorted((w['kind'], w['name']) for w in r['warnings']) == [('unmatched_end', 'a'), ('unmatched_end', 'b'), ('unmatched_end', 'c')], r['warnings']"
	cy run -q --abi pico --cycle-tracker --report "$o/trp.json" $ZK/tracker_rules.elf >/dev/null 2>&1
	expect "zkvm: Pico's tracker rules on the same guest: both streams, an end keeps its start, an end with no start records 0" \
		python3 -c "
import json
r = json.load(open('$o/trp.json'))
assert r['cycle_tracker'] == {'a': [6, 12], 'b': [0], 'c': [6], 'sp': [0]}, r['cycle_tracker']
assert ('never_ended', ' sp ') in [(w['kind'], w['name']) for w in r['warnings']], r['warnings']"

	# the flavors (docs/zkvm.md, "Versions"): io.c and the precompiles
	# built for each; their public values and exit codes as the SDKs give them
	local fl abi
	for fl in v4:sp1@v4 v6:sp1 pico:pico; do
		abi=${fl#*:}
		fl=${fl%%:*}
		cy run -q --abi $abi --input u32:300 --input str:hello --public-values "$o/io_$fl.pv" \
			$ZK/$fl/io.elf >/dev/null 2>&1
		expect "zkvm: $fl: io.c's public values (13 from SP1 v4 on) and exit code" \
			sh -c "[ $? -eq 44 ] && [ \"\$(od -An -tx1 '$o/io_$fl.pv' | tr -d ' \\n')\" = 2c01000070766c6f7374 ]"
		cy run -q --abi $abi $ZK/$fl/precompiles.elf >"$o/pre_$fl.out" 2>&1
		python3 tests/zkvm/expected.py $fl >"$o/pre_$fl.want"
		expect "zkvm: $fl: the precompiles' published vectors (expected.py)" \
			diff "$o/pre_$fl.want" "$o/pre_$fl.out"
	done
	for fl in v3:sp1: v4:sp1@v4:v4/ v6:sp1:v6/ pico:pico:pico/; do
		IFS=: read -r fl abi dir <<EOF_FL
$fl
EOF_FL
		cy run -q --abi $abi $ZK/${dir}newer.elf >"$o/newer_$fl.out" 2>"$o/newer_$fl.err"
		python3 tests/zkvm/expected_newer.py $fl >"$o/newer_$fl.want"
		expect "zkvm: $fl: the newer precompiles and the hooks against expected_newer.py (P-256, BLS12-381 decompression, RFC 6979, recovery, field hooks)" \
			diff "$o/newer_$fl.want" "$o/newer_$fl.out"
	done
	cy run --abi sp1 tests/zkvm/build/v6/io.elf >/dev/null 2>"$o/class.err"
	expect "zkvm: SP1 v6 is read from a 64-bit ELF's class" grep -q '^cyclops: sp1@v6 public values' "$o/class.err"
	cy run --abi sp1@v3 $ZK/v6/io.elf >/dev/null 2>"$o/v3of64.err"
	expect "zkvm: --abi sp1@v3 for a 64-bit ELF is refused, naming the versions' widths" \
		sh -c "[ $? -eq 251 ] && grep -q 'SP1 v3 guests are 32-bit programs; this one is 64-bit' '$o/v3of64.err'"
	cy run --abi sp1@v4 --input u32:300 --input str:hello $ZK/io.elf >/dev/null 2>"$o/v3as4.err"
	expect "zkvm: a v3 guest forced to v4 stops at its WRITE to fd 3, as SP1 v4 does" \
		sh -c "[ $? -eq 252 ] && grep -q 'WRITE at 0x[0-9a-f]* <.*>: fd 3 is reserved since SP1 v4' '$o/v3as4.err'"
	cy run --abi sp1@v3 --input u32:300 --input str:hello $ZK/v4/io.elf >/dev/null 2>"$o/v4as3.err"
	expect "zkvm: a v4 guest run as v3: its fd 13 warned of, and the empty queue blamed on the descriptor, not on --input" \
		sh -c "grep -q 'WRITE to fd 13 .*no such descriptor or hook in SP1 v3; ignored (SP1 v4 and later use it: --abi sp1@v4?)' '$o/v4as3.err' && grep -q 'HINT_LEN .*no input frame left (2 given, all read; the guest wrote to a descriptor that is no hook' '$o/v4as3.err'"
	cy run --abi sp1@v9 $ZK/io.elf >/dev/null 2>"$o/v9.err"
	expect "zkvm: --abi sp1@v9 is a usage error" test $? -eq 250
	cy run -q --input hex:0102030405 --input hex:0102030405060708 $ZK/hint_pad.elf >"$o/pad32.out" 2>&1
	cy run -q --input hex:0102030405 --input hex:0102030405060708 $ZK/v6/hint_pad.elf >"$o/pad64.out" 2>&1
	expect "zkvm: HINT_READ zero-pads the last word (4 bytes at 32 bits; SP1 v6: 8, and a whole word after an 8-byte frame)" \
		sh -c "[ \"\$(cat '$o/pad32.out' '$o/pad64.out' | tr '\\n' ' ')\" = '0102030405000000aaaaaaaaaaaaaaaa 0102030405060708aaaaaaaaaaaaaaaa 0102030405000000aaaaaaaaaaaaaaaa 01020304050607080000000000000000 ' ]"
	# the Ethereum zkVM standards' C interfaces (guest/zkvm/eth_io.c)
	printf '\003abc' >"$o/eth.in"
	for fl in "" v6/; do
		cy run -q --input "$o/eth.in" --public-values "$o/eth.pv" $ZK/${fl}eth_io.elf >/dev/null 2>&1
		expect "zkvm: ${fl:-v3/}eth_io.c: read_input and write_output on --input and the public values, main's return the exit code" \
			sh -c "[ $? -eq 3 ] && [ \"\$(od -An -tx1 '$o/eth.pv' | tr -d ' \\n')\" = 0400000063626103 ]"
	done
	cy run -q --public-values "$o/eth0.pv" $ZK/v6/eth_io.elf >/dev/null 2>&1
	expect "zkvm: v6/eth_io.c with no input: read_input gives 0 bytes, the exit is 0" \
		sh -c "[ $? -eq 0 ] && [ \"\$(od -An -tx1 '$o/eth0.pv' | tr -d ' \\n')\" = 00000000 ]"
	cy run --abi sp1 $ZK/no_newline.elf >/dev/null 2>"$o/nonl.err"
	expect "zkvm: guest output with no newline at its end: the summary starts on a line of its own" \
		sh -c "head -1 '$o/nonl.err' | grep -qx hello && sed -n 2p '$o/nonl.err' | grep -q '^cyclops: 9 instructions'"

	# SP1 v6 at 64 bits (tests/zkvm/rv64/): its own rules and --model sp1-gas
	cy run -q --abi sp1 $ZK/rv64/v6_calls.elf >/dev/null 2>&1
	expect "zkvm: v6: HINT_LEN with no frame left returns all ones; SIG_RETURN loads x1..x31 from the frame and goes on (exit 42, v6_calls.S)" test $? -eq 42
	cy run -q --abi sp1 --cycle-tracker --report "$o/t6.json" $ZK/rv64/tracker_v6.elf >/dev/null 2>&1
	expect "zkvm: v6's tracker rule: every line of a write a request, at that write's clock (x = 0, y = 12 of 27, tracker_v6.S)" \
		python3 -c "import json; r = json.load(open('$o/t6.json')); assert r['instructions'] == 27 and r['cycle_tracker'] == {'x': [0], 'y': [12]} and r['warnings'] == [], r"
	cy run --abi sp1 $ZK/rv64/exit_outside.elf >/dev/null 2>"$o/exo.err"
	expect "zkvm: v6: EXIT_UNCONSTRAINED outside a block stops the run, as v6's executor panics" \
		sh -c "[ $? -eq 252 ] && grep -q 'EXIT_UNCONSTRAINED at 0x[0-9a-f]* <_start+0x8>: not inside an unconstrained block (SP1 v6 stops here)' '$o/exo.err' && grep -q '^cyclops: 3 instructions' '$o/exo.err'"
	cy run --abi sp1 --public-values "$o/p2.pv" $ZK/rv64/poseidon2.elf >/dev/null 2>&1
	expect "zkvm: v6 POSEIDON2 of 0..15: the KoalaBear permutation expected_poseidon2.py works out (itself checked on Plonky3's vector and SP1's constants)" \
		sh -c "[ $? -eq 0 ] && [ \"\$(od -An -tx1 '$o/p2.pv' | tr -d ' \\n')\" = \"\$(python3 tests/zkvm/expected_poseidon2.py)\" ]"
	cy run --abi pico --public-values "$o/pp2.pv" $ZK/pico_poseidon2.elf >/dev/null 2>"$o/pp2.err"
	expect "zkvm: Pico POSEIDON2_PERMUTE of 0..15 into another buffer, then in place: what expected_poseidon2.py pico works out (itself checked on Pico's and Plonky3's vectors)" \
		sh -c "[ $? -eq 0 ] && [ \"\$(od -An -tx1 '$o/pp2.pv' | tr -d ' \\n')\" = \"\$(python3 tests/zkvm/expected_poseidon2.py pico)\" ] && grep -q 'POSEIDON2_PERMUTE 2' '$o/pp2.err'"
	# SP1 v6's untrusted-programs mode: page protections and traps
	cy run --abi sp1 --public-values "$o/ut.pv" $ZK/rv64/untrusted.elf >/dev/null 2>"$o/ut.err"
	expect "zkvm: v6 untrusted programs: five violations trap to the handler with codes 5 7 1 5 7 and their pcs, code made r-x runs, SIG_RETURN goes to the frame's pc (0x57157, untrusted.S)" \
		sh -c "[ $? -eq 0 ] && [ \"\$(od -An -tx1 '$o/ut.pv' | tr -d ' \\n')\" = 5771050000000000 ]"
	expect "zkvm: v6 untrusted programs: a violation with the handler 1 (SP1's halt pc) ends the run with exit 0 and a warning naming it" \
		grep -q 'warning: page protection: no read permission at 0x[0-9a-f]* at 0x[0-9a-f]* <after_sig+0x[0-9a-f]*>; no trap handler is installed' "$o/ut.err"
	# a checkpoint at cycle 104, after its fifth MPROTECT (page 1 set to
	# none, --max-cycles 104 and 112 show), and resumed:
	# the KECCAK_PERMUTE trap after it needs the restored protections
	rm -rf "$o/utck"
	cy run --abi sp1 --report "$o/utck.json" --public-values "$o/utck.pv" --chunk-cycles 8 \
		--checkpoint-every 104 --checkpoint-dir "$o/utck" --max-cycles 106 $ZK/rv64/untrusted.elf >/dev/null 2>&1
	cy resume "$o/utck" >/dev/null 2>&1
	expect "zkvm: v6 untrusted programs: a run resumed from a checkpoint keeps its page protections (0x57157 again)" \
		sh -c "[ $? -eq 0 ] && [ \"\$(od -An -tx1 '$o/utck.pv' | tr -d ' \\n')\" = 5771050000000000 ]"
	cy run --abi sp1 $ZK/rv64/untrusted_block.elf >"$o/ub.out" 2>/dev/null
	expect "zkvm: v6 untrusted programs: a load from a page set to none traps inside an unconstrained block too ('t', exit 5, untrusted_block.S)" \
		sh -c "[ $? -eq 5 ] && [ \"\$(cat '$o/ub.out')\" = t ]"
	cy run --abi sp1 $ZK/rv64/untrusted_stops.elf >/dev/null 2>"$o/us.err"
	expect "zkvm: v6 untrusted programs: with no trap context the load from a page set to none stops the run, unretired (14 instructions, untrusted_stops.S)" \
		sh -c "[ $? -eq 252 ] && grep -q 'page protection: no read permission at 0x[0-9a-f]* (page ---) at 0x[0-9a-f]* <load>: ld x6,0(x18): the program has no trap context' '$o/us.err' && grep -q '^cyclops: 14 instructions' '$o/us.err'"
	cy run --abi sp1 --input hex:00 $ZK/rv64/untrusted_stops.elf >/dev/null 2>"$o/us1.err"
	expect "zkvm: v6 untrusted programs: MPROTECT with a protection SP1 does not permit (write only) stops the run (10 instructions)" \
		sh -c "[ $? -eq 252 ] && grep -q 'MPROTECT at .*: protection 2 in a1 is not one SP1 permits' '$o/us1.err' && grep -q '^cyclops: 10 instructions' '$o/us1.err'"
	for i in 0000 000000; do
		cy run --abi sp1 --input hex:$i $ZK/rv64/untrusted_stops.elf >/dev/null 2>"$o/us$i.err"
		expect "zkvm: v6 untrusted programs: MPROTECT on a page outside the note's region, or not a page's start, stops the run (case $((${#i} / 2)))" \
			sh -c "[ $? -eq 252 ] && grep -q 'MPROTECT at .*: 0x[0-9a-f]* is not a page of the untrusted region' '$o/us$i.err'"
	done
	cy run --abi sp1 --model sp1-gas $ZK/rv64/gas.elf >/dev/null 2>"$o/gas.err"
	expect "zkvm: --model sp1-gas: the 164518 tenths of gas derived in gas.S (16 instructions, one SHA_EXTEND, 72 first touches)" \
		sh -c "grep -q '^cyclops: 16 instructions, 164518 cycles (sp1-gas)' '$o/gas.err' && grep -q '^cyclops: memory rows 139824 cycles (85.0%): 72 first touches of registers and 8-byte words in 1 chunk, 0 clock bumps, 0 state bumps' '$o/gas.err'"
	cy run --abi sp1 --model tests/zkvm/rows.model --input u64:5 $ZK/rv64/rows.elf >/dev/null 2>"$o/rows.err"
	expect "zkvm: memory rows: 25 first touches in 3 chunks of 4 entries, a hint's words counting again, nothing of an unconstrained block (rows.S: 2524 cycles)" \
		sh -c "grep -q '^cyclops: 24 instructions, 2524 cycles (rows)' '$o/rows.err' && grep -q ': 25 first touches of registers and 8-byte words in 3 chunks, 0 clock bumps, 0 state bumps' '$o/rows.err'"
	cy run --abi sp1 --model tests/zkvm/rows.model $ZK/rv64/bumps.elf >/dev/null 2>"$o/bumps.err"
	expect "zkvm: memory rows: SP1's clock crosses 2^24 once (a clock bump, two state bumps), code falls into the next 64 KiB (a state bump) (bumps.S: 2110659 cycles)" \
		sh -c "grep -q '^cyclops: 2097159 instructions, 2110659 cycles (rows)' '$o/bumps.err' && grep -q ': 5 first touches of registers and 8-byte words in 1 chunk, 1 clock bumps, 3 state bumps' '$o/bumps.err'"

	# RISC Zero (docs/zkvm.md, "RISC Zero"): risc0_abi.S derives each result
	cy run --input hex:0102030405060708 --public-values "$o/r0.pv" $ZK/risc0_abi.elf >"$o/r0.out" 2>"$o/r0.err"
	expect "zkvm: risc0: detected from the symbols; HALT's exit code (9), SYS_WRITE to stdout, 63 instructions" \
		sh -c "[ $? -eq 9 ] && [ \"\$(cat '$o/r0.out')\" = hi ] && grep -q '^cyclops: 63 instructions, 63 cycles' '$o/r0.err'"
	expect "zkvm: risc0: the journal: stdin's 8 bytes, SHA of 'abc' (FIPS 180 vector), 3 * 5 mod 7, the input word" \
		python3 -c "import hashlib; assert open('$o/r0.pv', 'rb').read() == bytes(range(1, 9)) + hashlib.sha256(b'abc').digest() + (15 % 7).to_bytes(32, 'little') + bytes(4)"
	expect "zkvm: risc0: the output digest HALT names, and the calls counted by name" \
		sh -c "grep -q '^cyclops: output digest: bf1678ba eacf018f' '$o/r0.err' && grep -q '^cyclops: syscalls: HALT 1, INPUT 1, SHA 1, BIGINT 1, SYS_READ 1, SYS_WRITE 2$' '$o/r0.err'"
	cy run --model tests/zkvm/risc0_extras.model --input hex:0102030405060708 $ZK/risc0_abi.elf >/dev/null 2>"$o/r0x.err"
	expect "zkvm: risc0: the accelerators' own cycles from the model (SOFTWARE 1 + 1 per 4 words, SHA 5 + 70, BIGINT 9, INPUT 1): 152" \
		grep -q '^cyclops: 63 instructions, 152 cycles' "$o/r0x.err"
	# every cycle sampled: each ecall holds its own cycles, as derived in
	# risc0_abi.S (read 1 + 2, SHA 1 + 75, BIGINT 1 + 9, INPUT 1 + 1, the
	# writes 1 + 1, HALT 1), by runs (risc0_extras: the plain clock) and by
	# blocks (risc0: paging), under both engines
	local m e cache_state rc
	for m in tests/zkvm/risc0_extras.model risc0; do
		for e in interp reference; do
			cy run -q --model $m --engine $e --sample=1 --sample-out "$o/r0s.samples" \
				--input hex:0102030405060708 $ZK/risc0_abi.elf >/dev/null 2>&1
			expect "zkvm: risc0: --sample=1 (${m##*/}, $e): each ecall's samples are its own cycles: 3 76 10 2 2 2 1" \
				sh -c "[ \"\$(\"$CYCLOPS\" hist --elf $ZK/risc0_abi.elf '$o/r0s.samples' 2>/dev/null | awk '/: *ecall\$/ { printf \"%s \", \$2 }')\" = '3 76 10 2 2 2 1 ' ]"
		done
	done
	cy run -q --timers --report "$o/r0t.json" $ZK/risc0_timer.elf >/dev/null 2>&1
	expect "zkvm: risc0: a profiler0-instrumented guest's timer holds its length store, as profiler0 counts (6 cycles, risc0_timer.S)" \
		python3 -c "import json; r = json.load(open('$o/r0t.json')); assert [(t['label'], t['cycles'], t['instructions']) for t in r['timers']['tree']] == [('t', 6, 6)], r['timers']"
	printf 'syscall SHA_EXTEND 5\nsyscall NO_SUCH_CALL 3\n' >"$o/bad.model"
	cy run --abi sp1 --model "$o/bad.model" $ZK/halt.elf >/dev/null 2>"$o/badm.err"
	expect "zkvm: a model pricing a syscall no zkVM has is refused, naming it" \
		sh -c "[ $? -eq 251 ] && grep -q \"prices a syscall no zkVM has: 'NO_SUCH_CALL'\" '$o/badm.err'"

	cy run --abi sp1 --max-cycles 100000 $ZK/unconstrained_loop.elf 2>"$o/uloop.err"
	expect "zkvm: --max-cycles counts the cycles unconstrained blocks ran and undid (253, clock + undone = the limit)" \
		sh -c "[ $? -eq 253 ] && python3 -c '
import re, sys
t = open(sys.argv[1]).read()
undone = int(re.search(r\"cycle limit 100000 reached \\((\\d+) of them in unconstrained blocks\\)\", t).group(1))
clock = int(re.search(r\"cyclops: \\d+ instructions, (\\d+) cycles\", t).group(1))
sys.exit(not (undone > 0 and clock + undone == 100000))' '$o/uloop.err'"
	# a function translated outside blocks, called inside one: the
	# interpreter runs through the translated entry (it once returned to a
	# driver that was not there, and looked again, for ever), with the code
	# cache cold (compiled in the run) and warm (loaded at the start)
	rm -rf "$o/uhot-cache"
	for cache_state in cold warm; do
		CYCLOPS_JIT_CACHE=$o/uhot-cache CYCLOPS_JIT_EAGER=1 timeout 30 "$CYCLOPS" run --engine jit \
			$ZK/unconstrained_hot.elf 2>"$o/uhot.err"
		rc=$?
		expect "zkvm: a translated function called inside an unconstrained block ($cache_state code cache): exit 7, 401207 cycles" \
			[ $rc = 7 -a "$(summary_cycles "$o/uhot.err")" = 401207 ]
	done
	# 1000 blocks over 64 MiB in use: each undone exactly (the guest checks),
	# and no copy of the 64 MiB (a copy would take the peak past 128 MiB)
	expect "zkvm: 1000 unconstrained blocks over 64 MiB: each undone, a fresh page zero again, peak under 112 MB" \
		test "$(python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], timeout=300)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 112 * 1024)' \
		"$CYCLOPS" run -q --abi sp1 $ZK/unconstrained_big.elf)" = "0 True"
	cy run --input /dev/zero $ZK/io.elf >"$o/zero.out" 2>"$o/zero.err"
	expect "zkvm: --input /dev/zero is read up to 256 MiB, then refused (usage, 250)" \
		sh -c "[ $? -eq 250 ] && grep -qx 'cyclops: run: /dev/zero: gives more than 268435456 bytes' '$o/zero.err'"
	cy run --input <(printf 'from a pipe') $ZK/io.elf >"$o/pipe.out" 2>"$o/pipe.err"
	expect "zkvm: --input from a pipe (process substitution) is read" \
		sh -c "! grep -q 'cyclops: run:' '$o/pipe.err'"
	cy run --cycle-tracker=quiet --report "$o/io.json" --public-values "$o/pv.bin" \
		--input u32:300 --input str:hello $ZK/io.elf >"$o/io.out" 2>"$o/io.err"
	expect "zkvm: ABI detected from symbols, exit code from the input" test $? -eq 44
	expect "zkvm: str: input read as bincode" grep -qx 'hint: hello' "$o/io.out"
	expect "zkvm: WRITE fd 2 reaches stderr" grep -qx 'to stderr' "$o/io.err"
	expect "zkvm: output of an unconstrained block is kept" grep -qx unconstrained "$o/io.out"
	expect "zkvm: cycle tracker through WRITE (quiet hides the lines)" \
		sh -c "! grep -q cycle-tracker '$o/io.out' && grep -q '^loop ' '$o/io.err'"
	expect "zkvm: public values file: u32 300, 'pv', then the unconstrained block's 'lost' (SP1 and Pico keep a block's public values)" \
		test "$(od -An -tx1 "$o/pv.bin" | tr -d ' \n')" = 2c01000070766c6f7374
	expect "zkvm: public values hex on stderr, the version picked named" grep -q 'sp1@v3 public values (10 bytes): 2c01000070766c6f7374' "$o/io.err"
	expect "zkvm: the proof to verify on stderr" \
		grep -q '^cyclops: proof 1 to verify: vkey 00000001 00000002 00000003 00000004 00000005 00000006 00000007 00000008; public values digest 00000009 0000000a' "$o/io.err"
	expect "zkvm: committed words on stderr" \
		grep -q 'committed digest: 00000000 11111111 22222222 33333333 44444444 55555555 66666666 77777777; deferred proofs: abcdef01' "$o/io.err"
	# as SP1's report: what a block calls (two WRITEs and the exit) is not counted
	expect "zkvm: syscall counts in the summary, the unconstrained block's left out" \
		grep -q 'syscalls: HALT 1, WRITE 8, ENTER_UNCONSTRAINED 1, COMMIT 8, COMMIT_DEFERRED_PROOFS 1, VERIFY_SP1_PROOF 1, HINT_LEN 3, HINT_READ 3' "$o/io.err"
	expect "zkvm: report has abi, syscalls, public values, digest" python3 -c "
import json, sys
r = json.load(open('$o/io.json'))
assert r['abi'] == 'sp1', r['abi']
assert r['syscalls']['HINT_READ'] == {'code': '0x000000f1', 'count': 3, 'extra_cycles': 0}
assert r['syscalls']['WRITE']['count'] == 8
assert r['public_values'] == '2c01000070766c6f7374'
assert r['committed_digest'] == [0x11111111 * i for i in range(8)]
assert r['deferred_proofs_digest'][0] == 0xabcdef01 and r['deferred_proofs_digest'][1] is None
assert r['cycle_tracker']['loop'][0] > 0
assert (r['abi_version'], r['abi_version_from']) == (3, 'default'), r['abi_version']
assert r['verified_proofs'] == [{'vkey': list(range(1, 9)), 'pv_digest': list(range(9, 17))}], r['verified_proofs']
"
	cy run -q --input u32:7 --input str:abc $ZK/io_pico.elf >/dev/null 2>&1
	expect "zkvm: the pico marker selects the pico ABI" test $? -eq 7
	printf '\x09\x00\x00\x00' >"$o/nine.bin"
	cy run -q --input "$o/nine.bin" --input str:x $ZK/io.elf >/dev/null 2>&1
	expect "zkvm: --input FILE is one raw frame" test $? -eq 9

	cy run -q $ZK/io.elf >/dev/null 2>"$o/none.err"
	expect "zkvm: HINT_LEN with no input stops with a message" \
		sh -c "test $? -eq 252 && grep -q 'HINT_LEN at 0x[0-9a-f]* <.*>: no input frame left (0 given' '$o/none.err'"
	cy run -q --input u64:300 $ZK/hint_read.elf >/dev/null 2>"$o/len.err"
	expect "zkvm: wrong hint length names both lengths" \
		grep -q 'HINT_READ .*: length 4 does not match input frame 1 of 8 bytes' "$o/len.err"
	cy run --input u32:x $ZK/io.elf >/dev/null 2>"$o/bad.err"
	expect "zkvm: bad --input literal is a usage error" \
		sh -c "test $? -eq 250 && grep -q \"input 'u32:x': not a u32 number\" '$o/bad.err'"
	cy run --input u32:1 guest/build/hello.elf >/dev/null 2>"$o/lin.err"
	expect "zkvm: --input on a linux guest is refused" \
		sh -c "test $? -eq 250 && grep -q 'is for zkVM guests' '$o/lin.err'"
	cy run --abi sp1 guest/build/hello.elf >/dev/null 2>"$o/unk.err"
	expect "zkvm: an unknown code stops with code and pc" \
		sh -c "test $? -eq 252 && grep -q 'unknown SP1 v3 syscall code 0x[0-9a-f]* in t0' '$o/unk.err' && grep -q 'ecall at 0x' '$o/unk.err'"
	cy run --abi bogus $ZK/halt.elf 2>"$o/abi.err"
	expect "zkvm: bad --abi is a usage error" test $? -eq 250

	cy run -q $ZK/precompiles.elf >"$o/pre.out" 2>&1
	python3 tests/zkvm/expected.py >"$o/pre.want"
	expect "zkvm: precompiles match published vectors (sha256 abc, keccak-f, uint256, secp256k1 2G, bn254 2G, ed25519 B+B, bls12-381 2G, decompressed B, -B, G, 2G, -G) and Python's field arithmetic (bls12-381, bn254 Fp, Fp2)" \
		diff "$o/pre.want" "$o/pre.out"
	# a guest may write at most 256 MiB of public values (docs/robustness.md)
	cy run --abi sp1 --public-values "$o/flood.bin" $ZK/flood.elf >/dev/null 2>"$o/flood.err"
	expect "zkvm: the 257th MiB of public values stops the run (254) with the limit named" \
		sh -c "test $? -eq 254 && grep -q '^cyclops: WRITE at 0x[0-9a-f]* <_start+0x[0-9a-f]*>: fd 3 (public values) would hold more than 256 MiB, the limit$' '$o/flood.err'"
	expect "zkvm: the 256 WRITEs before it are in the public-values file" \
		test "$(wc -c <"$o/flood.bin")" -eq $((256 << 20))
	expect "zkvm: the summary shows 256 bytes of them, not 256 MiB" \
		sh -c "grep -q '^cyclops: sp1@v3 public values (268435456 bytes): 0\{512\}\.\.\. (268435200 more)$' '$o/flood.err' && test \$(wc -c <'$o/flood.err') -lt 4096"
	cy run -q $ZK/decompress_bad.elf >/dev/null 2>"$o/decomp.err"
	expect "zkvm: decompressing an x on no point stops, naming the syscall and the pc" \
		sh -c "test $? -eq 252 && grep -q 'SECP256K1_DECOMPRESS at 0x[0-9a-f]* <main+0x[0-9a-f]*>: x is not the x of a secp256k1 point' '$o/decomp.err'"
}

# Real zkVM ELFs (not part of cyclops, never committed): with ZKVM_ELFS=DIR
# holding the files below (docs/testing.md says where each comes from), each
# runs and what it gives is checked against values worked out here, from
# the published curve generators and hashlib; a missing file is skipped by
# name, no DIR skips the layer with one line.
test_zkvm_elfs() {
	local d=${ZKVM_ELFS:-} o=$OUT/zke f
	if [ -z "$d" ] || [ ! -d "$d" ]; then
		ok "zkvm ELFs: skipped (ZKVM_ELFS is not set to a directory of SP1 and Pico ELFs)"
		return
	fi
	mkdir -p "$o"
	have() {
		[ -f "$d/$1" ] && return 0
		ok "zkvm ELFs: $1: skipped (not in \$ZKVM_ELFS)"
		return 1
	}
	# SP1 v6: sha2 hashes its input and commits (the length, the digest);
	# the committed words are the SHA-256 of the public values
	if have sp1-v6-sha2.elf; then
		head -c 1000 /dev/zero >"$o/zeros"
		cy run --input "$o/zeros" --public-values "$o/sha2.pv" --report "$o/sha2.json" \
			"$d/sp1-v6-sha2.elf" >/dev/null 2>"$o/sha2.err"
		expect "zkvm ELFs: SP1 v6 sha2 (1000 zero bytes): exit 0, v6 from the ELF's class, its public values bincode's 32 and SHA-256(input), the digest theirs" \
			python3 -c "
import hashlib, json, struct
r = json.load(open('$o/sha2.json'))
pv = open('$o/sha2.pv', 'rb').read()
assert r['status'] == 0 and (r['abi_version'], r['abi_version_from']) == (6, 'elf-class'), r
assert pv == struct.pack('<Q', 32) + hashlib.sha256(bytes(1000)).digest(), pv.hex()
assert r['committed_digest'] == list(struct.unpack('<8I', hashlib.sha256(pv).digest())), r['committed_digest']"
	fi
	# SP1 v6's trap program (its GPU prover's test programs, built in the
	# untrusted-programs mode): every precompile on pages of every
	# protection, each trap's code asserted by the guest itself
	if have sp1-v6-trap.elf; then
		cy run "$d/sp1-v6-trap.elf" >"$o/trap.out" 2>"$o/trap.err"
		expect "zkvm ELFs: SP1 v6 trap: exit 0, 'We have handled all traps!'" \
			sh -c "[ $? -eq 0 ] && grep -q 'We have handled all traps!' '$o/trap.out'"
	fi
	# its poseidon2 program: the count of permutations from the input
	if have sp1-v6-poseidon2.elf; then
		printf '\012\0\0\0\0\0\0\0' >"$o/p10"
		cy run --input "$o/p10" "$d/sp1-v6-poseidon2.elf" >"$o/p2.out" 2>"$o/p2.err"
		expect "zkvm ELFs: SP1 v6 poseidon2 (10 rounds): exit 0, 10 POSEIDON2 calls, 'successfully evaluated'" \
			sh -c "[ $? -eq 0 ] && grep -q 'successfully evaluated poseidon2' '$o/p2.out' && grep -q 'POSEIDON2 10' '$o/p2.err'"
	fi
	for f in fibonacci loop keccak; do
		have sp1-v6-$f.elf || continue
		case $f in keccak) printf 'x%.0s' $(seq 100) >"$o/in" ;; *) printf '\350\003\0\0\0\0\0\0' >"$o/in" ;; esac
		cy run --input "$o/in" --public-values "$o/$f.pv" --report "$o/$f.json" "$d/sp1-v6-$f.elf" >/dev/null 2>&1
		expect "zkvm ELFs: SP1 v6 $f: exit 0 and the committed digest the SHA-256 of the public values" \
			python3 -c "
import hashlib, json, struct
r = json.load(open('$o/$f.json'))
pv = open('$o/$f.pv', 'rb').read()
assert r['status'] == 0, r['status']
assert r['committed_digest'] == list(struct.unpack('<8I', hashlib.sha256(pv).digest()))"
	done
	# SP1 v3's test programs: decompressions of published points
	if have sp1-v3-bls12381-decompress.elf; then
		cy run --input hex:97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb \
			--public-values "$o/bls.pv" "$d/sp1-v3-bls12381-decompress.elf" >/dev/null 2>&1
		expect "zkvm ELFs: SP1 v3 bls12381-decompress of G1's compressed form: exit 0, 4 x G1's x and y" \
			sh -c "[ $? -eq 0 ] && [ \"\$(od -An -tx1 '$o/bls.pv' | tr -d ' \\n')\" = \"\$(for i in 1 2 3 4; do printf 17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1; done)\" ]"
	fi
	if have sp1-v3-secp256k1-decompress.elf; then
		cy run --input hex:0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798 \
			--public-values "$o/k1.pv" "$d/sp1-v3-secp256k1-decompress.elf" >/dev/null 2>&1
		expect "zkvm ELFs: SP1 v3 secp256k1-decompress of G: exit 0, 4 x 04 || G.x || G.y" \
			sh -c "[ $? -eq 0 ] && [ \"\$(od -An -tx1 '$o/k1.pv' | tr -d ' \\n')\" = \"\$(for i in 1 2 3 4; do printf 0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8; done)\" ]"
	fi
	if have sp1-v3-verify-proof.elf; then
		python3 -c "
import struct
open('$o/vk', 'wb').write(struct.pack('<8I', *range(1, 9)))
inputs = [b'abc', b'hello']
open('$o/inputs', 'wb').write(struct.pack('<Q', 2) + b''.join(struct.pack('<Q', len(i)) + i for i in inputs))"
		cy run --input "$o/vk" --input "$o/inputs" --report "$o/vp.json" "$d/sp1-v3-verify-proof.elf" >/dev/null 2>&1
		expect "zkvm ELFs: SP1 v3 verify-proof: two proofs recorded, the vkey given and SHA-256 of each input as the digest" \
			python3 -c "
import hashlib, json, struct
r = json.load(open('$o/vp.json'))
want = [{'vkey': list(range(1, 9)), 'pv_digest': list(struct.unpack('<8I', hashlib.sha256(i).digest()))} for i in (b'abc', b'hello')]
assert r['status'] == 0 and r['verified_proofs'] == want, r['verified_proofs']"
	fi
	# SP1 v3's BLS12-381 example enters unconstrained blocks: every profile
	# totals the constrained cycles the report gives (issue 19: 77 G in a
	# 55 M run, before)
	if have sp1-v3-bls12381-example.elf; then
		cy run -q --report "$o/bls.json" $(profile_args "$o/blsp") "$d/sp1-v3-bls12381-example.elf" >/dev/null 2>&1
		local cycles blocks
		read -r cycles blocks < <(python3 -c "import json; r = json.load(open('$o/bls.json')); print(r['cycles'], r['syscalls']['ENTER_UNCONSTRAINED']['count'])")
		expect "zkvm ELFs: SP1 v3 bls12381 example ($blocks unconstrained blocks): every profile format totals the report's $cycles cycles" \
			sh -c "[ '$blocks' -gt 0 ] && python3 tests/profile/check.py totals '$cycles' $(for e in $PROFILE_EXTS; do printf '%s ' "$o/blsp.$e"; done)"
	fi
	# Pico's committed programs: they run to their end
	for f in pico-bn.elf pico-bls12381.elf pico-tendermint.elf pico-keccak.elf pico-precompile.elf; do
		have $f || continue
		cy run -q "$d/$f" >/dev/null 2>"$o/$f.err"
		expect "zkvm ELFs: $f: the pico ABI from its symbols, exit 0" sh -c "[ $? -eq 0 ]"
	done
}
