#!/bin/bash -eu
# OSS-Fuzz build for smtstorm: the project's own ClusterFuzzLite build script (one source
# of truth; see .clusterfuzzlite/build.sh for what it puts into $OUT).
exec "$SRC/smtstorm/.clusterfuzzlite/build.sh"
