#!/usr/bin/env bash
# waldelta_bench on a few updates of the two short-long cases (the bench checks every delta
# round-trips, and exits 1 if a goal is missed): every method listed per case, no method logs more
# than the whole tuple or than prefix-suffix; an unknown case and bad usage fail.
set -euo pipefail
bin="$1"
out=$("$bin" --updates 40 --reps 1 --case short-long 2>/dev/null)
printf '%s\n' "$out" | awk '
  /^short-long, .*: 40 updates/ { cases++; next }
  $1 == "none" && NF == 10 { none = $2; methods++; next }
  $1 == "prefix-suffix" && NF == 10 { ps = $2; methods++; if (ps > none) { print "prefix-suffix > none"; bad = 1 } next }
  ($1 == "pglz-history" || $1 == "pglz-aligned" || $1 == "chunk" || $1 == "auto") && NF == 10 {
    methods++; if ($2 > ps) { print $1 " logs more than prefix-suffix: " $0; bad = 1 } next }
  END { if (cases != 2 || methods != 12) { print "cases " cases ", method rows " methods; bad = 1 } exit bad }'
grep -qx "all goals met" <<< "$out" || { echo "goals line missing"; exit 1; }
if "$bin" --case nosuch 2>/dev/null; then echo "unknown case accepted"; exit 1; fi
if "$bin" --updates 0 2>/dev/null; then echo "--updates 0 accepted"; exit 1; fi
echo "waldelta_bench_test: ok"
