#!/usr/bin/env python3
"""Writes the cross-policy comparison's experiments from its two registries.

experiments/compare/spec/families.json (the workload families: what each offers, its QoS
target, GPUs, oracle space, workloads) and spec/policies.json (one entry per policy: what its
mechanism needs, its parameters with the family's QoS target mapped onto its knob) give, per
family and GPU, one experiment (<family>_<gpu>.json: the first workload, every policy that
applies, then the oracle's candidates) and one sweep over the family's workloads
(<family>_<gpu>_sweep.json), plus applicability.csv (every policy x family: runs or why not,
and the knob mapping).  The G-Space family's queues (workloads/) are generated from the H100
profiles with `combosim trace gen be`.  Deterministic; the outputs are tracked so that every
experiment runs on a fresh clone.

Usage (from the project root):
  python3 experiments/compare/generate.py                 # the shipped files
  python3 experiments/compare/generate.py --tiny DIR      # the test's tiny version into DIR
Exit 2 with a message naming the file and JSON path on a bad registry entry.
"""
import json
import math
import os
import subprocess
import sys

from common import die, load

HERE = "experiments/compare"
SPEC = os.environ.get("COMPARE_SPEC", HERE + "/spec")   # another registry folder (tests/compare.sh)
# the tiny version (tests/compare.sh): first workload, short runs, coarser oracle grid
TINY_MS = {"combo": 400, "vgasa": 2000, "smqos": 20, "gspace": 20}
TINY_STEP = 3  # x the family's step


def sm_count(gpu):
    return load("models/%s.json" % gpu)["sm_count"]


def per_gpu(x, gpu):
    """A family value that may differ per GPU: a number, or an object keyed by GPU."""
    return x[gpu] if isinstance(x, dict) else x


def mapping(fam):
    """The family's QoS target as each kind of knob: frame deadline (fps), LS progress-rate
    target (qos, a fraction of isolated), LC latency target (deadline_ratio x solo)."""
    q = fam["qos"]
    v = {"ls": 0, "be": 1}
    if q["kind"] == "frame":
        v["fps"] = q["fps"]
    elif q["kind"] == "ls-rate":
        v["qos"] = q["qos"]
        v["deadline_ratio"] = round(1 / q["qos"], 6)
    elif q["kind"] == "lc-deadline":
        v["deadline_ratio"] = q["deadline_ratio"]
        v["qos"] = round(1 / q["deadline_ratio"], 6)
    else:
        die("%s/families.json: $.families[%s].qos.kind: expected frame, ls-rate or lc-deadline, got %r"
            % (SPEC, fam["name"], q["kind"]))
    return v


def subst(x, v, where):
    """Replaces "{key}" strings (whole values) by the family's mapped target."""
    if isinstance(x, dict):
        return {k: subst(y, v, where + "." + k) for k, y in x.items()}
    if isinstance(x, list):
        return [subst(y, v, where) for y in x]
    if isinstance(x, str) and x.startswith("{") and x.endswith("}"):
        k = x[1:-1]
        if k not in v:
            die("%s/policies.json: %s: the family has no %s to map onto this knob" % (SPEC, where, k))
        return v[k]
    if isinstance(x, str):
        for k, y in v.items():
            x = x.replace("{%s}" % k, str(y))
    return x


def applies(pol, fam, needs_text):
    """None when the policy's mechanism applies to the family, else the reason it does not."""
    for n in pol["needs"]:
        if n not in needs_text:
            die("%s/policies.json: $.policies[%s].needs: unknown need %r (known: %s)"
                % (SPEC, pol["label"], n, ", ".join(sorted(needs_text))))
        if n not in fam["provides"]:
            return "needs " + needs_text[n]
    return None


def relpath(p, outdir):
    return os.path.relpath(p, outdir)


def folders(fam, gpu):
    """The family's per-GPU folders: {Q} its queue folder (`queues`), {D} the DNN training
    queues captured or scaled for that GPU (`dnn_queues`, spec/families.json)."""
    return {"{Q}": fam.get("queues", {}).get(gpu, ""), "{D}": fam.get("dnn_queues", {}).get(gpu, "")}


def put_folders(p, qdir):
    for k, y in (qdir or {}).items():
        p = p.replace(k, y)
    return p


def fix_paths(x, outdir, qdir):
    """Workload paths are from the project root ({Q}, {D}: the GPU's folders, folders());
    an experiment's are relative to its own file."""
    if isinstance(x, dict):
        return {k: (relpath(put_folders(y, qdir), outdir) if k in ("queue", "trace") else fix_paths(y, outdir, qdir))
                for k, y in x.items()}
    if isinstance(x, list):
        return [fix_paths(y, outdir, qdir) for y in x]
    return x


