# SMQoS Fig. 9 (active SMs and the batch task's opt_k per epoch, four mixes at 95 %), Fig. 10
# (batch throughput against Alg. 2's threshold beside LBM) and Fig. 12 (batch throughput,
# SMQoS against Offline) from experiments/smqos/report.sh's fig9.csv, fig10.csv, fig12.csv.
# Usage: gnuplot -e "dir='DIR'; out='plots/out/smqos_fig9_10_12.png'" plots/smqos_alloc.gp
set terminal pngcairo size 1500,460 font ",10"
set output out
set datafile separator ","
set multiplot layout 1,3 title "SMQoS (simulated, GPGPU-Sim Table 2 GPU, 24 SMs)"
set title "Fig. 9: active SMs (lines) and opt_k (dashed), 95 %"
set xlabel "epoch (10 K cycles)"
set ylabel "SMs"
set yrange [0:25]
set key bottom right
plot for [m in "000000 000001 000002 000003"] dir."/fig9.csv" using 2:(strcol(1) eq m ? $3 : 1/0) with lines lw 2 \
       title (m eq "000000" ? "BINO-CP" : m eq "000001" ? "BINO-LBM" : m eq "000002" ? "BICG-CP" : "BICG-LBM"), \
     for [m in "000000 000001 000002 000003"] dir."/fig9.csv" using 2:(strcol(1) eq m ? $4 : 1/0) with lines dt 2 notitle
set title "Fig. 10: batch throughput vs threshold (LS LBM, 95 %)"
set xlabel "threshold"
set ylabel "batch throughput / isolated (mean over batch tasks)"
set yrange [0:*]
set key off
plot dir."/fig10.csv" using 1:2 every ::1 with linespoints pt 7
set title "Fig. 12: batch throughput, SMQoS vs Offline (95 %)"
set xlabel "Offline batch throughput / isolated"
set ylabel "SMQoS batch throughput / isolated"
set xrange [0:1]
set yrange [0:1]
set size ratio -1
plot dir."/fig12.csv" using 4:5 every ::1 with points pt 7 ps 0.6, x lc rgb "gray" dt 2
unset multiplot
