#!/bin/sh
# Runs on the device machine (through the workplace's device tool), from the repository root,
# with build/devcarry carried (cuda/scripts/carry.sh): every calibration bench a GPU
# description (models/NAME.json) is fitted to, in one call, each packed as its own tarball so
# that what finished comes back even if a later one runs out of time (each bench its own
# calibration cache, so a fault in one cannot spoil the next):
#   bench.tgz       info.json, bench placement / corun / scaling (cuda/scripts/device_bench.sh)
#   corun.tgz, scaling.tgz   only with STEPS naming them: one bench each, as one_bench below
#   saturation.tgz  bench saturation (sat_blocks)
#   launch.tgz      bench launch (its least-work CD grid of 128 threads: block_launch)
#   pairs.tgz       bench pairs (its S-alone rows: block_launch when the run has no launch.tgz)
#   pileup.tgz      bench pileup (its S-alone rows: block_drain)
#   reshape.tgz     bench reshape (yield)
#   power.tgz       bench power with nvidia-smi sampling (cuda/scripts/device_power.sh)
#   power-l2.tgz, power-game.tgz   bench power-l2 / power-game the same way (MEM's share of
#                   RT's L2 path: RT beside MEM on the other SMs)
# cuda/scripts/describe_gpu.py fits the description from them.  STEPS may also name the other
# benches of one_bench's kind (pairs-test5, pairs-dev2, ...) and bench power's other sets (power-l2, ...).
# Usage: OUT=DIR [STEPS="corun scaling ..."] sh cuda/scripts/device_describe.sh [REPS]
# (default STEPS: bench saturation launch pairs pileup reshape power power-l2 power-game; about 4
# minutes of GPU time)
set -u
: "${OUT:?usage: OUT=DIR sh cuda/scripts/device_describe.sh [REPS]   (DIR: where the tarballs go)}"
reps=${1:-5}
root=$PWD
mkdir -p "$OUT"
top=$OUT
export LD_LIBRARY_PATH="$root/build/devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
B="$root/build/devcarry/combosim-cuda"

# step NAME CMD...: runs CMD with OUT=$top/NAME.d, then moves NAME.d/run.tgz to $top/NAME.tgz
step() {
	name=$1; shift
	start=$(date +%s)
	echo "== $name"
	mkdir -p "$top/$name.d"
	OUT="$top/$name.d" "$@"
	echo "== $name rc=$? in $(( $(date +%s) - start )) s"
	[ -f "$top/$name.d/run.tgz" ] && mv "$top/$name.d/run.tgz" "$top/$name.tgz"
	rm -rf "$top/$name.d"
}

# one_bench WHAT REPS: `bench WHAT` with nvidia-smi before and after, packed as run.tgz
one_bench() {
	R="$OUT/r"; mkdir -p "$R"
	nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > "$R/nvidia-smi-before.txt" 2>&1
	timeout 300 "$B" bench "$1" --out "$R/bench-$1" --calib "$R/calib.json" --reps "$2" \
		> "$R/bench-$1.log" 2>&1
	echo "bench $1 rc=$?"; tail -3 "$R/bench-$1.log"
	nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > "$R/nvidia-smi-after.txt" 2>&1
	tar czf "$OUT/run.tgz" -C "$OUT" r && rm -rf "$R"
}

for st in ${STEPS:-bench saturation launch pairs pileup reshape power power-l2 power-game}; do
	case $st in
	bench) step bench env SANITIZE=0 sh cuda/scripts/device_bench.sh "$reps" ;;
	corun|scaling|saturation|saturation-shapes|saturation-warps|pairs|pairs-test*|pairs-dev*|pairs-warps|pairs-spread|pairs-spread16|launch) step "$st" one_bench "$st" "$reps" ;;
	pileup) step pileup sh cuda/scripts/device_pileup.sh 3 ;;
	pileup-wide) step pileup-wide env WHAT=pileup-wide sh cuda/scripts/device_pileup.sh 3 ;;
	reshape) step reshape one_bench reshape 3 ;;
	power|power-clock|power-l2|power-game) step "$st" sh cuda/scripts/device_power.sh build/devcarry "$st" ;;
	*) echo "device_describe: unknown step $st" >&2 ;;
	esac
done
ls -la "$top"
