#!/bin/sh
# Writes traces/h100/<game>.csv for the GPU replay (experiments/vgasa/h100_vgasa_scenes.json):
# the calibrated traces (traces/cal/) with each frame's GPU time replaced by its scene's mean,
# CPU times unchanged.  combosim-cuda calibrates every distinct kernel time before a run, so a
# GPU time per frame would mean thousands of calibrations; a time per scene keeps the scenes
# (the persistent part of the variation) and drops the independent per-frame GPU noise.
# Usage: experiments/vgasa/traces/scene_mean.sh   (after calibrate.sh)
set -eu
dir=$(dirname "$0")
mkdir -p "$dir/h100"
for g in dirt3 starcraft2 farcry2; do
	awk -F, -v g="$g" '
	FNR == NR { if (/^# scene/) s++; else if ($0 !~ /^#/ && $1 != "frame") { sum[s] += $2; n[s]++ } next }
	FNR == 1 { s = 0; print; printf "# scene means: render_ms of each frame = the mean of its scene in traces/cal/%s.csv (experiments/vgasa/traces/scene_mean.sh)\n", g; next }
	/^# scene/ { s++; print; next }
	/^#/ || /^frame/ { print; next }
	{ printf "%s,%.3f,%s\n", $1, sum[s] / n[s], $3 }' "$dir/cal/$g.csv" "$dir/cal/$g.csv" >"$dir/h100/$g.csv.tmp"
	mv "$dir/h100/$g.csv.tmp" "$dir/h100/$g.csv"
done
