# SMQoS Fig. 20 (LS NPM per pair on the A100, RH-SMQoS against MIG, at the 2:1 and 1:1 splits,
# "67 %" and "50 %" QoS policy) and Fig. 21 (batch NTP), from experiments/smqos/mig_report.sh's
# fig20.csv (source,pair,policy,qos,npm,ntp,reached).
# Usage: gnuplot -e "dir='DIR'; out='plots/out/smqos_fig20_21.png'" plots/smqos_fig20.gp
set terminal pngcairo size 1500,520 font ",10"
set output out
set datafile separator ","
set multiplot layout 1,2 title "SMQoS §6.6 (simulated, A100 description, 16 LS + batch pairs of §6)"
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -45 font ",8"
set key top left
sel(p, q) = "< awk -F, -v p=".p." -v q=".q." 'NR > 1 && $3 == p && $4 == q' ".dir."/fig20.csv | sort -t, -k2,2"
set title "Fig. 20: LS NPM (> 1: QoS target met)"
set ylabel "NPM = T_{solo} / (QoS x T_{co})"
set yrange [0:2.2]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "gray"
plot sel("rh-smqos", "0.67") using 5:xtic(2) title "RH-SMQoS 67 %", sel("mig", "0.67") using 5 title "MIG 4g+2g (67 %)", \
     sel("rh-smqos", "0.50") using 5 title "RH-SMQoS 50 %", sel("mig", "0.50") using 5 title "MIG 3g+3g (50 %)"
unset arrow 1
set title "Fig. 21: batch NTP (throughput over isolated)"
set ylabel "NTP = T_{solo} / T_{co}"
set yrange [0:1.2]
plot sel("rh-smqos", "0.67") using 6:xtic(2) title "RH-SMQoS 67 %", sel("mig", "0.67") using 6 title "MIG 4g+2g (67 %)", \
     sel("rh-smqos", "0.50") using 6 title "RH-SMQoS 50 %", sel("mig", "0.50") using 6 title "MIG 3g+3g (50 %)"
unset multiplot
