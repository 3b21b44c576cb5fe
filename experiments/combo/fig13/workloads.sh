#!/bin/sh
# Generates the workloads of the COMBO Fig. 13-17 reproductions into DIR (default
# experiments/combo/workloads, tracked: the shipped experiments read them): for each of the
# four games of COMBO Table 2 a frame-level trace of CYCLES cycles of FRAMES stable-load frames
# followed by FRAMES dynamic-load frames, and a BE queue for each of the eight Parboil apps.
# The load modes alternate because the paper's games switch between them (COMBO §5: the render
# time "is stable for a period of time"; §6.6 and Fig. 18: COMBO switches between its two
# schemes as the load mode changes); a longer run repeats the alternation rather than
# stretching one stable and one dynamic stretch.  The length of a mode's stretch (480 frames,
# 4 s) is our assumption: the paper's traces are not public (make figures-stability runs it
# doubled).  Deterministic: draw DRAW, cycle c (both from 1) uses seeds 2k-1 (stable) and 2k
# (dynamic), k = 100 (DRAW - 1) + c, so draws never share a cycle and the first cycles of a
# draw do not depend on CYCLES.  The DNN queues are the captured ones, carried to the RTX 3090,
# in traces/dnn/rtx3090/.
# Usage: workloads.sh COMBOSIM [DIR [QUALITY [DRAW [CYCLES [FRAMES]]]]]
#   QUALITY: high (COMBO Table 2's setting; default) or medium (the sensitivity sweep);
#   DRAW: which random draw of the game load (1); CYCLES: stable + dynamic cycles (2: the 16 s
#   the figures run; 4 writes the doubled run of the length check); FRAMES: frames per mode
#   stretch (480)
set -eu
usage="usage: workloads.sh COMBOSIM [DIR [QUALITY [DRAW [CYCLES [FRAMES]]]]]"
C=${1:?$usage}
D=${2:-experiments/combo/workloads}
Q=${3:-high}
R=${4:-1}
K=${5:-2}
N=${6:-480}
case "$R$K$N" in *[!0-9]*) echo "$usage (DRAW, CYCLES, FRAMES: positive integers)" >&2; exit 2 ;; esac
if [ "$R" -lt 1 ] || [ "$K" -lt 1 ] || [ "$K" -gt 99 ] || [ "$N" -lt 1 ]; then
	echo "$usage (DRAW >= 1, 1 <= CYCLES <= 99, FRAMES >= 1)" >&2
	exit 2
fi
mkdir -p "$D"
for g in quake2 steel dutm ascent; do
	parts= notes=
	c=1
	while [ $c -le "$K" ]; do
		k=$((100 * (R - 1) + c))
		f=$((2 * N * (c - 1)))
		"$C" trace gen game --game "$g" --quality "$Q" --mode stable --frames "$N" --seed $((2 * k - 1)) >"$D/$g-$c-stable.csv"
		"$C" trace gen game --game "$g" --quality "$Q" --mode dynamic --frames "$N" --seed $((2 * k)) >"$D/$g-$c-dynamic.csv"
		parts="$parts $D/$g-$c-stable.csv $D/$g-$c-dynamic.csv"
		notes="$notes# $g: frames $f-$((f + N - 1)) stable (seed $((2 * k - 1))), $((f + N))-$((f + 2 * N - 1)) dynamic (seed $((2 * k))): combosim trace gen game --game $g --quality $Q
"
		c=$((c + 1))
	done
	{
		echo "# combosim game-trace v1 frame-level"
		printf '%s' "$notes"
		grep -m1 '^frame,' "$D/$g-1-stable.csv"
		# shellcheck disable=SC2086 # $parts: the files in order
		awk -F, -v OFS=, '/^[0-9]/ { $1 = n++; print }' $parts
	} >"$D/$g.csv.tmp"
	mv "$D/$g.csv.tmp" "$D/$g.csv"
	# shellcheck disable=SC2086
	rm -f $parts
done
for a in cp mri-fhd mri-q lbm sgemm cutcp fft tpacf; do
	"$C" trace gen be --app "$a" >"$D/$a.json.tmp"
	mv "$D/$a.json.tmp" "$D/$a.json"
done
