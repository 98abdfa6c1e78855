#!/usr/bin/env bash
# The verify command line on relation files PostgreSQL 15 wrote (corpora/pg_capture): clean, with
# the page and tuple counts of PostgreSQL's own listing; on corrupt and truncated copies, one line
# per finding naming block, offset and check, exit 1; a missing file and bad usage exit 2.
set -uo pipefail
bin="$1"
capture="$2"  # corpora/pg_capture
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*"; exit 1; }

for dir in "$capture"/*/; do
  t=$(basename "$dir")
  out=$("$bin" "$dir/relation" --schema "$(cat "$dir/schema")" --checksums) || fail "$t: exit $?: $out"
  pages=$(( $(stat -L -c %s "$dir/relation") / 8192 ))
  tuples=$(awk -F'\t' '$4 == 1' "$dir/items.tsv" | wc -l)
  [ "$out" = "verify: 1 file(s), $pages page(s), $tuples tuple(s), 0 finding(s)" ] ||
    fail "$t: '$out', want $pages pages and $tuples tuples"
done

# Block 0, line pointer 1: t_hoff + 8. Block 1: pd_lower beyond pd_upper.
rel="$capture/all_types/relation"
python3 - "$rel" "$tmp/bad" <<'PY'
import struct, sys
page = bytearray(open(sys.argv[1], "rb").read())
word = struct.unpack_from("<I", page, 24)[0]
page[(word & 0x7FFF) + 22] += 8
struct.pack_into("<H", page, 8192 + 12, 8000)
open(sys.argv[2], "wb").write(page)
PY
out=$("$bin" "$tmp/bad"); rc=$?
[ "$rc" -eq 1 ] || fail "corrupt file: exit $rc, want 1"
want="$tmp/bad: block 0, offset 1: tuple: t_hoff mismatch
$tmp/bad: block 1: corrupted page pointers"
[ "$(printf '%s\n' "$out" | head -n -1)" = "$want" ] || fail "corrupt file findings: $out"
tail -1 <<< "$out" | grep -qE "^verify: 1 file\(s\), [0-9]+ page\(s\), [0-9]+ tuple\(s\), 2 finding\(s\)$" ||
  fail "corrupt file summary: $out"
# With checksums expected, both changed pages also fail their checksum.
[ "$("$bin" "$tmp/bad" --checksums | grep -c 'checksum mismatch')" -eq 2 ] || fail "checksums"

# A file cut in its second page.
head -c $((8192 + 100)) "$rel" > "$tmp/cut"
out=$("$bin" "$tmp/cut"); rc=$?
[ "$rc" -eq 1 ] || fail "truncated file: exit $rc"
grep -qx "$tmp/cut: block 1: file ends with a partial page of 100 bytes" <<< "$out" ||
  fail "truncated file: $out"

# A missing file among good ones: named, the others still checked, exit 2.
out=$("$bin" "$rel" "$tmp/nosuch" 2>"$tmp/err"); rc=$?
[ "$rc" -eq 2 ] || fail "missing file: exit $rc"
grep -qx "verify: cannot open $tmp/nosuch" "$tmp/err" || fail "missing file message: $(cat "$tmp/err")"
grep -q "^verify: 1 file(s)" <<< "$out" || fail "the good file was not checked: $out"

# Bad usage.
"$bin" >/dev/null 2>&1; [ $? -eq 2 ] || fail "no file: not exit 2"
"$bin" "$rel" --bogus >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown flag: not exit 2"
"$bin" "$rel" --schema int4,nosuch >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] || fail "bad schema: not exit 2"
grep -q "unknown type: nosuch" "$tmp/err" || fail "bad schema message: $(cat "$tmp/err")"
"$bin" "$rel" --toast "$rel" >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] || fail "--toast without --schema: not exit 2"
grep -q "toast needs --schema" "$tmp/err" || fail "--toast message: $(cat "$tmp/err")"
"$bin" "$rel" --schema "$(cat "$capture/all_types/schema")" --toast "$tmp/nosuch" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "missing --toast file: not exit 2"
echo "verify_cli_test: ok"
