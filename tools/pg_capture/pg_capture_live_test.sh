#!/usr/bin/env bash
# Runs tools/pg_capture against a real PostgreSQL 15 server (a throwaway cluster it starts and
# removes) and requires pgstore's pageinspect to list the fresh relation files exactly as
# PostgreSQL's heap_page_items and tuple_data_split did. Skips only if PostgreSQL 15 is absent.
set -euo pipefail
capture="$1"
pageinspect="$2"
if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then
  echo "PostgreSQL 15 is not installed: run tools/setup"; exit 1
fi
out="${TEST_TMPDIR:-$(mktemp -d)}/capture"
python3 "$capture" --out "$out"
tables=0
for dir in "$out"/*/; do
  t=$(basename "$dir")
  "$pageinspect" items "$dir/relation" > "$dir/ours.items"
  cmp "$dir/ours.items" "$dir/items.tsv" || { echo "$t: items differ"; diff "$dir/ours.items" "$dir/items.tsv" | head; exit 1; }
  "$pageinspect" split "$dir/relation" --schema "$(cat "$dir/schema")" > "$dir/ours.split"
  cmp "$dir/ours.split" "$dir/split.tsv" || { echo "$t: split differs"; diff "$dir/ours.split" "$dir/split.tsv" | head; exit 1; }
  tables=$((tables + 1))
done
[ "$tables" -eq 6 ] || { echo "expected 6 tables, got $tables"; exit 1; }
echo "pg_capture_live_test: $tables tables captured from PostgreSQL 15 and listed identically"
