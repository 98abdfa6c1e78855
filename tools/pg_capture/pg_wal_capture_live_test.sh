#!/usr/bin/env bash
# Runs tools/pg_capture/pg_wal_capture against a real PostgreSQL 15 server (a throwaway cluster it
# starts and removes; its own WAL reader is checked against pg_waldump there) and replays the fresh
# records through pgstore.
set -euo pipefail
capture="$1"
replay="$2"
if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then
  echo "PostgreSQL 15 is not installed: run tools/setup"; exit 1
fi
out="${TEST_TMPDIR:-$(mktemp -d)}/wal"
python3 "$capture" --out "$out"
"$replay" "$out/updates.tsv"
