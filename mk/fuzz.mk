# fuzz.mk - libFuzzer harnesses (fuzz/*.c; docs/robustness.md). They need
# clang, so they have their own build of the library under $(O)/fuzz, with
# AddressSanitizer and UndefinedBehaviorSanitizer.
#   make fuzz                 every target for FUZZ_SECONDS (default 60) each
#   make fuzz-build           just build them
#   make fuzz FUZZ_TARGETS=elf FUZZ_SECONDS=3600
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR := $(O)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE \
	-Iinclude -Isrc -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -MMD -MP \
	-idirafter $(GCCJIT_INCLUDE)
FUZZ_TARGETS ?= $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_DIR)/%.o)

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_DIR)/libcyclops.a: $(FUZZ_LIB_OBJS)
	$(AR) rcs $@ $^

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/fuzz/fuzz_%.o $(FUZZ_DIR)/libcyclops.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

# New inputs go to $(FUZZ_DIR)/corpus/NAME, seeded from fuzz/corpus/NAME;
# a crash is left as $(FUZZ_DIR)/crash-* (copy it to fuzz/regressions/NAME).
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$t; \
		echo "fuzz $$t: $(FUZZ_SECONDS) s"; \
		$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_DIR)/$$t- $(FUZZ_DIR)/corpus/$$t fuzz/corpus/$$t \
			|| exit 1; \
	done

# keep the harness objects (intermediate files of the pattern rules): they
# are what -include finds the .d files beside
.SECONDARY: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz/fuzz_%.o)

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_BINS:$(FUZZ_DIR)/%=$(FUZZ_DIR)/fuzz/%.d)

.PHONY: fuzz fuzz-build