def rebase(x, srcdir):
    """An experiment's "queue" and "trace" paths (relative to its directory srcdir) as paths from
    the project root, as fix_paths expects them."""
    if isinstance(x, dict):
        return {k: (os.path.normpath(os.path.join(srcdir, y)) if k in ("queue", "trace") and not os.path.isabs(y)
                    and os.path.exists(os.path.join(srcdir, y)) else rebase(y, srcdir)) for k, y in x.items()}
    if isinstance(x, list):
        return [rebase(y, srcdir) for y in x]
    return x


def oracle_policies(fam, gpu, v, tiny):
    o = fam["oracle"]
    n = sm_count(gpu)
    step = o["step"][gpu] * (TINY_STEP if tiny else 1)
    out = []
    for mech in o.get("mechanisms", [None]):
        for k in range(step, n, step):
            p = {"name": o["policy"], "label": "oracle:%s-%d%s" % (o["knob"], k, "-" + mech if mech and mech != "mask" else "")}
            p.update(subst(o.get("params", {}), v, "oracle"))
            p[o["knob"]] = k
            if mech:
                p["mechanism"] = mech
            out.append(p)
    return out


def gspace_queues():
    """The G-Space family's queues from the H100 profiles: the LC benchmarks as generated, the
    BE ones in G-Space's persistent form (R consecutive launches in one task queue, R such that
    one kernel takes about 2 ms alone)."""
    os.makedirs(HERE + "/workloads", exist_ok=True)
    for b in ("lbm", "pf", "spmv", "bp", "mm", "md"):
        prof = "traces/gspace/h100/%s.json" % b
        out = subprocess.run([os.environ.get("COMBOSIM", "bin/combosim"), "trace", "gen", "be", "--profile", prof],
                             check=True, capture_output=True, text=True).stdout
        with open(HERE + "/workloads/%s.json" % b, "w") as f:
            f.write(out)
        if b in ("mm", "md"):
            q = json.loads(out)
            k = q["kernels"][0]
            r = math.ceil(2000 / k["solo_us"])
            k["note"] = "%d launches of the original kernel in one persistent task queue (experiments/compare/generate.py)" % r
            k["grid"] *= r
            k["solo_us"] = round(k["solo_us"] * r, 3)
            q["name"] = b + "-persistent"
            q["description"] += "; G-Space's persistent form: %d launches per kernel" % r
            with open(HERE + "/workloads/%s-persistent.json" % b, "w") as f:
                json.dump(q, f, indent=2)
                f.write("\n")


def lengthen(src, dst, min_us, name):
    """A queue whose kernels shorter than min_us are R consecutive launches of themselves fused
    into one grid (R = ceil(min_us / solo)), as the persistent form above: the GPU check's long
    LS/LC kernels, on which the host's launch round trip is a small part of a kernel's latency."""
    q = load(src)
    for k in q["kernels"]:
        if k["solo_us"] < min_us:
            r = math.ceil(min_us / k["solo_us"])
            k["note"] = "%d launches of the original kernel fused into one grid (experiments/compare/generate.py --gpu-check)" % r
            k["grid"] *= r
            k["solo_us"] = round(k["solo_us"] * r, 3)
    q["name"] = name
    q["description"] = q.get("description", "") + "; kernels under %g us fused to at least that (the GPU check)" % min_us
    with open(dst, "w") as f:
        json.dump(q, f, indent=2)
        f.write("\n")


def check_workloads(fam, chk):
    """The check's workloads of one family: (label, {grid key: value}) for each chosen one
    (`workloads`: one label per grid key, joined by "/"), else every one of a one-key grid."""
    grid = fam["grid"]
    keys = list(grid)
    if "workloads" in chk:
        out = []
        for w in chk["workloads"]:
            parts = w.split("/")
            if len(parts) != len(keys) or any(p not in grid[k] for p, k in zip(parts, keys)):
                die("%s/families.json: $.gpu_check.families.%s.workloads: %r: expected one label per grid key (%s)"
                    % (SPEC, fam["name"], w, " / ".join(keys)))
            out.append((w, {k: grid[k][p] for p, k in zip(parts, keys)}))
        return out
    if len(keys) != 1:
        die("%s/families.json: $.gpu_check.families.%s: a grid of several keys needs `workloads`" % (SPEC, fam["name"]))
    return [(l, {keys[0]: grid[keys[0]][l]}) for l in grid[keys[0]]]


