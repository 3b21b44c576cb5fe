# G-Space Fig. 9 (NN's and LR's degradation-prediction errors per pair) and Fig. 10 (each
# search's final BE throughput over brute force's best, its search time over brute force's, and
# its share of trials meeting QoS) from experiments/gspace/report.py's fig9.csv and fig10.csv.
# Usage: gnuplot -e "dir='DIR'; out='plots/out/gspace_fig9_10.png'" plots/gspace_search.gp
set terminal pngcairo size 1600,480 font ",10"
set output out
set datafile separator ","
set termoption noenhanced
set multiplot layout 1,2 title "G-Space configuration searches (simulated, TITAN V model)"
set title "Fig. 9: relative prediction error over every configuration"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
set ylabel "relative error"
set yrange [0:1]
set xtics rotate by 60 right font ",7"
set key top left font ",8"
plot dir."/fig9.csv" using 2:xtic(1) every ::1 title "NN, BE", '' using 3 every ::1 title "NN, LC", \
     '' using 4 every ::1 title "LR, BE", '' using 5 every ::1 title "LR, LC"
set title "Fig. 10: final throughput / optimum, search time / brute force, trials meeting QoS"
set xtics norotate font ",9"
set yrange [0:1.2]
set ylabel "fraction"
plot dir."/fig10.csv" using 2:xtic(1) every ::1 title "throughput / optimum", '' using 3 every ::1 title "search time / brute force", \
     '' using 4 every ::1 title "trials meeting QoS"
unset multiplot
