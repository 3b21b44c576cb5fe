"""Captures PyTorch profiler traces of concurrent training jobs on one GPU, for
`combosim validate --real` (cuda/runs/h100-pytorch-validate/RUN.md has the command and the
machine).  Each job trains a small model on random data for a few iterations.

  streams  one process, two jobs on two CUDA streams, each iteration of both launched
           before either is awaited: streams.json
  solo     the same two jobs one after the other on one stream, nothing beside them
           (the kernels' solo times, --solo): solo.json
  proc A|B one job alone in this process (two of these at once, with or without MPS, are
           the two-process capture; cuda/scripts/merge_traces.py joins their traces)

Usage: python3 capture_pytorch.py MODE OUTDIR [--iters N]
"""
import argparse
import os
import time

import torch
import torch.nn as nn
import torchvision

WARMUP = 3


def job(name, device):
    """A model, its optimizer and one batch, sized so the GPU, not the host, bounds an iteration
    (the host enqueues ahead and the two jobs' kernels can meet on the GPU): A = ResNet-18 on
    112x112 images, batch 256; B = a 2-layer Transformer encoder, d 1024, 16 heads, feed-forward
    4096, sequence 512, batch 16."""
    torch.manual_seed(1 if name == "A" else 2)
    if name == "A":
        model = torchvision.models.resnet18(num_classes=10)
        x = torch.randn(256, 3, 112, 112, device=device)
        y = torch.randint(0, 10, (256,), device=device)
        loss_fn = nn.CrossEntropyLoss()
        step_loss = lambda m: loss_fn(m(x), y)
    else:
        layer = nn.TransformerEncoderLayer(d_model=1024, nhead=16, dim_feedforward=4096, batch_first=True)
        model = nn.TransformerEncoder(layer, num_layers=2)
        x = torch.randn(16, 512, 1024, device=device)
        step_loss = lambda m: m(x).pow(2).mean()
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step():
        opt.zero_grad(set_to_none=True)
        step_loss(model).backward()
        opt.step()
    return step


def profile(out, fn):
    acts = [torch.profiler.ProfilerActivity.CUDA]   # kernels only: the traces stay small
    with torch.profiler.profile(activities=acts) as prof:
        fn()
        torch.cuda.synchronize()
    prof.export_chrome_trace(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["streams", "solo", "proc"])
    ap.add_argument("out")
    ap.add_argument("job", nargs="?", choices=["A", "B"])
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--barrier", help="proc: after warm-up, wait for the other process (files in OUTDIR)")
    a = ap.parse_args()
    dev = torch.device("cuda")
    os.makedirs(a.out, exist_ok=True)
    names = [a.job] if a.mode == "proc" else ["A", "B"]
    steps = {n: job(n, dev) for n in names}
    for _ in range(WARMUP):       # cuDNN/cuBLAS choose their kernels outside the capture
        for s in steps.values():
            s()
    torch.cuda.synchronize()
    if a.mode == "streams":
        streams = {n: torch.cuda.Stream() for n in names}

        def run():
            for _ in range(a.iters):
                for n in names:
                    with torch.cuda.stream(streams[n]):
                        steps[n]()
                torch.cuda.synchronize()
        profile(os.path.join(a.out, "streams.json"), run)
    elif a.mode == "solo":
        def run():
            for n in names:
                for _ in range(a.iters):
                    steps[n]()
                torch.cuda.synchronize()
        profile(os.path.join(a.out, "solo.json"), run)
    else:
        if a.barrier:             # both processes start their captured iterations together
            open(os.path.join(a.out, "ready_" + a.job), "w").close()
            other = os.path.join(a.out, "ready_" + ("B" if a.job == "A" else "A"))
            while not os.path.exists(other):
                time.sleep(0.001)

        def run():
            for _ in range(a.iters):
                steps[a.job]()
            torch.cuda.synchronize()
        profile(os.path.join(a.out, "proc_%s.json" % a.job), run)


if __name__ == "__main__":
    main()
