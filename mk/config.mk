# config.mk - compiler, flags and the build directory.
# CFLAGS is the user's to override (make CFLAGS=-O3); the flags cyclops needs
# are in CY_CFLAGS and always apply.
O ?= build
CC ?= cc
CFLAGS ?= -O2 -g
# truncating a long message is fine: snprintf is how we bound them
CY_CFLAGS := -std=c11 -Wall -Wextra -Werror -Wno-format-truncation \
	-D_GNU_SOURCE -Iinclude -Isrc -MMD -MP
LDLIBS += -lelf -lz -lgmp -liberty -lsecp256k1 -ldl -lpthread -lzstd
# libgccjit.h lives in GCC's own include directory (libgccjit-12-dev);
# -idirafter keeps a clang build's own headers first. The library itself
# is loaded with dlopen when the translation tier first compiles.
GCCJIT_INCLUDE := $(shell gcc -print-file-name=include 2>/dev/null)
$(O)/src/core/jit_gen.o: CY_CFLAGS += -idirafter $(GCCJIT_INCLUDE)
# MPI (cyclops run --mpi, cyclops batch under mpirun; docs/scale-out.md):
# built when Open MPI's development files are there, MPI=0 leaves it out;
# libmpi is opened at run time, when MPI starts (src/cli/cli_mpi.c).
MPI ?= $(shell pkg-config --exists ompi-c 2>/dev/null && echo 1 || echo 0)
ifeq ($(MPI),1)
MPI_CFLAGS := -DCY_MPI $(shell pkg-config --cflags ompi-c)
endif

ifeq ($(ASAN),1)
CY_CFLAGS += -fsanitize=address -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address
endif
ifeq ($(UBSAN),1)
CY_CFLAGS += -fsanitize=undefined -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=undefined
endif
