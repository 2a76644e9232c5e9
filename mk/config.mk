# config.mk - compiler, flags and the build directory.
# CFLAGS is the user's to override (make CFLAGS=-O3); the flags cyclops needs
# are in CY_CFLAGS and always apply.
O ?= build
CC ?= cc
CFLAGS ?= -O2 -g
# truncating a long message is fine: snprintf is how we bound them
CY_CFLAGS := -std=c11 -Wall -Wextra -Werror -Wno-format-truncation \
	-D_GNU_SOURCE -Iinclude -Isrc -MMD -MP
LDLIBS += -lelf -ldw -lz -lgmp -liberty -lsecp256k1 -lcrypto

ifeq ($(ASAN),1)
CY_CFLAGS += -fsanitize=address -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address
endif
ifeq ($(UBSAN),1)
CY_CFLAGS += -fsanitize=undefined -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=undefined
endif
