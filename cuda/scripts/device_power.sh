#!/bin/sh
# Runs on the device machine (through the workplace's device tool) with combosim-cuda and the
# libraries it links in directory $1 (default build/devcarry; cuda/scripts/carry.sh): `bench
# power` with nvidia-smi sampling power, clocks and temperature every 50 ms beside it (two
# samplers: the fields the issue names, and NVML's instantaneous/averaged power with the clock
# event reasons, which older drivers may lack).  No GPU setting is changed.  Packs $OUT/run.tgz
# (r/: power_phases.csv, smi.csv, smi2.csv, summary.json, calib.json, nvidia-smi -q before
# and after, logs), stored as cuda/runs/h100-power.  About 2.5 minutes of GPU time.
# Usage: sh cuda/scripts/device_power.sh [DIR [BENCH]]   (BENCH: power (default) or power-clock)
set -u
D=${1:-build/devcarry}
W=${2:-power}
export LD_LIBRARY_PATH="$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
R="$OUT/r"
mkdir -p "$R"
{ date -u; date +%s.%N; echo "TZ=${TZ:-unset}"; uname -a; nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE; } \
	> "$R/nvidia-smi-before.txt" 2>&1
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,clocks.mem,power.limit,temperature.gpu \
	--format=csv,nounits -lms 50 > "$R/smi.csv" 2> "$R/smi.err" &
p1=$!
nvidia-smi --query-gpu=timestamp,power.draw.instant,power.draw.average,clocks.sm,clocks_event_reasons.active,temperature.memory \
	--format=csv,nounits -lms 50 > "$R/smi2.csv" 2> "$R/smi2.err" &
p2=$!
sleep 1
echo "sampler clock check: $(date -u '+%Y/%m/%d %H:%M:%S.%N') unix $(date +%s.%N)" > "$R/clock-check.txt"
timeout 400 "$D/combosim-cuda" bench "$W" --out "$R/bench" --calib "$R/calib-cache.json" > "$R/stdout.txt" 2> "$R/stderr.txt"
echo "bench rc=$?"
sleep 1
kill $p1 $p2 2>/dev/null
wait $p1 $p2 2>/dev/null
echo "sampler clock check: $(date -u '+%Y/%m/%d %H:%M:%S.%N') unix $(date +%s.%N)" >> "$R/clock-check.txt"
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE > "$R/nvidia-smi-after.txt" 2>&1
tail -5 "$R/stderr.txt"; head -3 "$R/smi.csv" "$R/smi2.csv"; cat "$R/smi.err" "$R/smi2.err"; wc -l "$R"/smi*.csv
cat "$R/bench/power_phases.csv"
tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
