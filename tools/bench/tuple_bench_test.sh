#!/usr/bin/env bash
# tuple_bench on a few tuples: every workload row in all four variants, the two "off" runs of one
# row equally long, truncation never longer than off and shorter where there are trailing NULLs,
# no change without NULLs; bad usage fails.
set -euo pipefail
bin="$1"
out=$("$bin" --reps 1 --tuples 20 2>/dev/null)
# Rows: name (possibly empty) mode bytes form_ns x deform_ns x; modes are the last 6 fields.
printf '%s\n' "$out" | tail -n +2 | awk '
  { bytes = $(NF-4); mode = ($(NF-5) == "again") ? "off again" : $(NF-5) }
  mode == "off" { off = bytes; name = $0; rows++; next }
  mode == "keep-bitmap" || mode == "drop-bitmap" {
    if (bytes > off) { print "longer than off: " $0; bad = 1 }
    if (name ~ /trailing NULLs/ && bytes >= off) { print "no saving: " name " / " $0; bad = 1 }
    if (name ~ /no NULLs/ && bytes != off) { print "changed without NULLs: " $0; bad = 1 }
    next
  }
  mode == "off again" { if (bytes != off) { print "off again differs: " $0; bad = 1 } again++ }
  END { if (rows != 7 || again != 7) { print "rows " rows ", off-again rows " again; bad = 1 } exit bad }'
if "$bin" --reps 0 2>/dev/null; then echo "--reps 0 accepted"; exit 1; fi
if "$bin" --bogus 2>/dev/null; then echo "unknown flag accepted"; exit 1; fi
echo "tuple_bench_test: ok"
