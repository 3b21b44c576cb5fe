# Paper vs simulation for every row of a reproduction.csv with both numbers (metric,unit,paper,sim,note).
# Each bar pair is labelled with its metric and unit; a row whose note says it is a calibration
# input is labelled [calibration input]: its simulated value was fitted to the paper's, so it
# checks consistency, not prediction.
# Usage: gnuplot -e "in='DIR/reproduction.csv'; out='plots/out/NAME.png'; name='COMBO Table 3'" plots/reproduction.gp
set terminal pngcairo size 1100,720 font ",10"
set output out
set datafile separator ","
set title name . ": paper vs simulation"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
set xtics rotate by -35 noenhanced
set grid ytics
set key top right
set ylabel "value (unit under each pair)"
set bmargin 17
set rmargin 12
lab(m, u, n) = (strstrt(n, "calibration") > 0 ? "[calibration input] " : "") . m . " (" . u . ")"
plot in every ::1 using 3:xtic(lab(strcol(1), strcol(2), strcol(5))) title "paper" lc rgb "#7f7f7f", \
     '' every ::1 using 4 title "simulated" lc rgb "#1f77b4"
