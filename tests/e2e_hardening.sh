#!/bin/sh
# End-to-end regression tests of the second hardening pass (issue 23): the sweep's point count,
# lock and signals, temporaries of dead runs, GPU descriptions, deep nesting, CSV numbers and
# a full disk.  Each check fails on the program before that pass (run from that version's
# tree: COMBOSIM=OLD/bin/combosim sh tests/e2e_hardening.sh).  $COMBOSIM is the binary.
set -u
C=${COMBOSIM:-bin/combosim}
case $C in /*) ;; *) C=$(pwd)/$C ;; esac
T=$(mktemp -d /tmp/combosim-e2eh.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0; n=0

ok()   { n=$((n+1)); echo "ok   $n $1"; }
bad()  { n=$((n+1)); fails=$((fails+1)); echo "FAIL $n $1"; }

# expect_error NAME EXPECTED-EXIT EXPECTED-STDERR-SUBSTRING -- ARGS...
expect_error() {
	name=$1 code=$2 want=$3; shift 4
	timeout 120 "$C" "$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -ne "$code" ]; then bad "$name: exit $rc, expected $code ($(head -c 300 "$T/err"))"; return; fi
	if ! grep -qF -- "$want" "$T/err"; then bad "$name: stderr lacks '$want': $(head -c 300 "$T/err")"; return; fi
	ok "$name"
}

# A PID that no process has: a child that already exited (PIDs are not reused at once).
dead_pid() { sh -c 'echo $$'; }

# processes whose command line mentions $1 (ours only), for the orphan checks
procs_of() { ps -eo pid=,args= | grep -F -- "$1" | grep -v grep | grep -v "e2e_hardening" || true; }

EXP=$(pwd)/experiments/default.json

# ---- sweep: a point count that overflows is refused before anything runs
cat >"$T/big.json" <<EOF
{ "experiment": "$EXP",
  "grid": { "seed": {"range": [1, 100000]}, "duration_ms": {"range": [1, 100000]},
            "a": {"range": [1, 100000]}, "b": {"range": [1, 90000]} } }
EOF
expect_error "sweep: 100000^3 x 90000 points overflow no counter" 2 \
	'$.grid: expected at most 1000000 points, got 100000 x 100000 x 100000 x 90000' -- sweep "$T/big.json" --out "$T/big"
[ ! -e "$T/big" ] && ok "sweep: nothing written for a refused grid" || bad "sweep: a refused grid wrote $(ls "$T/big")"

# ---- sweep: a second sweep on the same directory is refused while the first runs
cat >"$T/slow.json" <<EOF
{ "experiment": "$EXP", "grid": { "seed": {"range": [1, 6]}, "duration_ms": [2500] } }
EOF
# start_sweep DIR: a sweep of slow.json in the background, once its first runs have started
start_sweep() {
	"$C" sweep "$T/slow.json" -j 2 --out "$1" >/dev/null 2>&1 &
	sweep_pid=$!
	i=0; while [ -z "$(procs_of "$1/runs/")" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
}
start_sweep "$T/sw"
expect_error "sweep: a second sweep on the same directory is refused" 2 "is in use by another sweep" -- \
	sweep "$T/slow.json" -j 2 --out "$T/sw"
kill -TERM $sweep_pid 2>/dev/null
wait $sweep_pid 2>/dev/null

# ---- sweep: killed by its PID alone, it stops GNU parallel and the runs (none orphaned)
start_sweep "$T/swk"
running=$(procs_of "$T/swk/runs/" | wc -l)
kill -TERM $sweep_pid
wait $sweep_pid 2>/dev/null
# the sweep forwards TERM to GNU parallel's process group, runs included, before it returns, so
# from here no run may finish; the runs take a moment to exit (over 0.5 s for the sanitizer
# build on a loaded machine), so wait up to 10 s for them, then look for any left and for a run
# that finished meanwhile (an orphan that ran on to its end)
finished() { ls "$T/swk/runs" 2>/dev/null | grep -c '^[0-9]*$'; }
done_at_term=$(finished)
i=0; while [ -n "$(procs_of "$T/swk")" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
left=$(procs_of "$T/swk")
done_after=$(finished)
if [ "$running" -gt 0 ] && [ -z "$left" ] && [ "$done_after" -eq "$done_at_term" ]; then
	ok "sweep: TERM to its PID stops GNU parallel and its runs ($running processes)"
else
	bad "sweep: $running runs were running; orphans after TERM: $left; runs finished after it: $((done_after - done_at_term))"
	for p in $(echo "$left" | awk '{print $1}'); do kill -9 "$p" 2>/dev/null; done
fi
timeout 300 "$C" sweep "$T/slow.json" -j 2 --out "$T/swk" >/dev/null 2>"$T/sw2.err"; rc=$?
rows=$(wc -l <"$T/swk/sweep.csv" 2>/dev/null || echo 0)
if [ $rc -eq 0 ] && [ "$rows" -eq 31 ] && [ -z "$(ls "$T/swk/runs" | grep -v '^[0-9]*$')" ]; then
	ok "sweep: the rerun finishes every point, no temporaries left"
else
	bad "sweep rerun: exit $rc, $rows rows, runs/: $(ls "$T/swk/runs" | tr '\n' ' ') $(cat "$T/sw2.err")"
fi

# ---- combosim run: temporaries of dead runs go, those of live runs stay, results moved aside
# by a run that died mid-replacement come back
d1=$(dead_pid); d2=$(dead_pid)
mkdir -p "$T/r.tmp-$d1" "$T/r.tmp-$$" "$T/other.tmp-$d1"
"$C" run experiments/default.json --set duration_ms=50 -q --out "$T/r" 2>"$T/r.err"
if [ -d "$T/r" ] && [ ! -e "$T/r.tmp-$d1" ] && [ -d "$T/r.tmp-$$" ] && [ -d "$T/other.tmp-$d1" ]; then
	ok "run: removes <out>.tmp-PID of a dead run, keeps a live one's and other outputs'"
else
	bad "run: left $(ls "$T" | tr '\n' ' ')"
fi
mv "$T/r" "$T/r.old-$d2"
"$C" run experiments/default.json --set duration_ms=50 -q --out "$T/r2" 2>/dev/null
"$C" run experiments/default.json --set duration_ms=50 --set seed=3 -q --out "$T/r" 2>"$T/r.err"
if [ -d "$T/r" ] && [ ! -e "$T/r.old-$d2" ] && grep -q '"seed":	3' "$T/r/summary.json"; then
	ok "run: results a dead run had moved aside are restored, then replaced"
else
	bad "run .old-PID: $(ls "$T" | tr '\n' ' ') $(cat "$T/r.err")"
fi

# ---- GPU descriptions: unit counts that cannot be (or would be ignored) are refused
sed 's/"cuda": 128/"cuda": 0/' models/rtx3090.json >"$T/gpu-nocuda.json"
expect_error "gpu: units.cuda 0 is refused" 2 '$.sm.units.cuda: expected at least 1' -- \
	run experiments/default.json --set "gpu=$T/gpu-nocuda.json" --out "$T/x"
# no tensor units, and no power coefficient for them (the power model refuses one for a unit the SM lacks)
sed -e 's/"tensor": 4,/"tensor": 0,/' -e 's/"tensor": 4\.074, //' models/rtx3090.json >"$T/gpu-notensor.json"
cat >"$T/tc.json" <<EOF
{ "gpu": "$T/gpu-notensor.json", "duration_ms": 5,
  "kernels": [ { "name": "gemm", "class": "TC", "grid": 82, "threads": 256, "solo_us": 100 } ],
  "apps": [ { "name": "dnn", "kernels": ["gemm"] } ], "policies": [ { "name": "exclusive", "run": "be" } ] }
EOF
expect_error "gpu: a TC kernel on a GPU without tensor cores is refused" 2 "kernel 'gemm' needs tensor units" -- \
	run "$T/tc.json" --out "$T/x"
sed 's/"sm_count": 82/"sm_count": 1/' models/rtx3090.json >"$T/gpu-1sm.json"
expect_error "gpu: a static split of a 1-SM GPU says why" 2 "a static split needs a GPU of at least 2 SMs" -- \
	run experiments/default.json --set "gpu=$T/gpu-1sm.json" --out "$T/x"

# ---- JSON nested 100 000 deep: said so, not "invalid JSON"
awk 'BEGIN { printf "{\"a\": "; for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "}" }' >"$T/deep.json"
expect_error "json: 100000-deep nesting is reported as too deep" 2 \
	"deep.json:1:1006: expected at most 1000 nested arrays and objects, got more" -- run "$T/deep.json" --out "$T/x"

# ---- CSV numbers: hex and leading spaces are refused as JSON refuses them
{ sed -n '1,4p' traces/samples/kernel-level-example.csv; echo "0,k,CD,82,128,32,0,0x10,,,,,,,"; } >"$T/hex.csv"
expect_error "csv: a hex number is refused" 2 "hex.csv:5: solo_us: expected a number" -- trace check "$T/hex.csv"
{ sed -n '1,4p' traces/samples/kernel-level-example.csv; echo "0,k,CD, 82,128,32,0,10,,,,,,,"; } >"$T/space.csv"
expect_error "csv: a leading space is refused" 2 "space.csv:5: grid: expected an integer" -- trace check "$T/space.csv"

# ---- a full disk: every file that failed is named and closed (none left out after the first
# failure), summary.json (never written) is not named.  The tmpfs is filled first, so that
# every results file fails.
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=256k tmpfs "$T/full" 2>/dev/null; then
	dd if=/dev/zero of="$T/full/fill" bs=4k 2>/dev/null
	"$C" run experiments/default.json --set duration_ms=50 --set outputs.timeline=true --out "$T/full/r" -q 2>"$T/full.err"; rc=$?
	if [ $rc -eq 1 ] && grep -q "frames.csv failed" "$T/full.err" && grep -q "kernels.csv failed" "$T/full.err" &&
	   grep -q "timeline.json failed" "$T/full.err" && ! grep -q "summary.json" "$T/full.err" &&
	   [ "$(ls -A "$T/full")" = fill ]; then
		ok "full disk: names frames.csv, kernels.csv and timeline.json, not summary.json; nothing left"
	else
		bad "full disk: rc=$rc, $(cat "$T/full.err"), left: $(ls -A "$T/full")"
	fi
	umount "$T/full"
else
	ok "full disk check skipped (needs root for a small tmpfs)"
fi

echo "e2e_hardening: $((n-fails))/$n passed"
[ $fails -eq 0 ]
