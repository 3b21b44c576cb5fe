#!/bin/sh
# cuda/VALIDATION.md's section on real traces (called by validation.sh): the PyTorch captures of
# cuda/runs/h100-pytorch-validate replayed by `combosim validate --real` on today's model.  A
# test set: captured once, never used to choose or fit anything.  Usage: validation_traces.sh BIN
set -eu
C=$1
R=cuda/runs/h100-pytorch-validate
B=$(mktemp -d /tmp/combosim-vtraces.XXXXXX)
trap 'rm -rf "$B"' EXIT
tar xzf "$R/capture.tgz" -C "$B"
row() {
	"$C" validate --real "$2" --solo "$B/cap/solo.json" --gpu h100 --out "$B/$1" >/dev/null
	python3 - "$B/$1/report.json" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
d, m, o = r["kernel_duration_error"], r["makespan_ms"], r["overlap_ms"]
print("| %s | %d / %d | %.1f %% | %.1f %% | %.1f %% | %.2f / %.2f ms | %.1f / %.1f ms (%+.1f %%) |" % (
    sys.argv[2], r["kernels"], r["streams"], 100 * d["median"], 100 * d["p90"], 100 * d["max"],
    o["real"], o["sim"], m["real"], m["sim"], 100 * m["error"]))
PY
}
cat <<HDR

## Test set: real PyTorch traces (\`combosim validate --real\`)

$R: two training jobs (A: ResNet-18, 112x112 images, batch 256; B: a 2-layer Transformer
encoder, d 1024, sequence 512, batch 16; SGD, random data; 2 iterations each after 3 warm-up
iterations) captured with the PyTorch profiler on the H100 (\`sh cuda/scripts/device_capture.sh 2\`
through the device tool; RUN.md).  *streams*: one process, each job on its own CUDA stream;
*mps*: two processes under MPS, their traces joined by cuda/scripts/merge_traces.py.  Solo
times from *solo* (the two jobs one after the other, nothing beside them), matched per kernel
(name and shape) and launch rank.  Each stream is a BE app replayed in order; a kernel whose
stream sat idle more than 5 us before it is replayed at its start (the host held it).

| capture | kernels / streams | kernel duration error median | p90 | max | overlap real / sim | makespan real / sim |
|---|---|---|---|---|---|---|
HDR
row streams "$B/cap/streams.json"
row mps "$B/cap/mps/merged.json"
cat <<TXT

The per-kernel medians are small where a job's kernels ran alone (their solo times replay) and
the tails are large where the two streams' kernels met: the worst kernels run several to a
hundred times longer in the simulator than on the GPU, each beside a kernel of the other job
(report-*/report.txt lists the ten worst and their neighbours on both sides).  Why the
simulator holds them back so long is not diagnosed yet; the makespan errors are $(python3 -c "
import json, sys
print(' and\\n'.join('%+.1f %%' % (100 * json.load(open(f))['makespan_ms']['error']) for f in sys.argv[1:]) + '.')
" "$B/streams/report.json" "$B/mps/report.json")
TXT
# the row of VALIDATION.md's test-set summary (validation.sh sets VALIDATION_SUMMARY): the kernels
# (alone and co-running together) against issue #19's co-running target, the two jobs as a pair
[ -z "${VALIDATION_SUMMARY:-}" ] || python3 - "$R" "$B/streams/report.json" "$B/mps/report.json" >> "$VALIDATION_SUMMARY" <<'PY'
import json, statistics, sys
r = {n: json.load(open(f)) for n, f in zip(('streams', 'mps'), sys.argv[2:])}
med = {n: round(100 * x['kernel_duration_error']['median'], 1) for n, x in r.items()}
mk = {n: round(100 * x['makespan_ms']['error'], 1) for n, x in r.items()}
met = lambda ok: 'met' if ok else '**not met**'
print('| real PyTorch traces (Test set: real PyTorch traces) | %s | %s | not measured (captured once) '
      '| a kernel co-running (median <= 10 %%; its kernels alone and co-running together); pair makespan (median <= 5 %%, '
      'worst <= 15 %%; the two jobs as a pair) | kernels: %s; makespan: median %s, worst %s |' % (
    sys.argv[1], '; '.join('%s: kernel duration error median %.1f %% (p90 %.1f %%), makespan error %+.1f %%' % (
        n, med[n], 100 * r[n]['kernel_duration_error']['p90'], mk[n]) for n in r),
    ', '.join('%s %s' % (n, met(med[n] <= 10)) for n in r),
    met(statistics.median(abs(v) for v in mk.values()) <= 5), met(max(abs(v) for v in mk.values()) <= 15)))
PY
