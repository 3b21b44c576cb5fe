#!/bin/sh
# Turns the G-Space sweeps' results into OUT/reproduction.csv (metric,unit,paper,simulated,note)
# and the data files the plots read (experiments/gspace/report.py says which).
# Usage: report.sh FIG2_DIR FIG34_DIR FIG56_DIR SEARCH_DIR OUT  (each a `combosim sweep --out` directory)
set -eu
[ $# -eq 5 ] || { echo "usage: report.sh FIG2 FIG34 FIG56 SEARCH OUT" >&2; exit 2; }
exec python3 "$(dirname "$0")/report.py" "$@"
