#!/usr/bin/env python3
# seeds.py — writes the hand-made seed and regression inputs of tests/fuzz/corpus/{proto,
# shm_ring,modex}/ (the layouts of runtime/protocol.h, shm_ring.h, verbs.h). Run it from the
# top directory after a change of those layouts; the fuzzer's own finds are not regenerated.
import os, struct

def put(target, name, data):
    d = os.path.join("tests/fuzz/corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

EAGER, RTS, CTS, DATA, FIN = 1, 2, 3, 4, 5

def match(t, seq, ln, src=0, ctx=0, tag=7, flags=0):
    return struct.pack("<BBHIiiIIQ", t, flags, 0, ctx, src, tag, seq, 0, ln)

def rts(seq, ln, sreq, flags=1):
    return match(RTS, seq, ln, flags=flags) + struct.pack("<Q", sreq) + bytes(32)

def ctl(t, sreq, rreq, xlen):
    return struct.pack("<BB6xQQQ", t, 0, sreq, rreq, xlen)

def data(rreq, off, payload):
    return struct.pack("<BB6xQQ", DATA, 0, rreq, off) + payload

RMA = 9
R_PUT, R_GET, R_ACC, R_CAS, R_LOCK, R_UNLOCK, R_FLUSH, R_ACK, R_DATA = range(1, 10)

def rma(kind, ln, payload=b"", base=0, flags=0, op=0, ident=0, off=0, pos=0, ctx=0):
    return struct.pack("<BBBBIiIQQQQ", RMA, kind, base, flags, ctx, op, 0, ident, off, pos,
                       ln) + payload

def pk(src, b):  # fuzz_proto framing: 2-byte length, source rank, bytes
    return struct.pack("<HB", len(b), src) + b

# proto: cookies 0..3 stand for the target's requests: 0, 1 sends waiting on ranks 1, 2;
# 2, 3 receives of 100 and 4096 bytes expecting DATA from ranks 1, 2.
put("proto", "seed-eager", pk(0, match(EAGER, 0, 5) + b"hello") + pk(0, match(EAGER, 1, 0)))
put("proto", "seed-rts-fin", pk(1, rts(0, 1 << 20, 0)) + pk(1, ctl(FIN, 0, 0, 0)))
put("proto", "seed-cts-data", pk(2, ctl(CTS, 1, 3, 4096)) + pk(2, data(3, 0, b"x" * 1000)) +
    pk(2, data(3, 1000, b"y" * 3096)))
put("proto", "seed-data-100", pk(1, data(2, 0, b"a" * 60)) + pk(1, data(2, 60, b"b" * 40)))
# one-sided active messages (PKT_RMA): the shapes wire_parse accepts
put("proto", "seed-rma", pk(1, rma(R_PUT, 8, b"12345678", off=16)) + pk(1, rma(R_GET, 64)) +
    pk(1, rma(R_ACC, 8, b"\1\0\0\0\2\0\0\0", base=3, op=1, flags=1)) +
    pk(1, rma(R_ACC, 8, base=3, op=14, flags=3)) +
    pk(1, rma(R_CAS, 4, b"\1\0\0\0\0\0\0\0", base=3)) + pk(1, rma(R_LOCK, 0, op=2)) +
    pk(1, rma(R_UNLOCK, 0)) + pk(1, rma(R_FLUSH, 0)) + pk(2, rma(R_ACK, 0, op=-32)) +
    pk(2, rma(R_DATA, 4, b"abcd", pos=4)))
put("proto", "regress-rma-len-beyond-packet", pk(1, rma(R_PUT, 1 << 40, b"abcdefgh")))
put("proto", "regress-rma-cas-no-comparand", pk(1, rma(R_CAS, 4, b"abcd", base=3)))
# regressions: each was accepted (and read or wrote out of bounds) before wire_parse
put("proto", "regress-eager-len-beyond-packet", pk(0, match(EAGER, 0, 1 << 16) + b"abc"))
put("proto", "regress-short-header", pk(0, bytes([RTS]) + bytes(10)))
put("proto", "regress-empty", pk(0, b""))
put("proto", "regress-unknown-type", pk(0, bytes([9]) + bytes(40)))
put("proto", "regress-data-offset-wraps", pk(1, data(2, (1 << 64) - 8, b"z" * 16)))
put("proto", "regress-data-overlap", pk(1, data(2, 0, b"a" * 60)) + pk(1, data(2, 0, b"b" * 60)))
put("proto", "regress-bogus-cookie", pk(1, ctl(FIN, 0x4141414141414141, 0, 0)))
put("proto", "regress-cookie-other-rank", pk(2, ctl(FIN, 0, 0, 0)))
put("proto", "regress-second-fin", pk(1, ctl(FIN, 0, 0, 0)) + pk(1, ctl(FIN, 0, 0, 0)))
put("proto", "regress-seq-out-of-order", pk(0, match(EAGER, 5, 0)))
put("proto", "regress-negative-src", pk(0, match(EAGER, 0, 0, src=-3)))

# shm_ring: byte 0 picks the capacity (4, 8, 16 KiB); with bit 7 of byte 1 set, head (2
# bytes), tail (2) and a cap xor (1, shifted by 6) are scribbled before attach. Then
# operations: 0/1 write (2-byte length), 2/3 read, 4 peek only, 5 head += int16, 6 scribble 8
# bytes at an offset, 7 tail += int16.
def w(n):
    return struct.pack("<BH", 0, n)
R = b"\x02"
put("shm_ring", "seed-write-read", b"\x00" + w(10) + R + w(1000) + w(0) + R + R + R)
put("shm_ring", "seed-wrap", b"\x00" + (w(900) + R) * 12)
put("shm_ring", "seed-fill", b"\x01" + w(2000) * 6 + R * 6 + w(1500) * 3 + R * 3)
put("shm_ring", "seed-hostile-head", b"\x00" + w(100) + struct.pack("<Bh", 5, 4000) + R * 3)
put("shm_ring", "seed-hostile-header", b"\x00" + w(100) +
    struct.pack("<BHQ", 6, 0, 0x41544144000fffff) + R)
put("shm_ring", "seed-hostile-tail", b"\x00" + struct.pack("<Bh", 7, -64) + w(3000) * 3)
# regressions: attach took an unaligned tail (then read a record header across the end of
# the data area) and a capacity larger than the memory it was given
put("shm_ring", "regress-unaligned-tail", b"\x00\x80" + struct.pack("<HHB", 4092, 4092, 0) +
    struct.pack("<Bh", 5, 8) + R)
put("shm_ring", "regress-cap-larger-than-memory", b"\x00\x80" + struct.pack("<HHB", 0, 0, 192) +
    w(1500) * 4)
# modex: byte 0 bit 7: shm blob, else verbs (bit 0 rdmacm, bit 1 RoCE, bits 2-5 nranks - 1)
def vblob(wiring, link, nqpn, nq=None):
    nq = nqpn if nq is None else nq
    return (struct.pack("<IBBBBHHII", 0x524D5631, wiring, link, 4, 0, 1, 0, 7, nqpn) +
            bytes(32) + struct.pack("<%dI" % nq, *range(1, nq + 1)))
put("modex", "seed-verbs-ibv-4", bytes([3 << 2]) + vblob(0, 1, 4))
put("modex", "seed-verbs-rdmacm-roce", bytes([1 | 2]) + vblob(1, 2, 0))
put("modex", "seed-shm", b"\x80" + bytes(16) + b"/rmp.job-r0\0")
put("modex", "regress-verbs-nqpn-beyond-blob", bytes([15 << 2]) + vblob(0, 1, 16, nq=2))
put("modex", "regress-shm-name-unterminated", b"\x80" + bytes(16) + b"/rmp")