def gpu_check(fams, pols, needs_text, outdir):
    """One experiment per workload of the checked families on the check's GPU: every policy
    that applies and runs on the CUDA backend (with the check's added parameters), those it
    refuses listed with the reason (check.csv), and the oracle on a coarser grid; LS/LC
    kernels lengthened and apps queued as the family's check entry says."""
    gc = fams["gpu_check"]
    gpu = gc["gpu"]
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        if f.endswith((".json", ".label")):
            os.remove(os.path.join(outdir, f))
    wdir = outdir + "/workloads"
    os.makedirs(wdir, exist_ok=True)
    for f in os.listdir(wdir):
        os.remove(os.path.join(wdir, f))
    refused = gc.get("refused", {})
    rows = []
    for fam in fams["families"]:
        chk = gc["families"].get(fam["name"])
        if chk is None:
            continue
        v = mapping(fam)
        qdir = folders(fam, gpu)
        policies = []
        for p in pols["policies"]:
            if "pending" in p or applies(p, fam, needs_text):
                continue
            if p["label"] in refused:
                rows.append([fam["name"], p["label"], p["policy"], "no", "not on the CUDA backend: " + refused[p["label"]]])
                continue
            e = {"name": p["policy"], "label": p["label"]}
            e.update(subst(p["params"], v, "$.policies[%s].params" % p["label"]))
            e.update(gc["params"].get(p["policy"], {}))
            policies.append(e)
            rows.append([fam["name"], p["label"], p["policy"], "yes", ""])
        f2 = dict(fam)
        mechs = [m for m in fam["oracle"].get("mechanisms", [None]) if m not in refused.get("oracle_mechanisms", [])]
        f2["oracle"] = dict(fam["oracle"], step={gpu: chk.get("oracle_step", gc["oracle_step"])}, mechanisms=mechs)
        for p in oracle_policies(f2, gpu, v, False):
            p.update(gc["params"].get(p["name"], {}))
            policies.append(p)
        rows.append([fam["name"], "oracle", fam["oracle"]["policy"], "yes",
                     "mechanism %s only: %s" % (", ".join(mechs), refused.get("oracle_why", "")) if mechs != fam["oracle"].get("mechanisms", [None]) else ""])
        for i, (wl, sel) in enumerate(check_workloads(fam, chk)):
            sel = json.loads(put_folders(json.dumps(sel), qdir))
            for key, items in sel.items():
                for j, it in enumerate(items):
                    if "queue" in it and "min_kernel_us" in chk and (j == 0 or not chk.get("lc_only")):
                        b = os.path.splitext(os.path.basename(it["queue"]))[0]
                        name = "%s-long%d" % (b, chk["min_kernel_us"])
                        lengthen(it["queue"], "%s/%s.json" % (wdir, name), chk["min_kernel_us"], name)
                        it["queue"] = "%s/%s.json" % (wdir, name)
                    if key == "apps":
                        it.update(chk.get("apps", {}))
            exp = {
                "name": "compare-check-%s-%s-%s" % (fam["name"], gpu, wl),
                "description": "The GPU check of the cross-policy comparison (experiments/compare/README.md): the %s family's workload %s on the %s under every policy that applies and runs on the CUDA backend, and the oracle's candidates, the same on the simulator (make compare) and through combosim-cuda (cuda/scripts/device_compare.sh). Written by experiments/compare/generate.py --gpu-check." % (fam["name"], wl, gpu),
                "inputs": fam["from"],
                "assumptions": fam["assumptions"] + " " + gc["description"] + " " + chk.get("text", ""),
                "gpu": gpu, "seed": 1, "duration_ms": chk.get("duration_ms", per_gpu(fam["duration_ms"], gpu)),
                "kernels": [], "games": [], "apps": [],
                "baseline": None,
                "outputs": {"frames_csv": fam["qos"]["kind"] == "frame", "kernels_csv": True},
                "policies": policies,
            }
            if "base" in fam:
                src = load(fam["base"]["from"])
                for k in fam["base"]["keys"]:
                    exp[k] = fix_paths(rebase(src[k], os.path.dirname(fam["base"]["from"])), outdir, qdir)
            for key, items in sel.items():
                exp[key] = fix_paths(items, outdir, qdir)
            with open("%s/%s_%s_w%d.json" % (outdir, fam["name"], gpu, i), "w") as f:
                json.dump(exp, f, indent=1)
                f.write("\n")
            with open("%s/%s_%s_w%d.label" % (outdir, fam["name"], gpu, i), "w") as f:
                f.write(wl + "\n")
    with open(outdir + "/check.csv", "w") as f:
        f.write("family,label,policy,runs,why_not\n")
        for r in rows:
            f.write(",".join('"%s"' % c.replace('"', "'") if ("," in c or '"' in c) else c for c in map(str, r)) + "\n")


