# COMBO Fig. 15: the distribution (CDF) of the QoS headroom between consecutive frames under
# relaxed intra-SM sharing, with and without headroom merging, from headroom.csv
# (experiments/combo/fig15/report.sh).
# Usage: gnuplot -e "in='DIR/headroom.csv'; out='plots/out/fig15.png'" plots/fig15.gp
set terminal pngcairo size 900,500 font ",10"
set output out
set datafile separator ","
set title "QoS headroom per frame (finish to next frame's start), relaxed intra-SM sharing, simulated\n(paper: merging significantly increases the headroom; no number given)"
set xlabel "headroom (ms)"
set ylabel "fraction of frames with headroom <= x"
set yrange [0:1.02]
set grid
set key bottom right
plot in every ::1 using (strcol(1) eq "no-merge" ? $3 : 1/0):(1) smooth cnormal lw 2 lc rgb "#7f7f7f" title "without merging", \
     '' every ::1 using (strcol(1) eq "merge" ? $3 : 1/0):(1) smooth cnormal lw 2 lc rgb "#1f77b4" title "with headroom merging"
