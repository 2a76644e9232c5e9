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
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(MPI_LIBS)

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
$(O)/src/core/exec_rv32.o $(O)/src/core/exec_rv64.o: CY_CFLAGS += -fno-gcse -fno-crossjumping

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
