#!/usr/bin/env bash
# undo_bench on a small table: every undo record type is listed, in-place updates leave the
# zheap-style table at its loaded size while the heap grows with every update, in both access
# patterns; bad usage fails.
set -euo pipefail
bin="$1"
out=$("$bin" --accounts 3000 --updates 8000 --reps 1 --record-iterations 1000 2>/dev/null)
[ "$(printf '%s\n' "$out" | grep -cE '^  (INSERT|MULTI_INSERT|DELETE|INPLACE_UPDATE|UPDATE|XID_LOCK_ONLY|XID_LOCK_FOR_UPDATE|XID_MULTI_LOCK_ONLY|ITEMID_UNUSED) ')" -eq 9 ] \
  || { echo "record rows:"; printf '%s\n' "$out"; exit 1; }
# Rows of the two simple-update tables: updates zheap heap ratio undo.
printf '%s\n' "$out" | awk '
  /^pgbench/ { table++; first = 1; next }
  table && $1 ~ /^[0-9]+$/ {
    if (first) { zheap0 = $2; heap = $3; first = 0; next }
    if ($2 != zheap0) { print "zheap grew: " $0; bad = 1 }
    if ($3 <= heap) { print "heap did not grow: " $0; bad = 1 }
    heap = $3; rows++
  }
  END { if (table != 2 || rows != 8) { print "tables " table ", rows " rows; bad = 1 } exit bad }'
if "$bin" --bogus 2>/dev/null; then echo "unknown flag accepted"; exit 1; fi
echo "undo_bench_test: ok"
