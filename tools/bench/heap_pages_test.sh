#!/usr/bin/env bash
# heap_pages on 1000 rows: 7 workloads x 3 modes; hand-computed page counts for the narrow
# workloads; truncation never uses more pages; no change where there are no NULLs; bad usage fails.
set -euo pipefail
bin="$1"
out=$("$bin" --rows 1000 2>/dev/null)
lines=$(printf '%s\n' "$out" | tail -n +2 | wc -l)
[ "$lines" -eq 21 ] || { echo "expected 21 rows, got $lines"; exit 1; }

row() { printf '%s\n' "$out" | awk -F'\t' -v w="$1" -v m="$2" '$1 == w && $2 == m'; }
field() { row "$1" "$2" | cut -f"$3"; }

# 12 cols, 9 trailing NULLs. off: 23 + 2-byte bitmap -> t_hoff 32, 3 int4 -> 44 bytes (45 in
# phase B, with the last bool set), 48 + 4 per row, 157 rows a page, 1000 rows -> 7 pages.
# keep-bitmap: natts 3, t_hoff 24, 36 bytes, 40 + 4 per row, 185 a page -> 6 pages.
w="12 cols (3 int4, 9 bool), 9 trailing NULLs"
[ "$(field "$w" off 3)" = "44/45/44" ] || { echo "off tuple_len: $(field "$w" off 3)"; exit 1; }
[ "$(field "$w" off 4)" = "7" ] || { echo "off pages A: $(field "$w" off 4)"; exit 1; }
[ "$(field "$w" keep-bitmap 3 | cut -d/ -f1)" = "36" ] || { echo "keep tuple_len"; exit 1; }
[ "$(field "$w" keep-bitmap 4)" = "6" ] || { echo "keep pages A: $(field "$w" keep-bitmap 4)"; exit 1; }

# The no-NULL workload costs the same in every mode.
w="300 cols, no NULLs"
for m in keep-bitmap drop-bitmap; do
  [ "$(field "$w" $m 3-6)" = "$(field "$w" off 3-6)" ] || { echo "$m differs without NULLs"; exit 1; }
done

# Truncation never uses more pages than off, in any phase.
printf '%s\n' "$out" | tail -n +2 | awk -F'\t' '
  $2 == "off" { a = $4; b = $5; c = $6; next }
  ($4 > a || $5 > b || $6 > c) { print "more pages than off: " $0; bad = 1 }
  END { exit bad }'

if "$bin" --rows 0 2>/dev/null; then echo "--rows 0 accepted"; exit 1; fi
if "$bin" --workload nosuch 2>/dev/null; then echo "unknown workload accepted"; exit 1; fi
echo "heap_pages_test: ok"
