#!/bin/sh
# Generates the workloads of the COMBO Fig. 13-17 reproductions into DIR (default
# experiments/combo/workloads, tracked: the shipped experiments read them): for each of the four games of COMBO Table 2 a frame-level trace of
# 480 stable-load frames followed by 480 dynamic-load frames (COMBO §6.2: the game traces
# comprise both load modes; the 4 s + 4 s split is our assumption), and a BE queue for each of
# the eight Parboil apps.  Deterministic (fixed seeds).  The DNN queues are the captured ones,
# carried to the RTX 3090, in traces/dnn/rtx3090/.   Usage: workloads.sh COMBOSIM [DIR [QUALITY [DRAW [FRAMES]]]]   (QUALITY: high, the
# paper's Table 2 setting, by default; medium for the sensitivity sweep of make figures.  DRAW:
# which random draw of the game load, 1 by default: seeds 2*DRAW-1 (stable) and 2*DRAW (dynamic).
# FRAMES: frames per load mode, 480 by default; 960 writes the doubled run of the length check)
set -eu
C=${1:?usage: workloads.sh COMBOSIM [DIR [QUALITY [DRAW [FRAMES]]]]}
D=${2:-experiments/combo/workloads}
Q=${3:-high}
R=${4:-1}
N=${5:-480}
S1=$((2 * R - 1))
S2=$((2 * R))
mkdir -p "$D"
for g in quake2 steel dutm ascent; do
	"$C" trace gen game --game "$g" --quality "$Q" --mode stable --frames $N --seed $S1 >"$D/$g-stable.csv"
	"$C" trace gen game --game "$g" --quality "$Q" --mode dynamic --frames $N --seed $S2 >"$D/$g-dynamic.csv"
	{
		echo "# combosim game-trace v1 frame-level"
		echo "# $g: frames 0-$((N - 1)) stable (seed $S1), $N-$((2 * N - 1)) dynamic (seed $S2): combosim trace gen game --game $g --quality $Q"
		grep -m1 '^frame,' "$D/$g-stable.csv"
		awk -F, -v OFS=, '/^[0-9]/ { $1 = n++; print }' "$D/$g-stable.csv" "$D/$g-dynamic.csv"
	} >"$D/$g.csv.tmp"
	mv "$D/$g.csv.tmp" "$D/$g.csv"
	rm -f "$D/$g-stable.csv" "$D/$g-dynamic.csv"
done
for a in cp mri-fhd mri-q lbm sgemm cutcp fft tpacf; do
	"$C" trace gen be --app "$a" >"$D/$a.json.tmp"
	mv "$D/$a.json.tmp" "$D/$a.json"
done
