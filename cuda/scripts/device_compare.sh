#!/bin/sh
# Runs on the device machine (through the workplace's device tool) from the repository root,
# with build/devcarry-compare carried: either that folder laid out as in the repository
# (combosim-cuda, lib/, and the experiments and queues of the cross-policy comparison's GPU
# check: experiments/compare/h100check and what it reads), or build/devcarry-compare/carry.tgz
# holding it (unpacked first); CHECK_TIMEOUT seconds at most for the runs.  Writes $OUT/check.tgz (the runs in reduce.py's layout,
# calib.json, nvidia-smi.txt).  Usage: sh build/devcarry-compare/cuda/scripts/device_compare.sh
#   or: tar xzf build/devcarry-compare/carry.tgz -C build/devcarry-compare && sh build/devcarry-compare/cuda/scripts/device_compare.sh
set -u
C="$PWD/build/devcarry-compare"
export LD_LIBRARY_PATH="$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
R="$OUT/r"
mkdir -p "$R"
{ date -u; uname -a; nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER; } >"$R/nvidia-smi.txt" 2>&1
cd "$C"
timeout "${CHECK_TIMEOUT:-3000}" sh experiments/compare/check_runs.sh "$C/combosim-cuda" "$R" --calib "$R/calib.json"
echo "check_runs rc=$?"
tar cf - -C "$OUT" r | gzip -9n >"$OUT/check.tgz" && rm -rf "$R"
