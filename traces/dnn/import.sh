#!/bin/sh
# Rebuilds the shipped DNN training queues traces/dnn/<model>.json from the raw PyTorch
# profiler traces beside this script (captured by capture.py; see traces/README.md).
#   sh traces/dnn/import.sh [bin/combosim]
# The queues are fitted to the RTX 3090 (the default GPU): blocks that need more shared
# memory or registers than one of its SMs holds are shrunk to fit (durations unchanged).
set -eu
C=${1:-bin/combosim}
D=$(dirname "$0")
for m in resnet50 vgg16 densenet121 inception_v3; do
	gunzip -c "$D/$m.trace.json.gz" > "$D/$m.trace.json"
	"$C" trace import pytorch "$D/$m.trace.json" --name "$m" --fit rtx3090 \
		--note "One training iteration of torchvision $m (synthetic inputs, batch 64, AMP fp16 + GradScaler, SGD with momentum, cudnn.benchmark) after 20 warm-up iterations, recorded by the PyTorch profiler (CUDA activity) on an NVIDIA H100 80GB HBM3 (torch 2.11.0+cu130, CUDA 13.0, cuDNN 9.19): solo_us are the H100's kernel durations, replayed as they are on other GPUs. Raw trace: traces/dnn/$m.trace.json.gz, capture: traces/dnn/capture.py, command: see traces/README.md. Kernels classed TC by name. Blocks that need more shared memory or registers than an RTX 3090 SM holds are shrunk to fit it (totals.shrunk_to_fit); their durations are kept." \
		> "$D/$m.json.tmp" || { rm -f "$D/$m.trace.json" "$D/$m.json.tmp"; exit 2; }
	rm -f "$D/$m.trace.json"
	mv "$D/$m.json.tmp" "$D/$m.json"
done
