"""What generate.py and reduce.py share: an error that exits 2 with the script's name, and
reading a JSON file through it."""
import json
import os
import sys


def die(msg):
    sys.stderr.write("%s: %s\n" % (os.path.basename(sys.argv[0]), msg))
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))
