#!/usr/bin/env python3
"""rsp.py PORT [interrupt] - a raw GDB remote-protocol client for the stub's robustness
tests (tests/run.sh, gdb layer): malformed, overlong and unknown packets,
bad checksums, stray bytes, no-ack mode, then a disconnection without
detach. Each expectation comes from the protocol's specification (GDB's
manual, "Remote Protocol"): a bad checksum is answered with '-', an unknown
packet with the empty reply, a malformed one with an error "Enn". Prints one
line per check ("ok ..." or "FAIL ...") and exits 1 if any failed.
With "interrupt" (for a guest that never ends): continue, then the
interrupt byte 0x03 must stop the guest with SIGINT ("T02"), and 'k' kills
it."""
import socket
import sys

failed = 0


def check(name, cond, detail=""):
    global failed
    print(("ok " if cond else "FAIL ") + name + ("" if cond else ": " + detail))
    if not cond:
        failed += 1


class Client:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        self.ack = True

    def send_raw(self, data):
        self.s.sendall(data)

    def byte(self):
        while not self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("the stub closed the connection")
            self.buf += chunk
        c, self.buf = self.buf[:1], self.buf[1:]
        return c

    def packet(self, data):
        """Sends data framed; returns the reply's data (acks taken)."""
        body = data if isinstance(data, bytes) else data.encode()
        self.send_raw(b"$" + body + b"#%02x" % (sum(body) & 0xff))
        if self.ack:
            c = self.byte()
            if c != b"+":
                raise ValueError("no ack, got %r" % c)
        return self.reply()

    def reply(self):
        while self.byte() != b"$":
            pass
        body = b""
        while True:
            c = self.byte()
            if c == b"#":
                break
            body += c
        given = int(self.byte() + self.byte(), 16)
        if given != sum(body) & 0xff:
            raise ValueError("bad checksum from the stub")
        if self.ack:
            self.send_raw(b"+")
        return body.decode("latin-1")


def interrupt(c):
    import time
    c.packet("qSupported:swbreak+")
    c.send_raw(b"$c#63")
    check("'c' is acknowledged", c.byte() == b"+")
    time.sleep(0.3)
    c.send_raw(b"\x03")
    got = c.reply()
    check("the interrupt byte stops a running guest with SIGINT", got.startswith("T02"), got)
    got = c.packet("qRcmd," + "cycles".encode().hex())
    check("monitor cycles answers after the interrupt", got.startswith("O"), got)
    while got != "OK":
        got = c.reply()
    c.send_raw(b"$k#6b")
    c.byte()
    sys.exit(1 if failed else 0)


def main():
    c = Client(int(sys.argv[1]))
    if sys.argv[2:] == ["interrupt"]:
        interrupt(c)
    sup = c.packet("qSupported:multiprocess+;swbreak+;hwbreak+")
    check("qSupported names PacketSize, qXfer features and reverse execution",
          "PacketSize=" in sup and "qXfer:features:read+" in sup and "ReverseStep+" in sup, sup)
    # a bad checksum: '-', and nothing else
    c.send_raw(b"$?#00")
    check("a bad checksum is answered with '-'", c.byte() == b"-")
    # a packet longer than PacketSize: refused the same way
    c.send_raw(b"$" + b"A" * 20000 + b"#00")
    check("a packet of 20000 bytes is answered with '-'", c.byte() == b"-")
    # noise between packets is ignored, and so is the interrupt byte
    c.send_raw(b"xyz\x00\xff\x03")
    stop = c.packet("?")
    check("after noise, '?' still gives a stop reply", stop.startswith("T05"), stop)
    for pkt, want in [
        ("mzz,4", "E01"), ("m10000", "E01"), ("m0,4", "E0e"), ("m10000,", "E01"),
        ("M10000,2:zz", "E01"), ("M10000,4:00", "E01"), ("X10000,2:}", "E01"),
        ("X10000,1:ab", "E01"), ("G00", "E01"), ("p1000", "E01"), ("pzz", "E01"),
        ("P20=zz", "E01"), ("P1=0102", "E01"), ("Z9,0,0", ""), ("Z0,zz", "E01"),
        ("Z2,10000,0", "E16"), ("Z0,10000", "E01"), ("z1,ffffffffffffffffff,2", "E01"),
        ("vCont;x", "E01"), ("vCont", "E01"), ("vFoo", ""), ("qFoo", ""), ("", ""),
        ("bx", ""), ("czz", "E01"), ("C", "E01"), ("S05;zz", "E01"),
        ("qXfer:features:read:foo.xml:0,10", "E00"),
        ("qXfer:features:read:target.xml:zz", "E01"),
        ("qRcmd,zz", "E01"), ("qRcmd,6", "E01"),
    ]:
        got = c.packet(pkt)
        check("%r is answered with %r" % (pkt, want), got == want, "got %r" % got)
    got = c.packet("m10000,4")
    check("m10000,4 reads 4 bytes", len(got) == 8 and all(ch in "0123456789abcdef" for ch in got), got)
    xml = c.packet("qXfer:features:read:target.xml:0,3fff")
    check("the target description is XML with the cpu and csr features",
          xml[:1] in "ml" and "org.gnu.gdb.riscv.cpu" in xml and "org.gnu.gdb.riscv.csr" in xml, xml[:80])
    got = c.packet("qXfer:features:read:target.xml:ffffff,10")
    check("reading past the description's end gives 'l'", got == "l", got)
    # an unknown monitor command gets a message (O packets) and OK
    cmd = "nosuchcommand".encode().hex()
    c.send_raw(b"$qRcmd," + cmd.encode() + b"#%02x" % (sum(b"qRcmd," + cmd.encode()) & 0xff))
    check("qRcmd is acknowledged", c.byte() == b"+")
    out = ""
    while True:
        r = c.reply()
        if r.startswith("O") and r != "OK":
            out += bytes.fromhex(r[1:]).decode()
            continue
        break
    check("an unknown monitor command says so, then OK", "unknown monitor command" in out and r == "OK", out + r)
    # no-ack mode: acknowledged itself, then no more acks either way
    got = c.packet("QStartNoAckMode")
    check("QStartNoAckMode is answered OK", got == "OK", got)
    c.ack = False
    c.send_raw(b"$?#00")  # a bad checksum: ignored in no-ack mode
    got = c.packet("?")
    check("in no-ack mode a bad packet is ignored and '?' answered", got.startswith("T05"), got)
    got = c.packet("g")
    check("'g' gives 33 registers of 4 bytes", len(got) == 33 * 8, str(len(got)))
    # the client goes away without detaching
    c.s.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
