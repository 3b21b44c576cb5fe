# COMBO Fig. 14: the games' average and 99th-percentile FPS under COMBO in every group, from
# fig14.csv (experiments/combo/fig13/report.sh).
# Usage: gnuplot -e "in='DIR/fig14.csv'; out='plots/out/fig14.png'" plots/fig14.gp
set terminal pngcairo size 1400,450 font ",10"
set output out
set datafile separator ","
set title "COMBO: FPS per group (target 120), simulated; paper: average > 119, 99th percentile > 117"
set ylabel "FPS"
set xlabel "group"
set yrange [95:121]
set grid ytics
set key bottom right
plot in every ::1 using ($0):4 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "average FPS", \
     '' every ::1 using ($0):5 with points pt 5 ps 0.6 lc rgb "#d62728" title "99th-percentile FPS (frames in 1 s that 99 % of sliding windows reach)", \
     '' every ::1 using ($0):7 with points pt 9 ps 0.6 lc rgb "#2ca02c" title "99th-percentile FPS from per-frame intervals", \
     119 with lines dt 2 lc rgb "#1f77b4" notitle, 117 with lines dt 2 lc rgb "#d62728" notitle
