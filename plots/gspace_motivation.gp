# G-Space Fig. 2 (LC latency over solo time when launched right after a BE kernel, nothing
# yielded), Fig. 3 (solo speed by SMs), Fig. 4 (solo speed by blocks per SM) and Fig. 5-6 (LC
# speed and BE throughput with 280 BE blocks yielded) from experiments/gspace/report.py's
# fig2.csv, fig3.csv, fig4.csv, fig56.csv.
# Usage: gnuplot -e "dir='DIR'; out='plots/out/gspace_fig2_6.png'" plots/gspace_motivation.gp
set terminal pngcairo size 1600,900 font ",10"
set output out
set datafile separator ","
set termoption noenhanced
set multiplot layout 2,2 title "G-Space motivation (simulated, TITAN V model, 80 SMs)"
set title "Fig. 2: LC latency / solo time, launched after the BE kernel (k = 0)"
set style data histograms
set style fill solid 0.8
set boxwidth 0.8
set logscale y
set ylabel "latency / solo (log)"
set xtics rotate by 60 right font ",7"
set key off
plot dir."/fig2.csv" using 2:xtic(1) every ::1 lc rgb "#c0392b", 10 with lines dt 2 lc rgb "gray"
unset logscale y
set style data linespoints
set title "Fig. 3: speed alone on n SMs (k = K) / whole GPU"
set xlabel "SMs"
set ylabel "speed / whole GPU"
set xtics norotate font ",9"
set xrange [0:82]
set yrange [0:*]
set key bottom right font ",8"
B = "cfd md mm nn bp lbm hotspot pf sc spmv"
plot for [b in B] dir."/fig3.csv" using 2:(strcol(1) eq b ? $3 : 1/0) pt 7 ps 0.5 title b
set title "Fig. 4: speed alone on k blocks per SM (80 SMs) / whole GPU"
set xlabel "blocks per SM"
set xrange [0:17]
plot for [b in B] dir."/fig4.csv" using 2:(strcol(1) eq b ? $3 : 1/0) pt 7 ps 0.5 title b
set title "Fig. 5-6: 280 BE blocks yielded: LC speed (x) against BE throughput (y)"
set xlabel "LC speed (solo time / latency)"
set ylabel "BE throughput (1 = alone)"
set xrange [0:1.05]
set yrange [0:*]
set key outside right font ",7"
C = "35-8 40-7 56-5 70-4"
plot for [c in C] dir."/fig56.csv" using 3:(strcol(2) eq c ? $4 : 1/0) with points pt 7 ps 0.8 title "(n,k) = ".c
unset multiplot
