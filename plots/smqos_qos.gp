# SMQoS Fig. 7 (LS IPC over its target per pair at 95 % QoS policy, SMQoS / Spart / Rollover)
# and Fig. 8 (share of pairs meeting the target, per QoS policy and policy), from
# experiments/smqos/report.sh's fig7.csv and fig8.csv.
# Usage: gnuplot -e "dir='DIR'; out='plots/out/smqos_fig7_8.png'" plots/smqos_qos.gp
set terminal pngcairo size 1500,460 font ",10"
set output out
set datafile separator ","
set multiplot layout 1,2 title "SMQoS (simulated, GPGPU-Sim Table 2 GPU, 132 LS + batch pairs of Table 3)"
set title "Fig. 7: LS IPC / target at 95 % QoS policy, pairs sorted by SMQoS"
set xlabel "pair (LS + batch), sorted"
set ylabel "LS IPC / QoS target"
set yrange [0:2]
set key top left
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "gray"
plot "< tail -n +2 ".dir."/fig7.csv | sort -t, -k2,2g" using 0:2 with points pt 7 ps 0.5 title "SMQoS", \
     "" using 0:3 with points pt 5 ps 0.5 title "Spart", \
     "" using 0:4 with points pt 9 ps 0.5 title "Rollover", \
     "" using 0:5 with points pt 1 ps 0.5 title "Static-SMQoS"
unset arrow 1
set title "Fig. 8: QoS reach (share of pairs meeting the target)"
set xlabel "QoS policy"
set ylabel "pairs meeting the target (%)"
set yrange [0:105]
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key outside right
plot for [p in "smqos static-smqos spart rollover"] \
     "< awk -F, -v p=".p." 'NR > 1 && $2 == p' ".dir."/fig8.csv | sort -t, -k1,1" using 3:xtic(1) title p
unset multiplot
