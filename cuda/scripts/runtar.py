"""A stored run's packed outputs (cuda/runs/*/): run.tgz, or run.tar.xz for the large ones
(repacked to keep the tracked tree under the device tool's transfer limit; their RUN.md says
so).  Python's tarfile reads either."""
import os

NAMES = ('run.tgz', 'run.tar.xz')


def run_tar(run_dir):
    """The path of run_dir's packed run, or None when it holds none (an unpacked run)."""
    for name in NAMES:
        if os.path.isfile(os.path.join(run_dir, name)):
            return os.path.join(run_dir, name)
    return None
