#!/bin/sh
# Runs on the device machine (through the workplace's device tool), from the repository root,
# with build/devcarry carried (cuda/scripts/carry.sh): replays experiments/smqos/h100_rh.json
# (RH-SMQoS at QoS policy 80-95 % and the shared baseline) for each of the 16 pairs of SMQoS §6
# with `combosim-cuda run`, each into $OUT/r/<ls>+<batch>, one calibration cache for all, and
# packs $OUT/run.tgz.  Usage: sh cuda/scripts/device_smqos.sh [LS_TASKS [BATCH_TASKS]];
# EXP=h100_dyn.json replays SMQoS itself (its apps one kernel at a time) instead.
# h100_rh.json's last policies, Volta-MPS and SlateQoS (experiments/smqos/generate.sh writes them
# last), are left out: the GPU backend cannot limit a kernel to a count of SMs the hardware picks
# nor re-launch grids on an SM range (BK_CAP_SM_LIMIT, BK_CAP_RELAUNCH), and refuses them.
set -u
export LD_LIBRARY_PATH="$PWD/build/devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$PWD/build/devcarry/combosim-cuda"
R="$OUT/r"
mkdir -p "$R"
{
  date -u; uname -a; nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER
} > "$R/nvidia-smi.txt" 2>&1
EXP=${EXP:-h100_rh.json}
# the apps as experiments/smqos/generate.sh writes them for that experiment
if [ "$EXP" = h100_rh.json ]; then DEPTH=', "depth": 2, "streams": 1'; else DEPTH=''; fi
app() { printf '{"name": "%s", "queue": "workloads-h100/%s.json"%s}' "$1" "$1" "$DEPTH"; }
# --unset of each policy the GPU backend refuses, last first
E="experiments/smqos/$EXP"
total=$(grep -c '^    {"name": ' "$E")
refused=$(grep -c '^    {"name": "\(volta-mps\|slateqos\)"' "$E")
UNSET=""
i=$((total - 1))
while [ $i -ge $((total - refused)) ]; do UNSET="$UNSET --unset policies[$i]"; i=$((i - 1)); done
for ls in ${1:-hs merge lib lbm}; do
  for bt in ${2:-pf bino gesummv atax}; do
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$B" run "$E" --set "apps=[$(app $ls), $(app $bt)]" $UNSET \
      --out "$R/$ls+$bt" --calib "$R/calib.json" > "$R/$ls+$bt.log" 2>&1
    echo "== $ls+$bt rc=$? in $(( $(date +%s) - start )) s"
    tail -3 "$R/$ls+$bt.log"
  done
done
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
