# cyclops - top-level Makefile. The parts live in mk/*.mk.
#   make          build build/cyclops
#   make demo     install what is missing, build, run an example
#   make check    run every test (ends with "N passed, N failed")
#   make bench    cyclops vs qemu-riscv32, side by side
#   make install  PREFIX=/usr/local DESTDIR= (make uninstall undoes it)
#   make deb      a Debian package in build/deb/ (dpkg-buildpackage)
#   make fuzz     the libFuzzer harnesses, FUZZ_SECONDS each (needs clang)
#   make check-arch RISCV_ARCH_TEST=DIR   riscv-arch-test through cyclops
# Switches: ASAN=1 UBSAN=1 (sanitizers), O=<dir> (build directory).

all: cyclops

include mk/config.mk
include mk/cyclops.mk
include mk/guest.mk
include mk/fuzz.mk
include mk/tests.mk
include mk/unit.mk
include mk/tools.mk
include mk/install.mk

.PHONY: all
