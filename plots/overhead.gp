# COMBO §6.7 online overhead: average time per frame of COMBO's prediction and scheme selection,
# the paper's (host side of the RTX 3090 testbed) beside ours (wall-clock in the simulator
# process), on a log scale, from reproduction.csv (experiments/combo/overhead/report.sh).
# Usage: gnuplot -e "in='DIR/reproduction.csv'; out='plots/out/overhead.png'" plots/overhead.gp
set terminal pngcairo size 700,450 font ",10"
set output out
set datafile separator ","
set title "COMBO online overhead per frame: paper vs simulator process (wall-clock)"
set ylabel "ms per frame (log scale)"
set logscale y
set yrange [1e-5:1]
set format y "10^{%L}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
set grid ytics
set xtics noenhanced
set key top right
plot in every ::1 using 3:xtic(1) title "paper" lc rgb "#7f7f7f", '' every ::1 using 4 title "simulated" lc rgb "#1f77b4"
