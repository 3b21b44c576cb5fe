#!/bin/sh
# COMBO §6.7 online overhead from the run of experiments/combo/overhead.json: the average
# wall-clock time per frame of COMBO's prediction and scheme selection, measured in the
# simulator process (summary.json combo.predict_ms_avg, combo.select_ms_avg), beside the
# paper's.  Wall-clock numbers: they differ from run to run and machine to machine.
# Usage: report.sh RUN_DIR OUT_DIR      (writes OUT_DIR/reproduction.csv)
set -eu
run=${1:?usage: report.sh RUN_DIR OUT_DIR}
out=${2:?usage: report.sh RUN_DIR OUT_DIR}
mkdir -p "$out"
awk '
/"predict_ms_avg":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); p = kv[2] }
/"select_ms_avg":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); s = kv[2] }
END {
	if (p == "" || s == "") { print "overhead: no predict_ms_avg/select_ms_avg in " FILENAME " (measure_overhead off?)" > "/dev/stderr"; exit 1 }
	print "metric,unit,paper,sim,note"
	printf "overhead_predict_avg,ms,0.06,%.6f,per frame: Eq. 4 render-time prediction; wall-clock in the simulator process (not reproducible byte for byte)\n", p
	printf "overhead_select_avg,ms,0.02,%.6f,per frame: load mode (Eq. 2-3) and scheme/partition selection (Eq. 5); wall-clock\n", s
}' "$run/summary.json" >"$out/reproduction.csv"
cat "$out/reproduction.csv"
