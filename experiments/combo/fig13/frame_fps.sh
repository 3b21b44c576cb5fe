#!/bin/sh
# COMBO Fig. 14's 99th-percentile FPS from per-frame intervals, for every run of a finished
# sweep: a frame's interval is the time from the previous frame's finish (its present) to its
# own, in frame order; the 99th-percentile FPS is 1000 / (the 99th percentile of those
# intervals, in ms, nearest rank), the frame rate 99 % of the frames reach.  With n frames the
# percentile rests on the ceil(n / 100) longest intervals (10 for an 8 s run at 120 fps), so
# the output states n.  Also the FPS of sliding 1 s windows: one window starting at each
# frame's finish that ends inside the run, counting the frames finished in [t, t + 1 s); its
# 99th percentile is the count 99 % of the windows reach (nearest rank from below; about 840
# overlapping windows in an 8 s run).  Beside them the per-frame deadline-miss rate: frames
# finished after release + 1/fps, or dropped, over all frames.
# Usage: frame_fps.sh SWEEP_DIR OUT_CSV
#   writes run,frames,intervals,p99_interval_ms,fps_p99_frames,windows,fps_p99_sliding,late_rate
set -eu
dir=${1:?usage: frame_fps.sh SWEEP_DIR OUT_CSV}
out=${2:?usage: frame_fps.sh SWEEP_DIR OUT_CSV}
tmp=$out.tmp
echo "run,frames,intervals,p99_interval_ms,fps_p99_frames,windows,fps_p99_sliding,late_rate" > "$tmp"
[ -d "$dir/runs" ] || { echo "frame_fps.sh: $dir/runs: expected the sweep's run directories" >&2; exit 2; }
for r in "$dir"/runs/*/; do
	f=$r/frames.csv
	[ -f "$f" ] || { echo "frame_fps.sh: $f: expected a run's frames.csv" >&2; exit 2; }
done
# All runs at once, a fixed number of processes (one awk, sort, awk per run cost ~30 s of CPU
# for 256 runs on a small VM): lines "run frame finish", sorted per run by frame; per run its
# frame count and late count, in run order.
# frames.csv: policy,game,frame,release_ns,start_ns,finish_ns,latency_ns,deadline_ns,violated,dropped,note
awk -F, -v counts="$tmp.count" 'FNR == 1 { if (run != "") printf "%s %d %d\n", run, n, late > counts
		run = FILENAME; sub(/\/+frames\.csv$/, "", run); sub(/.*\//, "", run); n = late = 0 }
	FNR > 1 && $1 != "" { n++; if ($9 == 1 || $10 == 1) late++
		if ($10 != 1 && $6 != "") print run, $3, $6 }
	END { if (run != "") printf "%s %d %d\n", run, n, late > counts }' "$dir"/runs/*/frames.csv |
	sort -k1,1 -k2,2n > "$tmp.fin"
# per run: intervals between consecutive finishes (ms), and sliding 1 s windows: for each start
# i, the frames j >= i with t_j < t_i + 1e9 (two pointers)
awk -v win="$tmp.win" 'function flush(   i, j) {
		j = 1; for (i = 1; i <= m; i++) { if (t[i] + 1e9 > t[m]) break
			while (j <= m && t[j] < t[i] + 1e9) j++; print run, j - i > win } }
	!seen || $1 "" != run { if (seen) flush(); run = $1 ""; m = 0; seen = 1 }
	{ t[++m] = $3; if (m > 1) printf "%s %.6f\n", run, (t[m] - t[m - 1]) / 1e6 }
	END { if (seen) flush() }' "$tmp.fin" | sort -k1,1 -k2,2g > "$tmp.iv"
[ -f "$tmp.win" ] || : > "$tmp.win"
sort -k1,1 -k2,2n "$tmp.win" > "$tmp.win.s"
awk -v ivf="$tmp.iv" -v winf="$tmp.win.s" 'BEGIN {
		while ((getline l < ivf) > 0) { split(l, a, " "); ni[a[1]]++; iv[a[1], ni[a[1]]] = a[2] }
		while ((getline l < winf) > 0) { split(l, a, " "); nw[a[1]]++; w[a[1], nw[a[1]]] = a[2] } }
	{ run = $1; n = $2; late = n ? $3 / n : 0; NR_ = ni[run] + 0; nwr = nw[run] + 0
		kw = int((nwr + 99) / 100); if (kw < 1) kw = 1
		w99 = (run, kw) in w ? w[run, kw] : ""
		if (NR_ == 0) { printf "%s,%d,0,,,%d,%s,%.6f\n", run, n, nwr, w99, late; next }
		k = int((NR_ * 99 + 99) / 100); if (k < 1) k = 1
		printf "%s,%d,%d,%.6f,%.3f,%d,%s,%.6f\n", run, n, NR_, iv[run, k], 1000 / iv[run, k], nwr, w99, late }' "$tmp.count" >> "$tmp"
rm -f "$tmp.iv" "$tmp.count" "$tmp.fin" "$tmp.win" "$tmp.win.s"
mv "$tmp" "$out"
