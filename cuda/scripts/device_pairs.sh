#!/bin/sh
# Runs on the device machine (through the workplace's device tool), from the repository root,
# with build/devcarry carried (cuda/scripts/carry.sh): `bench pairs` (development set) and
# `bench pairs-test` (test set), each with its own calibration cache, and nvidia-smi's clocks
# and power before and after.  Packs $OUT/run.tgz: r/dev/ and r/test/ (pairs.csv, summary.json,
# calib.json, the logs), to be stored as cuda/runs/h100-pairs-dev and cuda/runs/h100-pairs-test
# (each with a RUN.md: command, commit, set).  About 2 minutes of GPU time plus the machine's
# start.  Usage: sh cuda/scripts/device_pairs.sh [REPS]
set -u
reps=${1:-5}
export LD_LIBRARY_PATH="$PWD/build/devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$PWD/build/devcarry/combosim-cuda"
R="$OUT/r"
mkdir -p "$R/dev" "$R/test"
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > "$R/nvidia-smi-before.txt" 2>&1
for s in dev test; do
	w=pairs
	[ $s = test ] && w=pairs-test
	echo "== bench $w"
	timeout 280 "$B" bench $w --out "$R/$s" --calib "$R/$s/calib-cache.json" --reps "$reps" > "$R/$s/stdout.txt" 2> "$R/$s/stderr.txt"
	echo "rc=$?"
	grep -v '^calibrat' "$R/$s/stderr.txt" | tail -14
done
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > "$R/nvidia-smi-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
