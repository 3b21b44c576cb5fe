"""A stored run's packed outputs (cuda/runs/*/): run.tgz, or run.tar.xz for the large ones
(repacked to keep the tracked tree under the device tool's transfer limit; their RUN.md says
so).  Python's tarfile reads either."""
import csv
import io
import os
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
