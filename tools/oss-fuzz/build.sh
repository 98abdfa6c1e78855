#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: builds every fuzz target of fuzzers/ (each
# cc_fuzz_test that fuzzers/BUILD declares, from its srcs, but the planted-crash test
# target) with $CC, $CXX, $CFLAGS, $CXXFLAGS and $LIB_FUZZING_ENGINE into $OUT, with
# <name>_seed_corpus.zip from corpora/<name>/ and <name>.dict where corpora/ has one.
# A new target needs no edit here. Without Bazel (the OSS-Fuzz images have none): the library
# code is compiled once into an archive that every target links.
#
# Environment: as OSS-Fuzz sets it; PGSTORE_SRC (default $SRC/pgstore) is the checkout.
# Needs PostgreSQL 15's server headers and libpgcommon.a (postgresql-server-dev-15): the
# differential and checksum oracles are PostgreSQL's own code.

src="${PGSTORE_SRC:-$SRC/pgstore}"
work="${WORK:-/tmp}/pgstore-build"
pg_include="${PG_INCLUDE:-/usr/include/postgresql/15/server}"
pg_lib="${PG_LIB:-/usr/lib/postgresql/15/lib}"
mkdir -p "$work/obj" "$OUT"
cd "$src"

# Fuzz targets and their planted-crash tags, from fuzzers/BUILD.
targets=$(python3 - <<'PY'
import re
build = open("fuzzers/BUILD").read()
for m in re.finditer(r'cc_fuzz_test\((.*?)\n\)', build, re.S):
    body = m.group(1)
    name = re.search(r'name = "([^"]+)"', body).group(1)
    srcs = re.findall(r'"([^"]+\.cc)"', re.search(r'srcs = \[(.*?)\]', body, re.S).group(1))
    if "planted-crash" not in body:
        print(name + ":" + ",".join("fuzzers/" + s for s in srcs))
PY
)

# Library code the targets use: storage/, the models, the PostgreSQL oracles, pageinspect.
lib_sources=$(ls storage/*/*.cc properties/models/*.cc tools/pageinspect/pageinspect.cc \
                properties/oracles/*.c)
objects=()
for f in $lib_sources; do
  o="$work/obj/$(echo "$f" | tr / _).o"
  case "$f" in
    *.c)  $CC $CFLAGS -I. -isystem "$pg_include" -Wno-unused-parameter -c "$f" -o "$o" ;;
    *.cc) $CXX $CXXFLAGS -std=c++17 -I. -c "$f" -o "$o" ;;
  esac
  objects+=("$o")
done
rm -f "$work/libpgstore_fuzz.a"
ar rcs "$work/libpgstore_fuzz.a" "${objects[@]}"

count=0
for target in $targets; do
  name="${target%%:*}"
  srcs="${target#*:}"
  $CXX $CXXFLAGS -std=c++17 -I. ${srcs//,/ } "$work/libpgstore_fuzz.a" \
    "$pg_lib/libpgcommon.a" "$pg_lib/libpgport.a" $LIB_FUZZING_ENGINE -o "$OUT/$name"
  if [ -d "corpora/$name" ]; then
    rm -f "$OUT/${name}_seed_corpus.zip"
    zip -q -j "$OUT/${name}_seed_corpus.zip" corpora/"$name"/*
  fi
  if [ -f "corpora/$name.dict" ]; then
    cp "corpora/$name.dict" "$OUT/$name.dict"
  fi
  count=$((count + 1))
done
echo "pgstore: built $count fuzz targets into $OUT"