def main(argv):
    tiny = None
    check = None
    if len(argv) == 3 and argv[1] == "--tiny":
        tiny = argv[2]
    elif len(argv) == 2 and argv[1] == "--gpu-check":
        check = HERE + "/h100check"
    elif len(argv) != 1:
        die("usage: generate.py [--tiny DIR | --gpu-check]")
    fams = load(SPEC + "/families.json")
    pols = load(SPEC + "/policies.json")
    needs_text = pols["needs_text"]
    registered = subprocess.run([os.environ.get("COMBOSIM", "bin/combosim"), "policies"], check=True, capture_output=True,
                                text=True).stdout.split()
    for i, p in enumerate(pols["policies"]):
        if "pending" in p:
            if p["policy"] in registered:
                die("%s/policies.json: $.policies[%d] (%s): marked pending but `combosim policies` lists it: "
                    "give it needs, params, knob and role" % (SPEC, i, p["label"]))
            continue
        for key in ("label", "policy", "params", "needs", "role", "knob"):
            if key not in p:
                die("%s/policies.json: $.policies[%d]: missing %r" % (SPEC, i, key))
        for n in p["needs"]:
            if n not in needs_text:
                die("%s/policies.json: $.policies[%d].needs: unknown need %r (known: %s)"
                    % (SPEC, i, n, ", ".join(sorted(needs_text))))
        if p["policy"] not in registered:
            die("%s/policies.json: $.policies[%d].policy: %r is not a built-in policy" % (SPEC, i, p["policy"]))
    if check:
        return gpu_check(fams, pols, needs_text, check)
    outdir = tiny or HERE
    os.makedirs(outdir, exist_ok=True)
    if not tiny:
        gspace_queues()
    rows = []
    for fam in fams["families"]:
        v = mapping(fam)
        for p in pols["policies"]:
            if "pending" in p:
                rows.append([fam["name"], p["label"], p["policy"], "pending", p["pending"], ""])
                continue
            why = applies(p, fam, needs_text)
            rows.append([fam["name"], p["label"], p["policy"], "no" if why else "yes", why or "",
                         "" if why else subst(p["knob"], v, "knob")])
        for gpu in fam["gpus"]:
            base = {}
            if "base" in fam:
                src = load(fam["base"]["from"])
                for k in fam["base"]["keys"]:
                    # its workload paths are relative to its own file: from the project root here
                    base[k] = rebase(src[k], os.path.dirname(fam["base"]["from"]))
            qdir = folders(fam, gpu)
            grid = fam["grid"]
            keys = list(grid)
            labels = {k: list(grid[k]) for k in keys}
            if tiny:
                labels = {k: labels[k][:1] for k in keys}
            first = {k: grid[k][labels[k][0]] for k in keys}
            policies = []
            for p in pols["policies"]:
                if "pending" in p or applies(p, fam, needs_text):
                    continue
                e = {"name": p["policy"], "label": p["label"]}
                e.update(subst(p["params"], v, "$.policies[%s].params" % p["label"]))
                policies.append(e)
            policies += oracle_policies(fam, gpu, v, tiny)
            exp = {
                "name": "compare-%s-%s" % (fam["name"], gpu),
                "description": "Cross-policy comparison, %s family on the %s: every policy that applies (experiments/compare/spec/policies.json) and the oracle's candidates (labels oracle:*). This file runs the first workload; %s_%s_sweep.json runs them all. Written by experiments/compare/generate.py." % (fam["title"], gpu, fam["name"], gpu),
                "inputs": fam["from"],
                "assumptions": fam["assumptions"],
                "gpu": gpu,
                "seed": 1,
                "duration_ms": min(TINY_MS[fam["name"]], per_gpu(fam["duration_ms"], gpu)) if tiny else per_gpu(fam["duration_ms"], gpu),
                "kernels": base.get("kernels", []),
                "games": fix_paths(first.get("games", base.get("games", [])), outdir, qdir),
                "apps": fix_paths(first.get("apps", base.get("apps", [])), outdir, qdir),
                "baseline": None,
                # summary.json has every game metric; kernels.csv gives the LS/LC kernels' latencies
                "outputs": {"frames_csv": False, "kernels_csv": fam["qos"]["kind"] != "frame"},
                "policies": policies,
            }
            name = "%s_%s" % (fam["name"], gpu)
            with open("%s/%s.json" % (outdir, name), "w") as f:
                json.dump(exp, f, indent=1)
                f.write("\n")
            sweep = {
                "description": "Cross-policy comparison, %s family on the %s: %s.json over the family's workloads (%s). Written by experiments/compare/generate.py." % (fam["name"], gpu, name, " x ".join(keys)),
                "experiment": name + ".json",
                "grid": {k: {"values": [fix_paths(grid[k][l], outdir, qdir) for l in labels[k]], "labels": labels[k]}
                         for k in keys},
            }
            with open("%s/%s_sweep.json" % (outdir, name), "w") as f:
                json.dump(sweep, f, indent=1)
                f.write("\n")
    with open(outdir + "/applicability.csv", "w") as f:
        f.write("family,label,policy,runs,why_not,knob\n")
        for r in rows:
            f.write(",".join('"%s"' % c.replace('"', "'") if ("," in c or '"' in c) else c for c in map(str, r)) + "\n")


if __name__ == "__main__":
    main(sys.argv)
