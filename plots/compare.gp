# Cross-policy comparison, one figure per family (experiments/compare/README.md): for each GPU,
# left the Pareto view (BE throughput against QoS violation rate, means over the family's
# workloads; the oracle is the best static split meeting QoS per workload), right each policy's
# p99 latency over the QoS target (bars) with its SM busy fraction (points) and, where the GPU
# description has a power model, its energy in J (crosses, right axis scaled to the largest).
# Data: DIR/<family>_<gpu>.dat (experiments/compare/reduce.py), one row of panels per GPU.
# Usage: gnuplot -e "dir='DIR'; fam='combo'; title='...'; gpus='rtx3090 h100'; out='plots/out/compare_combo.png'" plots/compare.gp
set terminal pngcairo size 1400,(450 * words(gpus)) font ",9"
set output out
set multiplot layout words(gpus),2 title title
do for [i = 1:words(gpus)] {
	g = word(gpus, i)
	f = sprintf("%s/%s_%s.dat", dir, fam, g)
	set title sprintf("%s: BE throughput vs QoS violations (means over workloads)", g)
	set xlabel "QoS violation rate (%: frames, LS-rate windows or LC kernels missing the target)"
	set ylabel "BE throughput (Eq. 6, GPU-seconds per second)"
	set grid
	set key off
	set offsets graph 0.05, graph 0.15, graph 0.08, graph 0.05
	set xrange [0:*]
	plot f using 3:2 with points pt 7 ps 1.2 lc rgb "#1f77b4", \
	     f using 3:2:1 with labels offset 0,0.8 font ",8"
	unset offsets
	set xrange [*:*]
	set title sprintf("%s: p99 latency over the target, SM busy", g)
	set xlabel ""
	set ylabel "p99 latency / QoS target"
	set y2label "SM busy fraction; energy / the largest"
	set y2tics
	set yrange [0:*]
	set y2range [0:1.05]
	set style fill solid 0.7
	set boxwidth 0.7
	set xtics rotate by -40 font ",8"
	set key top left
	plot f using 0:4:xtic(1) with boxes lc rgb "#ff7f0e" title "p99 / target", \
	     f using 0:5 axes x1y2 with points pt 7 lc rgb "black" title "SM busy", \
	     f using 0:8 axes x1y2 with points pt 2 ps 1.5 lc rgb "#2ca02c" title "energy / max (power model only)", \
	     1 with lines dt 2 lc rgb "red" title "target"
	unset y2tics
	unset y2label
	set xtics norotate font ",9"
	set yrange [*:*]
}
unset multiplot
