#!/bin/sh
# Generates the game trace of the COMBO Fig. 15 reproduction into DIR (default
# experiments/combo/workloads, tracked: the shipped experiments read them): 480 frames (4 s at 120 fps) of Quake II at high quality in dynamic
# load.  Deterministic (fixed seed).  The Parboil queues come from experiments/combo/fig13/workloads.sh.
# Usage: workloads.sh COMBOSIM [DIR] [FRAMES]
set -eu
C=${1:?usage: workloads.sh COMBOSIM [DIR] [FRAMES]}
D=${2:-experiments/combo/workloads}
N=${3:-480}
mkdir -p "$D"
"$C" trace gen game --game quake2 --quality high --mode dynamic --frames "$N" --seed 3 >"$D/quake2-dynamic.csv.tmp"
mv "$D/quake2-dynamic.csv.tmp" "$D/quake2-dynamic.csv"
