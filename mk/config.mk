# config.mk - compiler, flags and the build directory.
O ?= build
CC ?= cc
CFLAGS ?= -O2 -g
# truncating a long message is fine: snprintf is how we bound them
CFLAGS += -std=c11 -Wall -Wextra -Werror -Wno-format-truncation -D_GNU_SOURCE -Iinclude -Isrc -MMD -MP
LDLIBS += -lelf

ifeq ($(ASAN),1)
CFLAGS += -fsanitize=address -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address
endif
ifeq ($(UBSAN),1)
CFLAGS += -fsanitize=undefined -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=undefined
endif
