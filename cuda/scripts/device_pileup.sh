#!/bin/sh
# Runs on the device machine (through the workplace's device tool), from the repository root,
# with build/devcarry carried (cuda/scripts/carry.sh): `bench pileup` (development set) with
# its own calibration cache, nvidia-smi's clocks before and after.  Packs $OUT/run.tgz: r/
# (pileup_blocks.csv, summary.json, calib.json, the logs), to be stored as
# cuda/runs/h100-pileup-dev with a RUN.md.  Usage: [WHAT=pileup-wide] sh cuda/scripts/device_pileup.sh [REPS]
# (WHAT: the bench, pileup by default)
set -u
reps=${1:-3}
export LD_LIBRARY_PATH="$PWD/build/devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$PWD/build/devcarry/combosim-cuda"
R="$OUT/r"
mkdir -p "$R"
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > "$R/nvidia-smi-before.txt" 2>&1
timeout 400 "$B" bench "${WHAT:-pileup}" --out "$R" --calib "$R/calib-cache.json" --reps "$reps" > "$R/stdout.txt" 2> "$R/stderr.txt"
echo "rc=$?"
grep -v '^calibrat' "$R/stderr.txt" | tail -24
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > "$R/nvidia-smi-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
