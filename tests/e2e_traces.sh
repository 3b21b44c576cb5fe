#!/bin/sh
# End-to-end checks of the workload formats (traces/): generators are deterministic and match
# the shipped samples, their traces and queues replay in `combosim run`, nsys and PresentMon
# imports run end to end, the shipped DNN queues rebuild identically from their raw traces,
# bad inputs exit 2 with FILE:LINE messages before any run, and a long trace streams in
# bounded memory.  $COMBOSIM is the binary.
set -u
C=${COMBOSIM:-bin/combosim}
T=$(mktemp -d /tmp/combosim-e2e-traces.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0; n=0

ok()   { n=$((n+1)); echo "ok   $n $1"; }
bad()  { n=$((n+1)); fails=$((fails+1)); echo "FAIL $n $1"; }

# expect_error NAME EXPECTED-EXIT EXPECTED-STDERR-SUBSTRING -- ARGS...
expect_error() {
	name=$1 code=$2 want=$3; shift 4
	"$C" "$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -ne "$code" ]; then bad "$name: exit $rc, expected $code ($(head -c 300 "$T/err"))"; return; fi
	if ! grep -qF -- "$want" "$T/err"; then bad "$name: stderr lacks '$want': $(head -c 300 "$T/err")"; return; fi
	if [ -s "$T/out" ]; then bad "$name: wrote to stdout on failure"; return; fi
	ok "$name"
}

# ---- generators: deterministic, equal to the shipped samples, replayed by `combosim run`
"$C" trace gen game --game quake2 --mode dynamic --frames 1000 > "$T/q2.csv" &&
"$C" trace gen be --app mriq > "$T/mriq.json" || bad "generators failed"
cmp -s "$T/q2.csv" traces/samples/quake2-high-dynamic-1000.csv && ok "gen game = traces/samples/quake2-high-dynamic-1000.csv" ||
	bad "gen game differs from the shipped sample"
cmp -s "$T/mriq.json" traces/samples/mri-q.json && ok "gen be --app mriq = traces/samples/mri-q.json" ||
	bad "gen be differs from the shipped sample"
"$C" trace gen game --game quake2 --mode dynamic --frames 1000 --seed 2 > "$T/q2s2.csv"
cmp -s "$T/q2.csv" "$T/q2s2.csv" && bad "--seed has no effect" || ok "--seed changes the trace"
for g in quake2 steel dutm ascent; do
	for q in high medium low; do
		for m in stable dynamic; do
			"$C" trace gen game --game $g --quality $q --mode $m --frames 50 > "$T/g.csv" &&
			"$C" trace check "$T/g.csv" --profile $g > /dev/null || bad "gen game $g $q $m"
		done
	done
done
ok "every game x quality x mode generates a valid trace"
for g in dirt3 starcraft2 farcry2; do
	"$C" trace gen game --game $g --mode scenes --frames 50 > "$T/g.csv" &&
	"$C" trace check "$T/g.csv" --profile $g > /dev/null || bad "gen game $g scenes"
done
ok "every vGASA game generates a valid scenes trace (frame, render_ms, cpu_ms)"
for a in cp mri-fhd mri-q lbm sgemm cutcp fft tpacf mrif regtil; do
	"$C" trace gen be --app $a --iterations 2 --cv 0.02 > "$T/be.json" && "$C" trace check "$T/be.json" > /dev/null || bad "gen be $a"
done
ok "every Parboil app generates a valid queue"
cat > "$T/exp.json" <<EOT
{ "gpu": "rtx3090", "duration_ms": 300, "kernels": [],
  "games": [ { "name": "q2", "fps": 120, "trace": "q2.csv", "profile": "quake2" } ],
  "apps": [ { "name": "mriq", "queue": "mriq.json" } ],
  "policies": [ { "name": "exclusive", "run": "game" }, { "name": "static", "game_share": 0.75 } ] }
EOT
"$C" run "$T/exp.json" --out "$T/r1" -q && [ "$(grep -c '^exclusive,q2,' "$T/r1/frames.csv")" -eq 36 ] &&
	grep -q ',mri-q,CD,' "$T/r1/kernels.csv" && ok "generated trace and queue replay (paths beside the experiment)" ||
	bad "generated trace and queue do not replay"
"$C" run "$T/exp.json" --set duration_ms=9000 --out "$T/r2" -q &&
	[ "$(awk -F, '$1=="exclusive"' "$T/r2/frames.csv" | wc -l)" -eq 1000 ] && ok "the game stops at the end of its 1000-frame trace" ||
	bad "trace end not respected"
for f in experiments/workloads/*.json; do
	"$C" run "$f" --out "$T/w" -q && ok "runs $f" || bad "$f failed"
done

# ---- importers end to end
"$C" trace import nsys traces/samples/nsys_cuda_gpu_trace.csv --name sample --fit rtx3090 > "$T/nsys.json" 2>"$T/err" &&
	grep -q "7 kernels" "$T/err" && grep -q "1 kernels" "$T/err" && ok "import nsys (one block shrunk to fit)" || bad "import nsys: $(cat "$T/err")"
"$C" trace import presentmon traces/samples/presentmon_v2.csv --rt-share 0.506 --width 2560 --height 1440 > "$T/pm.csv" 2>"$T/err" &&
	ok "import presentmon" || bad "import presentmon: $(cat "$T/err")"
"$C" trace import presentmon traces/samples/presentmon_v1.csv >"$T/pm1.csv" 2>"$T/err" &&
	grep -qF "warning: 3 of 3 frames (100 %) of MsBetweenPresents sit within 2 % of 8.333 ms" "$T/err" &&
	! grep -q warning "$T/pm1.csv" && grep -q '^2,8.329000$' "$T/pm1.csv" &&
	ok "import presentmon 1.x: a vsync-capped column is imported and warned about on stderr" ||
	bad "import presentmon 1.x vsync warning: $(cat "$T/err")"
cat > "$T/imp.json" <<EOT
{ "gpu": "rtx3090", "duration_ms": 100, "kernels": [],
  "games": [ { "name": "pm", "fps": 120, "trace": "pm.csv", "profile": "quake2" } ],
  "apps": [ { "name": "dnn", "queue": "nsys.json" } ],
  "policies": [ { "name": "exclusive", "run": "game" }, { "name": "static", "game_share": 0.5 } ] }
EOT
"$C" run "$T/imp.json" --out "$T/r3" -q && [ "$(grep -c '^exclusive,pm,' "$T/r3/frames.csv")" -eq 4 ] &&
	grep -q '^static,cutlass_80_tensorop_f16_s16816gemm_f16_256x128_32x3_nn_align2,TC,' "$T/r3/kernels.csv" && ok "imported nsys queue and PresentMon trace replay" ||
	bad "imported traces do not replay"
zcat traces/dnn/resnet50.trace.json.gz | "$C" trace import pytorch - --name r50 > "$T/r50.json" 2>"$T/err" &&
	grep -q "856 kernels" "$T/err" && ok "import pytorch from stdin" || bad "import pytorch: $(cat "$T/err")"

# ---- the shipped DNN queues rebuild identically from the raw traces, and load
mkdir -p "$T/dnn"
if sh traces/dnn/import.sh "$C" "$T/dnn" 2>"$T/err"; then
	for m in resnet50 vgg16 densenet121 inception_v3; do
		cmp -s "$T/dnn/$m.json" traces/dnn/$m.json && "$C" trace check traces/dnn/$m.json > /dev/null &&
			ok "traces/dnn/$m.json rebuilds from its raw trace and loads" || bad "traces/dnn/$m.json differs or fails to load"
	done
else
	bad "traces/dnn/import.sh failed: $(cat "$T/err")"
fi

# ---- the RTX 3090 DNN queues: the transform's inputs (traces/dnn/gpus.json) are checked, a
# mistyped figure is refused with its JSON path and exit 2, and the shipped queues rebuild
python3 traces/dnn/scale.py --check && ok "traces/dnn/gpus.json: each peak = SMs x per-SM rate x clock, sources named" ||
	bad "traces/dnn/gpus.json fails its own check"
python3 - "$T/gpus-bad.json" <<'PY'
import json, sys
g = json.load(open("traces/dnn/gpus.json"))
g["gpus"]["rtx3090"]["tc_fp16_fp32acc_tflops"] = 142.0   # the FP16-accumulate figure, not AMP's
json.dump(g, open(sys.argv[1], "w"))
PY
python3 traces/dnn/scale.py --check "$T/gpus-bad.json" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'gpus.rtx3090.tc_fp16_fp32acc_tflops: expected sm_count x' "$T/err" &&
	ok "scale.py refuses a peak its SMs, rate and clock do not give (exit 2, JSON path)" ||
	bad "scale.py accepted a wrong peak (rc $rc): $(cat "$T/err")"
sed 's/"dram_gbps": 936/"dram_gbps": 0/' traces/dnn/gpus.json > "$T/gpus-bad2.json"
python3 traces/dnn/scale.py --check "$T/gpus-bad2.json" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'gpus.rtx3090.dram_gbps: expected a positive number' "$T/err" &&
	ok "scale.py refuses a non-positive bandwidth" || bad "scale.py accepted dram_gbps 0 (rc $rc)"
python3 traces/dnn/scale.py --bound sideways 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- '--bound: expected lower or upper' "$T/err" && ok "scale.py refuses an unknown --bound" ||
	bad "scale.py --bound sideways (rc $rc)"
mkdir -p "$T/dnn3090"
if python3 traces/dnn/scale.py traces/dnn/gpus.json "$T/dnn3090" 2>"$T/err"; then
	for m in resnet50 vgg16 densenet121 inception_v3; do
		cmp -s "$T/dnn3090/$m.json" traces/dnn/rtx3090/$m.json && "$C" trace check traces/dnn/rtx3090/$m.json > /dev/null &&
			ok "traces/dnn/rtx3090/$m.json rebuilds from the H100 queue and loads" ||
			bad "traces/dnn/rtx3090/$m.json differs from scale.py's output or fails to load"
	done
else
	bad "traces/dnn/scale.py failed: $(cat "$T/err")"
fi
# the measured model (cuda/runs/h100-dnn-ncu{,-2}): traces/README.md's table is the generator's output;
# on synthetic kernels a Tensor-bound one takes the Tensor ratio and an idle one the clock x waves
# ratio; every model's iteration lies between the class rule's bounds
python3 traces/dnn/scale.py --table > "$T/dnn-table.md" 2>"$T/err" && sed 's/^/  /; s/^  $//' "$T/dnn-table.md" > "$T/dnn-table-ind.md" &&
	python3 -c 'import sys; sys.exit(open(sys.argv[1]).read().rstrip() not in open("traces/README.md").read())' "$T/dnn-table-ind.md" &&
	ok "traces/README.md carries scale.py --table's output" || bad "traces/README.md's DNN table is not scale.py --table's output: $(cat "$T/err")"
if python3 - <<'PY' 2>"$T/err"; then ok "scale.py's measured model: Tensor-bound, idle and bounded cases"; else bad "scale.py's measured model: $(cat "$T/err")"; fi
import json, sys
sys.path.insert(0, "traces/dnn")
import scale as S
g = S.load_gpus("traces/dnn/gpus.json"); sm = S.load_dst_sm("."); h, d = g["h100"], g["rtx3090"]
k = {"grid": 100000, "threads": 256, "regs": 32, "smem": 0}
r = {"t_ns": 1e5, "hz": 1.98e9, "bytes": 0.0, "tc": 1.0, "fp32": 0.0, "occ": 8}
want = h["sm_count"] * h["tc_fp16_fp32acc_flops_per_clock_per_sm"] * 1.98e9 / (d["tc_fp16_fp32acc_tflops"] * 1e12)
f = S.measured_factor(g, sm, k, r)
assert abs(f - want) < 1e-9 * want, ("Tensor-bound", f, want)
r.update(tc=0.0)   # nothing busy: clock x waves (256 threads: 6 blocks per SM on the RTX 3090)
want = 1.98e9 / (d["fp32_clock_mhz"] * 1e6) * -(-100000 // (82 * 6)) / -(-100000 // (132 * 8))
f = S.measured_factor(g, sm, k, r)
assert abs(f - want) < 1e-9 * want, ("idle", f, want)
ncu, src = S.load_ncu(".")
assert src == {"resnet50": S.NCU_RUNS[0], "vgg16": S.NCU_RUNS[0],
               "inception_v3": S.NCU_RUNS[1], "densenet121": S.NCU_RUNS[1]}, src
for m in S.MODELS:
    q = json.load(open("traces/dnn/%s.json" % m))
    t = [S.scale_queue(g, q, m, p, fx)["totals"]["solo_us"] for p, fx in
         ((min, None), (max, S.model_factors(g, sm, q, ncu.get(m, []))), (max, None))]
    assert t[0] <= t[1] <= t[2], (m, t)
    assert len(S.model_factors(g, sm, q, ncu[m])) > 0.8 * len(q["kernels"]), (m, "few kernels matched")
PY
# a model whose rows two ncu runs hold is refused (exit 2, the archive and member named)
mkdir -p "$T/ncu2/cuda/runs/h100-dnn-ncu" "$T/ncu2/cuda/runs/h100-dnn-ncu-2" "$T/ncu2/x"
cp cuda/runs/h100-dnn-ncu/run.tgz "$T/ncu2/cuda/runs/h100-dnn-ncu/"
tar xzf cuda/runs/h100-dnn-ncu/run.tgz -C "$T/ncu2/x" ncu.csv && mv "$T/ncu2/x/ncu.csv" "$T/ncu2/x/ncu_resnet50.csv" &&
	tar czf "$T/ncu2/cuda/runs/h100-dnn-ncu-2/run.tgz" -C "$T/ncu2/x" ncu_resnet50.csv
python3 -c 'import sys; sys.path.insert(0, "traces/dnn"); import scale; scale.load_ncu(sys.argv[1])' "$T/ncu2" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'h100-dnn-ncu-2/run.tgz: ncu_resnet50.csv row 2: expected a model no other ncu run has rows of' "$T/err" &&
	ok "scale.py refuses a model two ncu runs hold" || bad "scale.py accepted a model in two ncu runs (rc $rc): $(cat "$T/err")"

# ---- bad input: exit 2, FILE:LINE or FILE: $.path, nothing on stdout, no results
expect_error "gen: unknown game" 2 "--game: expected one of quake2, steel, dutm, ascent, dirt3, starcraft2, farcry2, got 'doom'" -- trace gen game --game doom --frames 3
expect_error "gen: scenes with a quality" 2 "--quality: expected none with --mode scenes" -- trace gen game --game dirt3 --mode scenes --quality high --frames 3
expect_error "gen: a profile without the mode" 2 "--mode: the profile quake2 (" -- trace gen game --game quake2 --mode scenes --frames 3
expect_error "gen: a profile without the mode (2)" 2 "has no \"stable\" mode under \$.modes" -- trace gen game --game dirt3 --frames 3
expect_error "gen: no --frames" 2 "expected --game NAME or --profile FILE (one of them) and --frames N" -- trace gen game --game quake2
expect_error "gen: bad quality" 2 "--quality: expected one of high, medium, low, got 'ultra'" -- trace gen game --game quake2 --quality ultra --frames 3
expect_error "gen: bad frames" 2 "--frames: expected an integer in [1," -- trace gen game --game quake2 --frames 0
expect_error "gen be: unknown app" 2 "--app: expected one of cp, mri-fhd, mri-q" -- trace gen be --app bfs
expect_error "gen: unknown option" 2 "unknown option '--colour'" -- trace gen be --app cp --colour red
expect_error "import: unknown kind" 2 "KIND: expected one of nsys, pytorch, presentmon, got 'ncu'" -- trace import ncu x.csv
expect_error "import: missing file" 2 "nosuch.csv: cannot read" -- trace import nsys nosuch.csv
expect_error "import: option of another importer" 2 "--rt-share does not apply to this importer" -- trace import nsys traces/samples/nsys_cuda_gpu_trace.csv --rt-share 0.5
printf 'Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name\n1,5,1,1,1,128,1,1,32,0,0,7,ok\n2,-5,1,1,1,128,1,1,32,0,0,7,k\n' > "$T/bad_nsys.csv"
expect_error "import nsys: bad row" 2 "$T/bad_nsys.csv:3: Duration: expected a number in [0, 1e+15], got \"-5\"" -- trace import nsys "$T/bad_nsys.csv"
# ---- a queue's launch schedule (at_us): a kernel is not launched before its time, the others
# follow in order; it needs one pass
cat > "$T/sched.json" <<'Q'
{ "format": "combosim be-queue", "version": 1, "name": "sched",
  "kernels": [
    { "name": "a", "class": "CD", "grid": 82, "threads": 256, "solo_us": 1000, "at_us": 0 },
    { "name": "b", "class": "CD", "grid": 82, "threads": 256, "solo_us": 1000, "at_us": 5000 },
    { "name": "c", "class": "CD", "grid": 82, "threads": 256, "solo_us": 1000 } ] }
Q
printf '{ "name": "at", "gpu": "rtx3090", "duration_ms": 20, "kernels": [],\n  "apps": [ { "name": "j", "queue": "sched.json", "repeat": 1, "depth": 2 } ],\n  "policies": [ { "name": "exclusive", "run": "be" } ] }\n' > "$T/sched_exp.json"
"$C" run "$T/sched_exp.json" -q --out "$T/sched" 2>"$T/err" || bad "at_us run: $(cat "$T/err")"
if [ "$(cut -d, -f2,8,9 "$T/sched/kernels.csv" | tr '\n' ' ')" = "kernel,launch_ns,start_ns a,0,0 b,5000000,5000000 c,5000000,6000000 " ]; then
	ok "at_us: b held until 5 ms though depth 2 allowed it at 0; c follows it"
else bad "at_us: $(cut -d, -f2,8,9 "$T/sched/kernels.csv" | tr '\n' ' ')"; fi
sed 's/"repeat": 1, //' "$T/sched_exp.json" > "$T/sched_rep.json"
expect_error "at_us without repeat 1" 2 '$.apps[0].repeat: expected 1: the queue'"'"'s kernels carry "at_us"' -- run "$T/sched_rep.json" --out "$T/x"
sed 's/"at_us": 5000/"at_us": -1/' "$T/sched.json" > "$T/sched_neg.json"
sed 's/sched.json/sched_neg.json/' "$T/sched_exp.json" > "$T/sched_neg_exp.json"
expect_error "at_us negative" 2 'kernels[1].at_us: expected a number in [0, 1000000000000], got -1' -- run "$T/sched_neg_exp.json" --out "$T/x"

# ---- importers: kernels of two streams that ran at once are co-run times, not solo times
H='Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name'
printf '%s\n0,1000,8,1,1,128,1,1,32,0,0,7,a\n500,1000,8,1,1,128,1,1,32,0,0,8,b\n2000,1000,8,1,1,128,1,1,32,0,0,7,c\n' "$H" > "$T/corun_nsys.csv"
printf '%s\n0,1000,8,1,1,128,1,1,32,0,0,7,a\n1000,1000,8,1,1,128,1,1,32,0,0,8,b\n2000,1000,8,1,1,128,1,1,32,0,0,7,c\n' "$H" > "$T/serial_nsys.csv"
# a: 500 of 1000 ns beside b; b: 500 of 1000 beside a; c alone: 1000 of 3000 ns co-run
"$C" trace import nsys "$T/corun_nsys.csv" > "$T/corun.json" 2>"$T/err"
if grep -q 'warning: 33.3 % of the imported kernel time ran while a kernel of another stream ran' "$T/err" &&
   grep -q '"co_run_share": 0.3333' "$T/corun.json"; then ok "import nsys: co-run share 33.3 % warned and recorded"
else bad "import nsys: no co-run warning: $(cat "$T/err")"; fi
# stream 7 alone: a's 500 ns of 2000 ns beside stream 8's b
"$C" trace import nsys "$T/corun_nsys.csv" --stream 7 > "$T/corun7.json" 2>"$T/err"
if grep -q 'warning: 25.0 % of the imported kernel time' "$T/err" && ! grep -q -- '--stream S' "$T/err"; then
	ok "import nsys --stream 7: its 25.0 % beside stream 8 still warned"
else bad "import nsys --stream 7: $(cat "$T/err")"; fi
"$C" trace import nsys "$T/serial_nsys.csv" > "$T/serial.json" 2>"$T/err"
if ! grep -q warning "$T/err" && ! grep -q co_run_share "$T/serial.json"; then ok "import nsys: back-to-back streams, no warning"
else bad "import nsys: a warning on a serial trace: $(cat "$T/err")"; fi
ev() { printf '{"ph":"X","cat":"kernel","name":"%s","ts":%s,"dur":%s,"args":{"stream":%s,"grid":[8,1,1],"block":[128,1,1],"registers per thread":32,"shared memory":0}}' "$@"; }
printf '{"traceEvents":[%s,%s,%s]}\n' "$(ev a 0 1 7)" "$(ev b 0.5 1 8)" "$(ev c 2 1 7)" > "$T/corun_pt.json"
"$C" trace import pytorch "$T/corun_pt.json" > "$T/corun_pt.out" 2>"$T/err"
if grep -q 'warning: 33.3 %' "$T/err" && grep -q '"co_run_share": 0.3333' "$T/corun_pt.out"; then ok "import pytorch: co-run share 33.3 % warned and recorded"
else bad "import pytorch: no co-run warning: $(cat "$T/err")"; fi
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, "args": {"grid": [1, 1, 1], "block": [128, 1, 1], "registers per thread": 32}}]}' > "$T/bad_pt.json"
expect_error "import pytorch: missing field" 2 "$T/bad_pt.json: \$.traceEvents[0].args[\"shared memory\"]: expected an integer" -- trace import pytorch "$T/bad_pt.json"
printf 'Application,MsBetweenPresents\ng.exe,8.3\ng.exe,8,3\n' > "$T/bad_pm.csv"
expect_error "import presentmon: bad row" 2 "$T/bad_pm.csv:3: expected 2 fields as in the header, got 3" -- trace import presentmon "$T/bad_pm.csv"
{ head -500 "$T/q2.csv"; echo "497,8.1,0.506,2560,1440,0.9,270000"; } > "$T/bad_q2.csv"
sed "s/q2.csv/bad_q2.csv/" "$T/exp.json" > "$T/bad_exp.json"
expect_error "run: a bad trace row stops loading" 2 "$T/bad_q2.csv:501: frame: expected 496 (one row per frame, numbered from 0), got 497 (named by $T/bad_exp.json: \$.games[0].trace)" -- \
	run "$T/bad_exp.json" --out "$T/bad_run"
[ ! -e "$T/bad_run" ] && ok "no results directory after a bad trace" || bad "a bad trace left a results directory"
expect_error "check: bad trace" 2 "$T/bad_q2.csv:501: frame: expected 496" -- trace check "$T/bad_q2.csv" --profile quake2
expect_error "check: frame-level needs a profile" 2 "needs a game profile" -- trace check "$T/q2.csv"
printf '# combosim game-trace v1 frame-level\nframe,render_ms,cpu_ms\n0,10,8\n1,10,\n' > "$T/bad_cpu.csv"
expect_error "check: empty cpu_ms cell" 2 "$T/bad_cpu.csv:4: cpu_ms: expected the CPU time in ms after this frame (>= 0)" -- trace check "$T/bad_cpu.csv" --profile dirt3
printf '{"gpu": "rtx3090", "duration_ms": 5, "kernels": [], "policies": [{"name": "vgasa"}], "games": [{"name": "g", "fps": 30, "trace": "%s", "profile": "dirt3", "loop": "closed", "cpu_ms": 8}]}' "$T/good_cpu.csv" > "$T/cpu_exp.json"
printf '# combosim game-trace v1 frame-level\nframe,render_ms,cpu_ms\n0,10,8\n' > "$T/good_cpu.csv"
expect_error "run: cpu_ms beside a cpu_ms trace" 2 "$T/cpu_exp.json: \$.games[0].cpu_ms: expected no cpu_ms: the trace's cpu_ms column gives every frame's CPU phase" -- run "$T/cpu_exp.json" --out "$T/cpu_out"

# ---- memory: a 1-hour trace streams in about the memory of a 1-minute one
if [ -x /usr/bin/time ]; then
	"$C" trace gen game --game quake2 --mode dynamic --frames 432000 > "$T/long.csv"
	rss() { /usr/bin/time -f %M "$C" trace check "$T/long.csv" --profile quake2 2>&1 >/dev/null | tail -1; }
	r_long=$(rss)
	head -7204 "$T/long.csv" > "$T/short.csv"
	r_short=$(/usr/bin/time -f %M "$C" trace check "$T/short.csv" --profile quake2 2>&1 >/dev/null | tail -1)
	if [ "$r_long" -le $((r_short + 1024)) ]; then
		ok "validating 432 000 frames takes $r_long KB, 7 200 frames $r_short KB"
	else
		bad "trace reading grows with length: $r_long KB vs $r_short KB"
	fi
else
	ok "memory check skipped (no /usr/bin/time)"
fi

echo "e2e traces: $((n-fails))/$n passed"
[ $fails -eq 0 ]
