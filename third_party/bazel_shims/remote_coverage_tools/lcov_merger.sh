#!/usr/bin/env bash
# Concatenates the .dat coverage files under --coverage_dir into --output_file.
set -euo pipefail
coverage_dir="" output_file=""
for arg in "$@"; do
  case "$arg" in
    --coverage_dir=*) coverage_dir="${arg#*=}" ;;
    --output_file=*) output_file="${arg#*=}" ;;
  esac
done
[ -n "$output_file" ] || exit 0
: > "$output_file"
[ -n "$coverage_dir" ] || exit 0
find "$coverage_dir" -name '*.dat' -type f -print0 | xargs -0 -r cat >> "$output_file"
