#!/bin/sh
# The README runs as written: every command of its ```sh blocks (lines ending in '\' joined),
# from a scratch directory that shows the repository's inputs (bin/, experiments/, traces/,
# models/, cuda/) so that results/, q2.csv ... land there; every ```json block is an
# experiment that loads and runs.  Blocks fenced plainly are not run (make targets, cluster
# commands, sample output).  Usage: COMBOSIM=bin/combosim sh tests/readme.sh   (make test)
set -u
C=$(realpath "${COMBOSIM:-bin/combosim}")
README=${README:-README.md}
REPO=$(pwd)
T=$(mktemp -d /tmp/combosim-readme.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0; n=0
ok()  { n=$((n+1)); echo "ok   $n $1"; }
bad() { n=$((n+1)); fails=$((fails+1)); echo "FAIL $n $1"; }

# blocks of one language, one command (or JSON document) per record, records separated by NUL
blocks() {
	awk -v lang="$1" '
	/^```/ { if (inb) { inb = 0; if (lang == "json") printf "%s%c", doc, 0; next }
	         inb = ($0 == "```" lang); doc = ""; next }
	inb && lang == "json" { doc = doc $0 "\n"; next }
	inb && /^[[:space:]]*(#|$)/ { next }
	inb { line = cur $0; if (sub(/\\$/, "", line)) { cur = line; next } cur = ""; printf "%s%c", line, 0 }
	' "$README"
}

mkdir -p "$T/w/bin"
ln -s "$C" "$T/w/bin/combosim"
for d in experiments traces models cuda; do ln -s "$REPO/$d" "$T/w/$d"; done

blocks sh | tr '\0' '\n' >"$T/cmds"
[ -s "$T/cmds" ] || bad "no \`\`\`sh block in $README"
while IFS= read -r cmd; do
	(cd "$T/w" && sh -c "$cmd") >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	if [ $rc -eq 0 ]; then ok "README: $cmd"; else bad "README: $cmd: exit $rc: $(head -c 300 "$T/err")"; fi
done <"$T/cmds"

# the outputs the README promises of them
[ -s "$T/w/results/default/summary.json" ] && [ -s "$T/w/results/x/frames.csv" ] &&
	grep -q '"game_sms":	60' "$T/w/results/x/summary.json" && ! grep -q '"game_share":	0.75' "$T/w/results/x/summary.json" &&
	ok "README: results/default and results/x (game_share became game_sms) written" ||
	bad "README: results/default or results/x missing or game_share not replaced"

blocks json >"$T/docs"
njson=0
while [ -s "$T/docs" ]; do
	# the first NUL-terminated document
	awk 'BEGIN { RS = "\0" } NR == 1 { printf "%s", $0 }' "$T/docs" >"$T/w/example.json"
	awk 'BEGIN { RS = "\0"; ORS = "\0" } NR > 1' "$T/docs" >"$T/rest" && mv "$T/rest" "$T/docs"
	njson=$((njson + 1))
	if (cd "$T/w" && ./bin/combosim run example.json -q --out "results/json$njson") 2>"$T/err"; then
		ok "README: json example $njson runs"
	else
		bad "README: json example $njson: $(head -c 300 "$T/err")"
	fi
done
[ $njson -gt 0 ] || bad "no \`\`\`json block in $README"

echo "readme: $((n-fails))/$n passed"
[ $fails -eq 0 ]
