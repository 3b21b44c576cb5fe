#!/usr/bin/env python3
"""ncu_iter.py - one training iteration of one traces/dnn model between cudaProfilerStart/Stop.

The same setup as traces/dnn/capture.py (its MODELS and one_iteration: batch 64, autocast fp16 +
GradScaler, SGD with momentum, cudnn.benchmark, WARMUP iterations first), without
torch.profiler, so that `ncu --profile-from-start off` profiles exactly one iteration.

Usage (repository root): python3 ncu_iter.py MODEL [WARMUP=20] [BATCH=64]
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.getcwd(), "traces", "dnn"))
import capture  # noqa: E402


def main():
    name = sys.argv[1]
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    batch = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    torch.backends.cudnn.benchmark = True
    ctor, side = capture.MODELS[name]
    torch.manual_seed(0)
    model = ctor().cuda().train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    scaler = torch.amp.GradScaler("cuda")
    lossf = torch.nn.CrossEntropyLoss()
    x = torch.randn(batch, 3, side, side, device="cuda")
    y = torch.randint(0, 1000, (batch,), device="cuda")
    for _ in range(warmup):
        capture.one_iteration(model, opt, scaler, x, y, lossf)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    capture.one_iteration(model, opt, scaler, x, y, lossf)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
    print("done", name, flush=True)


if __name__ == "__main__":
    main()
