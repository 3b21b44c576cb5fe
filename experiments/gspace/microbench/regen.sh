#!/bin/sh
# Regenerates G-Space's micro-benchmark co-run table (traces/gspace/microbench.json) from the
# simulator: the experiment of make.py (18 synthetic kernels, 324 ordered pairs, brute force
# over 80 configurations each), run once, reduced by table.py.  About 8 s on one core; the
# run's kernels.csv (~190 MB) is removed with its temporary directory.  Deterministic.
# usage: sh experiments/gspace/microbench/regen.sh [COMBOSIM]
set -e
C=${1:-bin/combosim}
D=experiments/gspace/microbench
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 $D/make.py > experiments/gspace/microbench.json
"$C" run experiments/gspace/microbench.json --out "$T/run" -q
python3 $D/table.py "$T/run/summary.json" > traces/gspace/microbench.json.tmp
mv traces/gspace/microbench.json.tmp traces/gspace/microbench.json
