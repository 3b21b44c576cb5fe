"""A stored run's packed outputs (cuda/runs/*/): run.tgz, or run.tar.xz for the large ones
(repacked to keep the tracked tree under the device tool's transfer limit; their RUN.md says
so).  Python's tarfile reads either."""
import argparse
import csv
import glob
import io
import os
import sys
import tarfile

NAMES = ('run.tgz', 'run.tar.xz')


def run_tar(run_dir):
    """The path of run_dir's packed run, or None when it holds none (an unpacked run)."""
    for name in NAMES:
        if os.path.isfile(os.path.join(run_dir, name)):
            return os.path.join(run_dir, name)
    return None


def csv_rows(path, suffix):
    """The rows of a CSV file, or of the first member whose name ends with `suffix` in a run's
    tarball (.tgz, .tar.gz, .tar.xz)."""
    if path.endswith(('.tgz', '.tar.gz', '.tar.xz')):
        with tarfile.open(path) as t:
            name = next((m for m in t.getnames() if m.endswith(suffix)), None)
            if name is None:
                raise SystemExit(f'{path}: no member ending in {suffix}')
            text = t.extractfile(name).read().decode()
    else:
        text = open(path).read()
    return list(csv.DictReader(io.StringIO(text)))


def run_file(run, name, tmp, who):
    """RUN/name, or the first member named `name` in RUN's run.tgz / run.tar.xz, or in RUN itself
    when it is a run's tarball (unpacked under tmp); `who` names the caller in the error."""
    p = os.path.join(run, name)
    if os.path.exists(p):
        return p
    packed = run if os.path.isfile(run) else run_tar(run)
    if packed is None:
        sys.exit('%s: %s holds neither %s, run.tgz nor run.tar.xz' % (who, run, name))
    with tarfile.open(packed) as t:
        t.extractall(os.path.join(tmp, 'run'))
    found = sorted(glob.glob(os.path.join(tmp, 'run', '**', name), recursive=True))
    if not found:
        sys.exit('%s: %s holds no %s' % (who, packed, name))
    return found[0]


def fit_args(doc):
    """The command line of a fit script over one stored run: RUN [--gpu MODEL.json] [--json]
    (--gpu default models/h200.json); `doc` the script's docstring."""
    ap = argparse.ArgumentParser(description=doc.split('\n')[0])
    ap.add_argument('run')
    ap.add_argument('--gpu', default='models/h200.json')
    ap.add_argument('--json', action='store_true')
    return ap.parse_args()
