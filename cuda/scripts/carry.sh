#!/bin/sh
# Packs what a device run needs into build/devcarry/ and build/devcarry.tgz (ignored by git, so
# pass one as `carry`):
# the combosim-cuda binary built here and the libcjson and GSL it links (the device image has
# neither).  Usage: cuda/scripts/carry.sh   (after `make cuda`)
set -eu
cd "$(dirname "$0")/../.."
[ -x bin/combosim-cuda ] || { echo "carry: build bin/combosim-cuda first (make cuda)" >&2; exit 1; }
rm -rf build/devcarry
mkdir -p build/devcarry/lib
cp bin/combosim-cuda build/devcarry/
# without its debug sections (1.1 of 2.6 MB): what travels to the device machine is limited to
# 64 MiB with the tracked tree, which the stored runs fill
strip --strip-debug build/devcarry/combosim-cuda 2>/dev/null || true
for lib in $(ldd bin/combosim-cuda | awk '/libcjson|libgsl/ { print $3 }'); do
  cp "$lib" build/devcarry/lib/
done
# the same packed: the device tool's 64 MB limit counts the tracked tree too, which the stored
# runs fill; carry build/devcarry.tgz and begin the command with `tar xzf build/devcarry.tgz -C build`
tar czf build/devcarry.tgz -C build devcarry
ls -la build/devcarry build/devcarry/lib build/devcarry.tgz
# what the device tool would send: the tracked and untracked-not-ignored files plus the carry;
# over its limit (it refused 64.6 million bytes and took 62.1 million: counted here as 64 000 000),
# name the largest stored runs one could move aside for the call
sent=$( { git ls-files -z; git ls-files -z --others --exclude-standard; } | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)
total=$((sent + $(stat -c %s build/devcarry.tgz)))
echo "carry: the tree and build/devcarry.tgz come to $((total / 1000000)) MB of the device tool's 64"
if [ "$total" -gt 64000000 ]; then
	echo "carry: over the limit; the largest stored runs (move one aside for the call, then back):" >&2
	git ls-files -z cuda/runs | du -b --files0-from=- | sort -n | tail -3 >&2
fi
