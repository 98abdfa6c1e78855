#!/usr/bin/env python3
"""Writes the seed corpus of undo_recovery_fuzzer: real crash images, made by the operation
sequences of undo_ops_fuzzer's corpus (fuzzers/undo_fuzz_ops.h), framed as the recovery target
reads them (fuzzers/undo_recovery_fuzzer.cc):

  mode:u8 (the sequence's slot byte), ops_len:u16 LE, the operations, then damage entries
  (kind:u8 pos:u16 LE value:u8)

For each of the first --count sequences (by name): the undamaged image, and one image each with a
damaged line pointer byte, a damaged undo byte, a commit-log change and undo pages cut short.
Plus raw-mode seeds: an empty zheap page of each slot count, and one with a line pointer.

Usage: tools/seeds/make_undo_recovery_seeds.py [--count N] [CORPORA_DIR]
"""
import argparse
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fuzzing.common import corpora_dir, run_main, write_seed  # noqa: E402

PAGE = 8192
SLOT_COUNTS = [2, 4, 8, 16, 31]


def damage(kind, pos, value):
    return struct.pack("<BHB", kind, pos, value)


def empty_zheap_page(slots, items=()):
    """PageInit with the slots' special space, plus (offset, flags, length) line pointers."""
    special = PAGE - 16 * slots
    page = bytearray(PAGE)
    lower = 24 + 4 * len(items)
    struct.pack_into("<HHHH", page, 12, lower, special - 64 if items else special, special,
                     PAGE | 4)
    for i, (off, flags, length) in enumerate(items):
        struct.pack_into("<I", page, 24 + 4 * i, off | flags << 15 | length << 17)
    return bytes(page)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=60,
                    help="how many operation sequences of undo_ops_fuzzer's corpus to use")
    ap.add_argument("corpora", nargs="?",
                    help="the corpora directory (default: corpora/ of this workspace)")
    args = ap.parse_args()
    args.corpora = corpora_dir(args.corpora)
    src = os.path.join(args.corpora, "undo_ops_fuzzer")
    out = os.path.join(args.corpora, "undo_recovery_fuzzer")
    rng = random.Random(14)
    written = 0
    for name in sorted(os.listdir(src))[:args.count]:
        seq = open(os.path.join(src, name), "rb").read()
        if not seq:
            continue
        slots_byte, ops = seq[0] & 0x7F, seq[1:4097]
        head = bytes([slots_byte]) + struct.pack("<H", len(ops)) + ops
        slots = SLOT_COUNTS[slots_byte % 5]
        lp = 24 + 4 * rng.randrange(4) + rng.randrange(4)
        for extra in (b"",
                      damage(0, lp, rng.randrange(256)),
                      damage(0, PAGE - 16 * slots + rng.randrange(16 * slots), rng.randrange(256)),
                      damage(1, 24 + rng.randrange(200), rng.randrange(256)),
                      damage(2, rng.randrange(slots), rng.randrange(3)),
                      damage(3, rng.randrange(4), 0)):
            write_seed(out, head + extra)
            written += 1
    for slots_byte, slots in enumerate(SLOT_COUNTS):
        special = PAGE - 16 * slots
        for page in (empty_zheap_page(slots),
                     empty_zheap_page(slots, [(special - 64, 1, 20)])):
            write_seed(out, bytes([0x80 | slots_byte]) + page + b"\x00")
            written += 1
    print(f"wrote {written} seeds to {out}")
    return 0


if __name__ == "__main__":
    run_main(main)
