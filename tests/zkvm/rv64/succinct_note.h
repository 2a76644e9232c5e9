/* succinct_note.h - SP1 v6's note that turns page protections on for an
 * untrusted program's region (name SUCCINCT, type 1, "1\0\0\0", then the
 * region's start and end): included by the untrusted*.S guests, which
 * define the labels region and region_end. */
	.section .note.succinct, "a", @note
	.balign 4
	.word 9, 20, 1
	.asciz "SUCCINCT"
	.balign 4
	.byte '1', 0, 0, 0
	.dword region, region_end
