#!/usr/bin/env bash
# pglz_bench on two small inputs it is given (the bench itself exits 1 when pgstore's compressed
# bytes differ from PostgreSQL's on any chunk): one row per input with a compression ratio, the
# summary lines, --chunk 0 as the whole input; an unreadable file and bad usage fail.
set -euo pipefail  # (no "printf | grep -q": grep may exit first, and pipefail fails on the SIGPIPE)
bin="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
for i in $(seq 1 400); do echo "row $i|customer_$((i * 7919 % 10007))|status=active"; done > "$dir/rows.txt"
head -c 20000 /dev/urandom > "$dir/random.bin"
out=$("$bin" --reps 1 --chunk 2048 "$dir/rows.txt" "$dir/random.bin" 2>/dev/null)
grep -qE "^$dir/rows.txt +[0-9.]+% \|" <<< "$out" || { echo "no row for rows.txt"; printf '%s\n' "$out"; exit 1; }
grep -qE "^$dir/random.bin +100.0% \|" <<< "$out" || { echo "random data compressed?"; printf '%s\n' "$out"; exit 1; }
grep -q "^geometric mean pgstore/PostgreSQL: compress x" <<< "$out" || { echo "no summary"; exit 1; }
if "$bin" "$dir/nosuch" 2>/dev/null; then echo "missing file accepted"; exit 1; fi
whole=$("$bin" --reps 1 --chunk 0 "$dir/rows.txt" 2>/dev/null)
grep -q "^whole input$" <<< "$whole" || { echo "--chunk 0 is not the whole input"; printf '%s\n' "$whole"; exit 1; }
grep -q "^lowest row pgstore/PostgreSQL: compress x" <<< "$whole" || { echo "no lowest row"; exit 1; }
if "$bin" --chunk 2000000000 2>/dev/null; then echo "--chunk above 1 GiB accepted"; exit 1; fi
if "$bin" --reps 0 2>/dev/null; then echo "--reps 0 accepted"; exit 1; fi
echo "pglz_bench_test: ok"
