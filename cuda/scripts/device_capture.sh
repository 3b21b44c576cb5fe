#!/bin/sh
# Runs on the device machine (the workplace's device tool), from the repository root: the
# PyTorch captures of cuda/runs/h100-pytorch-validate (cuda/scripts/capture_pytorch.py), packed
# into $OUT/capture.tgz.  Usage: sh cuda/scripts/device_capture.sh [ITERS]
set -u
O=$OUT/cap
S=cuda/scripts/capture_pytorch.py
N=${1:-2}
mkdir -p "$O/mps"
{ date -u; nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__)'; } > "$O/machine.txt" 2>&1
timeout 200 python3 $S streams "$O" --iters "$N" > "$O/streams.log" 2>&1; echo "streams rc=$?"
timeout 200 python3 $S solo "$O" --iters "$N" > "$O/solo.log" 2>&1; echo "solo rc=$?"
# two processes at once, under MPS when its daemon starts (said in mps/mps.txt)
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps CUDA_MPS_LOG_DIRECTORY=/tmp/mpslog
mkdir -p /tmp/mps /tmp/mpslog
if nvidia-cuda-mps-control -d > "$O/mps/daemon.txt" 2>&1; then echo mps=on; else echo mps=off; fi > "$O/mps/mps.txt"
timeout 200 python3 $S proc "$O/mps" A --iters "$N" --barrier 1 > "$O/mps/A.log" 2>&1 &
timeout 200 python3 $S proc "$O/mps" B --iters "$N" --barrier 1 > "$O/mps/B.log" 2>&1
wait
echo quit | nvidia-cuda-mps-control >> "$O/mps/mps.txt" 2>&1
rm -f "$O/mps/ready_A" "$O/mps/ready_B"
python3 cuda/scripts/merge_traces.py "$O/mps/merged.json" "$O/mps/proc_A.json" "$O/mps/proc_B.json"; echo "merge rc=$?"
cat "$O/mps/mps.txt"
ls -la "$O" "$O/mps"
tar czf "$OUT/capture.tgz" -C "$OUT" cap && rm -rf "$O"
