#!/usr/bin/env bash
# tidstore_bench on small inputs: every pattern runs, every lookup answer is checked by the bench
# itself (it exits 1 on a wrong answer), the summary has a row per pattern, and the radix store
# uses less memory than the array on each; bad usage fails.
set -euo pipefail
bin="$1"
out=$("$bin" --count 20000 --reps 1 2>/dev/null)
summary=$(printf '%s\n' "$out" | sed -n '/^summary/,$p' | grep -E '^  (dense|every-nth-block|clustered|random|vacuum) ')
[ "$(printf '%s\n' "$summary" | wc -l)" -eq 5 ] || { echo "summary rows:"; printf '%s\n' "$out"; exit 1; }
printf '%s\n' "$summary" | awk '$3 >= $4 { print "radix not smaller: " $0; bad = 1 } END { exit bad }'
if "$bin" --pattern nosuch 2>/dev/null; then echo "unknown pattern accepted"; exit 1; fi
if "$bin" --bogus 2>/dev/null; then echo "unknown flag accepted"; exit 1; fi
echo "tidstore_bench_test: ok"
