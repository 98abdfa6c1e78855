#!/bin/bash -eu
# ClusterFuzzLite builds exactly what OSS-Fuzz builds.
exec "$SRC/pgstore/tools/oss-fuzz/build.sh"
