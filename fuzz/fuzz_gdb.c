/* fuzz_gdb.c - the GDB remote protocol's packet parser and dispatcher
 * (debug/gdb_packet.c, debug/gdb_stub.c): the input is the byte stream a
 * client sends, framed by the receiver and each packet answered by the stub
 * against a fake target (registers, 64 KiB of memory at 0x10000, resumes
 * that stop at once). Replies go to /dev/null. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug/gdb_stub.h"

#define FAKE_BASE 0x10000u
#define FAKE_SIZE 0x10000u

struct fake {
	uint64_t regs[33];
	uint8_t mem[FAKE_SIZE];
	unsigned resumes;
};

static unsigned fake_xlen(void *t)
{
	(void)t;
	return 32;
}

static const char fake_xml_text[] = "<?xml version=\"1.0\"?><target><architecture>riscv:rv32"
				    "</architecture></target>";

static const char *fake_xml(void *t, size_t *len)
{
	(void)t;
	*len = sizeof(fake_xml_text) - 1;
	return fake_xml_text;
}

static int fake_read_reg(void *t, unsigned regno, uint64_t *value)
{
	struct fake *f = t;

	if (regno > 32)
		return -1;
	*value = f->regs[regno];
	return 0;
}

static int fake_write_reg(void *t, unsigned regno, uint64_t value)
{
	struct fake *f = t;

	if (regno > 32 || value > UINT32_MAX)
		return -1;
	f->regs[regno] = value;
	return 0;
}

static bool in_fake(uint64_t addr, size_t len)
{
	return addr >= FAKE_BASE && addr <= FAKE_BASE + FAKE_SIZE &&
	       len <= FAKE_BASE + FAKE_SIZE - addr;
}

static int fake_read_mem(void *t, uint64_t addr, uint8_t *buf, size_t len)
{
	struct fake *f = t;

	if (!in_fake(addr, len))
		return -1;
	memcpy(buf, f->mem + (addr - FAKE_BASE), len);
	return 0;
}

static int fake_write_mem(void *t, uint64_t addr, const uint8_t *buf, size_t len)
{
	struct fake *f = t;

	if (!in_fake(addr, len))
		return -1;
	memcpy(f->mem + (addr - FAKE_BASE), buf, len);
	return 0;
}

static int fake_point(void *t, enum gdb_point_type type, uint64_t addr, uint64_t kind, bool insert)
{
	(void)t, (void)insert;
	return type > GDB_POINT_ACCESS || addr >= (1ull << 32) || kind > 8 ? -1 : 0;
}

static int fake_resume(void *t, enum gdb_resume how, struct gdb_stop *stop)
{
	struct fake *f = t;

	*stop = (struct gdb_stop){ (enum gdb_stop_kind)(f->resumes % 3), (int)f->resumes & 0xff,
				   (enum gdb_stop_why)(f->resumes % 8), f->regs[10] };
	f->resumes++;
	return how == GDB_RESUME_REVERSE_STEP && f->resumes % 5 == 0 ? -1 : 0;
}

static int fake_monitor(void *t, const char *cmd, gdb_out_fn out, void *ctx)
{
	(void)t;
	if (!strcmp(cmd, "unknown"))
		return -1;
	out(ctx, cmd);
	out(ctx, "\n");
	return 0;
}

static void fake_end(void *t) { (void)t; }

static const struct gdb_target_ops fake_ops = {
	fake_xlen,  fake_xml,    fake_read_reg, fake_write_reg, fake_read_mem, fake_write_mem,
	fake_point, fake_resume, fake_monitor,  fake_end,       fake_end,      NULL,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int null_fd = -1;
	static struct gdb_stub stub;
	static struct fake target;

	if (null_fd < 0 && (null_fd = open("/dev/null", O_WRONLY)) < 0)
		abort();
	memset(&target, 0, sizeof(target));
	gdb_stub_init(&stub, null_fd, &fake_ops, &target, size > 0 && (data[0] & 1));
	for (size_t i = 0; i < size; i++) {
		switch (gdb_rx_byte(&stub.rx, data[i])) {
		case GDB_RX_PACKET:
			gdb_stub_packet(&stub, stub.rx.buf, stub.rx.len);
			stub.end = GDB_END_NONE; /* a kill or detach: go on reading */
			break;
		default: break;
		}
	}
	return 0;
}
