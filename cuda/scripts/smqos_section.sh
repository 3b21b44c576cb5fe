#!/bin/sh
# cuda/VALIDATION.md's RH-SMQoS section (called by validation.sh): SMQoS §6's 16 LS + batch pairs
# on the H100 against the simulator, from the stored runs cuda/runs/h100-smqos-rh (RH-SMQoS and
# shared), h100-smqos-dyn (SMQoS itself), h100-volta-mps (Volta-MPS with real MPS) and
# h100-slateqos (SlateQoS, grids re-launched by the host loop).  The GPU
# side is experiments/smqos/rh_report.sh on the kernels.csv files of each run's run.tgz; the
# simulator side the same on today's `combosim sweep` of the experiments the runs replayed
# (h100_rh_sweep.json, h100_dyn_sweep.json); the tables are experiments/smqos/rh_compare.sh's
# (as in each run's COMPARE.md), every number of the text is computed below from the same files.
# A test set: measured once, used for no choice.  Usage: sh cuda/scripts/smqos_section.sh BIN
set -eu
C=${1:?usage: smqos_section.sh BIN}
RH=cuda/runs/h100-smqos-rh
DYN=cuda/runs/h100-smqos-dyn
MPS=cuda/runs/h100-volta-mps
SLATE=cuda/runs/h100-slateqos
RESHAPE=cuda/runs/h100-reshape/call2/bench-summary.json
B=$(mktemp -d /tmp/combosim-vsmqos.XXXXXX)
trap 'rm -rf "$B"' EXIT
for r in $RH $DYN $MPS $SLATE; do
	mkdir -p "$B/$(basename $r)"
	# run.tgz, or run.tar.xz for the large ones (GNU tar reads either by its content)
	tar xf "$(ls "$r"/run.tgz "$r"/run.tar.xz 2>/dev/null | head -1)" -C "$B/$(basename $r)"
