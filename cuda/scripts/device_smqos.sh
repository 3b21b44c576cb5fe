#!/bin/sh
# Runs on the device machine (through the workplace's device tool), from the repository root,
# with a carry directory $C (default build/devcarry, cuda/scripts/carry.sh) holding
# combosim-cuda and its lib/, and optionally exp/ (a copy of experiments/smqos/'s
# experiment files and workloads-h100/, used instead of the checkout's) and calib.json (a
# calibration cache to start from): replays experiments/smqos/h100_rh.json for each of the 16
# pairs of SMQoS §6 with `combosim-cuda run`, each into $OUT/r/<ls>+<batch>, one calibration
# cache for all, and packs $OUT/run.tgz.  Usage: sh cuda/scripts/device_smqos.sh [LS_TASKS
# [BATCH_TASKS]]; EXP=h100_dyn.json replays SMQoS itself (its apps one kernel at a time)
# instead; KEEP=REGEX runs only the policies whose name matches it (default: all but
# volta-mps, which the GPU backend refuses: it cannot limit a kernel to a count of SMs the
# hardware picks, BK_CAP_SM_LIMIT; cuda/scripts/device_mps.sh runs it under real MPS).
set -u
C=${C:-build/devcarry}
export LD_LIBRARY_PATH="$PWD/$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$PWD/$C/combosim-cuda"
R="$OUT/r"
mkdir -p "$R"
[ ! -f "$C/calib.json" ] || cp "$C/calib.json" "$R/calib.json"
{
  date -u; uname -a; nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER
} > "$R/nvidia-smi.txt" 2>&1
EXP=${EXP:-h100_rh.json}
# the apps as experiments/smqos/generate.sh writes them for that experiment
if [ "$EXP" = h100_rh.json ]; then DEPTH=', "depth": 2, "streams": 1'; else DEPTH=''; fi
app() { printf '{"name": "%s", "queue": "workloads-h100/%s.json"%s}' "$1" "$1" "$DEPTH"; }
if [ -d "$C/exp" ]; then E="$C/exp/$EXP"; else E="experiments/smqos/$EXP"; fi
# the policies kept, as one --set (one policy a line in the file)
KEEP=${KEEP:-}
POLS=$(grep '^    {"name": ' "$E" | awk -v keep="$KEEP" '
	{ n = $0; sub(/^    \{"name": "/, "", n); sub(/".*/, "", n)
	  if (keep != "" ? n ~ ("^(" keep ")$") : n != "volta-mps") { l = $0; sub(/^ +/, "", l); sub(/,$/, "", l); printf "%s%s", k++ ? ", " : "", l } }')
for ls in ${1:-hs merge lib lbm}; do
  for bt in ${2:-pf bino gesummv atax}; do
    start=$(date +%s)
    "$B" run "$E" --set "apps=[$(app $ls), $(app $bt)]" --set "policies=[$POLS]" \
      --out "$R/$ls+$bt" --calib "$R/calib.json" > "$R/$ls+$bt.log" 2>&1
    echo "== $ls+$bt rc=$? in $(( $(date +%s) - start )) s"
    tail -3 "$R/$ls+$bt.log"
  done
done
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
