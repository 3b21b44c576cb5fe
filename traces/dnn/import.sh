#!/bin/sh
# Rebuilds the shipped DNN training queues <model>.json from the raw PyTorch profiler traces
# beside this script (captured by capture.py on an H100; see traces/README.md).
#   sh traces/dnn/import.sh [COMBOSIM [OUTDIR]]     (defaults: bin/combosim, this directory)
# The queues are fitted to the RTX 3090 (the default GPU): blocks that need more shared
# memory or registers than one of its SMs holds are shrunk to fit (durations unchanged).
set -eu
C=${1:-bin/combosim}
D=$(dirname "$0")
O=${2:-$D}
for m in resnet50 vgg16 densenet121 inception_v3; do
	gunzip -c "$D/$m.trace.json.gz" |
	"$C" trace import pytorch - --name "$m" --fit rtx3090 \
		--note "One training iteration of torchvision $m (synthetic inputs, batch 64, AMP fp16 with GradScaler, SGD with momentum, cudnn.benchmark) after 20 warm-up iterations, recorded by the PyTorch profiler (CUDA activity) on an NVIDIA H100 80GB HBM3 (torch 2.11.0+cu130, CUDA 13.0, cuDNN 9.19). solo_us are the H100's kernel durations, replayed unchanged on other GPUs. Raw trace: traces/dnn/$m.trace.json.gz; capture script and command: traces/dnn/capture.py, traces/README.md; rebuilt by traces/dnn/import.sh. Kernels are classed TC by name. Blocks that need more shared memory or registers than an RTX 3090 SM holds are shrunk to fit it (see totals.shrunk_to_fit); their durations are kept." \
		> "$O/$m.json.tmp" || { rm -f "$O/$m.json.tmp"; exit 2; }
	mv "$O/$m.json.tmp" "$O/$m.json"
done
