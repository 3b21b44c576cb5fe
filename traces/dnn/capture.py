#!/usr/bin/env python3
"""capture.py - records the GPU kernels of one training iteration of four torchvision CNNs.

For each model (ResNet-50, VGG16, DenseNet-121, Inception-v3): synthetic ImageNet-shaped
inputs and random labels, SGD with momentum, mixed precision (torch.autocast fp16 + GradScaler)
so that convolutions and GEMMs run on Tensor cores, cudnn.benchmark on, WARMUP iterations,
then ONE iteration (zero_grad, forward, loss, backward, optimizer step, scaler update) under
torch.profiler with CUDA activity only.  The Chrome trace is written as <model>.trace.json.gz
in the output directory; `combosim trace import pytorch` turns it into a BE kernel queue.

Usage: python3 capture.py OUTDIR [--batch 64] [--warmup 20] [--models resnet50,vgg16,...]
"""
import argparse
import gzip
import json
import os
import sys
import time

import torch
import torchvision
from torch.profiler import ProfilerActivity, profile

MODELS = {
    # name: (constructor, input side)
    "resnet50": (lambda: torchvision.models.resnet50(weights=None), 224),
    "vgg16": (lambda: torchvision.models.vgg16(weights=None), 224),
    "densenet121": (lambda: torchvision.models.densenet121(weights=None), 224),
    "inception_v3": (lambda: torchvision.models.inception_v3(weights=None, aux_logits=True,
                                                             init_weights=True), 299),
}


def one_iteration(model, opt, scaler, x, y, lossf):
    opt.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=torch.float16):
        out = model(x)
        if hasattr(out, "aux_logits"):  # Inception-v3 in training mode
            loss = lossf(out.logits, y) + 0.4 * lossf(out.aux_logits, y)
        else:
            loss = lossf(out, y)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()


def capture(name, outdir, batch, warmup):
    ctor, side = MODELS[name]
    torch.manual_seed(0)
    model = ctor().cuda().train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    scaler = torch.amp.GradScaler("cuda")
    lossf = torch.nn.CrossEntropyLoss()
    x = torch.randn(batch, 3, side, side, device="cuda")
    y = torch.randint(0, 1000, (batch,), device="cuda")
    for _ in range(warmup):
        one_iteration(model, opt, scaler, x, y, lossf)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    one_iteration(model, opt, scaler, x, y, lossf)
    torch.cuda.synchronize()
    unprofiled_ms = (time.perf_counter() - t0) * 1e3
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        one_iteration(model, opt, scaler, x, y, lossf)
        torch.cuda.synchronize()
    raw = os.path.join(outdir, name + ".trace.json")
    prof.export_chrome_trace(raw)
    with open(raw) as f:
        trace = json.load(f)
    kernels = [e for e in trace.get("traceEvents", []) if e.get("cat") == "kernel"]
    with gzip.open(raw + ".gz", "wt") as f:
        json.dump(trace, f)
    os.remove(raw)
    busy = sum(float(e.get("dur", 0)) for e in kernels)
    info = {"model": name, "batch": batch, "input": [3, side, side], "warmup": warmup,
            "kernels": len(kernels), "kernel_time_us": round(busy, 1),
            "iteration_wall_ms_unprofiled": round(unprofiled_ms, 3)}
    print(json.dumps(info), flush=True)
    del model, opt, x, y
    torch.cuda.empty_cache()
    return info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--models", default=",".join(MODELS))
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    env = {"torch": torch.__version__, "torchvision": torchvision.__version__,
           "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
           "gpu": torch.cuda.get_device_name(0), "argv": sys.argv}
    print(json.dumps(env), flush=True)
    infos = []
    for name in a.models.split(","):
        try:
            infos.append(capture(name, a.outdir, a.batch, a.warmup))
        except Exception as ex:  # keep the other models' captures
            print(json.dumps({"model": name, "error": repr(ex)}), flush=True)
    with open(os.path.join(a.outdir, "capture_log.json"), "w") as f:
        json.dump({"env": env, "models": infos}, f, indent=1)


if __name__ == "__main__":
    main()
