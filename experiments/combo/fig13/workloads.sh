#!/bin/sh
# Generates the workloads of the COMBO Fig. 13-17 reproductions into DIR (default
# experiments/combo/workloads, tracked: the shipped experiments read them): for each of the four games of COMBO Table 2 a frame-level trace of
# 240 stable-load frames followed by 240 dynamic-load frames (COMBO §6.2: the game traces
# comprise both load modes; the 2 s + 2 s split is our assumption), and a BE queue for each of
# the eight Parboil apps.  Deterministic (fixed seeds).  The DNN queues are the captured ones
# in traces/dnn/.   Usage: workloads.sh COMBOSIM [DIR [QUALITY [DRAW]]]   (QUALITY: high, the
# paper's Table 2 setting, by default; medium for the sensitivity sweep of make figures.  DRAW:
# which random draw of the game load, 1 by default: seeds 2*DRAW-1 (stable) and 2*DRAW (dynamic))
set -eu
C=${1:?usage: workloads.sh COMBOSIM [DIR [QUALITY]]}
D=${2:-experiments/combo/workloads}
Q=${3:-high}
R=${4:-1}
S1=$((2 * R - 1))
S2=$((2 * R))
mkdir -p "$D"
for g in quake2 steel dutm ascent; do
	"$C" trace gen game --game "$g" --quality "$Q" --mode stable --frames 240 --seed $S1 >"$D/$g-stable.csv"
	"$C" trace gen game --game "$g" --quality "$Q" --mode dynamic --frames 240 --seed $S2 >"$D/$g-dynamic.csv"
	{
		echo "# combosim game-trace v1 frame-level"
		echo "# $g: frames 0-239 stable (seed $S1), 240-479 dynamic (seed $S2): combosim trace gen game --game $g --quality $Q"
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
