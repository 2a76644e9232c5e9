# tests.mk - "make check": every test layer, one summary line at the end.
# The fuzz layer runs when clang is there to build the harnesses.
check: cyclops guest unit-tests $(if $(shell command -v $(FUZZ_CC)),fuzz-build)
	@CYCLOPS=$(CYCLOPS) EMBED=$(EMBED) CY_LDFLAGS="$(LDFLAGS)" UNIT_DIR=$(O)/tests/unit FUZZ_DIR=$(O)/fuzz tests/run.sh

.PHONY: check
