#!/bin/sh
# The GPU descriptions' fitted keys are what their fit scripts give on the stored runs: each
# script at its defaults (the H100's calibration runs) against models/h100.json, and
# cuda/scripts/describe_gpu.py on cuda/runs/h200-describe against models/h200.json, byte for
# byte.  Fails when a script, a stored run or a description moves without the others.
# Usage: COMBOSIM=bin/combosim sh tests/describe_gpu.sh   (make test, from the root)
set -u
export COMBOSIM=${COMBOSIM:-bin/combosim}
T=$(mktemp -d /tmp/combosim-describe.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
for s in "fit_dram.py" "fit_drain.py --classes MEM" "fit_yield.py" "fit_power.py" "fit_l2.py" "fit_issue.py"; do
	name=${s%% *}
	# shellcheck disable=SC2086
	if ! python3 cuda/scripts/$s --json > "$T/$name.json" 2> "$T/$name.err"; then
		echo "FAIL $s --json exited non-zero:"; tail -3 "$T/$name.err"; fails=$((fails + 1)); continue
	fi
	python3 - models/h100.json "$T/$name.json" "$s" <<'PY' || fails=$((fails + 1))
import json, sys
model, fitted, what = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))['values'], sys.argv[3]
def check(m, f, path):
    bad = 0
    for k, v in f.items():
        if isinstance(v, dict):
            bad += check(m.get(k, {}), v, path + '.' + k)
        elif m.get(k) != v:
            print('FAIL %s: %s%s.%s is %r, the fit gives %r' % (what, 'models/h100.json', path, k, m.get(k), v))
            bad += 1
    return bad
sys.exit(1 if check(model, fitted, '') else 0)
PY
done
# the H100's MEM share of the L2 path and its RT / CD / TC sat_warps are the H200's, assumed (no
# such bench on the H100); its warp_ready is fit_ready.py's on the H200's pairs-dev3 (models/h200.json
# has warp_left in its place, from bench pairs-warps)
python3 - <<'PY' || fails=$((fails + 1))
import json, sys
g = {n: json.load(open('models/%s.json' % n)) for n in ('h100', 'h200')}
bad = 0
a, b = (g[n]['class_defaults']['MEM'].get('l2') for n in ('h100', 'h200'))
if a != b:
    print('FAIL models/h100.json class_defaults.MEM.l2 is %r, models/h200.json (its source) %r' % (a, b))
    bad += 1
import subprocess
out = subprocess.run([sys.executable, 'cuda/scripts/fit_ready.py', 'cuda/runs/h200-describe/pairs-dev3.tgz', '--gpu',
                      'models/h100.json', '--json'], capture_output=True, text=True)
a = {k: v for k, v in g['h100']['interference'].get('warp_ready', {}).items() if k != 'source'}
b = json.loads(out.stdout)['values']['interference']['warp_ready'] if out.returncode == 0 else out.stderr[-300:]
if a != b:
    print('FAIL models/h100.json interference.warp_ready is %r, fit_ready.py on the H200\'s pairs-dev3 gives %r' % (a, b))
    bad += 1
for c in ('RT', 'CD', 'TC'):
    a, b = (g[n]['class_defaults'][c].get('sat_warps') for n in ('h100', 'h200'))
    if a != b or a is None:
        print('FAIL models/h100.json class_defaults.%s.sat_warps is %r, models/h200.json (its source) %r' % (c, a, b))
        bad += 1
sys.exit(1 if bad else 0)
PY
if ! python3 cuda/scripts/describe_gpu.py cuda/runs/h200-describe models/h100.json "$T/h200.json" 2> "$T/describe.err"; then
	echo "FAIL describe_gpu.py exited non-zero:"; tail -3 "$T/describe.err"; fails=$((fails + 1))
elif ! cmp -s "$T/h200.json" models/h200.json; then
	echo "FAIL models/h200.json is not what describe_gpu.py writes from cuda/runs/h200-describe:"
	diff "$T/h200.json" models/h200.json | head -8
	fails=$((fails + 1))
