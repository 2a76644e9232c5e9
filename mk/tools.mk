# tools.mk - set-up, the demo, the benchmark and formatting.
deps:
	@scripts/install-deps.sh

demo: deps
	$(MAKE) cyclops guest
	@echo '$$ $(CYCLOPS) run guest/build/sha256.elf'
	@$(CYCLOPS) run guest/build/sha256.elf
	@echo
	@echo '# The same program as a ZERO-RISCY core and as the RISC Zero zkVM count it:'
	@echo '$$ $(CYCLOPS) run --model zero-riscy guest/build/sha256.elf >/dev/null'
	@$(CYCLOPS) run --model zero-riscy guest/build/sha256.elf >/dev/null
	@echo '$$ $(CYCLOPS) run --model risc0 guest/build/sha256.elf >/dev/null'
	@$(CYCLOPS) run --model risc0 guest/build/sha256.elf >/dev/null
	@echo
	@echo '# A guest that marks its phases with cycle-tracker lines (Pico/SP1 style):'
	@echo '$$ $(CYCLOPS) run --cycle-tracker=quiet guest/build/tracked.elf'
	@$(CYCLOPS) run --cycle-tracker=quiet guest/build/tracked.elf
	@mkdir -p $(O)/demo
	@echo '$$ $(CYCLOPS) run -q --profile $(O)/demo/sha256.html --profile $(O)/demo/sha256.pb.gz guest/build/sha256.elf'
	@$(CYCLOPS) run -q --profile $(O)/demo/sha256.html --profile $(O)/demo/sha256.pb.gz \
		guest/build/sha256.elf >/dev/null
	@echo "report: $(O)/demo/sha256.html (open it in a browser); pprof: $(O)/demo/sha256.pb.gz"

bench: cyclops guest $(CKPT_SIZE)
	@$(MAKE) -s -C guest long xl
	@bench/run.sh
	@python3 bench/profilers.py
	@python3 bench/jit.py
	@python3 bench/scale.py

FORMAT_SRCS = $(wildcard include/*.h src/*/*.c src/*/*.h tests/unit/*.c examples/*.c fuzz/*.c)

format:
	clang-format -i $(FORMAT_SRCS)

format-check:
	@clang-format --dry-run --Werror $(FORMAT_SRCS)

.PHONY: deps demo bench format format-check
