#!/usr/bin/env python3
"""stop_on_term.py - runs ncu_iter.py unchanged, but ends it cleanly on SIGTERM.

Writes its pid to $PIDFILE; device_run.sh sends SIGTERM when its budget ends, the iteration
stops at the next Python statement and exits, and ncu prints the rows it has collected
(killing ncu itself loses them all: it prints at the application's exit).

Usage (repository root): python3 stop_on_term.py NCU_ITER_PY MODEL [WARMUP] [BATCH]
"""
import os
import runpy
import signal
import sys


def main():
    def stop(_sig, _frame):
        print("SIGTERM: stopping the iteration", file=sys.stderr, flush=True)
        raise SystemExit(3)

    signal.signal(signal.SIGTERM, stop)
    if os.environ.get("PIDFILE"):
        with open(os.environ["PIDFILE"], "w") as f:
            f.write("%d\n" % os.getpid())
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
