#!/usr/bin/env bash
# pgstore's verifier against PostgreSQL 15's amcheck on a few hundred corrupt pages of a real
# relation (tools/verify/amcheck_differential, which starts and removes a throwaway cluster).
# Fails, never skips, when PostgreSQL 15 is absent.
set -euo pipefail
script="$1"
verify="$2"
corrupt="$3"
explanations="$4"
python3 "$script" --verify "$verify" --corrupt "$corrupt" --explanations "$explanations" --copies 12
