# tests.mk - "make check": every test layer, one summary line at the end.
check: cyclops guest unit-tests
	@CYCLOPS=$(CYCLOPS) EMBED=$(EMBED) UNIT_DIR=$(O)/tests/unit tests/run.sh

.PHONY: check

# Unit tests of the cycle tracker (tests/unit/test_tracker.c) against the
# library; tests/run.sh runs every $(O)/tests/unit/test_* it finds.
UNIT_TRACKER := $(O)/tests/unit/test_tracker
$(UNIT_TRACKER): $(O)/tests/unit/test_tracker.o $(LIBCYCLOPS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
unit-tests: $(UNIT_TRACKER)
-include $(O)/tests/unit/test_tracker.d

.PHONY: unit-tests
