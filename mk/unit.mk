# unit.mk - unit tests (tests/unit/*.c), linked against the library; see
# docs/testing.md. `make unit-tests` builds them; tests/run.sh runs them.
UNIT_DIR := $(O)/tests/unit
UNIT_TESTS := $(patsubst tests/unit/%.c,$(UNIT_DIR)/%,$(wildcard tests/unit/test_*.c))
CROSS ?= riscv64-unknown-elf-

$(UNIT_TESTS): $(UNIT_DIR)/%: $(UNIT_DIR)/%.o $(LIBCYCLOPS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The decoder's cases, encoded by GNU as. Linked without relaxation so that
# every offset in .cases is resolved (test_decode reads this ELF).
$(UNIT_DIR)/decode_cases.elf: tests/unit/decode_cases.S tests/unit/decode_case.inc
	@mkdir -p $(@D)
	$(CROSS)gcc -Wa,-Itests/unit -march=rv32imac_zicsr_zifencei -mabi=ilp32 -mno-relax -nostdlib \
		-Wl,--no-relax,-Ttext=0x400000,-e,0 -o $@ $<

# ... and those of RV64 (the forms it adds or changes), as an ELFCLASS64 file
$(UNIT_DIR)/decode_cases64.elf: tests/unit/decode_cases64.S tests/unit/decode_case.inc
	@mkdir -p $(@D)
	$(CROSS)gcc -Wa,-Itests/unit -march=rv64imac_zicsr_zifencei -mabi=lp64 -mno-relax -nostdlib \
		-Wl,--no-relax,-Ttext=0x400000,-e,0 -o $@ $<

# the filter tests/unit/objdump_compare.py runs cyclops's disassembler through
$(UNIT_DIR)/disasm_words: $(UNIT_DIR)/disasm_words.o $(LIBCYCLOPS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

unit-tests: $(UNIT_TESTS) $(UNIT_DIR)/decode_cases.elf $(UNIT_DIR)/decode_cases64.elf \
	$(UNIT_DIR)/disasm_words
check: unit-tests

-include $(UNIT_TESTS:=.d) $(UNIT_DIR)/disasm_words.d

.PHONY: unit-tests
