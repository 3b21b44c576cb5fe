# COMBO Fig. 17: COMBO's BE throughput improvement over relaxed intra-SM sharing only (no switch to exact)
# in every group (game x Parboil app x DNN job), from fig17.csv (experiments/combo/fig16_17/report.sh).
# Usage: gnuplot -e "in='DIR/fig17.csv'; out='plots/out/fig17.png'" plots/fig17.gp
set terminal pngcairo size 1400,500 font ",10"
set output out
set datafile separator ","
set title "COMBO vs relaxed intra-SM sharing only: BE throughput improvement per group (Eq. 6), simulated; paper: 8.43 % mean, 23.3 % max"
set ylabel "improvement over relaxed intra-SM sharing only (%)"
set xlabel "group (32 per game: 8 Parboil apps x 4 DNN jobs)"
set style fill solid 0.8
set boxwidth 0.8
set grid ytics
set xrange [-1:128]
set key outside top center horizontal
game(s) = s eq "quake2" ? 1 : s eq "steel" ? 2 : s eq "dutm" ? 3 : 4
plot in every ::1 using ($0):(game(strcol(1)) == 1 ? $6 : 1/0) with boxes lc rgb "#1f77b4" title "Quake II", \
     '' every ::1 using ($0):(game(strcol(1)) == 2 ? $6 : 1/0) with boxes lc rgb "#ff7f0e" title "Severed Steel", \
     '' every ::1 using ($0):(game(strcol(1)) == 3 ? $6 : 1/0) with boxes lc rgb "#2ca02c" title "Deliver Us The Moon", \
     '' every ::1 using ($0):(game(strcol(1)) == 4 ? $6 : 1/0) with boxes lc rgb "#d62728" title "The Ascent", \
     8.43 with lines dt 2 lc rgb "black" title "paper mean (8.43 %)"
