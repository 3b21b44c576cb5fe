#!/bin/sh
# Packs what a device run needs into build/devcarry/ (ignored by git, so pass it as `carry`):
# the combosim-cuda binary built here and the libcjson and GSL it links (the device image has
# neither).  Usage: cuda/scripts/carry.sh   (after `make cuda`)
set -eu
cd "$(dirname "$0")/../.."
[ -x bin/combosim-cuda ] || { echo "carry: build bin/combosim-cuda first (make cuda)" >&2; exit 1; }
rm -rf build/devcarry
mkdir -p build/devcarry/lib
cp bin/combosim-cuda build/devcarry/
for lib in $(ldd bin/combosim-cuda | awk '/libcjson|libgsl/ { print $3 }'); do
  cp "$lib" build/devcarry/lib/
done
ls -la build/devcarry build/devcarry/lib
