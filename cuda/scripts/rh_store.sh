#!/bin/sh
# Stores a device run of experiments/smqos/h100_rh.json made by cuda/scripts/device_smqos.sh
# (its run.tgz) under cuda/runs/NAME with the comparison files of the other RH-SMQoS runs:
# rh_gpu.csv (experiments/smqos/rh_report.sh on the run's pairs), rh_sim.csv (the same on the
# simulator's `combosim sweep experiments/smqos/h100_rh_sweep.json`, the rows of the policies
# whose name matches REGEX) and COMPARE.md (experiments/smqos/rh_compare.sh on the two), the
# rows cuda/VALIDATION.md's RH-SMQoS section shows.  RUN.md is written by hand.
# Usage: sh cuda/scripts/rh_store.sh RUN.tgz NAME REGEX   (from the project root, bin/combosim
# built; e.g. REGEX 'slateqos(-nogap)?')
set -eu
tgz=${1:?usage: rh_store.sh RUN.tgz NAME REGEX}
name=${2:?}
re=${3:?}
D=cuda/runs/$name
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$D"
[ "$tgz" -ef "$D/run.tgz" ] || cp "$tgz" "$D/run.tgz"
tar xzf "$D/run.tgz" -C "$T"
sh experiments/smqos/rh_report.sh gpu "$T"/r/*+*/ >"$D/rh_gpu.csv"
bin/combosim sweep experiments/smqos/h100_rh_sweep.json --out "$T/sweep" >"$T/sweep.log" 2>&1
sh experiments/smqos/rh_report.sh sim "$T"/sweep/runs/*/ |
	awk -F, -v re="^($re)\$" 'NR == 1 || $3 ~ re' >"$D/rh_sim.csv"
sh experiments/smqos/rh_compare.sh "$D/rh_sim.csv" "$D/rh_gpu.csv" >"$D/COMPARE.md"
cat "$D/COMPARE.md"
