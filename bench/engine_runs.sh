#!/bin/sh
# Whole-run speed of the engine: wall time and events per second of shipped experiments,
# written to bench/results/engine_runs.txt with the machine and the commands.
# Usage: sh bench/engine_runs.sh BINDIR   (make bench runs it).
set -u
bin=${1:?usage: bench/engine_runs.sh BINDIR}/combosim
out=$(dirname "$0")/results/engine_runs.txt
tmp=$(mktemp -d /tmp/combosim-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
{
	echo "# benchmark: engine_runs (whole combosim runs, one core)"
	echo "# date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
	echo "# uname: $(uname -a)"
	echo "# cpu: ${cpu:-unknown}"
	echo "# version: $($bin version)"
	echo "# run                          wall_s  events     events_per_s  command"
} >"$out"
run() {
	name=$1; shift
	t0=$(date +%s.%N)
	"$bin" run "$@" --out "$tmp/r" -q || { echo "$name FAILED" >>"$out"; return; }
	t1=$(date +%s.%N)
	ev=$(sed -n 's/.*"events":[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/r/summary.json" | awk '{s+=$1} END {print s}')
	awk -v n="$name" -v a="$t0" -v b="$t1" -v e="$ev" -v c="combosim run $*" \
		'BEGIN { w=b-a; printf "%-30s %7.3f %10d %12.0f  %s\n", n, w, e, e/w, c }' >>"$out"
}
run default-5-policies-2s experiments/default.json
run pilotfish-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"pilotfish"}]' --set baseline=null
run combo-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"combo"}]' --set baseline=null
run game-alone-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"exclusive"}]' --set baseline=null
# cost against length: the same experiment at 10^3 .. 10^6 frames (120 fps); wall time per
# frame should stay flat (linear cost), peak memory too (/usr/bin/time, when present)
{
	echo "#"
	echo "# scaling with run length: pilotfish on experiments/default.json, then the game alone with small"
	echo "# kernels reading a 10^6-frame trace (its whole-file validation at load costs ~0.4 s at any run length)"
	echo "# frames     wall_s   us_per_frame  max_rss_kb  command"
} >>"$out"
scale() {
	frames=$1; shift
	ms=$(awk -v f="$frames" 'BEGIN { printf "%.0f", f * 1000 / 120 }')
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%e %M" -o "$tmp/time" "$bin" run "$@" --set duration_ms="$ms" --out "$tmp/s" -q || return
		read -r wall rss <"$tmp/time"
	else
		t0=$(date +%s.%N); "$bin" run "$@" --set duration_ms="$ms" --out "$tmp/s" -q || return
		wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'); rss=0
	fi
	awk -v f="$frames" -v w="$wall" -v r="$rss" -v c="combosim run $* --set duration_ms=$ms" \
		'BEGIN { printf "%-10d %8.3f %12.2f %11d  %s\n", f, w, w * 1e6 / f, r, c }' >>"$out"
}
for f in 1000 10000 100000; do
	scale $f experiments/default.json --set 'policies=[{"name":"pilotfish"}]' --set baseline=null
done
"$bin" trace gen game --game quake2 --mode dynamic --frames 1000000 --seed 1 >"$tmp/q2.csv"
for f in 1000 10000 100000 1000000; do
	scale $f experiments/workloads/memcheck.json --set "games[0].trace=$tmp/q2.csv"
done
cat "$out"