done
# the GPU's rows
sh experiments/smqos/rh_report.sh gpu "$B"/h100-smqos-rh/r/*+*/ > "$B/rh_gpu.csv"
sh experiments/smqos/rh_report.sh gpu "$B"/h100-smqos-dyn/r/*+*/ > "$B/dyn_gpu.csv"
sh experiments/smqos/rh_report.sh gpu "$B"/h100-volta-mps/r/*-0.*/ > "$B/mps_gpu.csv"
sh experiments/smqos/rh_report.sh gpu "$B"/h100-slateqos/r/*+*/ > "$B/slate_gpu.csv"
# the simulator's, today's model; each table keeps the policies its GPU run ran
for s in rh dyn; do
	if ! "$C" sweep experiments/smqos/h100_${s}_sweep.json --out "$B/sim-$s" > "$B/sweep-$s.log" 2>&1; then
		cat "$B/sweep-$s.log" >&2
		exit 1
	fi
	sh experiments/smqos/rh_report.sh sim "$B/sim-$s"/runs/*/ > "$B/${s}_sim_all.csv"
done
keep() { awk -F, -v pols="$2" 'BEGIN { n = split(pols, p, " "); for (i = 1; i <= n; i++) k[p[i]] = 1 } NR == 1 || ($3 in k)' "$1"; }
keep "$B/rh_sim_all.csv" "rh-smqos shared" > "$B/rh_sim.csv"
keep "$B/dyn_sim_all.csv" "smqos" > "$B/dyn_sim.csv"
keep "$B/rh_sim_all.csv" "volta-mps" > "$B/mps_sim.csv"
keep "$B/rh_sim_all.csv" "slateqos slateqos-nogap" > "$B/slate_sim.csv"
for s in rh dyn mps slate; do
	sh experiments/smqos/rh_compare.sh "$B/${s}_sim.csv" "$B/${s}_gpu.csv" > "$B/${s}_compare.md"
done
python3 - "$B" "$RH" "$DYN" "$MPS" "$RESHAPE" "$SLATE" <<'PY'
import csv, glob, json, math, os, re, statistics, sys
# a paragraph of text, wrapped as the rest of VALIDATION.md
def para(t, width=96):
    """prints t wrapped at width, keeping the two spaces after a sentence"""
    parts = re.split(r'( {1,2})', re.sub(r' *\n *', ' ', t.strip()))
    line = parts[0]
    for sep, word in zip(parts[1::2], parts[2::2]):
        if len(line) + len(sep) + len(word) > width:
            print(line)
            line = word
        else:
            line += sep + word
    print(line)
B, RH, DYN, MPS, RESHAPE, SLATE = sys.argv[1:]
rows = lambda name: list(csv.DictReader(open(os.path.join(B, name))))
compare = lambda s: open(os.path.join(B, s + '_compare.md')).read().strip()
def table(s):
    """rh_compare.sh's rows, policy -> its cells, and its closing line's numbers"""
    text = compare(s)
    out = {}
    for line in text.split('\n'):
        c = [x.strip() for x in line.strip('|').split('|')]
        if len(c) == 10 and c[0] not in ('policy',) and not c[0].startswith('---'):
            out[c[0]] = dict(zip(('reach_sim', 'reach_gpu', 'reach_paper', 'r95_sim', 'r95_gpu', 'r95_paper',
                                  'ntp_sim', 'ntp_gpu', 'ntp_paper'), c[1:]))
    m = re.search(r'(\d+) cases on both sides; they agree on meeting QoS in (\d+) \(([\d.]+) %\); median \|error\| '
                  r'of the simulated NPM ([\d.]+) %, of the NTP ([\d.]+) %', text)
    out['_'] = dict(zip(('cases', 'agree', 'agree_pct', 'npm_err', 'ntp_err'), m.groups()))
    return out
NAME = lambda ls: ls.upper()
ls_of = lambda r: r['pair'].split('+')[0]
def rng(v, f='%.2f'):
    a, b = f % min(v), f % max(v)
    return a if a == b else '%s-%s' % (a, b)
def by_ls(rs, key):
    out = {}
    for r in rs:
        out.setdefault(ls_of(r), []).append(key(r))
    return out
LS_ORDER = ('merge', 'lbm', 'hs', 'lib')
pct = lambda q: '%d %%' % round(100 * float(q))

# ---- RH-SMQoS and shared
rh = table('rh')
rs, rg = rows('rh_sim.csv'), rows('rh_gpu.csv')
qos = sorted({float(r['qos']) for r in rs + rg})
s95 = [float(r['npm']) for r in rs if r['policy'] == 'rh-smqos' and r['qos'] == '0.95']
g95 = [r for r in rg if r['policy'] == 'rh-smqos' and r['qos'] == '0.95']
met = [int(r['reached']) for r in rs if r['policy'] == 'rh-smqos']
gsm = {(r['pair'], r['qos']): float(r['npm']) for r in rg if r['policy'] == 'rh-smqos'}
miss = by_ls([r for r in rs if r['policy'] == 'rh-smqos' and (r['pair'], r['qos']) in gsm],
             lambda r: float(r['npm']) - gsm[(r['pair'], r['qos'])])
miss = sorted(((statistics.mean(v), ls) for ls, v in miss.items()), reverse=True)
hs_solo = [int(k['solo_ns']) for d in glob.glob(os.path.join(B, 'h100-smqos-rh/r/hs+*/kernels.csv'))
           for k in csv.DictReader(open(d)) if k['owner'] == 'hs']
hs_us = '%.1f' % (statistics.median(hs_solo) / 1e3)
g95ls = by_ls(g95, lambda r: float(r['npm']))
print('## Test set: RH-SMQoS (%s)' % RH)
print()
para('''SMQoS §6 on the H100: the LS task on the QoS policy's share of the SMs (static-smqos, SM-bound
persistent workers), the batch task on the rest, or both sharing every SM; NPM (the LS task's
solo time / (QoS x its co-run time)) and NTP from kernels.csv (experiments/smqos/rh_report.sh),
the simulator on the same experiment (experiments/smqos/h100_rh_sweep.json).
experiments/smqos/rh_compare.sh (the run's COMPARE.md):''')
print()
print(compare('rh'))
print()
t = ('The simulator predicts an SM-bound LS task on %d-%d %% of the SMs at an NPM of %s at QoS 95 %% (its\n'
      'persistent workers have no last-wave tail), so it meets %s; on the H100 the\n'
      'same tasks reach %s (NPM at 95 %%: %s).  The miss is largest for %s (mean NPM, sim - GPU, over\n'
      'its pairs and QoS policies: %s).' % (
    round(100 * qos[0]), round(100 * qos[-1]), rng(s95),
    'every target' if all(met) else '%d of its %d targets' % (sum(met), len(met)),
    rng([float(r['npm']) for r in g95]),
    ', '.join('%s %s' % (NAME(ls), rng(g95ls[ls])) for ls in LS_ORDER if ls in g95ls),
    NAME(miss[0][1]), ', '.join('%s %+.2f' % (NAME(ls), m) for m, ls in miss)))
