# The rows of a RESULTS.md table from a reproduction.csv (metric,unit,paper,simulated,note;
# unquoted, so a note's commas are its own): the gap, absolute and relative, beside each pair.
# Usage: awk -F, -f experiments/results_table.awk REPRODUCTION.csv
NR > 1 {
	note = $5; for (i = 6; i <= NF; i++) note = note "," $i
	gap = ($3 == "" || $4 == "") ? "" : sprintf("%+.2f", $4 - $3)
	rel = ($3 == "" || $4 == "" || $3 == 0) ? "" : sprintf(" (%+.1f %%)", 100 * ($4 - $3) / $3)
	printf "| %s | %s | %s | %s | %s%s | %s |\n", $1, $2, $3, $4, gap, rel, note
}
