# SMQoS Fig. 15 (LS task's NPM per co-location, and QoS reach) and Fig. 16 (batch NTP) on the
# H100 description: RH-SMQoS, SlateQoS, Volta-MPS simulated beside the paper's numbers, from
# experiments/smqos/report.sh's rh.csv and fig15_16.csv.
# Usage: gnuplot -e "dir='DIR'; out='plots/out/smqos_fig15_16.png'" plots/smqos_rh.gp
set terminal pngcairo size 1800,460 font ",10"
set output out
set datafile separator ","
set multiplot layout 1,3 title "SMQoS §6 on the H100 description (simulated; 16 LS + batch pairs x QoS policy 80-95 %)"
set title "Fig. 15: LS task NPM (T_solo / (QoS x T_co)), cases sorted per approach" noenhanced
set xlabel "co-location (pair x QoS policy), sorted"
set ylabel "NPM (>= 1: QoS met)"
set yrange [0:1.6]
set key top left
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "gray"
plot for [p in "rh-smqos slateqos volta-mps"] \
     "< awk -F, -v p=".p." 'NR > 1 && $3 == p { print $5 }' ".dir."/rh.csv | sort -g" using 0:1 with points pt 7 ps 0.5 title p
unset arrow 1
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top right
set title "Fig. 15: QoS reach"
set xlabel ""
set ylabel "co-locations meeting QoS (%)"
set yrange [0:105]
plot "< tail -n +2 ".dir."/fig15_16.csv" using 2:xtic(1) title "paper, all", "" using 3 title "simulated, all", \
     "" using 4 title "paper, 95 %", "" using 5 title "simulated, 95 %"
set title "Fig. 16: batch NTP (mean; paper: cases where all three met QoS, simulated: all 64)"
set ylabel "batch NTP (%)"
set yrange [0:100]
plot "< tail -n +2 ".dir."/fig15_16.csv" using 6:xtic(1) title "paper", "" using 7 title "simulated"
unset multiplot
