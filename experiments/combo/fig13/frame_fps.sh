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
	run=$(basename "$r")
	# frames.csv: policy,game,frame,release_ns,start_ns,finish_ns,latency_ns,deadline_ns,violated,dropped,note
	awk -F, 'NR > 1 && $1 != "" { n++; if ($9 == 1 || $10 == 1) late++
		if ($10 != 1 && $6 != "") print $3, $6 }
		END { printf "#%d %d\n", n, late > "/dev/stderr" }' "$f" 2>"$tmp.count" |
		sort -n -k1,1 > "$tmp.fin"
	awk 'NR > 1 { printf "%.6f\n", ($2 - prev) / 1e6 } { prev = $2 }' "$tmp.fin" | sort -g > "$tmp.iv"
	# sliding 1 s windows: for each start i, the frames j >= i with t_j < t_i + 1e9 (two pointers)
	awk '{ t[NR] = $2 } END { j = 1; for (i = 1; i <= NR; i++) { if (t[i] + 1e9 > t[NR]) break
		while (j <= NR && t[j] < t[i] + 1e9) j++; print j - i } }' "$tmp.fin" | sort -n > "$tmp.win"
	nw=$(wc -l < "$tmp.win")
	kw=$(( (nw + 99) / 100 )); [ "$kw" -ge 1 ] || kw=1
	w99=$(sed -n "${kw}p" "$tmp.win")
	read -r nl < "$tmp.count"
	awk -v run="$run" -v nl="$nl" -v nw="$nw" -v w99="$w99" '{ v[NR] = $1 }
		END {
			split(substr(nl, 2), c, " ")
			k = int((NR * 99 + 99) / 100); if (k < 1) k = 1
			late = c[1] ? c[2] / c[1] : 0
			if (NR == 0) { printf "%s,%d,0,,,%d,%s,%.6f\n", run, c[1], nw, w99, late; exit }
			printf "%s,%d,%d,%.6f,%.3f,%d,%s,%.6f\n", run, c[1], NR, v[k], 1000 / v[k], nw, w99, late
		}' "$tmp.iv" >> "$tmp"
done
rm -f "$tmp.iv" "$tmp.count" "$tmp.fin" "$tmp.win"
mv "$tmp" "$out"
