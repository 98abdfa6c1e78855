#!/usr/bin/env bash
# Every bug-zoo fault still applies to storage/ as it is now (a patch that stopped applying would
# silently drop out of the zoo and of .ci/run's smoke test). Runs in the source tree, dry-run only.
set -euo pipefail
script="$(readlink -f "$1")"
root="$(cd "$(dirname "$script")/../.." && pwd)"
python3 "$script" check --tree "$root"
