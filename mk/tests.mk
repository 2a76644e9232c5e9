# tests.mk - "make check": every test layer, one summary line at the end.
check: cyclops guest
	@tests/run.sh

.PHONY: check
