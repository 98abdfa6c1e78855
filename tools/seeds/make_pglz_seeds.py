#!/usr/bin/env python3
"""Writes the initial seed corpora of the pglz fuzz targets from real data on this machine.

Usage: tools/seeds/make_pglz_seeds.py PGLZ_CLI [CORPORA_DIR]
  PGLZ_CLI     the built pglz tool (bazel build //tools:pglz; bazel-bin/tools/pglz)
  CORPORA_DIR  where the <target>/ directories are written (default: corpora/ of this workspace)

Seeds are real inputs (license texts, a man page, an ELF binary, PostgreSQL's corrupt-input
regression cases) framed the way each target reads its input: payload first, parameters in the
trailing bytes (see fuzzers/fuzz_helpers.h TailSplitter and fuzzers/pglz_fuzz_params.h). After a
campaign, tools/campaign --merge minimizes and merges what was found.
"""
import argparse
import gzip
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fuzzing.common import ToolError, corpora_dir, run_main, write_seed  # noqa: E402

# Strategy selector bytes (pglz_fuzz_params.h): 0x00 = PostgreSQL default, 0x40 = always.
DEFAULT = bytes([0x00] * 6)
ALWAYS = bytes([0x40] * 6)


def real_inputs():
    """(name, bytes) pairs of real data, each at most 8 KiB so raw sizes fit the u16 parameter."""
    sources = [
        ("gpl3", "/usr/share/common-licenses/GPL-3"),
        ("apache2", "/usr/share/common-licenses/Apache-2.0"),
        ("ls_elf", "/bin/ls"),
    ]
    out = []
    for name, path in sources:
        if os.path.exists(path):
            data = open(path, "rb").read()
            out.append((name + "_head", data[:8192]))
            out.append((name + "_mid", data[len(data) // 2: len(data) // 2 + 4096]))
    man = "/usr/share/man/man1/bash.1.gz"
    if os.path.exists(man):
        out.append(("bash_man", gzip.decompress(open(man, "rb").read())[:8192]))
    out.append(("run_a", b"a" * 300))
    out.append(("abcd_x100", b"abcd" * 100))
    out.append(("period4095", bytes((i * 7) & 0xFF for i in range(4095)) * 2))
    return out


def compress(cli, raw, strategy):
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in"), os.path.join(d, "out")
        open(src, "wb").write(raw)
        r = subprocess.run([cli, "compress", "--strategy", strategy, src, dst],
                           stderr=subprocess.DEVNULL)
        return open(dst, "rb").read() if r.returncode == 0 else None


def u16_tail(n):
    # TailSplitter.TakeU16 takes the low byte first from the end: payload + hi + lo.
    return bytes([(n >> 8) & 0xFF, n & 0xFF])


def write(out_dir, target, data):
    write_seed(os.path.join(out_dir, target), data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pglz_cli", help="the built pglz tool (bazel build //tools:pglz)")
    ap.add_argument("corpora", nargs="?",
                    help="the corpora directory (default: corpora/ of this workspace)")
    args = ap.parse_args()
    cli, out_dir = args.pglz_cli, corpora_dir(args.corpora)
    if not os.access(cli, os.X_OK):
        raise ToolError(f"{cli} is not an executable pglz tool (bazel build //tools:pglz)")
    # PostgreSQL's corrupt-input regression cases (compression_pglz.sql).
    corrupt = [bytes.fromhex(h) for h in ("01", "01ff", "010f01", "011001", "010300")]
    for c in corrupt:
        for exact in (0, 1):
            write(out_dir, "pglz_decode_fuzzer", c + u16_tail(10) + bytes([exact]))
            write(out_dir, "pglz_differential_fuzzer",
                  c + u16_tail(10) + bytes([exact]) + DEFAULT)
    for _, raw in real_inputs():
        for strategy, selectors in (("default", DEFAULT), ("always", ALWAYS)):
            c = compress(cli, raw, strategy)
            write(out_dir, "pglz_round_trip_fuzzer", raw + bytes(4) + selectors)
            if c is None:
                continue
            write(out_dir, "pglz_decode_fuzzer", c + u16_tail(len(raw)) + bytes([1]))
            write(out_dir, "pglz_differential_fuzzer",
                  c + u16_tail(len(raw)) + bytes([1]) + selectors)
            # The same stream as a TOAST inline-compressed datum.
            total = 8 + len(c)
            datum = ((total << 2) | 2).to_bytes(4, "little") + len(raw).to_bytes(4, "little") + c
            write(out_dir, "pglz_decode_fuzzer", datum)

    return 0


if __name__ == "__main__":
    run_main(main)
