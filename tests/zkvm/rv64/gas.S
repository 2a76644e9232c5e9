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
 * tenths of gas: 2469 gas. */
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
