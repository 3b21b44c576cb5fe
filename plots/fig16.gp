# COMBO Fig. 16: COMBO's BE throughput improvement over COMBO-NM (headroom merging off)
# in every group (game x Parboil app x DNN job), from fig16.csv (experiments/combo/fig16_17/report.sh).
# Usage: gnuplot -e "in='DIR/fig16.csv'; out='plots/out/fig16.png'" plots/fig16.gp
set terminal pngcairo size 1400,500 font ",10"
set output out
set datafile separator ","
set title "COMBO vs COMBO-NM (no headroom merging): BE throughput improvement per group (Eq. 6), simulated; paper: 6.74 % mean, 19.8 % max"
set ylabel "improvement over COMBO-NM (no headroom merging) (%)"
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
     6.74 with lines dt 2 lc rgb "black" title "paper mean (6.74 %)"
