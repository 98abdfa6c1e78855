#!/usr/bin/env bash
# End-to-end test of the pglz CLI: round trip, exit codes, one-line errors, nothing written on
# failure.
set -euo pipefail
pglz="$PWD/$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

for i in $(seq 1 200); do echo "line $i of a compressible text file"; done > "$dir/in.txt"
size=$(stat -c %s "$dir/in.txt")

"$pglz" compress "$dir/in.txt" "$dir/c.pglz" 2>/dev/null || fail "compress failed"
"$pglz" decompress --rawsize "$size" "$dir/c.pglz" "$dir/out.txt" 2>/dev/null || fail "decompress failed"
cmp -s "$dir/in.txt" "$dir/out.txt" || fail "round trip differs"

"$pglz" decompress --rawsize 10 --partial "$dir/c.pglz" "$dir/head.txt" 2>/dev/null || fail "partial failed"
[ "$(head -c 10 "$dir/in.txt")" = "$(cat "$dir/head.txt")" ] || fail "slice differs"

# Corrupt input: exit 1, one line naming the input, nothing written.
printf '\x01\x03\x00' > "$dir/bad.pglz"
if "$pglz" decompress --rawsize 10 "$dir/bad.pglz" "$dir/bad.out" 2> "$dir/err"; then fail "corrupt accepted"; fi
[ "$(wc -l < "$dir/err")" -eq 1 ] || fail "error is not one line: $(cat "$dir/err")"
grep -q "bad.pglz: corrupt pglz data (match offset is zero)" "$dir/err" || fail "error text: $(cat "$dir/err")"
[ ! -e "$dir/bad.out" ] || fail "output written on error"

# Incompressible input: exit 1, nothing written.
head -c 5000 /dev/urandom > "$dir/rand.bin"
if "$pglz" compress "$dir/rand.bin" "$dir/rand.pglz" 2> "$dir/err"; then fail "random compressed"; fi
grep -q "not compressible" "$dir/err" || fail "error text: $(cat "$dir/err")"
[ ! -e "$dir/rand.pglz" ] || fail "output written when compression gave up"

# A raw size no stream of this length can reach is rejected before allocating.
if "$pglz" decompress --rawsize 1000000000 "$dir/bad.pglz" "$dir/x" 2> "$dir/err"; then fail "huge rawsize"; fi
grep -q "cannot expand" "$dir/err" || fail "error text: $(cat "$dir/err")"

# Bad usage exits 2.
set +e; "$pglz" frobnicate >/dev/null 2>&1; rc=$?; set -e
[ "$rc" -eq 2 ] || fail "usage exit code $rc"
echo "pglz CLI: all checks passed"
