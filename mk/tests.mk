# tests.mk - "make check": every test layer, one summary line at the end.
# The fuzz layer runs when clang is there to build the harnesses.
# TEST_LAYERS names some layers only (tests/run.sh's names), as .ci/run does
# for the sanitizer build; FUZZ_CC= leaves the harnesses out.
TEST_LAYERS ?=
check: cyclops guest unit-tests $(if $(FUZZ_CC),$(if $(shell command -v $(FUZZ_CC)),fuzz-build))
	@CYCLOPS=$(CYCLOPS) EMBED=$(EMBED) CY_LDFLAGS="$(LDFLAGS)" UNIT_DIR=$(O)/tests/unit FUZZ_DIR=$(O)/fuzz tests/run.sh $(TEST_LAYERS)

.PHONY: check

# "make check-arch RISCV_ARCH_TEST=DIR": riscv-arch-test (a checkout of the
# suite, release 2.7.x, riscv-test-suite/rv32i_m) through the in-tree target
# tests/arch/, signatures compared with the release's references
# (docs/conformance.md). The suite is not part of cyclops: without DIR the
# target says how to get it and skips.
RISCV_ARCH_TEST ?=
check-arch: cyclops
	@if [ -z "$(RISCV_ARCH_TEST)" ] || [ ! -d "$(RISCV_ARCH_TEST)/riscv-test-suite/rv32i_m" ]; then \
		echo "check-arch: skipped: RISCV_ARCH_TEST is not a riscv-arch-test checkout ('$(RISCV_ARCH_TEST)')."; \
		echo "  git clone -b 2.7.4 https://github.com/riscv-non-isa/riscv-arch-test DIR"; \
		echo "  make check-arch RISCV_ARCH_TEST=DIR"; \
	else \
		python3 tests/arch/run-arch.py "$(RISCV_ARCH_TEST)" $(CYCLOPS) $(O)/arch; \
	fi

.PHONY: check-arch
