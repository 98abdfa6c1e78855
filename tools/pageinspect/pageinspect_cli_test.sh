#!/usr/bin/env bash
# The pageinspect command line: identical listings of a PostgreSQL relation, one-line errors that
# name the page, line pointer and failed check while the listing goes on, and exit codes
# (0 clean, 1 problems found, 2 bad usage or unreadable file).
set -uo pipefail
bin="$1"
capture="$2"  # corpora/pg_capture/all_types
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*"; exit 1; }

"$bin" items "$capture/relation" > "$tmp/items" || fail "items exited $?"
cmp -s "$tmp/items" "$capture/items.tsv" || fail "items differ from PostgreSQL's"

# Block 0, line pointer 1: t_hoff + 8. Block 1: pd_lower beyond pd_upper.
python3 - "$capture/relation" "$tmp/bad" <<'PY'
import struct, sys
page = bytearray(open(sys.argv[1], "rb").read())
word = struct.unpack_from("<I", page, 24)[0]
off = word & 0x7FFF
page[off + 22] += 8
struct.pack_into("<H", page, 8192 + 12, 8000)
open(sys.argv[2], "wb").write(page)
PY
"$bin" items "$tmp/bad" > "$tmp/bad.out" 2> "$tmp/bad.err"
rc=$?
[ "$rc" -eq 1 ] || fail "corrupt file: exit $rc, want 1"
grep -qx "pageinspect: $tmp/bad: block 0 lp 1: tuple: t_hoff mismatch" "$tmp/bad.err" ||
  fail "no t_hoff error line: $(cat "$tmp/bad.err")"
grep -qx "pageinspect: $tmp/bad: block 1 lp 0: corrupted page pointers" "$tmp/bad.err" ||
  fail "no page pointer error line: $(cat "$tmp/bad.err")"
# Every other page is still listed in full.
[ "$(grep -c '^2	' "$tmp/bad.out")" -eq "$(grep -c '^2	' "$capture/items.tsv")" ] ||
  fail "block 2 not listed after the corrupt blocks"

"$bin" split "$tmp/bad" --schema "$(cat "$capture/schema")" > "$tmp/split.out" 2> "$tmp/split.err"
[ $? -eq 1 ] || fail "split of a corrupt file should exit 1"
grep -q "block 0 lp 1: tuple: t_hoff mismatch" "$tmp/split.err" || fail "split error line missing"

head -c 10000 "$capture/relation" > "$tmp/short"
"$bin" items "$tmp/short" > /dev/null 2> "$tmp/short.err"
[ $? -eq 1 ] || fail "partial page should exit 1"
grep -q "size 10000 is not a multiple of 8192" "$tmp/short.err" || fail "no partial page message"

"$bin" split "$capture/relation" --schema "int4,nosuchtype" > /dev/null 2> "$tmp/schema.err"
[ $? -eq 2 ] || fail "bad schema should exit 2"
grep -qx "pageinspect: --schema: unknown type: nosuchtype" "$tmp/schema.err" || fail "schema error"
"$bin" items "$tmp/does-not-exist" 2> /dev/null
[ $? -eq 2 ] || fail "missing file should exit 2"
"$bin" frobnicate "$capture/relation" 2> /dev/null
[ $? -eq 2 ] || fail "unknown mode should exit 2"
echo "pageinspect_cli_test: ok"
