# guest.mk - guest programs, built with the RISC-V cross compiler.
guest:
	$(MAKE) -C guest
	$(MAKE) -C guest long
	$(MAKE) -C guest ARCH=rv64imac_zicsr_zifencei ABI=lp64
	$(MAKE) -C tests/isa
	$(MAKE) -C tests/count
	$(MAKE) -C tests/faults
	$(MAKE) -C tests/cost
	$(MAKE) -C tests/tracker
	$(MAKE) -C tests/counters
	$(MAKE) -C tests/zkvm
	$(MAKE) -C tests/timer
	$(MAKE) -C tests/profile
	$(MAKE) -C tests/lines
	$(MAKE) -C tests/sample
	$(MAKE) -C tests/misaligned
	$(MAKE) -C tests/scale
	$(MAKE) -C guest/bare
	$(MAKE) -C tests/bare
	$(MAKE) -C tests/gdb

.PHONY: guest
