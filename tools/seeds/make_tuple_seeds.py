#!/usr/bin/env python3
"""Writes the seed corpora of the tuple and page fuzz targets from the real PostgreSQL 15 pages
in corpora/pg_capture/ (tools/pg_capture), framed the way each target reads its input:

  page_decode_fuzzer       one captured 8 KB page, then its table's descriptor tail
  tuple_decode_fuzzer      one captured tuple (its line pointer's bytes), then the descriptor tail
  tuple_round_trip_fuzzer  synthetic rows (fixed random seed) for varied descriptors

The descriptor tail encoding is fuzzers/tuple_fuzz_params.h's (the last byte is natts, the byte
before it attribute 1's code, and so on).

Usage: tools/seeds/make_tuple_seeds.py [CORPORA_DIR]   (default: corpora/ of this workspace)
"""
import argparse
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fuzzing.common import corpora_dir, run_main, write_seed  # noqa: E402

KIND = {"int2": 0, "int4": 1, "int8": 2, "bool": 3, "float4": 4, "name": 5, "uuid": 6,
        "text": 7, "varchar": 7, "bpchar": 7, "jsonb": 7, "int4[]": 7, "text[]": 7,
        "numeric": 8, "float8[]": 9, "bytea": 10, "cstring": 11, '"char"': 14,
        "timestamp": 15, "timestamptz": 15, "date": 1, "oid": 1, "float8": 2}
PAGE = 8192


def desc_tail(schema):
    codes = []
    for item in schema.split(","):
        code = 0
        if item.startswith("dropped:"):
            code |= 0x10
            item = item[len("dropped:"):]
        if "=" in item:
            code |= 0x20
            item = item.split("=")[0]
        codes.append(KIND[item] | code)
    assert len(codes) < 256
    return bytes(reversed([len(codes)] + codes))


def items_of(page):
    lower = struct.unpack_from("<H", page, 12)[0]
    for i in range((lower - 24) // 4):
        word = struct.unpack_from("<I", page, 24 + 4 * i)[0]
        off, flags, length = word & 0x7FFF, (word >> 15) & 3, word >> 17
        if flags == 1 and length:
            yield page[off:off + length]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", nargs="?",
                    help="the corpora directory, with pg_capture/ (default: corpora/ of this "
                    "workspace)")
    corpora = corpora_dir(ap.parse_args().corpora)
    capture = os.path.join(corpora, "pg_capture")
    rng = random.Random(20261202)
    counts = {"page_decode_fuzzer": 0, "tuple_decode_fuzzer": 0, "tuple_round_trip_fuzzer": 0}
    for table in sorted(os.listdir(capture)):
        schema = open(os.path.join(capture, table, "schema")).read().strip()
        tail = desc_tail(schema)
        rel = open(os.path.join(capture, table, "relation"), "rb").read()
        for b in range(len(rel) // PAGE):
            page = rel[b * PAGE:(b + 1) * PAGE]
            write_seed(os.path.join(corpora, "page_decode_fuzzer"), page + tail)
            counts["page_decode_fuzzer"] += 1
            tuples = list(items_of(page))
            for t in rng.sample(tuples, min(len(tuples), 12)):
                write_seed(os.path.join(corpora, "tuple_decode_fuzzer"), t + tail)
                counts["tuple_decode_fuzzer"] += 1
    # An all-zero page (a valid new page) and an empty one just initialized.
    write_seed(os.path.join(corpora, "page_decode_fuzzer"), bytes(PAGE))
    new_page = bytearray(PAGE)
    struct.pack_into("<HHHH", new_page, 12, 24, PAGE, PAGE, 0x2004)
    write_seed(os.path.join(corpora, "page_decode_fuzzer"), bytes(new_page))
    counts["page_decode_fuzzer"] += 2
    # Round trip: every kind, with and without dropped/missing flags, random row bytes.
    for n in range(60):
        natts = rng.choice([0, 1, 3, 8, 9, 16, 40, 73])
        codes = [rng.randrange(16) | rng.choice([0, 0, 0, 0x10, 0x20]) for _ in range(natts)]
        tail = bytes(reversed([natts] + codes))
        payload = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 3000)))
        write_seed(os.path.join(corpora, "tuple_round_trip_fuzzer"), payload + tail)
        counts["tuple_round_trip_fuzzer"] += 1
    for target, n in counts.items():
        print(f"make_tuple_seeds: {target}: {n} seeds", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run_main(main)
