#!/usr/bin/env python3
"""G-Space Table 2's TC (LSTM document classifier) and CN (GRU next-character model) as PyTorch
inference on the GPU, captured with the PyTorch profiler (Chrome traces for
`combosim trace import pytorch`).  Model sizes and inputs are assumptions (the paper names
only the model kinds, §5.1): TC embedding 20000 x 300, one LSTM layer of 512, 2 classes, a
500-token document; CN embedding 128 x 128, two GRU layers of 512, 128 outputs, a 100-character
string; batch 1 (a latency-critical request), fp32, cuDNN on, eval mode, seed 0.  Three
profiled inferences after ten warm-up ones.

usage: rnn.py OUTDIR   (writes OUTDIR/tc_trace.json, OUTDIR/cn_trace.json, OUTDIR/rnn.json)
"""
import json
import os
import sys
import time

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile


class TC(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20000, 300)
        self.rnn = nn.LSTM(300, 512, num_layers=1, batch_first=True)
        self.out = nn.Linear(512, 2)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h[:, -1])


class CN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(128, 128)
        self.rnn = nn.GRU(128, 512, num_layers=2, batch_first=True)
        self.out = nn.Linear(512, 128)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h[:, -1])


def capture(name, model, x, outdir):
    with torch.no_grad():
        for _ in range(10):
            model(x)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(10):
            model(x)
        torch.cuda.synchronize()
        wall_us = (time.perf_counter() - t0) / 10 * 1e6
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(3):
                model(x)
            torch.cuda.synchronize()
    prof.export_chrome_trace(os.path.join(outdir, f"{name}_trace.json"))
    return {"inference_wall_us": round(wall_us, 2), "input": list(x.shape)}


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    torch.manual_seed(0)
    dev = torch.device("cuda")
    info = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
            "device": torch.cuda.get_device_name(0)}
    tc = TC().to(dev).eval()
    cn = CN().to(dev).eval()
    info["tc"] = capture("tc", tc, torch.randint(0, 20000, (1, 500), device=dev), outdir)
    info["cn"] = capture("cn", cn, torch.randint(0, 128, (1, 100), device=dev), outdir)
    json.dump(info, open(os.path.join(outdir, "rnn.json"), "w"), indent=1)
    print(json.dumps(info))


if __name__ == "__main__":
    main()
