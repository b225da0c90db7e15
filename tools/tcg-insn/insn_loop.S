/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measured regions of insn_loop, in assembly so that their counts
 * do not depend on the compiler. tests/tcg-insn/check.sh reads them
 * back from objdump -d, block by block: each global label below starts
 * a block.
 */
	.text

/*
 * rp_region(k): START, k turns of a two-instruction loop, STOP.
 * Counted: rp_mark_start's ret, test, jz, 2k, the call to STOP.
 */
	.globl	rp_region, rp_loop, rp_loop_end
	.type	rp_region, @function
rp_region:
	call	rp_mark_start
	test	%rdi, %rdi
	jz	rp_loop_end
rp_loop:
	dec	%rdi
	jnz	rp_loop
rp_loop_end:
	call	rp_mark_stop
	ret
	.size	rp_region, . - rp_region

/*
 * rp_fault_region(n), n >= 1: START, n loads from address 0, STOP.
 * insn_loop's SIGSEGV handler resumes each at rp_fault_next, so every
 * load leaves its block early: the per-TB count then includes the
 * block's instructions after the load twice (the test's "early exit").
 */
	.globl	rp_fault_region, rp_fault, rp_fault_next, rp_fault_end
	.type	rp_fault_region, @function
rp_fault_region:
	call	rp_mark_start
rp_fault:
	movb	0, %al
rp_fault_next:
	dec	%rdi
	jnz	rp_fault
rp_fault_end:
	call	rp_mark_stop
	ret
	.size	rp_fault_region, . - rp_fault_region

	.section .note.GNU-stack, "", @progbits
