# COMBO Fig. 13 per game: the mean over each game's 32 groups of COMBO's BE throughput
# improvement over Pilotfish (Eq. 6), simulated beside the paper's (§6.3: Quake II 16.8 %,
# the others 12.9 / 8.55 / 12.6 %, their order assumed Severed Steel / DUTM / The Ascent),
# from the fig13 report's reproduction.csv (rows fig13_<game>_mean: metric,unit,paper,sim,note).
# Usage: gnuplot -e "in='DIR/reproduction.csv'; out='plots/out/fig13_games.png'" plots/fig13_games.gp
set terminal pngcairo size 900,500 font ",10"
set output out
set datafile separator ","
set title "COMBO vs Pilotfish per game: mean BE throughput improvement over 32 groups (Eq. 6), simulated;\npaper: Quake II 16.8 %, the others 12.9 / 8.55 / 12.6 % unnamed (order assumed)"
set ylabel "improvement over Pilotfish (%)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
set grid ytics
set key outside top center horizontal
set yrange [0:*]
rows = "< awk -F, '$1 ~ /^fig13_(quake2|steel|dutm|ascent)_mean$/' " . in
name(m) = m eq "fig13_quake2_mean" ? "Quake II" : m eq "fig13_steel_mean" ? "Severed Steel" : \
	  m eq "fig13_dutm_mean" ? "Deliver Us The Moon" : "The Ascent"
plot rows using 3:xtic(name(strcol(1))) title "paper" lc rgb "#7f7f7f", \
     rows using 4 title "simulated" lc rgb "#1f77b4"
