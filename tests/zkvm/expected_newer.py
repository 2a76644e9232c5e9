#!/usr/bin/env python3
# expected_newer.py FLAVOR - what tests/zkvm/newer.c must print when built
# for FLAVOR (v3, v4, v6 or pico), worked out here with Python's integers
# from published vectors and the definitions, independently of cyclops
# (no GMP, no libsecp256k1, no OpenSSL). One hex line per result, 128
# bytes at most a line.
import sys

flavor = sys.argv[1]


def le(n, size):
    return n.to_bytes(size, "little")


def be(n, size):
    return n.to_bytes(size, "big")


def out(b):
    b = bytes(b)
    for i in range(0, max(len(b), 1), 128):
        print(b[i:i + 128].hex())


def dbl(p, a, x, y):
    l = (3 * x * x + a) * pow(2 * y, -1, p) % p
    x3 = (l * l - 2 * x) % p
    return x3, (l * (x - x3) - y) % p


# P-256 (FIPS 186-4 D.1.2.3; the published 2G)
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
PG = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
      0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)
P2G = (0x7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978,
       0x07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1)
assert dbl(P, -3, *PG) == P2G
# secp256k1
KP = 2**256 - 2**32 - 977
KN = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
KG = (0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
      0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8)
# BLS12-381 G1 (the published generator)
BLS = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
BG = (0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
      0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1)
assert (BG[0] ** 3 + 4 - BG[1] ** 2) % BLS == 0

if flavor in ("v4", "v6", "pico"):
    out(le(P2G[0], 32) + le(P2G[1], 32))  # G + G
    out(le(P2G[0], 32) + le(P2G[1], 32))  # 2G
    if flavor != "v6":
        # decompress G's x: even y first (p - Gy: Gy is odd), then odd (Gy)
        out(le(P - PG[1], 32) + le(PG[0], 32))
        out(le(PG[1], 32) + le(PG[0], 32))
if flavor != "v6":
    # BLS12-381: the zcash flag 0 picks the smaller of y and p - y (G's own
    # y, as G's compressed form 0x97f1... has the flag clear), 1 the larger
    assert BG[1] < BLS - BG[1]
    out(le(BG[1], 48) + le(BG[0], 48))
    out(le(BLS - BG[1], 48) + le(BG[0], 48))
if flavor == "v4":
    prod = (2**256 - 1) * (2**2048 - 3)
    out(le(prod % 2**2048, 256))
    out(le(prod >> 2048, 32))
if flavor == "v6":
    for r in ((2**256 - 1) * 2 + 5, (2**256 - 1) ** 2 + 5):
        out(le(r % 2**256, 32))
        out(le(r >> 256, 32))


