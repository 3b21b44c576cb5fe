#!/bin/sh
# Renames the rows of a COMBO reproduction.csv for a sensitivity or length-check run, so that
# they sit beside the main run's in RESULTS.md: metric figN_X becomes figN_TAG_X, the paper
# column is emptied (the paper has no such run) and the note says what was varied.
# Usage: retag.sh CSV TAG NOTE   (rewrites CSV in place)
set -eu
csv=${1:?usage: retag.sh CSV TAG NOTE}
tag=${2:?usage: retag.sh CSV TAG NOTE}
note=${3:?usage: retag.sh CSV TAG NOTE}
awk -F, -v OFS=, -v tag="$tag" -v what="$note" 'NR == 1 { print; next }
{
	sub(/^fig[0-9]+_/, "&" tag "_", $1)
	n = $5; for (i = 6; i <= NF; i++) n = n "," $i
	print $1, $2, "", $4, "sensitivity (" what "; not in the paper)" (n == "" ? "" : ": " n)
}' "$csv" >"$csv.tmp"
mv "$csv.tmp" "$csv"
