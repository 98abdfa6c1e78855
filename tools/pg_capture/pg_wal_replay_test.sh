#!/usr/bin/env bash
# The checked-in capture of real PostgreSQL 15 UPDATE records replays through pgstore.
set -euo pipefail
"$1" "$2"
