# COMBO Fig. 4 and Fig. 7 as the paper draws them: the makespan reduction (Eq. 1) of every
# kernel pair, an OptiX RT kernel beside a Parboil CD kernel or the TC kernel (tzgemm), with the
# RT kernel in its original form (Fig. 4) and in its PTB form (Fig. 7); from corun.csv of
# experiments/combo/fig4_fig7.json (rows: first,second,variant,...,makespan_reduction).
# Simulated: the paper's bars are not stored (its text gives Fig. 7's RT+CD mean 13.7 %, max 25.9 %).
# Usage: gnuplot -e "in='DIR/corun.csv'; out='plots/out/fig4_fig7_pairs.png'" plots/fig4_fig7_pairs.gp
set terminal pngcairo size 1400,800 font ",10"
set output out
set datafile separator ","
set style fill solid 0.8
set boxwidth 0.8
set grid ytics
set ylabel "makespan reduction (%)"
set xtics rotate by -60 noenhanced font ",8"
set key top right
set yrange [-10:50]
rt(s) = s eq "pathtracer" ? 1 : s eq "cutouts" ? 2 : s eq "whitted" ? 3 : 4
set multiplot layout 2,1
do for [v in "original ptb"] {
	set title (v eq "original" ? "Fig. 4: RT kernels in their original form beside BE kernels (simulated)" : \
		   "Fig. 7: RT kernels in their PTB form beside BE kernels (simulated; paper: RT+CD mean 13.7 %, max 25.9 %; RT+TC 0 or below)")
	rows = "< awk -F, '$3 == \"" . v . "\"' " . in
	plot rows using ($0):(rt(strcol(1)) == 1 ? 100 * $7 : 1/0):xtic(strcol(1) . "+" . strcol(2)) with boxes lc rgb "#1f77b4" title "pathtracer", \
	     rows using ($0):(rt(strcol(1)) == 2 ? 100 * $7 : 1/0) with boxes lc rgb "#ff7f0e" title "cutouts", \
	     rows using ($0):(rt(strcol(1)) == 3 ? 100 * $7 : 1/0) with boxes lc rgb "#2ca02c" title "whitted", \
	     rows using ($0):(rt(strcol(1)) == 4 ? 100 * $7 : 1/0) with boxes lc rgb "#d62728" title "motionblur"
}
unset multiplot
