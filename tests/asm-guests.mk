# asm-guests.mk - the rules every hand-written assembly test directory shares
# (tests/count, tests/faults, tests/cost, tests/tracker, tests/counters,
# tests/profile, ...): build/NAME.elf from
# each NAME.S, with no linker relaxation so that the instructions executed are
# exactly the ones written; and build/rv64/NAME.elf from each rv64/NAME.S,
# for RV64. A directory's Makefile includes this file and may add
# prerequisites with EXTRA_DEPS.

CROSS   ?= riscv64-unknown-elf-
CC      := $(CROSS)gcc

ASFLAGS := -march=rv32imac_zicsr_zifencei -mabi=ilp32 -mno-relax -g
LDFLAGS := -nostdlib -nostartfiles -static -Wl,-Ttext=0x10000 -Wl,--no-relax

ASFLAGS64 := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mno-relax -g

SRCS    := $(wildcard *.S)
ELFS    := $(patsubst %.S,build/%.elf,$(SRCS))
SRCS64  := $(wildcard rv64/*.S)
ELFS64  := $(patsubst rv64/%.S,build/rv64/%.elf,$(SRCS64))

all: $(ELFS) $(ELFS64)

build/%.elf: %.S $(EXTRA_DEPS) Makefile ../asm-guests.mk | build
	$(CC) $(ASFLAGS) $(LDFLAGS) -o $@ $<

build/rv64/%.elf: rv64/%.S $(EXTRA_DEPS) Makefile ../asm-guests.mk | build/rv64
	$(CC) $(ASFLAGS64) $(LDFLAGS) -o $@ $<

build build/rv64:
	mkdir -p $@

clean:
	rm -rf build

.PHONY: all clean
