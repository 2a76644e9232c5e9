"""expected_poseidon2.py - SP1 v6's POSEIDON2, worked out here in Python's
integers to check cyclops's (tests/zkvm/rv64/poseidon2.S): KoalaBear
(p = 2^31 - 2^24 + 1), width 16, x^3, 4 full + 20 partial + 4 full rounds,
Plonky3's external layer (M4 = 2 3 1 1 / 1 2 3 1 / 1 1 2 3 / 3 1 1 2 per
group of 4, plus the column sums) and internal layer (2^-32 (sum + v_i x_i),
v = -2, 1, 2, 4, ..., 2^13, 2^15); the round constants from the Grain LFSR
of the Poseidon paper (eprint 2019/458, appendix F) as the Poseidon2
reference draws them. Before it prints anything it checks itself against
published values: SP1 v6.4's RC16 (slop/crates/koala-bear/src/
koala_bear_poseidon2.rs, row 0 and row 27's last) and Plonky3's
test_poseidon2_width_16_random (koala-bear/src/poseidon2.rs at
p3-koala-bear-v0.1.6-succinct: constants from Xoroshiro128Plus seed 1,
drawn as Montgomery-form values). Prints the permutation of 0..15 as the
hex of 16 u32 LE.

With the argument "pico": Pico's POSEIDON2_PERMUTE over KoalaBear instead
(tests/zkvm/pico_poseidon2.S): the same rounds and external layer, the
internal layer of the newer Plonky3 Pico's fork follows (sum + v_i x_i,
v = -2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/8, 1/2^24, -1/2^8, -1/8,
-1/16, -1/2^24, no 2^-32) and Pico's constants (RC_16_30_U32 in Pico
v1.3.0's vm/src/primitives/mod.rs, each mod p: rows 0-3 and 24-27 whole,
the first of rows 4-23), checked first against Plonky3 124dc7303's
test_poseidon2_width_16_random (the same Xoroshiro constants) and Pico's
own vector (gnark/poseidon2/poseidon2_koalabear_test.go: sixteen zeros).
Prints P(0..15), then 0..15 (the input, untouched), then P(P(0..15)), as
the hex of 48 u32 LE."""
import struct
import sys

P = 0x7F000001
RINV = pow(2, -32, P)
M64 = (1 << 64) - 1


def grain(n=31, t=16, rf=8, rp=20):
    bits = [int(c) for c in "01" + "0000" + format(n, "012b") + format(t, "012b")
            + format(rf, "010b") + format(rp, "010b")] + [1] * 30

    def clock():
        b = bits[62] ^ bits[51] ^ bits[38] ^ bits[23] ^ bits[13] ^ bits[0]
        bits.pop(0)
        bits.append(b)
        return b

    for _ in range(160):
        clock()

    def bit():
        while True:
            keep, b = clock(), clock()
            if keep:
                return b

    def element():
        while True:
            v = 0
            for _ in range(n):
                v = v << 1 | bit()
            if v < P:
                return v

    ext, part = [], []
    for r in range(rf + rp):
        if rf // 2 <= r < rf // 2 + rp:
            part.append(element())
        else:
            ext.append([element() for _ in range(t)])
    return ext, part


def m4(x):
    return [(2 * x[0] + 3 * x[1] + x[2] + x[3]) % P, (x[0] + 2 * x[1] + 3 * x[2] + x[3]) % P,
            (x[0] + x[1] + 2 * x[2] + 3 * x[3]) % P, (3 * x[0] + x[1] + x[2] + 2 * x[3]) % P]


def external(s):
    s = m4(s[0:4]) + m4(s[4:8]) + m4(s[8:12]) + m4(s[12:16])
    col = [sum(s[k::4]) for k in range(4)]
    return [(s[i] + col[i % 4]) % P for i in range(16)]


V = [P - 2] + [1 << k for k in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15)]


def internal(s):
    total = sum(s)
    return [(total + V[i] * s[i]) * RINV % P for i in range(16)]


def inv2(k):
    return pow(2, -k, P)


V_PICO = [P - 2, 1, 2, inv2(1), 3, 4, P - inv2(1), P - 3, P - 4, inv2(8), inv2(3), inv2(24),
          P - inv2(8), P - inv2(3), P - inv2(4), P - inv2(24)]


def internal_pico(s):
    total = sum(s)
    return [(total + V_PICO[i] * s[i]) % P for i in range(16)]


def permute(s, ext, part, internal_layer=internal):
    s = external([x % P for x in s])
    for r in range(8):
        if r == 4:
            for c in part:
                s[0] = pow((s[0] + c) % P, 3, P)
                s = internal_layer(s)
        s = external([pow((s[i] + ext[r][i]) % P, 3, P) for i in range(16)])
    return s


