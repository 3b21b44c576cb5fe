#!/bin/sh
# cuda/VALIDATION.md's section on the full experiments on the H200 (called by validation.sh):
# cuda/experiments/h100_{exclusive,static,pilotfish,combo,w2}.json run three times on an H200 on
# models/h200.json (cuda/runs/h200-full), against the simulator on models/h200.json at the
# first run's measured solo times: every policy's BE throughput, kernel and frame errors beside
# the GPU's own spread over the three runs.  Test set for models/h200.json (captured after it,
# used for no choice).  Usage: sh cuda/scripts/h200_full_section.sh BIN/combosim
set -eu
C=${1:?usage: h200_full_section.sh BIN/combosim}
R=cuda/runs/h200-full
tmp=$(mktemp -d /tmp/combosim-h200full.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for i in 1 2 3; do
	mkdir -p "$tmp/rep$i"
	tar xzf "$R/rep$i.tgz" -C "$tmp/rep$i"
done
# the first run's measured solo time of each kernel, as --set arguments
solo_sets() { python3 cuda/scripts/solo_sets.py "$1" "$2"; }
dur_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ms'])" "$1"; }
for n in exclusive static pilotfish combo w2; do
	e=cuda/experiments/h100_$n.json
	# shellcheck disable=SC2046
	"$C" run "$e" --set gpu=h200 $(solo_sets "$e" "$tmp/rep1/r/h100-$n/summary.json") --out "$tmp/sim-$n" --quiet
done
for n in exclusive static pilotfish combo w2; do
	case $n in combo|w2) b=$n ;; *) b=exclusive ;; esac
	for i in 1 2 3; do
		d="$tmp/rep$i/r/h100-$n"
		python3 cuda/scripts/compare_runs.py "$tmp/sim-$n" "$d" "$(dur_of "$d/summary.json")" \
			"$tmp/sim-$b" "$tmp/rep$i/r/h100-$b" --json "$tmp/c-$n-$i.json" > /dev/null
	done
done
python3 - "$tmp" > "$tmp/table.md" <<'PY'
import json, os, statistics, sys
tmp = sys.argv[1]
pc = lambda v: '-' if v is None else '%.1f %%' % (100 * v)
print('| experiment | policy | GPU BE throughput, 3 runs | GPU spread | sim | BE throughput error, each run '
      '| kernel duration error, median (3 runs) | frame latency error, median (3 runs) | FPS: GPU / sim |')
print('|---|---|---|---|---|---|---|---|---|')
allk, allb, spreads = [], [], []
for n in ('exclusive', 'static', 'pilotfish', 'combo', 'w2'):
    runs = [json.load(open(os.path.join(tmp, 'c-%s-%d.json' % (n, i)))) for i in (1, 2, 3)]
    for row in runs[0]:
        p = row['policy']
        if n == 'static' and p == 'be-alone':
            continue
        rs = [next(r for r in run if r['policy'] == p) for run in runs]
        thr = [r['be_thr_real'] for r in rs]
        spread = (max(thr) - min(thr)) / (sum(thr) / len(thr)) if sum(thr) > 0 else None
        ks = [r['kernel_err_median'] for r in rs if r['kernel_err_median'] is not None]
        fs = [r['frame_latency_err_median'] for r in rs if r['frame_latency_err_median'] is not None]
        allk += ks
        if thr[0] > 0:
            allb += [r['be_thr_err'] for r in rs if r.get('be_thr_err') is not None]
            spreads.append(spread)
        print('| %s | %s | %s | %s | %.3f | %s | %s | %s | %.1f / %.1f |' % (
            n, p, ' / '.join('%.3f' % t for t in thr), pc(spread), row['be_thr_sim'],
            ' / '.join(pc(r.get('be_thr_err')) for r in rs),
            ' / '.join(pc(v) for v in ks) or '-', ' / '.join(pc(v) for v in fs) or '-',
            statistics.median(r['fps_real'] for r in rs), row['fps_sim']))
json.dump({'kernel_err_median': statistics.median(allk), 'kernel_err_max': max(allk),
           'be_thr_err_median': statistics.median(allb), 'be_thr_err_max': max(allb),
           'be_spread_median': statistics.median(spreads), 'be_spread_max': max(spreads)},
          open(os.path.join(tmp, 'summary.json'), 'w'))
PY
fig() { python3 -c "import json, sys; print('%.1f' % (100 * json.load(open(sys.argv[1]))[sys.argv[2]]))" "$tmp/summary.json" "$1"; }
cat <<TXT

## Test set: the full experiments on the H200 described (cuda/runs/h200-full)

**Test set for models/h200.json, report only**: the five full experiments of the H100
(cuda/experiments/h100_*.json: a game's frames and BE apps under every policy the CUDA backend
runs), each run three times on an H200 with \`--set gpu=h200\` (RUN.md), captured after
models/h200.json and used for no choice.  On the H100 these experiments were development (the
structure was chosen on them): the workloads are not new to the model, the GPU is.  The
simulator runs models/h200.json at the first run's measured solo times; each row's error is
against each of the three runs, beside the GPU's own spread of BE throughput over them
((max - min) / mean).  Kernel duration error: median over the policy's matched kernels.

$(cat "$tmp/table.md")

Over every policy and run: kernel duration error median $(fig kernel_err_median) % (the worst
policy's median $(fig kernel_err_max) %); BE throughput error median $(fig be_thr_err_median) %,
worst $(fig be_thr_err_max) %; the GPU's own BE throughput spread median $(fig be_spread_median) %,
worst $(fig be_spread_max) %.

TXT
[ -z "${VALIDATION_SUMMARY:-}" ] || echo "| full experiments on the H200 described (Test set: the full experiments on the H200 described) | cuda/runs/h200-full | every policy of five experiments, three runs, against models/h200.json: kernel duration error median $(fig kernel_err_median) % (worst policy median $(fig kernel_err_max) %); BE throughput error median $(fig be_thr_err_median) %, worst $(fig be_thr_err_max) % | BE throughput over 3 runs, median / worst: $(fig be_spread_median) / $(fig be_spread_max) % | a kernel co-running (median <= 10 %), read on each policy's kernels | kernels: $(python3 -c "import sys; print('met' if float(sys.argv[1]) <= 10 else '**not met**')" "$(fig kernel_err_median)") |" >> "$VALIDATION_SUMMARY"
