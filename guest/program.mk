# program.mk - builds your own guest programs against this kit, from any
# directory, with no copy of the cyclops sources (an installed kit is
# PREFIX/share/cyclops/guest):
#   make -f PREFIX/share/cyclops/guest/program.mk prog.elf   # from prog.c
# Objects go to KIT_BUILD (default .cyclops-guest/); CROSS, ARCH and ABI
# as in the kit's Makefile (README.md); CFLAGS are added to the kit's.
KIT := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
CROSS ?= riscv64-unknown-elf-
ARCH ?= rv32imac_zicsr_zifencei
ABI ?= ilp32
KIT_BUILD ?= .cyclops-guest
# the link picks a multilib by the base ISA letters only (see README.md)
BASE_ARCH := $(firstword $(subst _, ,$(ARCH)))
KIT_CFLAGS := --specs=picolibc.specs -march=$(ARCH) -mabi=$(ABI) -O2 -g -std=c11 \
	-ffunction-sections -fdata-sections -I$(KIT)/include
KIT_LDFLAGS := --specs=picolibc.specs -march=$(BASE_ARCH) -mabi=$(ABI) -static \
	-nostartfiles -T $(KIT)/link.ld -Wl,--gc-sections
KIT_RUNTIME := $(KIT_BUILD)/crt0.o $(KIT_BUILD)/stdio.o $(KIT_BUILD)/syscalls.o

%.elf: %.c $(KIT_RUNTIME)
	@mkdir -p $(dir $(KIT_BUILD)/$*)
	$(CROSS)gcc $(KIT_CFLAGS) $(CFLAGS) -c -o $(KIT_BUILD)/$*.o $<
	$(CROSS)gcc $(KIT_LDFLAGS) -o $@ $(KIT_RUNTIME) $(KIT_BUILD)/$*.o

$(KIT_BUILD)/crt0.o: $(KIT)/crt/crt0.S
	@mkdir -p $(@D)
	$(CROSS)gcc $(KIT_CFLAGS) -c -o $@ $<
$(KIT_BUILD)/%.o: $(KIT)/lib/%.c
	@mkdir -p $(@D)
	$(CROSS)gcc $(KIT_CFLAGS) -c -o $@ $<

.SUFFIXES:
.SECONDARY:
