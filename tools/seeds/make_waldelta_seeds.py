#!/usr/bin/env python3
"""Writes the seed corpora of the waldelta fuzz targets from the real PostgreSQL 15 UPDATE records
in corpora/pg_wal/updates.tsv (tools/pg_capture/pg_wal_capture), framed the way each target reads
its input (tails as fuzzers/fuzz_helpers.h's TailSplitter takes them: the last byte first, a u16's
low byte before its high byte):

  waldelta_decode_fuzzer        mode 0: old tuple + block data, tail old_len:u16 flags mode;
                                modes 1 and 2: history + a small delta body (literals, a copy);
                                mode 3: an xl_heap_update with the record's flags; the old and
                                new tuples, tail old_len:u16 mode
  waldelta_round_trip_fuzzer    old user data + new user data, tail split:u16 shape mutate (>= 4:
                                the new data as given)
  waldelta_differential_fuzzer  flip_at:u16 flip, then a round-trip input

Usage: tools/seeds/make_waldelta_seeds.py [CORPORA_DIR]   (default: corpora/ of this workspace)
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fuzzing.common import corpora_dir, run_main, write_seed  # noqa: E402


def tail_u16(v):
    return bytes([(v >> 8) & 0xFF, v & 0xFF])  # taken from the end: low byte first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", nargs="?",
                    help="the corpora directory, with pg_wal/updates.tsv (default: corpora/ of "
                    "this workspace)")
    corpora = corpora_dir(ap.parse_args().corpora)
    records = []
    with open(os.path.join(corpora, "pg_wal", "updates.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            records.append((int(fields[3]), bytes.fromhex(fields[9]), bytes.fromhex(fields[10]),
                            bytes.fromhex(fields[11])))
    # One record of each (flags, table shape) kind is enough to seed; keep the set small.
    seen, chosen = set(), []
    for flags, block, old, new in records:
        key = (flags, len(old) // 256, old[22], new[22])
        if key not in seen:
            seen.add(key)
            chosen.append((flags, block, old, new))
    n = 0
    for flags, block, old, new in chosen:
        write_seed(os.path.join(corpora, "waldelta_decode_fuzzer"),
              old + block + tail_u16(len(old)) + bytes([flags, 0]))
        write_seed(os.path.join(corpora, "waldelta_decode_fuzzer"),
              old + new + tail_u16(len(old)) + bytes([3]))
        main_data = struct.pack("<IHBBIH", 700 + n, 1 + n, 0, flags, 0, 2 + n)
        write_seed(os.path.join(corpora, "waldelta_decode_fuzzer"), main_data + tail_u16(0) + bytes([3]))
        old_data, new_data = old[old[22]:], new[new[22]:]
        pair = old_data + new_data + bytes([200, 0]) + tail_u16(len(old_data))
        write_seed(os.path.join(corpora, "waldelta_round_trip_fuzzer"), pair)
        write_seed(os.path.join(corpora, "waldelta_differential_fuzzer"), bytes([n % 251, 0, 0x5A]) + pair)
        n += 1
    # Delta bodies: pglz-history (a control byte, literals, a 3-byte tag into the history) and
    # chunk (a literal run and a copy), against a history of 64 bytes.
    history = bytes(range(64))
    pglz = bytes([0x02, ord("x")]) + bytes([0x0F, 0x40, 2]) + b"yz"  # literal, tag len 20 off 64
    chunk = bytes([0x01, ord("a"), ord("b"), 0x80 | 6]) + struct.pack("<H", 5)
    for mode, body, target in ((1, pglz, 23), (2, chunk, 12)):
        write_seed(os.path.join(corpora, "waldelta_decode_fuzzer"),
              history + body + tail_u16(len(history)) + tail_u16(target) + bytes([mode]))
    print(f"make_waldelta_seeds: {len(chosen)} records of {len(records)} seeded each target, "
          f"plus 2 delta bodies", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run_main(main)