def xoroshiro_constants(seed=1):
    def splitmix(x):
        while True:
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            yield z ^ (z >> 31)

    g = splitmix(seed)
    st = [next(g), next(g)]

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & M64

    def next_u64():
        s0, s1 = st
        out = (s0 + s1) & M64
        s1 ^= s0
        st[0] = rotl(s0, 24) ^ s1 ^ ((s1 << 16) & M64)
        st[1] = rotl(s1, 37)
        return out

    def sample():
        while True:
            v = (next_u64() >> 32) >> 1
            if v < P:
                return v * RINV % P

    ext = [[sample() for _ in range(16)] for _ in range(8)]
    return ext, [sample() for _ in range(20)]


PLONKY3_INPUT = [894848333, 1437655012, 1200606629, 1690012884, 71131202, 1749206695, 1717947831,
                 120589055, 19776022, 42382981, 1831865506, 724844064, 171220207, 1299207443,
                 227047920, 1783754913]

PICO_EXT = [[v % P for v in row] for row in [
    [2110014213, 3964964605, 2190662774, 2732996483, 640767983, 3403899136, 1716033721, 1606702601,
     3759873288, 1466015491, 1498308946, 2844375094, 3042463841, 1969905919, 4109944726, 3925048366],
    [3706859504, 759122502, 3167665446, 1131812921, 1080754908, 4080114493, 893583089, 2019677373,
     3128604556, 580640471, 3277620260, 842931656, 548879852, 3608554714, 3575647916, 81826002],
    [4289086263, 1563933798, 1440025885, 184445025, 2598651360, 1396647410, 1575877922, 3303853401,
     137125468, 765010148, 633675867, 2037803363, 2573389828, 1895729703, 541515871, 1783382863],
    [2641856484, 3035743342, 3672796326, 245668751, 2025460432, 201609705, 286217151, 4093475563,
     2519572182, 3080699870, 2762001832, 1244250808, 606038199, 3182740831, 73007766, 2572204153],
    [2359801781, 2800231467, 3010357035, 1035997899, 1210110952, 1018506770, 2799468177, 1479380761,
     1536021911, 358993854, 579904113, 3432144800, 3625515809, 199241497, 4058304109, 2590164234],
    [1688530738, 1580733335, 2443981517, 2206270565, 2780074229, 2628739677, 2940123659, 4145206827,
     3572278009, 2779607509, 1098718697, 1424913749, 2224415875, 1108922178, 3646272562, 3935186184],
    [820046587, 1393386250, 2665818575, 2231782019, 672377010, 1920315467, 1913164407, 2029526876,
     2629271820, 384320012, 4112320585, 3131824773, 2347818197, 2220997386, 1772368609, 2579960095],
    [3544930873, 225847443, 3070082278, 95643305, 3438572042, 3312856509, 615850007, 1863868773,
     803582265, 3461976859, 2903025799, 1482092434, 3902972499, 3872341868, 1530411808, 2214923584],
]]
PICO_PART = [v % P for v in [1196780786, 36046858, 3505307391, 3878220780, 2896943075, 3779109343, 1418914503, 3417648695,
             859661334, 1548195514, 104929687, 2191909784, 3633138367, 130182653, 3306659113, 1564209905,
             1165280628, 1170945922, 2922875898, 2066954820]]


def main_pico():
    assert permute(PLONKY3_INPUT, *xoroshiro_constants(), internal_pico) == [
        652590279, 1200629963, 1013089423, 1840372851, 19101828, 561050015, 1714865585, 994637181,
        498949829, 729884572, 1957973925, 263012103, 535029297, 2121808603, 964663675, 1473622080]
    assert permute([0] * 16, PICO_EXT, PICO_PART, internal_pico) == [
        1330215056, 1388930081, 1337212159, 2038180411, 1881671374, 164509734, 498654582,
        1841854018, 82116708, 1571428065, 117003252, 1678395592, 2088326992, 1852522451,
        1063576961, 1871812444]
    once = permute(range(16), PICO_EXT, PICO_PART, internal_pico)
    twice = permute(once, PICO_EXT, PICO_PART, internal_pico)
    print(struct.pack("<48I", *once, *range(16), *twice).hex())


def main_sp1():
    ext, part = grain()
    assert ext[0][:4] == [0x7EE56A48, 0x11367045, 0x12E41941, 0x7EBBC12B], ext[0][:4]
    assert ext[7][14:] == [0x33AD7833, 0x3466C7CA] and part[0] == 0x54DFEB5D
    assert permute(PLONKY3_INPUT, *xoroshiro_constants()) == [
        575479740, 1350824762, 2117880331, 1034350182, 1722317281, 988412135, 1272198010,
        2022533539, 1465703323, 648698653, 439658904, 878238659, 1163940027, 287402877, 685135400,
        1397893936]
    print(struct.pack("<16I", *permute(range(16), ext, part)).hex())


if len(sys.argv) > 1 and sys.argv[1] == "pico":
    main_pico()
else:
    main_sp1()
