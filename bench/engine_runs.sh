#!/bin/sh
# Whole-process speed of combosim: shipped experiments run as a user runs them (start-up,
# JSON, outputs written), each repeated, and the Fig. 13 sweep; written to
# bench/results/engine_runs.txt with the machine, its load and every command.
# Times are the OS's accounting of each finished process (/usr/bin/time): cpu = user + sys of
# the process and the children it waited for (a sweep: GNU parallel and every run), wall
# beside it; each figure as min / median / max over REPS runs after one warm-up.  On a shared
# machine quote cpu: wall includes waiting for a core.  The in-process figures with the
# binary-heap baseline are bench/results/engine_bench.txt (bench/engine_bench.c).
# Usage: sh bench/engine_runs.sh BINDIR   (make bench runs it)
#   REPS (default 5) runs per figure; SWEEP_REPS (default 3) sweeps; SWEEP_REPS=0 skips the sweep.
set -u
bin=${1:?usage: bench/engine_runs.sh BINDIR}/combosim
reps=${REPS:-5}
sweep_reps=${SWEEP_REPS:-3}
out=$(dirname "$0")/results/engine_runs.txt
tmp=$(mktemp -d /tmp/combosim-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "engine_runs: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }
{
	echo "# benchmark: engine_runs (whole combosim processes)"
	echo "# date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
	echo "# uname: $(uname -a)"
	echo "# cpu: ${cpu:-unknown}, $(nproc) cores online"
	echo "# load average (1/5/15 min) at start: $(load)"
	echo "# version: $($bin version)"
	echo "# $reps runs per figure after one warm-up; seconds; cpu = user+sys (children included); min/median/max"
	echo "# run                        cpu_min  cpu_med  cpu_max wall_min wall_med wall_max   events   Mev/s_cpu  max_rss_kb  command"
} >"$out"

# stats FILE: "min median max" of the numbers in FILE, one a line
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		printf "%8.3f %8.3f %8.3f", v[1], m, v[NR] }'
}

# timed NAME N CMD...: runs CMD once, then N times under /usr/bin/time; leaves $tmp/cpu,
# $tmp/wall, $tmp/rss (one line per counted run).  1 when a run failed.
timed() {
	name=$1; n=$2; shift 2
	: >"$tmp/cpu"; : >"$tmp/wall"; : >"$tmp/rss"
	"$@" >/dev/null 2>"$tmp/err" || { echo "$name FAILED: $(head -c 300 "$tmp/err")" >>"$out"; return 1; }
	i=0
	while [ $i -lt "$n" ]; do
		/usr/bin/time -f "%U %S %e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
			{ echo "$name FAILED: $(head -c 300 "$tmp/err")" >>"$out"; return 1; }
		read -r u s e m <"$tmp/time"
		awk -v u="$u" -v s="$s" 'BEGIN { print u + s }' >>"$tmp/cpu"
		echo "$e" >>"$tmp/wall"
		echo "$m" >>"$tmp/rss"
		i=$((i + 1))
	done
}

run() {
	name=$1; shift
	timed "$name" "$reps" "$bin" run "$@" --out "$tmp/r" -q || return
	ev=$(sed -n 's/.*"events":[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/r/summary.json" | awk '{s+=$1} END {print s}')
	c=$(stats "$tmp/cpu"); w=$(stats "$tmp/wall"); rss=$(sort -n "$tmp/rss" | tail -n 1)
	cmed=$(echo "$c" | awk '{ print $2 }')
	awk -v n="$name" -v c="$c" -v w="$w" -v e="$ev" -v cm="$cmed" -v r="$rss" -v cmd="combosim run $*" \
		'BEGIN { printf "%-26s %s %s %8d %10.2f %11d  %s\n", n, c, w, e, (cm > 0 ? e / cm / 1e6 : 0), r, cmd }' >>"$out"
}
run default-5-policies-2s experiments/default.json
run pilotfish-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"pilotfish"}]' --set baseline=null
run combo-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"combo"}]' --set baseline=null
run game-alone-10k-frames experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"exclusive"}]' --set baseline=null
# the H100's dispatch timing (block launch rounds, block spread: sim/timing.c) on a closed-loop
# run with many-block DNN kernels on 114 SMs (vGASA's oracle split at 18 game SMs)
run h100-vgasa-mask18-2s experiments/compare/vgasa_h100.json --set duration_ms=2000 \
	--set 'policies=[{"name":"static","game_sms":18,"mechanism":"mask"}]' --set baseline=null
# start-up: a run of 1 ms simulated is load, set-up and output, nearly no simulation
run startup-1ms experiments/combo/fig13.json --set duration_ms=1

