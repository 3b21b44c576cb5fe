# Shared by the end-to-end scripts that source it (tests/e2e_plot.sh, tests/e2e_validate.sh):
# the binary C ($COMBOSIM), a scratch directory T removed at exit (prefix NAME), the counters and
# the reporting helpers.  Usage: NAME=e2e-x; . tests/e2e_lib.sh
set -u
C=${COMBOSIM:-bin/combosim}
T=$(mktemp -d "/tmp/combosim-$NAME.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0; n=0
ok()   { n=$((n+1)); echo "ok   $n $1"; }
bad()  { n=$((n+1)); fails=$((fails+1)); echo "FAIL $n $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# expect_error NAME EXPECTED-EXIT EXPECTED-STDERR-SUBSTRING -- ARGS...
expect_error() {
	name=$1 code=$2 want=$3; shift 4
	"$C" "$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -ne "$code" ]; then bad "$name: exit $rc, expected $code ($(head -c 300 "$T/err"))"; return; fi
	if ! grep -qF -- "$want" "$T/err"; then bad "$name: stderr lacks '$want': $(head -c 300 "$T/err")"; return; fi
	ok "$name"
}
