#!/bin/sh
# `make install` into a temporary DESTDIR, then the installed program run from directories that
# are not the repository: every shipped experiment, every shipped sweep's points, the trace
# generators, a moved installation, and the lookup order of base/datadir.h.
# Usage: MAKE="make MODE=release" sh tests/install.sh   (run by make test)
set -u
MAKE=${MAKE:-make}
T=$(mktemp -d /tmp/combosim-install.XXXXXX)
trap 'rm -rf "$T"' EXIT
REPO=$(pwd)
fails=0; n=0
ok()  { n=$((n+1)); echo "ok   $n $1"; }
bad() { n=$((n+1)); fails=$((fails+1)); echo "FAIL $n $1"; }

if ! $MAKE --no-print-directory -s install DESTDIR="$T/stage" >"$T/make.log" 2>&1; then
	bad "make install DESTDIR: $(tail -c 400 "$T/make.log")"; exit 1
fi
P=$T/stage/usr/local
C=$P/bin/combosim
D=$P/share/combosim
missing=""
for f in bin/combosim share/man/man1/combosim.1 share/doc/combosim/README.md \
	share/combosim/models/rtx3090.json share/combosim/models/h100.json \
	share/combosim/traces/games/quake2.json share/combosim/traces/be/mri-q.json \
	share/combosim/traces/dnn/resnet50.json share/combosim/traces/samples/presentmon_v1.csv \
	share/combosim/traces/smqos/README.md share/combosim/traces/gspace/microbench.json \
	share/combosim/experiments/default.json share/combosim/experiments/combo/workloads/quake2.csv; do
	[ -f "$P/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && ok "installed: program, man page, docs, models, traces, experiments" || bad "not installed:$missing"
[ -x "$C" ] && ok "installed program is executable" || bad "installed program not executable"

# From an empty directory: the experiment itself, its GPU and its workloads come from the data
# directory beside the program, and the file taken is named.
W=$T/a/b/elsewhere
mkdir -p "$W"
cd "$W" || exit 1
if "$C" run experiments/default.json --set duration_ms=20 -q --out r >"$T/out" 2>"$T/err" &&
	grep -qF "using $D/experiments/default.json" "$T/err" &&
	grep -qF "\"description\":	\"$D/experiments/../models/rtx3090.json\"" r/summary.json; then
	ok "run experiments/default.json from an empty directory: data directory used and named"
else
	bad "run from an empty directory: $(head -c 300 "$T/err") $(grep -F description r/summary.json 2>/dev/null)"
fi

shipped=0 broken=""
for f in $(cd "$D" && ls experiments/*.json experiments/*/*.json); do
	case $f in
	*/workloads*) continue ;;
	experiments/sweeps/* | *_sweep.json) "$C" sweep "$D/$f" --dry-run --out "$T/sw" >/dev/null 2>"$T/err" ;;
	*) "$C" run "$D/$f" --set duration_ms=5 -q --out "$T/x" 2>"$T/err" ;;
	esac || broken="$broken $f ($(head -c 200 "$T/err"))"
	shipped=$((shipped + 1))
done
[ -z "$broken" ] && [ $shipped -gt 20 ] && ok "all $shipped installed experiments and sweeps run from $W" ||
	bad "installed experiments fail ($shipped tried):$broken"

if "$C" trace gen game --game quake2 --frames 5 >"$T/g.csv" 2>"$T/err" && [ "$(wc -l <"$T/g.csv")" -gt 5 ] &&
	"$C" trace gen be --app mri-q >"$T/b.json" 2>>"$T/err" && "$C" trace check "$T/b.json" --gpu rtx3090 >/dev/null 2>>"$T/err"; then
	ok "trace gen finds the shipped profiles and models from $W"
else
	bad "trace gen from $W: $(head -c 300 "$T/err")"
fi

# The lookup order: a file beside the experiment, then the current directory, then the data
# directory.  A local experiments/default.json and models/rtx3090.json take precedence.
mkdir -p experiments models
sed 's/"name": *"default"/"name": "local-copy"/' "$D/experiments/default.json" >experiments/default.json
"$C" run experiments/default.json --set duration_ms=5 -q --out r2 2>"$T/err"
if grep -qF '"experiment":	"local-copy"' r2/summary.json && ! grep -qF using "$T/err"; then
	ok "an experiment in the current directory wins over the data directory"
else
	bad "local experiment not preferred: $(head -c 300 "$T/err")"
fi
sed 's/"name": *"[^"]*"/"name": "local-gpu"/' "$D/models/rtx3090.json" >models/rtx3090.json
mkdir -p "$T/x/y/z"
cp "$D/experiments/default.json" "$T/x/y/z/e.json"
"$C" run "$T/x/y/z/e.json" --set duration_ms=5 -q --out r3 2>"$T/err"
if grep -qF "\"description\":	\"models/rtx3090.json\"" r3/summary.json; then
	ok "a GPU in ./models wins over the data directory"
else
	bad "./models not preferred: $(grep -F description r3/summary.json 2>/dev/null) $(head -c 200 "$T/err")"
fi
mkdir -p "$T/exp/sub" "$T/models"
cp "$D/experiments/default.json" "$T/exp/sub/e.json"
sed 's/"name": *"[^"]*"/"name": "beside-gpu"/' "$D/models/rtx3090.json" >"$T/models/rtx3090.json"
"$C" run "$T/exp/sub/e.json" --set duration_ms=5 -q --out r4 2>"$T/err"
if grep -qF "\"description\":	\"$T/exp/sub/../../models/rtx3090.json\"" r4/summary.json; then
	ok "a GPU beside the experiment (its ../../models) wins over ./models"
else
	bad "experiment-relative GPU not preferred: $(grep -F description r4/summary.json 2>/dev/null) $(head -c 200 "$T/err")"
fi
rm -rf experiments models

# A moved installation still finds its data (beside the program), and a program with no data
# anywhere says where it looked.
mv "$T/stage/usr/local" "$T/moved"
if "$T/moved/bin/combosim" run experiments/default.json --set duration_ms=5 -q --out r5 2>"$T/err"; then
	ok "a moved installation finds its data"
else
	bad "moved installation: $(head -c 300 "$T/err")"
fi
mkdir -p "$T/bare/bin"
cp "$T/moved/bin/combosim" "$T/bare/bin/"
"$T/moved/bin/combosim" help | grep -q "^Data directory .*: /.*/share/combosim$" &&
	ok "help names the compiled-in data directory" || bad "help does not name the data directory"
if [ ! -e "$("$T/moved/bin/combosim" help | sed -n 's/^Data directory .*: //p')" ]; then
	"$T/bare/bin/combosim" run "$REPO/tests/bad/unknown_gpu.json" >/dev/null 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && grep -qF "looked beside the experiment, in ./models and in the data directory" "$T/err" &&
		ok "no data anywhere: exit 2 naming where it looked" || bad "no data: exit $rc, $(head -c 300 "$T/err")"
fi

echo "install: $((n-fails))/$n passed"
[ $fails -eq 0 ]
