#!/bin/sh
# Runs on the device machine (through the workplace's device tool), from the repository root,
# with a carry directory $C (default build/devcarry) holding combosim-cuda, its lib/, exp/ (a copy
# of experiments/smqos/h100_rh.json and workloads-h100/) and calib.json (a calibration cache
# made without MPS): SMQoS §6's Volta-MPS baseline with real Volta MPS.  combosim-cuda drives all apps
# from one process, so each app runs as its own MPS client process: for each of the 16 pairs and
# QoS policy q, the LS app alone (`exclusive`, run=be) with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE
# = 100 q and the batch app alone with 100 - 100 q, started together, each for DUR ms.  Each
# process's kernels.csv is cut to the kernels that start at or after SKIP ms and end by DUR -
# SKIP ms of its own clock (both processes are then running: their runs start within far less
# than SKIP of each other; starts.txt logs each process's start and end) and the two are joined into r/<ls>+<batch>-<q>/kernels.csv
# under the label volta-mps-<q>, which experiments/smqos/rh_report.sh reads.  The kernels are
# calibrated before the MPS daemon starts (cache hits for every shape of the carried cache), so
# their solo times are on the whole GPU; the clients run with --mps-client (the cached work, not
# re-measured; summary.json mps_client.device_sms: the SMs MPS gave them, also in sms.txt).  The daemon is started with its own pipe and log
# directories and quit at the end.  Usage: sh cuda/scripts/device_mps.sh [LS [BATCH [QOS]]]
set -u
C=${C:-build/devcarry}
export LD_LIBRARY_PATH="$PWD/$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$PWD/$C/combosim-cuda"
E="$C/exp/h100_rh.json"
DUR=${DUR:-500}
SKIP=${SKIP:-150}
R="$OUT/r"
mkdir -p "$R"
cp "$C/calib.json" "$R/calib.json"
{ date -u; nvidia-smi; cat /usr/bin/nvidia-cuda-mps-control; } > "$R/nvidia-smi.txt" 2>&1
app() { printf '{"name": "%s", "queue": "workloads-h100/%s.json", "depth": 2, "streams": 1}' "$1" "$1"; }
LS=${1:-hs merge lib lbm}
BT=${2:-pf bino gesummv atax}
QS=${3:-0.80 0.85 0.90 0.95}
# every shape calibrated on the whole GPU, before MPS
all=""
for a in $LS $BT; do all="$all${all:+, }$(app $a)"; done
"$B" run "$E" --set "apps=[$all]" --set duration_ms=1 --set 'policies=[{"name": "exclusive", "run": "be"}]' \
  --out "$R/precal" --calib "$R/calib.json" > "$R/precal.log" 2>&1
echo "precalibration rc=$?"
export CUDA_MPS_PIPE_DIRECTORY="$OUT/mps-pipe" CUDA_MPS_LOG_DIRECTORY="$R/mps-log"
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d
echo "mps daemon rc=$?"
echo "percentage,sms" > "$R/sms.txt"
one() { # app percentage label out
  echo "$4 start $(date +%s.%N)" >> "$R/starts.txt"
  CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$2 "$B" run "$E" --mps-client --set "apps=[$(app $1)]" --set duration_ms=$DUR \
    --set "policies=[{\"name\": \"exclusive\", \"label\": \"$3\", \"run\": \"be\"}]" \
    --out "$4" --calib "$R/calib.json" > "$4.log" 2>&1
  echo "$4 end $(date +%s.%N) rc=$?" >> "$R/starts.txt"
  # the SMs the client saw (summary.json mps_client.device_sms)
  echo "$2,$(sed -n 's/.*"device_sms":[ \t]*\([0-9]*\).*/\1/p' "$4/summary.json" | head -1)" >> "$R/sms.txt"
}
for ls in $LS; do
  for bt in $BT; do
    for q in $QS; do
      pl=$(awk -v q=$q 'BEGIN { printf "%d", q * 100 + 0.5 }')
      d="$R/$ls+$bt-$q"
      mkdir -p "$d"
      one $ls $pl "volta-mps-$q" "$d/ls" &
      one $bt $((100 - pl)) "volta-mps-$q" "$d/batch" &
      wait
      head -1 "$d/ls/kernels.csv" > "$d/kernels.csv" 2>/dev/null
      for side in ls batch; do
        awk -F, -v lo=$((SKIP * 1000000)) -v hi=$(((DUR - SKIP) * 1000000)) \
          'NR > 1 && $9 >= lo && $10 <= hi' "$d/$side/kernels.csv" >> "$d/kernels.csv" 2>/dev/null
      done
      echo "== $ls+$bt $q: $(($(wc -l < "$d/kernels.csv") - 1)) kernels in the window; $(tail -1 "$d/ls.log") / $(tail -1 "$d/batch.log")"
    done
  done
done
echo quit | nvidia-cuda-mps-control
sleep 1
sort -u "$R/sms.txt"
ps -eo pid,comm | grep -i mps || echo "mps: none left"
# each client's own kernels.csv and tasks.csv stay behind (the window's kernels are in the pair's)
rm -f "$R"/*/ls/kernels.csv "$R"/*/batch/kernels.csv "$R"/*/*/tasks.csv "$R"/*/*/frames.csv "$R"/precal/*.csv
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
