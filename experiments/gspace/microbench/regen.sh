#!/bin/sh
# Regenerates G-Space's micro-benchmark co-run table from the simulator: the experiment of
# make.py (18 synthetic kernels, 324 ordered pairs, brute force over 80 configurations each),
# run once, reduced by table.py.  About 8 s on one core; the run's kernels.csv (~190 MB) is
# removed with its temporary directory.  Deterministic.
#   titanv (default): experiments/gspace/microbench.json -> traces/gspace/microbench.json
#   h100:             experiments/gspace/microbench-h100.json -> traces/gspace/microbench-h100.json
#                     (the table of the H100 runs, experiments/gspace/h100_search.json: the stored
#                     one is of models/h100.json as of 4ac792b, the input the GPU runs in
#                     cuda/runs/h100-gspace-search* read; regenerate it only with a new GPU run)
# usage: sh experiments/gspace/microbench/regen.sh [COMBOSIM [GPU]]
set -e
C=${1:-bin/combosim}
G=${2:-titanv}
D=experiments/gspace/microbench
S=; [ "$G" = titanv ] || S=-$G
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 $D/make.py "$G" > experiments/gspace/microbench$S.json
"$C" run experiments/gspace/microbench$S.json --out "$T/run" -q
python3 $D/table.py "$T/run/summary.json" "$G" > traces/gspace/microbench$S.json.tmp
mv traces/gspace/microbench$S.json.tmp traces/gspace/microbench$S.json
