#!/bin/sh
# Runs on the device machine (through the workplace's device tool), from the repository root,
# with build/devcarry carried (cuda/scripts/carry.sh): replays the full experiments
# cuda/experiments/h100_<NAME>.json with `combosim-cuda run`, each into $OUT/r/h100-<NAME>, and
# packs $OUT/run.tgz.  Usage: sh cuda/scripts/device_run.sh [NAMES...]; NAMES among exclusive,
# static, pilotfish (the default three), combo and w2 (`sh cuda/scripts/device_run.sh combo w2`);
# CALIB_SEED=FILE starts from a stored calibration cache; RUN_ARGS, more arguments of `run` (e.g.
# "--set gpu=h200": the experiments on another GPU's description).
set -u
export LD_LIBRARY_PATH="$PWD/build/devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$PWD/build/devcarry/combosim-cuda"
R="$OUT/r"
mkdir -p "$R"
{
  date -u; uname -a; nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER
} > "$R/nvidia-smi.txt" 2>&1
names=${*:-exclusive static pilotfish}
# a stored calibration cache of this device model saves the calibration runs (each kernel's
# solo time is still measured and checked against its target before a run)
[ -n "${CALIB_SEED:-}" ] && cp "$CALIB_SEED" "$R/calib.json"
for n in $names; do
  echo "== run $n"
  start=$(date +%s)
  # shellcheck disable=SC2086
  "$B" run "cuda/experiments/h100_$n.json" ${RUN_ARGS:-} --out "$R/h100-$n" --calib "$R/calib.json" > "$R/h100-$n.log" 2>&1
  echo "rc=$? in $(( $(date +%s) - start )) s"
  tail -6 "$R/h100-$n.log"
done
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