if miss[0][1] == 'hs':
    t += ('  HS\'s kernels last %s us: each launch\'s SM-bound workers land, exit outside the set and start\n'
          'over, a cost the simulator charges only as the H100\'s exit hold (models/h100.json) and which\n'
          'is a large share of a %s us kernel.' % (hs_us, hs_us))
para(t + '  The batch task\'s NTP is %s (median error %.0f %%, the NPM\'s %.0f %%).  `shared` is plain sharing\n'
      'without limits; the paper\'s baselines follow below.' % (
    'closer' if float(rh['_']['ntp_err']) < float(rh['_']['npm_err']) else 'not closer',
    float(rh['_']['ntp_err']), float(rh['_']['npm_err'])))
print()

# ---- SMQoS itself
dyn = table('dyn')
exp = json.load(open('experiments/smqos/h100_dyn.json'))['policies'][0]
para('SMQoS itself (Alg. 1-3, `smqos`) on the same pairs, moving SMs between the running kernels\n'
      'through the GPU backend\'s resize (%s, %d K-cycle epochs, %s):' % (
    DYN, exp['epoch_cycles'] // 1000, 'gating' if exp.get('gate') else 'no gating'))
print()
print(compare('dyn'))
print()
runs = []
for f in sorted(glob.glob(os.path.join(B, 'h100-smqos-dyn/r/*+*/summary.json'))):
    pair = f.split(os.sep)[-2]
    j = json.load(open(f))
    for r in j['runs']:
        runs.append((pair, r['smqos']['qos'], r['smqos']['ls_sms'], r['smqos']['ls_perf'], r['reshape']['resizes']))
sms = max(r[2] for r in runs)
at95 = [r for r in runs if abs(r[1] - 0.95) < 1e-9]
full = [r for r in at95 if r[2] == sms]
lo = min(full, key=lambda r: r[3])
dg = rows('dyn_gpu.csv')
none_met = not any(int(r['reached']) for r in dg)
rsz = json.load(open(RESHAPE))['reshape']['resize']
vac = [x['old_sms_vacated']['median_us'] for x in rsz]
new = [x['new_sms_full']['median_us'] for x in rsz]
para('On the H100 the LS task misses its target %s, even after Alg. 1 has given it\n'
      'all %d SMs: at 95 %% in %d of %d pairs, its speed there by the policy\'s own reading (summary.json\n'
      '`smqos.ls_perf`) %.2f (%s) to %.2f of solo, with %d-%d resizes carried out per run; the\n'
      'simulator lets it meet the target in %.0f %% of the cases: the same optimism about SM-bound\n'
      'persistent kernels as above, plus the moves\' cost (a resize on %s: old SMs\n'
      'vacated after a median of %.0f-%.0f us, new SMs full after %.0f-%.0f us over its %d repetitions),\n'
      'which the simulator charges only as half a task.' % (
    'at every QoS policy' if none_met else 'in %d of %d cases' % (sum(1 - int(r['reached']) for r in dg), len(dg)),
    sms, len(full), len(at95), lo[3], NAME(lo[0].split('+')[0]), max(r[3] for r in full),
    min(r[4] for r in at95), max(r[4] for r in at95), float(dyn['smqos']['reach_sim']),
    os.path.dirname(os.path.dirname(RESHAPE)), min(vac), max(vac), min(new), max(new), len(rsz)))
print()

# ---- Volta-MPS
mps = table('mps')
side_sms = {'ls': set(), 'batch': set()}
for f in glob.glob(os.path.join(B, 'h100-volta-mps/r/*-0.*/*/summary.json')):
    side = f.split(os.sep)[-2]
    side_sms[side].add(json.load(open(f))['mps_client']['device_sms'])
win = [(int(k['start_ns']), int(k['end_ns'])) for d in glob.glob(os.path.join(B, 'h100-volta-mps/r/*-0.*/kernels.csv'))
       for k in csv.DictReader(open(d))]
dur = {json.load(open(f))['duration_ms'] for f in glob.glob(os.path.join(B, 'h100-volta-mps/r/*-0.*/*/summary.json'))}
w0, w1 = math.floor(min(a for a, _ in win) / 1e6), math.ceil(max(b for _, b in win) / 1e6)
para('The paper\'s baselines.  **Volta-MPS** runs on the H100 as the paper ran it, with real MPS: the\n'
      'CUDA backend cannot limit one process\'s kernels to a count of SMs the hardware picks (no\n'
      '`BK_CAP_SM_LIMIT`; `volta-mps` is refused at init), so each app runs as its own MPS client\n'
      'process with its active thread percentage (%s, cuda/scripts/device_mps.sh;\n'
      'the kernels of %d-%d ms of %s ms runs), against the simulated `volta-mps` with the SM counts those\n'
      'clients were given (%s SMs for the LS app, %s for the batch app).  rh_compare.sh (COMPARE.md):' % (
    MPS, w0, w1, '/'.join(str(d) for d in sorted(dur)), rng(side_sms['ls'], '%d'), rng(side_sms['batch'], '%d')))
print()
print(compare('mps'))
print()
ms, mg = rows('mps_sim.csv'), rows('mps_gpu.csv')
mgk = {(r['pair'], r['qos']): r for r in mg}
both = [(s, mgk[(s['pair'], s['qos'])]) for s in ms if (s['pair'], s['qos']) in mgk]
near = sum(abs(float(g['npm']) - 1) <= 0.02 for g in mg)
diff = by_ls([s for s, _ in both], lambda s: float(s['npm']) - float(mgk[(s['pair'], s['qos'])]['npm']))
diff = sorted(((statistics.mean(v), ls) for ls, v in diff.items()), reverse=True)
opt = [(m, ls) for m, ls in diff if m > 0.1]
right = [(m, ls) for m, ls in diff if abs(m) <= 0.1]
pess = [(m, ls) for m, ls in diff if m < -0.1]
def missed(ls):
    q = sorted({s['qos'] for s, g in both if ls_of(s) == ls and s['reached'] == '1' and g['reached'] == '0'})
    return '%s at %s' % (NAME(ls), ', '.join(pct(x) for x in q)) if q else None
lbm = [float(g['npm']) for g in mg if ls_of(g) == 'lbm']
thr = float(mps['volta-mps']['ntp_sim']) / float(mps['volta-mps']['ntp_gpu']) - 1
rg_reach, mg_reach = float(rh['rh-smqos']['reach_gpu']), float(mps['volta-mps']['reach_gpu'])
rp_reach, mp_reach = float(rh['rh-smqos']['reach_paper']), float(mps['volta-mps']['reach_paper'])
ls_list = lambda xs: ' and '.join(NAME(ls) for _, ls in xs)
num_list = lambda xs: ', '.join('%+.2f' % m for m, _ in xs)
text = ('The simulated NPM is within %.1f %% of the GPU\'s in half the cases (the median), but %d of the\n'
        '%d LS tasks sit within 2 %% of their target on the GPU (LBM at %s), so meeting QoS agrees in\n'
        'only %s of %s (%s %%).' % (float(mps['_']['npm_err']), near, len(mg), rng(lbm), mps['_']['agree'],
                                    mps['_']['cases'], mps['_']['agree_pct']))
if opt:
    ms_ = [x for x in (missed(ls) for _, ls in opt) if x]
    text += '  The simulator is optimistic for %s (mean NPM, sim - GPU, %s%s)' % (
        ls_list(opt), num_list(opt), '; met simulated, missed on the GPU: ' + ', '.join(ms_) if ms_ else '')
    text += ' and about right for %s (%s).' % (ls_list(right), num_list(right)) if right else '.'
if pess:
    text += '  It is pessimistic for %s (%s).' % (ls_list(pess), num_list(pess))
text += '  The batch NTP is %.0f %% %s simulated' % (100 * abs(thr), 'higher' if thr > 0 else 'lower')
text += (': the batch app\'s kernels on %s SMs lose more to the LS client on the GPU than the simulator\n'
         'charges.' % rng(side_sms['batch'], '%d')) if thr > 0 else '.'
text += ('  On the GPU Volta-MPS meets QoS %s RH-SMQoS (%.1f %% against %.1f %%), %s the paper (%.1f %% against\n'
         '%.1f %%).' % ('more often than' if mg_reach > rg_reach else 'less often than' if mg_reach < rg_reach else 'as often as',
                        mg_reach, rg_reach, 'the reverse of' if (mg_reach > rg_reach) != (mp_reach > rp_reach) else 'as in',
                        mp_reach, rp_reach))
para(text)
print()

# ---- SlateQoS
sl = table('slate')
ss, sg = rows('slate_sim.csv'), rows('slate_gpu.csv')
speed = lambda rs, p: by_ls([r for r in rs if r['policy'] == p], lambda r: float(r['npm']) * float(r['qos']))
bt_of = lambda r: r['pair'].split('+')[1]
def ntp(rs, p):
    out = {}
    for r in rs:
        if r['policy'] == p:
            out.setdefault(bt_of(r), []).append(float(r['ntp']))
    return {k: statistics.mean(v) for k, v in out.items()}
gaps = {}
for f in glob.glob(os.path.join(B, 'h100-slateqos/r/*+*/summary.json')):
    j = json.load(open(f))
    for run in j['runs'] if isinstance(j.get('runs'), list) else []:
        rl = run.get('relaunch') or run.get('backend', {}).get('relaunch')
        if rl:
            gaps.setdefault(re.sub(r'-0\.\d+$', '', run.get('label', run.get('policy', '?'))), []).append(rl['gap_mean_us'])
def gap_txt(p):
    g = gaps.get(p)
    return '%.0f (the mean of the runs\' means, %s)' % (statistics.mean(g), rng(g, '%.0f')) if g else '?'
sp_s, sp_g = speed(ss, 'slateqos'), speed(sg, 'slateqos')
ng_s, ng_g = speed(ss, 'slateqos-nogap'), speed(sg, 'slateqos-nogap')
ts, tg = ntp(ss, 'slateqos'), ntp(sg, 'slateqos')
para('**SlateQoS** runs on the H100 as the simulator models it (%s): each kernel a grid of its\n'
     'original size whose blocks outside its app\'s SM range exit and whose blocks inside run one\n'
     'thread block each, the host loop re-launching the same grid (cuda/hostrelaunch.c) no sooner than\n'
     '16 us after the last one ended (`slateqos`) or as soon as it sees the end (`slateqos-nogap`),\n'
     'until every thread block ran.  rh_compare.sh (COMPARE.md):' % SLATE)
print()
print(compare('slate'))
print()
tsum = float(sl['slateqos']['ntp_sim']) / float(sl['slateqos']['ntp_gpu']) - 1
para('SlateQoS as §4.2 describes it meets QoS in %s %% of the cases on the GPU (simulated %s %%, paper %s %%).  The\n'
     'LS task\'s speed against solo, sim / GPU: %s.  The host\'s gap from a grid\'s end to the next\n'
     'launch is %s us on the GPU where the simulator charges 16 (the loop must see the\n'
     'grid\'s event and read its task counter before re-launching), and %s us with no gap asked where the\n'
     'simulator charges 1 ns, so `slateqos-nogap` is further off (HS %.2f / %.2f).  The batch NTP is %.0f %%\n'
     '%s simulated (%s / %s; per batch task %s).' % (
    sl['slateqos']['reach_gpu'], sl['slateqos']['reach_sim'], sl['slateqos']['reach_paper'],
    ', '.join('%s %.2f / %.2f' % (NAME(ls), statistics.mean(sp_s[ls]), statistics.mean(sp_g[ls]))
              for ls in LS_ORDER if ls in sp_s and ls in sp_g),
    gap_txt('slateqos'), gap_txt('slateqos-nogap'),
    statistics.mean(ng_s.get('hs', [0])), statistics.mean(ng_g.get('hs', [0])),
    100 * abs(tsum), 'higher' if tsum > 0 else 'lower', sl['slateqos']['ntp_sim'], sl['slateqos']['ntp_gpu'],
    ', '.join('%s %.3f / %.3f' % (b.upper(), ts[b], tg[b]) for b in sorted(ts) if b in tg)))
# the row of VALIDATION.md's test-set summary (validation.sh sets VALIDATION_SUMMARY)
if os.environ.get('VALIDATION_SUMMARY'):
    parts = []
    for t, pols in ((rh, 'rh-smqos, shared'), (mps, 'volta-mps'), (sl, 'slateqos, slateqos-nogap'), (dyn, 'smqos')):
        parts.append('%s %s %% / %s %% / %s %% (%s cases)' % (pols, t['_']['agree_pct'], t['_']['npm_err'],
                                                          t['_']['ntp_err'], t['_']['cases']))
    with open(os.environ['VALIDATION_SUMMARY'], 'a') as f:
        f.write('| RH-SMQoS (Test set: RH-SMQoS) | %s, %s, %s, %s | cases where both sides meet or both '
                'miss QoS / median absolute error of the LS task\'s NPM / of the batch task\'s NTP: %s '
                '| not measured (each case run once) | no (NPM and NTP are task-level QoS figures, not '
                'kernel durations or pair makespans) | - |\n' % (RH, MPS, SLATE, DYN, '; '.join(parts)))
PY
