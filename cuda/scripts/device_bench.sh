#!/bin/sh
# Runs on the device machine (through the workplace's device tool), from the repository root,
# with build/devcarry carried (cuda/scripts/carry.sh).  Writes everything under $OUT/r and packs
# it as $OUT/run.tgz.  Usage: [SANITIZE=0] sh cuda/scripts/device_bench.sh [REPS]
# (SANITIZE=0 skips the compute-sanitizer pass over bench placement.)
set -u
reps=${1:-5}
export LD_LIBRARY_PATH="$PWD/build/devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$PWD/build/devcarry/combosim-cuda"
R="$OUT/r"
mkdir -p "$R"
{
  date -u; uname -a; nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER
} > "$R/nvidia-smi.txt" 2>&1
echo "== info"; "$B" info > "$R/info.json"; echo "rc=$?"
for b in placement corun scaling; do
  echo "== bench $b"
  start=$(date +%s)
  "$B" bench $b --out "$R/bench-$b" --calib "$R/calib.json" --reps "$reps" > "$R/bench-$b.log" 2>&1
  echo "rc=$? in $(( $(date +%s) - start )) s"
  tail -5 "$R/bench-$b.log"
done
if [ "${SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  echo "== compute-sanitizer memcheck: bench placement (cached calibration)"
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 "$B" bench placement \
    --out "$R/sanitizer-placement" --calib "$R/calib.json" --reps 1 > "$R/sanitizer.log" 2>&1
  echo "rc=$?"; tail -4 "$R/sanitizer.log"
fi
cat "$R/bench-corun/corun.csv" "$R/bench-placement/placement.json" 2>/dev/null | head -60
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