def recover(r, s, h, recid):
    """ECDSA public-key recovery (SEC 1 v2, 4.1.6), in affine arithmetic."""
    def add(p1, p2):
        if p1 is None:
            return p2
        if p2 is None:
            return p1
        if p1[0] == p2[0]:
            return dbl(KP, 0, *p1) if p1[1] == p2[1] else None
        l = (p2[1] - p1[1]) * pow(p2[0] - p1[0], -1, KP) % KP
        x3 = (l * l - p1[0] - p2[0]) % KP
        return x3, (l * (p1[0] - x3) - p1[1]) % KP

    def mul(k, pt):
        acc = None
        while k:
            if k & 1:
                acc = add(acc, pt)
            pt = add(pt, pt)
            k >>= 1
        return acc
    y = pow(r ** 3 + 7, (KP + 1) // 4, KP)
    if (y * y - r ** 3 - 7) % KP:
        return None
    if y % 2 != recid % 2:
        y = KP - y
    rinv = pow(r, -1, KN)
    u1 = -h * rinv % KN
    u2 = s * rinv % KN
    return add(mul(u1, KG), mul(u2, (r, y)))


if flavor == "v3":
    # d = 1, nonce k = 2: r = 2G's x, s = (h + r) / 2; the key recovered is G
    h = 0xABC
    r = dbl(KP, 0, *KG)[0]
    s = pow(2, -1, KN) * (h + r) % KN
    assert recover(r, s, h, 0) == KG
    low_s = min(s, KN - s)  # k256 makes s low first
    key = bytes([2 + KG[1] % 2]) + be(KG[0], 32)
    out(key)
    out(be(pow(low_s, -1, KN), 32))
    out(b"\x01")
    out(key)
    out(be(pow(low_s, -1, KN), 32))
    out(b"\x00")  # r = 5: no point has it as x
    # RFC 6979 A.2.5, P-256 with SHA-256, message "sample": 1/s mod n
    s = 0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8
    out(be(pow(s, -1, N), 32))
if flavor in ("v3", "pico"):
    out(b"\x01")  # B's encoding
    out(b"\x00")  # y = 2: (y^2 - 1) / (d y^2 + 1) is no square


def sqrt34(a, p):
    return pow(a, (p + 1) // 4, p)


if flavor in ("v4", "v6", "pico"):
    alpha = (KG[0] ** 3 + 7) % KP
    y = sqrt34(alpha, KP)
    assert y in (KG[1], KP - KG[1])
    for odd in (0, 1):
        out(b"\x01")
        out(be(KG[1] if KG[1] % 2 == odd else KP - KG[1], 32))
        out(be(pow(KG[0], -1, KN), 32))
    assert pow(132, (KP - 1) // 2, KP) == KP - 1
    out(b"\x00")
    out(be(sqrt34(3 * 132 % KP, KP), 32))
if flavor in ("v4", "v6"):
    out(b"\x01")
    out(be(PG[1], 32))  # odd asked, and G's y is odd
    out(be(pow(PG[0], -1, N), 32))
    # alpha = 0 with r = 2: its only root, 0, odd or not; 1/2 mod the order
    out(b"\x01")
    out(be(0, 32))
    out(be(pow(2, -1, N), 32))
    # ed25519: B's y is on the curve; y = 2 is not: 1/v and a root of 2u/v,
    # the even one (sqrt via (p+3)/8, times sqrt(-1) if needed)
    EP = 2**255 - 19
    ED = -121665 * pow(121666, -1, EP) % EP
    out(b"\x01")
    v = (ED * 4 + 1) % EP
    u = 3 * pow(v, -1, EP) * 2 % EP
    root = pow(u, (EP + 3) // 8, EP)
    if root * root % EP != u:
        root = root * pow(2, (EP - 1) // 4, EP) % EP
    assert root * root % EP == u
    if root % 2:
        root = EP - root
    out(b"\x00")
    out(le(pow(v, -1, EP), 32))
    out(le(root, 32))
    # RSA_MUL_MOD: remainder, then quotient, 256 bytes each, LE
    m = 2**2047 + 1
    for prod in (2**1000 + 12345, 2**4094 + 12345):
        out(le(prod % m, 256))
        out(le((prod // m) % 2**2048, 256))
    # BLS12-381 field: sqrt(4) by the power (p+1)/4; p - 1 is no square:
    # a root of 2 (p - 1); 1/3
    out(b"\x01")
    out(be(sqrt34(4, BLS), 48))
    assert pow(BLS - 1, (BLS - 1) // 2, BLS) == BLS - 1
    out(b"\x00")
    out(be(sqrt34(2 * (BLS - 1) % BLS, BLS), 48))
    out(be(pow(3, -1, BLS), 48))

    # FP_SQRT: Tonelli-Shanks as the textbook has it (Wikipedia), with the
    # given non-residue; p = 3 mod 4 takes the power (p+1)/4
    def ts(n, p, z):
        if p % 4 == 3:
            r = pow(n, (p + 1) // 4, p)
            return r if r * r % p == n else None
        if pow(n, (p - 1) // 2, p) != 1:
            return None
        q, s = p - 1, 0
        while q % 2 == 0:
            q //= 2
            s += 1
        m, c, t, r = s, pow(z, q, p), pow(n, q, p), pow(n, (q + 1) // 2, p)
        while t != 1:
            i, tt = 0, t
            while tt != 1:
                tt = tt * tt % p
                i += 1
            b = pow(c, 2 ** (m - i - 1), p)
            m, c, t, r = i, b * b % p, t * b * b % p, r * b % p
        return r
    FR = 21888242871839275222246405745257275088548364400416034343698204186575808495617
    for n, p, z in ((2, KP, 3), (4, FR, 5), (5, FR, 5)):
        r = ts(n, p, z)
        if r is not None:
            out(b"\x01")
            out(be(r, 32))
        else:
            out(b"\x00")
            out(be(ts(n * z % p, p, z), 32))
    out(be(pow(3, -1, KP), 32))
