# vGASA Fig. 7a-c: FPS of each game (left axis) and GPU usage (right axis) per 1 s window under
# SA, FSA and ESA, from experiments/vgasa/report.sh's fig7_<label>.csv.
# Usage: gnuplot -e "dir='DIR'; out='plots/out/vgasa_fig7.png'" plots/vgasa_fig7.gp
set terminal pngcairo size 1500,420 font ",10"
set output out
set datafile separator ","
set multiplot layout 1,3 title "vGASA Fig. 7 (simulated): FPS per game and GPU usage per second"
set xlabel "time (s)"
set ylabel "FPS"
set y2label "GPU usage (%)"
set yrange [0:60]
set y2range [0:100]
set ytics nomirror
set y2tics
set key bottom right
set grid ytics
do for [p in "SA FSA ESA"] {
	set title p
	plot dir."/fig7_".p.".csv" every ::1 using 1:2 with lines lw 1.5 title "DiRT 3", \
	     '' every ::1 using 1:3 with lines lw 1.5 title "Starcraft 2", \
	     '' every ::1 using 1:4 with lines lw 1.5 title "Farcry 2", \
	     '' every ::1 using 1:5 axes x1y2 with lines dt 2 lc rgb "black" title "GPU usage", \
	     30 with lines dt 3 lc rgb "gray" title "SLA 30 FPS"
}
unset multiplot
