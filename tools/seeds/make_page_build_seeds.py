#!/usr/bin/env python3
"""Writes the seed corpus of page_build_fuzzer: operation sequences (fuzzers/page_build_fuzzer.cc)
that fill a page with items of every alignment, reuse unused line pointers, redirect to every
kind of target, and drive the relation filler through inserts and updates that stay on the old
page, go to the target page, or extend the relation.

Usage: tools/seeds/make_page_build_seeds.py [CORPORA_DIR]   (default: corpora/ of this workspace)
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fuzzing.common import corpora_dir, run_main, write_seed  # noqa: E402


def add(length, seed=0):
    if 1 <= length <= 64:
        return bytes([0x08 | (seed << 4)]) + bytes([length - 1])
    return bytes([0x00 | (seed << 4)]) + struct.pack("<H", length)


def dead(off):
    return bytes([3]) + struct.pack("<H", off - 1)


def unused(off):
    return bytes([4]) + struct.pack("<H", off - 1)


def redirect(off, target):
    return bytes([5]) + struct.pack("<H", off - 1) + struct.pack("<H", target)


def insert(length):
    return bytes([6]) + struct.pack("<H", length)


def update(which, length):
    return bytes([7]) + struct.pack("<H", which) + struct.pack("<H", length)


def seeds():
    yield "every_alignment", b"".join(add(n, n % 16) for n in range(1, 17))
    yield "fill_page", b"".join(add(1000 + n) for n in range(9))
    yield "tiny_items_to_291", b"".join(add(1) for _ in range(300))
    yield "empty_and_oversized", add(0) + add(8160) + add(8161) + add(8200)
    yield "reuse_unused", b"".join(add(40) for _ in range(4)) + unused(2) + add(24) + dead(3) + add(8)
    yield "redirects", (b"".join(add(30) for _ in range(4)) + redirect(1, 2) + redirect(2, 3)
                        + dead(3) + redirect(4, 5) + redirect(4, 6) + redirect(4, 0) + add(10))
    yield "insert_then_update", (b"".join(insert(2000) for _ in range(8))
                                 + update(0, 1500) + update(5, 3000) + update(2, 100))
    yield "update_to_target", (insert(4000) + insert(4000) + insert(3000) + update(0, 3000)
                               + update(1, 1000) + update(0, 8000))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", nargs="?",
                    help="the corpora directory (default: corpora/ of this workspace)")
    args = ap.parse_args()
    d = os.path.join(corpora_dir(args.corpora), "page_build_fuzzer")
    for name, data in seeds():
        write_seed(d, data)
        print(f"{name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    run_main(main)
