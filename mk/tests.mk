# tests.mk - "make check": every test layer, one summary line at the end.
check: cyclops guest unit-tests
	@CYCLOPS=$(CYCLOPS) EMBED=$(EMBED) UNIT_DIR=$(O)/tests/unit tests/run.sh

.PHONY: check