fi
# fit_drain.py's knots keep a sample's spread: the simulator draws by linear interpolation
# between them (models/gpu.c gpu_quantile_at), so the piecewise-linear quantile function's mean
# and sd must be the sample's, tails and all (its order statistics as knots drew a heavy-tailed
# sample's sd 1.9 times over, its mean 4 % high)
python3 - <<'PY' || fails=$((fails + 1))
import math, random, sys
sys.path.insert(0, 'cuda/scripts')
from fit_drain import knots
rng = random.Random(7)
x = sorted([math.exp(rng.gauss(0, 0.15)) for _ in range(20000)] + [2.8 + 0.1 * rng.random() for _ in range(40)])
q = knots(x, 17)
d = 1 / (len(q) - 1)
m = sum((a + b) / 2 * d for a, b in zip(q, q[1:]))
sd = math.sqrt(sum((a * a + a * b + b * b) / 3 * d for a, b in zip(q, q[1:])) - m * m)
mx = sum(x) / len(x)
sx = math.sqrt(sum((v - mx) ** 2 for v in x) / len(x))
bad = abs(m / mx - 1) > 0.005 or abs(sd / sx - 1) > 0.1 or any(b < a for a, b in zip(q, q[1:]))
if bad:
    print('FAIL fit_drain.py knots: mean %.4f sd %.4f drawn, sample %.4f / %.4f, knots %s' % (m, sd, mx, sx, q))
sys.exit(1 if bad else 0)
PY
# fit_drain.py --speed: a TPC's own speed is what the SMs' means spread beyond their blocks'
# scatter: on a synthetic grid of 66 TPCs with speed sd 5 % and blocks of cv 7 % it finds
# about 5 %, and with no TPC speed under 0.4 % (the scatter alone, 0.8 % in the means, is not
# taken for it)
python3 - <<'PY' || fails=$((fails + 1))
import random, sys
sys.path.insert(0, 'cuda/scripts')
from fit_drain import tpc_speed
rng = random.Random(11)
def grid(sd):
    speed = [1 + rng.gauss(0, sd) for _ in range(66)]
    return [(1000 * speed[sm // 2] * rng.gauss(1, 0.07), sm) for sm in range(132) for _ in range(40)]
got = [tpc_speed(grid(sd))[1] ** 0.5 for sd in (0.05, 0.0)]
if not (0.04 < got[0] < 0.06 and got[1] < 0.004):
    print('FAIL fit_drain.py tpc_speed: %.4f for a TPC speed sd of 0.05, %.4f for none' % tuple(got))
    sys.exit(1)
PY
# fit_turn.py: the stored pairs-spread runs (calibration) give the window per class that
# cuda/README.md and docs/ARCHITECTURE.md quote (CD 3.0, TC 2.2 warps per scheduler), and leave
# out MEM and RT, whose ends are a slope, not a window's steps
got=$(python3 cuda/scripts/fit_turn.py cuda/runs/h200-describe/pairs-spread.tgz cuda/runs/h200-describe/pairs-spread16.tgz \
	--json 2>&1 | python3 -c "import json,sys; v=json.load(sys.stdin)['values']['block_spread']['in_turn']; \
print(' '.join('%s %s' % (k, v[k]) for k in sorted(v) if k != 'source'))" 2>&1)
[ "$got" = "CD 3.0 TC 2.2" ] || { echo "FAIL fit_turn.py on h200-describe's pairs-spread runs: $got"; fails=$((fails + 1)); }
[ "$fails" = 0 ] && echo "describe_gpu: 6 fits match models/h100.json (MEM l2, sat_warps: the H200's; warp_ready: its fit on the H200's pairs-dev3), models/h200.json regenerated identical, fit_drain's knots keep a sample's spread, its TPC speed is the SMs' own, fit_turn's windows as quoted" 
exit "$fails"
