#!/bin/sh
# COMBO Fig. 15 from the run of experiments/combo/fig15.json: per frame the QoS headroom (the
# time from the frame's finish to the next frame's start, frames.csv) under relaxed intra-SM
# sharing with merging ("merge") and without ("no-merge"); then the distribution's figures in
# reproduction.csv.  The paper states no number for Fig. 15 (§6.5: merging "significantly
# increases the QoS headroom"), so every row's paper column is empty.
# Usage: report.sh RUN_DIR OUT_DIR      (writes OUT_DIR/headroom.csv, reproduction.csv)
set -eu
run=${1:?usage: report.sh RUN_DIR OUT_DIR}
out=${2:?usage: report.sh RUN_DIR OUT_DIR}
mkdir -p "$out"
# frames.csv: policy,game,frame,release_ns,start_ns,finish_ns,latency_ns,deadline_ns,violated,dropped,note
awk -F, -v out="$out" '
BEGIN { h = out "/headroom.csv"; print "policy,frame,headroom_ms" > h }
NR == 1 { next }
{
	p = $1; n[p]++; viol[p] += $9; if ($11 ~ /-merged$/) merged[p]++
	if ($10 == 1) { last[p] = ""; next }        # dropped: no start or finish
	if (last[p] != "") {
		x = ($5 - last[p]) / 1e6
		printf "%s,%d,%.4f\n", p, lastf[p], x > h
		k[p]++; sum[p] += x; if (x > mx[p]) mx[p] = x
		if (x >= 0.01) { ne[p]++; sne[p] += x }
	}
	last[p] = $6; lastf[p] = $3
}
END {
	rep = out "/reproduction.csv"
	print "metric,unit,paper,sim,note" > rep
	split("no-merge merge", ps, " "); split("nomerge merge", nm, " ")
	for (i = 1; i <= 2; i++) {
		p = ps[i]; m = nm[i]
		if (!k[p]) { print "fig15: no frames of policy " p > "/dev/stderr"; exit 1 }
		printf "fig15_headroom_mean_%s,ms,,%.3f,mean of the non-empty (>= 0.01 ms) headrooms between consecutive frames (%d of %d); paper gives no number\n", m, ne[p] ? sne[p] / ne[p] : 0, ne[p], k[p] > rep
		printf "fig15_headroom_max_%s,ms,,%.3f,\n", m, mx[p] > rep
		printf "fig15_headroom_mean_all_%s,ms,,%.3f,mean over every frame (empty headrooms included)\n", m, sum[p] / k[p] > rep
		printf "fig15_qos_violation_%s,%%,,%.2f,frames finished after their QoS target; paper §5.5: merging fits more BE work without affecting QoS (no number given)\n", m, 100 * viol[p] / n[p] > rep
	}
	printf "fig15_merged_frames,%%,,%.2f,frames whose start merging delayed\n", 100 * merged["merge"] / n["merge"] > rep
}' "$run/frames.csv"
cat "$out/reproduction.csv"
