# asm-guests.mk - the rules every hand-written assembly test directory shares
# (tests/count, tests/faults, tests/cost, tests/tracker, tests/counters,
# tests/profile, ...): build/NAME.elf from
# each NAME.S, with no linker relaxation so that the instructions executed are
# exactly the ones written. A directory's Makefile includes this file and may
# add prerequisites with EXTRA_DEPS.

CROSS   ?= riscv64-unknown-elf-
CC      := $(CROSS)gcc

ASFLAGS := -march=rv32imac_zicsr_zifencei -mabi=ilp32 -mno-relax -g
LDFLAGS := -nostdlib -nostartfiles -static -Wl,-Ttext=0x10000 -Wl,--no-relax

SRCS    := $(wildcard *.S)
ELFS    := $(patsubst %.S,build/%.elf,$(SRCS))

all: $(ELFS)

build/%.elf: %.S $(EXTRA_DEPS) Makefile ../asm-guests.mk | build
	$(CC) $(ASFLAGS) $(LDFLAGS) -o $@ $<

build:
	mkdir -p $@

clean:
	rm -rf build

.PHONY: all clean
