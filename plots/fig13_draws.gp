# COMBO Fig. 13 across two draws of the generated game load: per group, COMBO's improvement
# over Pilotfish on the BE throughput pooled over the draws (boxes) and the range of the two
# draws' own improvements (bars), from fig13_draws.csv (experiments/combo/fig13/draws_report.sh).
# Usage: gnuplot -e "in='DIR/fig13_draws.csv'; out='plots/out/fig13_draws.png'" plots/fig13_draws.gp
set terminal pngcairo size 1400,500 font ",10" noenhanced
set output out
set datafile separator ","
set title "COMBO vs Pilotfish per group, pooled over 2 draws of the game load (bars: the draws' range), simulated; paper: 14.0 % mean"
set ylabel "improvement over Pilotfish (%)"
set xlabel "group (32 per game: 8 Parboil apps x 4 DNN jobs)"
set style fill solid 0.6
set boxwidth 0.8
set grid ytics
set xrange [-1:128]
set key top left
min(a, b) = a < b ? a : b
max(a, b) = a > b ? a : b
game(s) = s eq "quake2" ? 1 : s eq "steel" ? 2 : s eq "dutm" ? 3 : 4
plot for [g = 1:4] in every ::1 using ($0):(game(strcol(1)) == g ? $6 : 1/0) with boxes \
         lc rgb word("#1f77b4 #ff7f0e #2ca02c #d62728", g) \
         title word("Quake2 Steel DUTM Ascent", g), \
     '' every ::1 using ($0):6:(min($4, $5)):(max($4, $5)) with yerrorbars ps 0 lc rgb "black" title "range of the 2 draws", \
     14.0 with lines dt 2 lc rgb "black" title "paper mean (14.0 %)"
