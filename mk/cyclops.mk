# cyclops.mk - the VM library (src/<stage>/*.c) and the command (src/cli/*.c).
# The stages, lowest first: util core cost abi observe api debug export (docs/architecture.md).
LIB_DIRS := util core cost abi observe api debug export
LIB_SRCS := $(foreach d,$(LIB_DIRS),$(wildcard src/$(d)/*.c))
CLI_SRCS := $(wildcard src/cli/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(O)/%.o)
LIBCYCLOPS := $(O)/libcyclops.a
CYCLOPS := $(O)/cyclops

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CY_CFLAGS) $(CFLAGS) -c $< -o $@

$(LIBCYCLOPS): $(LIB_OBJS)
	$(AR) rcs $@ $^

$(CYCLOPS): $(CLI_OBJS) $(LIBCYCLOPS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the MPI transport is the only file that sees MPI's headers
$(O)/src/cli/cli_mpi.o: CY_CFLAGS += $(MPI_CFLAGS)

cyclops: $(CYCLOPS)

clean:
	rm -rf $(O)
	$(MAKE) -C guest clean
	$(MAKE) -C tests/isa clean
	$(MAKE) -C tests/count clean
	$(MAKE) -C tests/faults clean
	$(MAKE) -C tests/cost clean
	$(MAKE) -C tests/tracker clean
	$(MAKE) -C tests/counters clean
	$(MAKE) -C tests/zkvm clean
	$(MAKE) -C tests/timer clean
	$(MAKE) -C tests/profile clean
	$(MAKE) -C tests/lines clean
	$(MAKE) -C tests/sample clean
	$(MAKE) -C tests/scale clean
	$(MAKE) -C guest/bare clean
	$(MAKE) -C tests/bare clean
	$(MAKE) -C tests/gdb clean

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)

.PHONY: cyclops clean

# The interpreter is computed-goto threaded code: GCC's docs advise against
# global CSE there, and cross-jumping would merge the handlers' dispatch
# branches into one, which the host predicts badly.
EXEC_OBJS := $(foreach w,32 64,$(O)/src/core/exec_rv$(w).o $(O)/src/core/exec_rv$(w)_acct.o)
$(EXEC_OBJS): CY_CFLAGS += -fno-gcse -fno-crossjumping
# The accounting builds keep rbp out of the register allocation. Given it,
# GCC makes it the pointer to the current instruction, and on AMD Zen hosts
# every block end's accounting code then made the handlers' loads through
# it stall: sha256 ran 2x slower under --profile or --timers than plainly,
# 1.05x with rbp reserved (docs/decisions.md, the accounting interface).
# x86-64 GCC only; the ASan build keeps rbp as its frame pointer anyway.
EXEC_ACCT_FLAGS := $(if $(and $(filter x86_64,$(firstword $(subst -, ,$(shell $(CC) -dumpmachine)))),$(if $(filter 1,$(ASAN)),,1)),-ffixed-rbp)
$(O)/src/core/exec_rv32_acct.o $(O)/src/core/exec_rv64_acct.o: CY_CFLAGS += $(EXEC_ACCT_FLAGS)

# examples/: programs that embed the API, as users would.
EMBED := $(O)/embed
$(EMBED): $(O)/examples/embed.o $(LIBCYCLOPS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
cyclops: $(EMBED)
-include $(O)/examples/embed.d

# bench/ckpt_size.c: checkpoints' sizes against the pages stored to (make bench)
CKPT_SIZE := $(O)/ckpt_size
$(CKPT_SIZE): $(O)/bench/ckpt_size.o $(LIBCYCLOPS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
-include $(O)/bench/ckpt_size.d
