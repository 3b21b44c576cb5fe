#!/bin/sh
# What the pair benches' LS delay kernel does to L: `bench pairs-dev2` (development shapes,
# every block recorded) with the delay spinning on FMA work (--delay fma, the benches before
# h200-pairs-test9) and sleeping (--delay sleep), alternated twice in one call, one calibration
# cache for all four so the kernels are the same.  Keeps each run's pairs.csv, summary.json,
# log and, of its block records, L's in LS (ls_long_blocks.csv); packs $OUT/run.tgz.
# Usage: OUT=DIR sh cuda/scripts/device_delay.sh   (after tar xzf build/devcarry.tgz -C build)
set -u
: "${OUT:?usage: OUT=DIR sh cuda/scripts/device_delay.sh}"
root=$PWD
export LD_LIBRARY_PATH="$root/build/devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$root/build/devcarry/combosim-cuda"
R="$OUT/r"
mkdir -p "$R"
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > "$R/nvidia-smi-before.txt" 2>&1
i=0
for v in fma sleep fma sleep; do
	i=$((i + 1))
	d="$R/$i-$v"
	timeout 300 "$B" bench pairs-dev2 --out "$d" --calib "$R/calib.json" --reps 5 --delay "$v" > "$d.log" 2>&1
	echo "run $i ($v) rc=$?"
	awk -F, 'NR == 1 || ($2 == "LS" && $3 == "L")' "$d/pairs_blocks.csv" > "$d/ls_long_blocks.csv"
	rm -f "$d/pairs_blocks.csv"
done
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > "$R/nvidia-smi-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
