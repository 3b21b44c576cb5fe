#!/bin/sh
# COMBO Fig. 18 from the run of experiments/combo/fig18.json: per frame of the Severed Steel
# trace its render time alone on the whole GPU (the trace), its render time under COMBO (finish
# - start, frames.csv) and the scheme COMBO took (frames.csv note: exact-N[-original] or
# relaxed[-merged]); then the share of exact frames in the trace's stable and dynamic parts.
# Only the rows of the run's first policy count.  The paper gives no number for Fig. 18: every
# row's paper column is empty.
# Usage: report.sh RUN_DIR TRACE MODE_FRAMES OUT_DIR   (writes OUT_DIR/fig18.csv, reproduction.csv)
#   MODE_FRAMES: the trace alternates stretches of MODE_FRAMES stable-load and MODE_FRAMES
#   dynamic-load frames, stable first (experiments/combo/fig13/workloads.sh)
set -eu
run=${1:?usage: report.sh RUN_DIR TRACE MODE_FRAMES OUT_DIR}
trace=${2:?usage: report.sh RUN_DIR TRACE MODE_FRAMES OUT_DIR}
split=${3:?usage: report.sh RUN_DIR TRACE MODE_FRAMES OUT_DIR}
out=${4:?usage: report.sh RUN_DIR TRACE MODE_FRAMES OUT_DIR}
mkdir -p "$out"
# trace: frame,render_ms,...   frames.csv: policy,game,frame,release_ns,start_ns,finish_ns,latency_ns,deadline_ns,violated,dropped,note
sms=$(awk '/"sm_count":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); print kv[2]; exit }' "$run/summary.json")
awk -F, -v out="$out" -v nst="$split" -v sms="$sms" '
FNR == NR { if ($1 ~ /^[0-9]+$/) tr[$1] = $2; next }
FNR == 1 { print "frame,trace_render_ms,render_ms,exact,violated,note" > (out "/fig18.csv"); next }
pol == "" { pol = $1 }
$1 != pol { next }
{
	f = $3; part = int(f / nst) % 2 ? "dynamic" : "stable"
	ex = $11 ~ /^exact/; n[part]++; e[part] += ex
	if (ex) { split($11, w, "-"); whole += w[2] >= sms; orig += $11 ~ /-original$/ && w[2] < sms }
	if (seen && ex != prev) sw[part]++
	prev = ex; seen = 1
	r = $10 ? "" : sprintf("%.4f", ($6 - $5) / 1e6)
	printf "%d,%s,%s,%d,%d,%s\n", f, tr[f], r, ex, $9, $11 > (out "/fig18.csv")
}
END {
	rep = out "/reproduction.csv"
	print "metric,unit,paper,sim,note" > rep
	printf "fig18_exact_frames_stable,%%,,%.2f,the %d frames of the stable-load stretches (%d frames each; the first from frame 0) under exact integrated SM sharing (the paper'"'"'s blue); the first frames profile the game; paper gives no number\n", 100 * e["stable"] / n["stable"], n["stable"], nst > rep
	printf "fig18_exact_frames_dynamic,%%,,%.2f,the %d frames of the dynamic-load stretches (the first from frame %d) under exact sharing; the rest relaxed (the paper'"'"'s white)\n", 100 * e["dynamic"] / n["dynamic"], n["dynamic"], nst > rep
	printf "fig18_switches_stable,switches,,%d,scheme switches at stable frames (those where a stable stretch begins included)\n", sw["stable"] > rep
	printf "fig18_switches_dynamic,switches,,%d,scheme switches at dynamic frames (those where a dynamic stretch begins included)\n", sw["dynamic"] > rep
	printf "fig18_original_frames,%%,,%.2f,exact frames launched with the original (unbound) render kernels: the render group grew or the scheme switched (§5.3)\n", 100 * orig / (e["stable"] + e["dynamic"]) > rep
	printf "fig18_whole_gpu_frames,%%,,%.2f,exact frames whose render group (Eq. 5) is the whole GPU: no SM left to the BE group\n", 100 * whole / (e["stable"] + e["dynamic"]) > rep
}' "$trace" "$run/frames.csv"
cat "$out/reproduction.csv"
