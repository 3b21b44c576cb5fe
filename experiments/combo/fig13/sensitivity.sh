#!/bin/sh
# The Fig. 13/14 summary of a sensitivity sweep (experiments/combo/fig13_medium_sweep.json: the
# games at COMBO Table 4's medium quality instead of the paper's high quality), written as
# reproduction rows with no paper value: how much the comparison depends on the games' load,
# which the paper's traces would fix and ours assume.  Usage: sensitivity.sh SWEEP_DIR OUT_DIR
set -eu
in=${1:?usage: sensitivity.sh SWEEP_DIR OUT_DIR}
out=${2:?usage: sensitivity.sh SWEEP_DIR OUT_DIR}
sh "$(dirname "$0")/report.sh" "$in" "$out" >/dev/null
awk -F, -v OFS=, 'NR == 1 { print; next }
{
	sub(/^fig13_/, "fig13_medium_", $1); sub(/^fig14_/, "fig14_medium_", $1)
	note = $5; for (i = 6; i <= NF; i++) note = note "," $i
	print $1, $2, "", $4, "sensitivity (games at medium quality; not in the paper)" (note == "" ? "" : ": " note)
}' "$out/reproduction.csv" >"$out/reproduction.csv.tmp"
mv "$out/reproduction.csv.tmp" "$out/reproduction.csv"
cat "$out/reproduction.csv"
