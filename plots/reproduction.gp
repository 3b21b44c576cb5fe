# Paper vs simulation for every row of a reproduction.csv with both numbers (metric,unit,paper,sim,note).
# Usage: gnuplot -e "in='DIR/reproduction.csv'; out='plots/out/NAME.png'; name='COMBO Table 3'" plots/reproduction.gp
set terminal pngcairo size 1000,500 font ",10"
set output out
set datafile separator ","
set title name . ": paper vs simulation"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
set xtics rotate by -35 noenhanced
set grid ytics
set key top right
plot in every ::1 using 3:xtic(1) title "paper" lc rgb "#7f7f7f", '' every ::1 using 4 title "simulated" lc rgb "#1f77b4"
