/* gas.S - SP1 v6's gas under --model sp1-gas, worked out by hand from
 * models/sp1-gas.model's derivation (3 * trace cost + complexity per row,
 * from SP1's rv64im_costs.json and rv64im_complexity.json):
 *   li t1, 5          addi   30*3 + 15  = 105
 *   li t2, 7          addi                105
 *   add t3, t1, t2    add    33*3 + 16  = 115
 *   mul t3, t3, t2    mul    82*3 + 61  = 307
 *   la a0, w          auipc  31*3 + 19  = 112, addi 105
 *   sd t3, 0(a0)      sd     39*3 + 23  = 140
 *   ld t4, 0(a0)      ld     39*3 + 24  = 141
 *   beq t4, t3, 1f    branch 45*3 + 49  = 184 (taken: t4 = t3 = 84)
 *   lui t0, 0x300     lui                 112
 *   addi t0, t0, 0x105                    105   (SHA_EXTEND, 0x00300105)
 *   li a1, 0          addi                105
 *   ecall             SyscallInstrs 65*3 + 93 = 288, and the call's rows:
 *                     ShaExtend, 48 rows of 128*3 + 80 = 464: 22272 (SHA
 *                     stays in the shard: no SyscallCore or Global row)
 *   li a0, 0          addi                105
 *   li t0, 0          addi                105   (HALT)
 *   ecall                                 288   (HALT sends no table)
 * 16 instructions; 105*7 + 115 + 307 + 112*2 + 140 + 141 + 184 + 288*2 +
 * 22272 = 735 + 115 + 307 + 224 + 140 + 141 + 184 + 576 + 22272 = 24694
 * tenths for the instructions' and the precompile's rows.
 * The memory rows: a register or an 8-byte word first touched (in the one
 * chunk) costs a MemoryLocal row and two Global rows, 3*20 + 4 + 2 *
 * (3*241 + 216) = 1942. The registers: x6 and x0 (li t1), x7, x28 (add),
 * x10 (auipc), x29 (ld), x5 (lui), x11 (li a1): 8 (the ecalls' own t0, a0
 * and a1 are not SP1 records); the words: w (sd), then SHA_EXTEND's 64
 * words at w, 63 of them new: 64. 72 * 1942 = 139824. SP1's clock ends at
 * 1 + 14*8 + 2*264 = 641: no bump; the code stays in one 64 KiB.
 * 24694 + 139824 = 164518 tenths: 16451 gas (SP1 prints 16451 * 10 / 191
 * = 861). */
	.option norvc
	.text
	.globl _start
_start:
	li t1, 5
	li t2, 7
	add t3, t1, t2
	mul t3, t3, t2
	la a0, w
	sd t3, 0(a0)
	ld t4, 0(a0)
	beq t4, t3, 1f
	li t4, 0
1:	lui t0, 0x300
	addi t0, t0, 0x105
	li a1, 0
	ecall
	li a0, 0
	li t0, 0
	ecall
	.data
	.balign 8
w:	.zero 512
