/* gdb_stub.c - the remote serial protocol's server: packet dispatch,
 * acknowledgements, no-ack mode, stop replies and monitor output. What a
 * command does to the guest is the target's (gdb_target_ops). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "debug/gdb_stub.h"

#define INTERRUPT_BYTE 0x03

void gdb_stub_init(struct gdb_stub *s, int fd, const struct gdb_target_ops *ops, void *target,
		   bool reverse)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->ops = ops;
	s->target = target;
	s->reverse = reverse;
	s->last_stop = (struct gdb_stop){ GDB_STOP_SIGNAL, GDB_SIGTRAP, GDB_WHY_NONE, 0 };
	gdb_rx_init(&s->rx);
}

static void send_bytes(struct gdb_stub *s, const char *p, size_t n)
{
	while (n > 0 && s->fd >= 0) {
		ssize_t w = write(s->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* the client went away: the next read says so */
		p += w;
		n -= (size_t)w;
	}
}

static void send_packet(struct gdb_stub *s, const char *data, size_t len)
{
	s->sent_len = gdb_frame(data, len, s->sent);
	send_bytes(s, s->sent, s->sent_len);
}

static void send_reply(struct gdb_stub *s)
{
	if (s->reply.overflow) /* never sent cut: a reply that does not fit is an error */
		gdb_reply_clear(&s->reply), gdb_reply_text(&s->reply, "E0e");
	send_packet(s, s->reply.buf, s->reply.len);
}

static void reply_error(struct gdb_stub *s, int code)
{
	gdb_reply_clear(&s->reply);
	gdb_reply_printf(&s->reply, "E%02x", code & 0xff);
}

static void reply_ok(struct gdb_stub *s)
{
	gdb_reply_clear(&s->reply);
	gdb_reply_text(&s->reply, "OK");
}

static void format_stop(struct gdb_reply *r, const struct gdb_stop *st)
{
	static const char *const why[] = {
		[GDB_WHY_SWBREAK] = "swbreak:;",
		[GDB_WHY_HWBREAK] = "hwbreak:;",
		[GDB_WHY_REPLAY_BEGIN] = "replaylog:begin;",
		[GDB_WHY_REPLAY_END] = "replaylog:end;",
	};

	gdb_reply_clear(r);
	switch (st->kind) {
	case GDB_STOP_EXITED: gdb_reply_printf(r, "W%02x", st->value & 0xff); return;
	case GDB_STOP_KILLED: gdb_reply_printf(r, "X%02x", st->value & 0xff); return;
	default: break;
	}
	gdb_reply_printf(r, "T%02xthread:1;", st->value & 0xff);
	switch (st->why) {
	case GDB_WHY_WATCH: gdb_reply_printf(r, "watch:%llx;", (unsigned long long)st->addr); break;
	case GDB_WHY_RWATCH:
		gdb_reply_printf(r, "rwatch:%llx;", (unsigned long long)st->addr);
		break;
	case GDB_WHY_AWATCH:
		gdb_reply_printf(r, "awatch:%llx;", (unsigned long long)st->addr);
		break;
	case GDB_WHY_NONE: break;
	default: gdb_reply_text(r, why[st->why]); break;
	}
}

void gdb_stub_report_stop(struct gdb_stub *s, const struct gdb_stop *stop)
{
	s->last_stop = *stop;
	format_stop(&s->reply, stop);
	send_reply(s);
}

/* "O" packets carry monitor output, hex-encoded, before the final reply. */
static void monitor_out(void *ctx, const char *text)
{
	struct gdb_stub *s = ctx;
	size_t n = strlen(text), chunk = (GDB_PACKET_MAX - 2) / 2;

	for (size_t at = 0; at < n; at += chunk) {
		struct gdb_reply *r = &s->reply;
		gdb_reply_clear(r);
		gdb_reply_text(r, "O");
		gdb_reply_hex(r, text + at, n - at < chunk ? n - at : chunk);
		send_reply(s);
	}
}

static void resume(struct gdb_stub *s, enum gdb_resume how)
{
	struct gdb_stop stop;

	if ((how == GDB_RESUME_REVERSE_CONTINUE || how == GDB_RESUME_REVERSE_STEP) && !s->reverse) {
		reply_error(s, 1);
		send_reply(s);
		return;
	}
	if (s->ops->resume(s->target, how, &stop) != 0) {
		reply_error(s, 1);
		send_reply(s);
		return;
	}
	gdb_stub_report_stop(s, &stop);
}

/* "c [addr]", "s [addr]", "C sig[;addr]", "S sig[;addr]": a new pc first */
static void resume_at(struct gdb_stub *s, struct gdb_fields *f, bool with_signal,
		      enum gdb_resume how)
{
	uint64_t sig, addr;

