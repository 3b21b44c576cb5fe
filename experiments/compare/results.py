#!/usr/bin/env python3
"""Writes experiments/compare/README.md from README.in.md and the reduction's outputs.

Usage: results.py REPORTDIR TEMPLATE OUT
Placeholders in TEMPLATE: {{table:FAMILY}} (REPORTDIR/FAMILY.md), {{file:NAME}} (REPORTDIR/NAME),
{{findings}}
(REPORTDIR/findings.md), {{power_models}} (which GPUs' descriptions have a power model, values.json),
{{check_policies}} (the GPU check's policies per family, experiments/compare/h100check/check.csv), {{applicability}} (the policy x family matrix from
experiments/compare/applicability.csv), {{v:FAMILY/GPU:LABEL:KEY[:FMT]}} (one number of
REPORTDIR/values.json; FMT a printf format, default %.3f; KEY be, viol, met, p99_ms, p99_norm,
vs_oracle, wins; a percentage with FMT pct).  An unknown placeholder is an error (exit 2).
"""
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: results.py REPORTDIR TEMPLATE OUT\n")
        sys.exit(2)
    rep, tpl, out = argv[1:]
    values = json.load(open(os.path.join(rep, "values.json")))
    text = open(tpl).read()

    def matrix():
        rows = list(csv.DictReader(open(os.path.join(HERE, "applicability.csv"))))
        fams = []
        for r in rows:
            if r["family"] not in fams:
                fams.append(r["family"])
        labels = []
        for r in rows:
            if r["label"] not in labels:
                labels.append(r["label"])
        cell = {(r["family"], r["label"]): r for r in rows}
        s = "| policy | " + " | ".join(fams) + " |\n|---|" + "---|" * len(fams) + "\n"
        for l in labels:
            cs = []
            for f in fams:
                r = cell[(f, l)]
                cs.append(r["knob"] if r["runs"] == "yes" else ("pending: " + r["why_not"] if r["runs"] == "pending"
                                                                else "no: " + r["why_not"]))
            s += "| %s | %s |\n" % (l, " | ".join(cs))
        return s

    def sub(m):
        k = m.group(1)
        if k.startswith("table:"):
            return open(os.path.join(rep, k[6:] + ".md")).read().rstrip() + "\n"
        if k.startswith("file:"):
            return open(os.path.join(rep, k[5:])).read().rstrip()
        if k == "findings":
            return open(os.path.join(rep, "findings.md")).read().rstrip()
        if k == "applicability":
            return matrix().rstrip()
        if k == "check_policies":
            rows = list(csv.DictReader(open(os.path.join(HERE, "h100check", "check.csv"))))
            fams = []
            for r in rows:
                if r["family"] not in fams:
                    fams.append(r["family"])
            t = "| family | run on the H100 | not run there, why |\n|---|---|---|\n"
            for f in fams:
                rs = [r for r in rows if r["family"] == f]
                t += "| %s | %s | %s |\n" % (
                    f, ", ".join(r["label"] + (" (%s)" % r["why_not"] if r["why_not"] else "") for r in rs if r["runs"] == "yes"),
                    "; ".join("%s: %s" % (r["label"], r["why_not"]) for r in rs if r["runs"] != "yes") or "-")
            return t.rstrip()
        if k == "power_models":
            pm = values.get("power_models", {})
            has = ["%s (%s)" % (g, m) for g, m in sorted(pm.items()) if m != "none"]
            none = [g for g, m in sorted(pm.items()) if m == "none"]
            text = "from the GPU description's power model, on %s" % (", ".join(has) or "no GPU")
            if none:
                text += ("; %s: no power model in the description (the tables say so, and fill in once one "
                         "lands)" % " and ".join(none))
            return text
        if k.startswith("v:"):
            parts = k[2:].split(":")
            fam, label, key = parts[0], parts[1], parts[2]
            fmt = parts[3] if len(parts) > 3 else "%.3f"
            try:
                x = values[fam][label][key]
            except KeyError:
                sys.stderr.write("results.py: %s: no value %s\n" % (tpl, k))
                sys.exit(2)
            if fmt == "pct":
                return "%.1f %%" % (100 * x)
            return fmt % x if not isinstance(x, str) else x
        sys.stderr.write("results.py: %s: unknown placeholder {{%s}}\n" % (tpl, k))
        sys.exit(2)

    text = re.sub(r"\{\{([^}]+)\}\}", sub, text)
    with open(out + ".tmp", "w") as f:
        f.write(text)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main(sys.argv)
