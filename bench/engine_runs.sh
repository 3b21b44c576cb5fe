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
run pilotfish-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"pilotfish"}]'
run combo-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"combo"}]'
run game-alone-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"exclusive"}]'
cat "$out"
