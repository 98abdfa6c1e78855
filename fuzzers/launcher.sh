#!/usr/bin/env bash
# Launcher behind //fuzzers:<target>_run: fuzzes one target into a scratch directory of the
# workspace (out/run/<target>/), seeded from its checked-in corpus, which it never writes.
# Arguments after `--` on the bazel run command line go to the engine.
set -euo pipefail

name="" bin="" seeds="" dict="" engine=""
while [ $# -gt 0 ]; do
  case "$1" in
    --name) name="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --dict) dict="$2"; shift 2 ;;
    --engine) engine="$2"; shift 2 ;;
    *) break ;;
  esac
done

root="${BUILD_WORKSPACE_DIRECTORY:-$PWD}"
out="$root/out/run/$name"
mkdir -p "$out/corpus" "$out/artifacts"
bin="$PWD/$bin"
seeds="$PWD/$seeds"
[ -z "$dict" ] || dict="$PWD/$dict"

case "$engine" in
  libfuzzer)
    echo "fuzzing $name with libFuzzer: new inputs in $out/corpus, crashes in $out/artifacts" >&2
    exec "$bin" -artifact_prefix="$out/artifacts/" ${dict:+-dict="$dict"} "$@" "$out/corpus" "$seeds"
    ;;
  afl)
    echo "fuzzing $name with AFL++: state in $out/afl" >&2
    export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=${AFL_NO_UI:-1} AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
    input="$seeds"
    [ -d "$out/afl/default" ] && input="-"   # resume an earlier run
    exec afl-fuzz -i "$input" -o "$out/afl" ${dict:+-x "$dict"} "$@" -- "$bin"
    ;;
  *)
    echo "${name}_bin is the replay driver: build with --config=libfuzzer or --config=afl to fuzz." >&2
    echo "Replaying the seed corpus instead." >&2
    exec "$bin" "$seeds" "$@"
    ;;
esac