	if (with_signal && (gdb_hex_u64(f, &sig) != 0 || (f->p < f->end && !gdb_take(f, ';')))) {
		reply_error(s, 1);
		send_reply(s);
		return;
	}
	if (f->p < f->end) {
		if (gdb_hex_u64(f, &addr) != 0 || f->p != f->end ||
		    s->ops->write_reg(s->target, 32, addr) != 0) {
			reply_error(s, 1);
			send_reply(s);
			return;
		}
	}
	resume(s, how);
}

static void read_registers(struct gdb_stub *s)
{
	unsigned bytes = s->ops->xlen(s->target) / 8;
	uint64_t v;

	gdb_reply_clear(&s->reply);
	for (unsigned i = 0; i <= 32; i++) {
		if (s->ops->read_reg(s->target, i, &v) != 0)
			v = 0;
		gdb_reply_reg(&s->reply, v, bytes);
	}
}

static uint64_t le_value(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = bytes; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void write_registers(struct gdb_stub *s, struct gdb_fields *f)
{
	unsigned bytes = s->ops->xlen(s->target) / 8;
	long n = gdb_hex_bytes(f, s->scratch, sizeof(s->scratch));

	if (n < 0 || (size_t)n % bytes != 0 || (size_t)n / bytes > 33) {
		reply_error(s, 1);
		return;
	}
	for (unsigned i = 0; i < (size_t)n / bytes; i++)
		if (s->ops->write_reg(s->target, i, le_value(s->scratch + i * bytes, bytes)) != 0) {
			reply_error(s, 1);
			return;
		}
	reply_ok(s);
}

static void read_register(struct gdb_stub *s, struct gdb_fields *f)
{
	uint64_t regno, v;

	if (gdb_hex_u64(f, &regno) != 0 || f->p != f->end || regno > UINT32_MAX ||
	    s->ops->read_reg(s->target, (unsigned)regno, &v) != 0) {
		reply_error(s, 1);
		return;
	}
	gdb_reply_clear(&s->reply);
	gdb_reply_reg(&s->reply, v, s->ops->xlen(s->target) / 8);
}

static void write_register(struct gdb_stub *s, struct gdb_fields *f)
{
	unsigned bytes = s->ops->xlen(s->target) / 8;
	uint64_t regno;
	long n;

	if (gdb_hex_u64(f, &regno) != 0 || !gdb_take(f, '=') || regno > UINT32_MAX) {
		reply_error(s, 1);
		return;
	}
	n = gdb_hex_bytes(f, s->scratch, sizeof(s->scratch));
	if (n != (long)bytes ||
	    s->ops->write_reg(s->target, (unsigned)regno, le_value(s->scratch, bytes)) != 0) {
		reply_error(s, 1);
		return;
	}
	reply_ok(s);
}

static void read_memory(struct gdb_stub *s, struct gdb_fields *f)
{
	uint64_t addr, len;

	if (gdb_addr_len(f, &addr, &len) != 0 || f->p != f->end) {
		reply_error(s, 1);
		return;
	}
	if (len > GDB_PACKET_MAX / 2) /* GDB asks again for the rest */
		len = GDB_PACKET_MAX / 2;
	if (s->ops->read_mem(s->target, addr, s->scratch, (size_t)len) != 0) {
		reply_error(s, 14); /* EFAULT */
		return;
	}
	gdb_reply_clear(&s->reply);
	gdb_reply_hex(&s->reply, s->scratch, (size_t)len);
}

static void write_memory(struct gdb_stub *s, struct gdb_fields *f, bool binary)
{
	uint64_t addr, len;
	long n;

	if (gdb_addr_len(f, &addr, &len) != 0 || !gdb_take(f, ':')) {
		reply_error(s, 1);
		return;
	}
	n = binary ? gdb_binary_bytes(f, s->scratch, sizeof(s->scratch))
		   : gdb_hex_bytes(f, s->scratch, sizeof(s->scratch));
	if (n < 0 || (uint64_t)n != len) {
		reply_error(s, 1);
		return;
	}
	if (s->ops->write_mem(s->target, addr, s->scratch, (size_t)n) != 0) {
		reply_error(s, 14);
		return;
	}
	reply_ok(s);
}

static void point(struct gdb_stub *s, struct gdb_fields *f, bool insert)
{
	uint64_t type, addr, kind;
	int rc;

	/* conditions and commands after ';' are GDB's to evaluate: ignored */
	if (gdb_hex_u64(f, &type) != 0 || !gdb_take(f, ',') || gdb_addr_len(f, &addr, &kind) != 0 ||
	    (f->p != f->end && *f->p != ';')) {
		reply_error(s, 1);
		return;
	}
	if (type > GDB_POINT_ACCESS) {
		gdb_reply_clear(&s->reply);
		return;
	}
	rc = s->ops->point(s->target, (enum gdb_point_type)type, addr, kind, insert);
	if (rc > 0)
		gdb_reply_clear(&s->reply);
	else if (rc < 0)
		reply_error(s, 22); /* EINVAL */
	else
		reply_ok(s);
}

/* qXfer:features:read:ANNEX:OFFSET,LENGTH */
static void xfer_features(struct gdb_stub *s, struct gdb_fields *f)
{
	uint64_t off, len;
	size_t size;
	const char *xml = s->ops->target_xml(s->target, &size);

	if (!gdb_take_text(f, "target.xml:")) {
		reply_error(s, 0); /* an annex we do not have */
		return;
	}
	if (gdb_addr_len(f, &off, &len) != 0 || f->p != f->end) {
		reply_error(s, 1);
		return;
	}
	gdb_reply_clear(&s->reply);
	if (off >= size) {
		gdb_reply_text(&s->reply, "l");
		return;
	}
	if (len > GDB_PACKET_MAX / 2 - 2) /* room for escapes */
		len = GDB_PACKET_MAX / 2 - 2;
	if (len > size - off)
		len = size - off;
	gdb_reply_text(&s->reply, off + len < size ? "m" : "l");
	gdb_reply_binary(&s->reply, xml + off, (size_t)len);
}

static void monitor(struct gdb_stub *s, struct gdb_fields *f)
{
	char cmd[1024], line[1200];
	long n = gdb_hex_bytes(f, (uint8_t *)cmd, sizeof(cmd) - 1);

	if (n < 0) {
		reply_error(s, 1);
		return;
	}
	cmd[n] = 0;
	if (memchr(cmd, 0, (size_t)n)) {
		reply_error(s, 1);
		return;
	}
	if (s->ops->monitor(s->target, cmd, monitor_out, s) != 0) {
		snprintf(line, sizeof(line),
			 "cyclops: unknown monitor command \"%.900s\" (try \"monitor help\")\n",
			 cmd);
		monitor_out(s, line);
	}
	reply_ok(s);
}

static void query(struct gdb_stub *s, struct gdb_fields *f)
{
	gdb_reply_clear(&s->reply);
	if (gdb_take_text(f, "Supported")) {
		gdb_reply_printf(&s->reply,
				 "PacketSize=%x;qXfer:features:read+;swbreak+;hwbreak+;"
				 "QStartNoAckMode+;vContSupported+",
				 GDB_PACKET_MAX);
		if (s->reverse)
			gdb_reply_text(&s->reply, ";ReverseContinue+;ReverseStep+");
	} else if (gdb_take_text(f, "Xfer:features:read:")) {
		xfer_features(s, f);
	} else if (gdb_take_text(f, "Rcmd,")) {
		monitor(s, f);
	} else if (gdb_take_text(f, "Attached")) {
		gdb_reply_text(&s->reply, "1");
	} else if (gdb_take_text(f, "C") && f->p == f->end) {
		gdb_reply_text(&s->reply, "QC1");
	} else if (gdb_take_text(f, "fThreadInfo")) {
		gdb_reply_text(&s->reply, "m1");
	} else if (gdb_take_text(f, "sThreadInfo")) {
		gdb_reply_text(&s->reply, "l");
	} else if (gdb_take_text(f, "Symbol:")) {
		gdb_reply_text(&s->reply, "OK");
	}
	/* anything else: the empty reply, "not supported" */
}

/* vCont;ACTION[:THREAD][;ACTION...]: one thread, so the first action */
static void vcont(struct gdb_stub *s, struct gdb_fields *f)
{
	char action;

	if (!gdb_take(f, ';') || f->p == f->end) {
		reply_error(s, 1);
		send_reply(s);
		return;
	}
	action = *f->p++;
	switch (action) {
	case 'c':
	case 'C': resume(s, GDB_RESUME_CONTINUE); return;
	case 's':
	case 'S': resume(s, GDB_RESUME_STEP); return;
	default:
		reply_error(s, 1);
		send_reply(s);
		return;
	}
}

void gdb_stub_packet(struct gdb_stub *s, const char *pkt, size_t len)
{
	struct gdb_fields f = { pkt + 1, pkt + len };

	gdb_reply_clear(&s->reply);
	if (len == 0) {
		send_reply(s);
		return;
	}
	switch (pkt[0]) {
	case '?': format_stop(&s->reply, &s->last_stop); break;
	case 'g': read_registers(s); break;
	case 'G': write_registers(s, &f); break;
	case 'p': read_register(s, &f); break;
	case 'P': write_register(s, &f); break;
	case 'm': read_memory(s, &f); break;
	case 'M': write_memory(s, &f, false); break;
	case 'X': write_memory(s, &f, true); break;
	case 'c': resume_at(s, &f, false, GDB_RESUME_CONTINUE); return;
	case 's': resume_at(s, &f, false, GDB_RESUME_STEP); return;
	case 'C': resume_at(s, &f, true, GDB_RESUME_CONTINUE); return;
	case 'S': resume_at(s, &f, true, GDB_RESUME_STEP); return;
	case 'b':
		if (len == 2 && pkt[1] == 'c') {
			resume(s, GDB_RESUME_REVERSE_CONTINUE);
			return;
		}
		if (len == 2 && pkt[1] == 's') {
			resume(s, GDB_RESUME_REVERSE_STEP);
			return;
		}
		break;
	case 'Z': point(s, &f, true); break;
	case 'z': point(s, &f, false); break;
	case 'H':
	case 'T': reply_ok(s); break; /* one thread */
	case 'D':
		reply_ok(s);
		send_reply(s);
		s->end = GDB_END_DETACH;
		return;
	case 'k': s->end = GDB_END_KILL; return; /* no reply */
	case 'q': query(s, &f); break;
	case 'Q':
		if (gdb_take_text(&f, "StartNoAckMode") && f.p == f.end) {
			reply_ok(s);
			send_reply(s); /* acknowledged still */
			s->noack = true;
			return;
		}
		break;
	case 'v':
		if (gdb_take_text(&f, "Cont?")) {
			gdb_reply_text(&s->reply, "vCont;c;C;s;S");
		} else if (gdb_take_text(&f, "Cont")) {
			vcont(s, &f);
			return;
		} else if (gdb_take_text(&f, "Kill")) {
			reply_ok(s);
			send_reply(s);
			s->end = GDB_END_KILL;
			return;
		}
		break; /* vMustReplyEmpty and the rest: empty */
	default: break;
	}
	send_reply(s);
}

/* The next byte from the connection: 1, 0 at its end, -1 on an error. */
static int next_byte(struct gdb_stub *s, uint8_t *c)
{
	while (s->in_at == s->in_len) {
		ssize_t n = read(s->fd, s->in, sizeof(s->in));
		if (n < 0 && errno == EINTR)
			return -1; /* a signal for cyclops: the caller decides */
		if (n <= 0)
			return n == 0 ? 0 : -1;
		s->in_at = 0;
		s->in_len = (size_t)n;
	}
	*c = s->in[s->in_at++];
	return 1;
}

bool gdb_stub_poll_interrupt(struct gdb_stub *s)
{
	ssize_t n;

	if (s->in_len - s->in_at < sizeof(s->in)) {
		if (s->in_at > 0) { /* keep what is unread at the front */
			memmove(s->in, s->in + s->in_at, s->in_len - s->in_at);
			s->in_len -= s->in_at;
			s->in_at = 0;
		}
		n = recv(s->fd, s->in + s->in_len, sizeof(s->in) - s->in_len, MSG_DONTWAIT);
		if (n > 0)
			s->in_len += (size_t)n;
	}
	/* while the target runs GDB sends nothing but acks and the interrupt */
	for (size_t i = s->in_at; i < s->in_len; i++)
		if (s->in[i] == INTERRUPT_BYTE && s->rx.state == 0) {
			memmove(s->in + i, s->in + i + 1, s->in_len - i - 1);
			s->in_len--;
			return true;
		}
	return false;
}

void gdb_stub_serve(struct gdb_stub *s)
{
	uint8_t c;
	int rc;

	while (s->end == GDB_END_NONE) {
		rc = next_byte(s, &c);
		if (rc < 0 && errno == EINTR) {
			if (s->ops->interrupted && s->ops->interrupted(s->target))
				s->end = GDB_END_INTERRUPTED;
			continue;
		}
		if (rc <= 0) {
			s->end = GDB_END_DISCONNECT;
			break;
		}
		switch (gdb_rx_byte(&s->rx, c)) {
		case GDB_RX_PACKET:
			if (!s->noack)
				send_bytes(s, "+", 1);
			gdb_stub_packet(s, s->rx.buf, s->rx.len);
			break;
		case GDB_RX_BAD:
			if (!s->noack)
				send_bytes(s, "-", 1);
			break;
		case GDB_RX_NAK:
			if (!s->noack && s->sent_len)
				send_bytes(s, s->sent, s->sent_len);
			break;
		default: break; /* acks; an interrupt while stopped changes nothing */
		}
	}
}