# the Fig. 13 sweep (256 runs, -j 2): cpu of the sweep and all its runs
if [ "$sweep_reps" -gt 0 ] && command -v parallel >/dev/null 2>&1; then
	{
		echo "#"
		echo "# Fig. 13 sweep, $sweep_reps runs after one warm-up; cpu of combosim sweep + GNU parallel + every run"
		echo "# load average at start of the sweeps: $(load)"
	} >>"$out"
	if timed fig13-sweep "$sweep_reps" sh -c "rm -rf '$tmp/sw' && exec '$bin' sweep experiments/combo/fig13_sweep.json -j 2 --out '$tmp/sw'"; then
		pts=$(ls "$tmp/sw/runs" | wc -l)
		awk -v c="$(stats "$tmp/cpu")" -v w="$(stats "$tmp/wall")" -v p="$pts" -v cmd="combosim sweep experiments/combo/fig13_sweep.json -j 2" \
			'BEGIN { printf "%-26s %s %s %8d runs  %s\n", "fig13-sweep", c, w, p, cmd }' >>"$out"
	fi
fi

# start-up inside `combosim batch`: the Fig. 13 sweep's 256 lines at duration_ms=1 in one process
# (inputs read once), and at full length; sim = full - start-up, outside = sweep - sim
if "$bin" sweep experiments/combo/fig13_sweep.json --dry-run --out "$tmp/bj" >/dev/null 2>&1; then
	sed "s#--out '[^']*/runs/#--out '$tmp/bjr/#" "$tmp/bj/jobs.txt" >"$tmp/bj/full.txt"
	sed "s#--quiet#--set duration_ms=1 --quiet#" "$tmp/bj/full.txt" >"$tmp/bj/1ms.txt"
	{
		echo "#"
		echo "# combosim batch over the Fig. 13 sweep's 256 lines ($reps runs after one warm-up): start-up per run at duration_ms=1,"
		echo "# and the whole sweep's runs in one process (load average at start: $(load))"
	} >>"$out"
	for what in 1ms full; do
		timed "batch-$what" "$reps" sh -c "rm -rf '$tmp/bjr' && exec '$bin' batch '$tmp/bj/$what.txt'" || continue
		awk -v n="batch-256-$what" -v c="$(stats "$tmp/cpu")" -v w="$(stats "$tmp/wall")" -v cmd="combosim batch jobs.txt ($what)" \
			'BEGIN { split(c, a, " "); printf "%-26s %s %s %8d runs  %.2f ms cpu/run (median)  %s\n", n, c, w, 256, a[2] * 1000 / 256, cmd }' >>"$out"
	done
fi

# cost against length: the same experiment at 10^3 .. 10^6 frames (120 fps); cpu per frame
# should stay flat (linear cost), peak memory too
{
	echo "#"
	echo "# scaling with run length (3 runs each, median): pilotfish on experiments/default.json, then the game"
	echo "# alone with small kernels reading a 10^6-frame trace (its whole-file validation at load costs ~0.4 s at any run length)"
	echo "# frames   cpu_med  wall_med  us_cpu_per_frame  max_rss_kb  command"
} >>"$out"
scale() {
	frames=$1; shift
	ms=$(awk -v f="$frames" 'BEGIN { printf "%.0f", f * 1000 / 120 }')
	n=3; [ "$frames" -ge 1000000 ] && n=1
	timed "scale-$frames" $n "$bin" run "$@" --set duration_ms="$ms" --out "$tmp/s" -q || return
	c=$(stats "$tmp/cpu" | awk '{ print $2 }'); w=$(stats "$tmp/wall" | awk '{ print $2 }')
	awk -v f="$frames" -v c="$c" -v w="$w" -v r="$(sort -n "$tmp/rss" | tail -n 1)" -v cmd="combosim run $* --set duration_ms=$ms" \
		'BEGIN { printf "%-10d %8.3f %8.3f %12.2f %11d  %s\n", f, c, w, c * 1e6 / f, r, cmd }' >>"$out"
}
for f in 1000 10000 100000; do
	scale $f experiments/default.json --set 'policies=[{"name":"pilotfish"}]' --set baseline=null
done
"$bin" trace gen game --game quake2 --mode dynamic --frames 1000000 --seed 1 >"$tmp/q2.csv"
for f in 1000 10000 100000 1000000; do
	scale $f experiments/workloads/memcheck.json --set "games[0].trace=$tmp/q2.csv"
done
echo "# load average (1/5/15 min) at end: $(load)" >>"$out"
cat "$out"
