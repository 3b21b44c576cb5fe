# COMBO Fig. 2: under Pilotfish, the active time of all RT (black), CD (grey) and TC (red)
# kernels of each game x DNN pair, stacked, as a fraction of the QoS target, and the unused
# cycles above them, from fig2.csv (experiments/combo/fig2/report.sh).
# Usage: gnuplot -e "in='DIR/fig2.csv'; out='plots/out/fig2.png'" plots/fig2.gp
set terminal pngcairo size 1200,500 font ",10"
set output out
set datafile separator ","
set title "Pilotfish: active time per core type, normalised to the QoS target, simulated; paper: unused 10.6 % mean, 17.4 % max"
set ylabel "active time / QoS target"
set yrange [0:1.1]
set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border -1
set boxwidth 0.7
set xtics rotate by -45 noenhanced
set grid ytics
set key outside right top
plot in every ::1 using 3:xtic(stringcolumn(1) . " + " . stringcolumn(2)) lc rgb "black" title "RT kernels", \
     '' every ::1 using 4 lc rgb "#a0a0a0" title "CD kernels", \
     '' every ::1 using 5 lc rgb "#d62728" title "TC kernels", \
     '' every ::1 using 7 lc rgb "white" title "unused", \
     1 with lines dt 2 lc rgb "black" title "QoS target"
