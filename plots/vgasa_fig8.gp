# vGASA Fig. 8: per-frame FPS of PostProcess (reference 60) for (a) kp with ki = 0 and (b) ki
# with kp = 0.1, and (c) the closed-loop poles of Eq. 7 in the unit circle, from
# experiments/vgasa/report.sh's fig8.csv.
# Usage: gnuplot -e "in='DIR/fig8.csv'; rep='DIR/reproduction.csv'; out='plots/out/vgasa_fig8.png'" plots/vgasa_fig8.gp
set terminal pngcairo size 1500,420 font ",10"
set output out
set datafile separator ","
set multiplot layout 1,3 title "vGASA Fig. 8 (simulated): PostProcess alone, reference 60 FPS"
set xlabel "frame"
set ylabel "FPS (present to present)"
set yrange [40:80]
set xrange [0:60]
set key top right
set title "(a) kp, ki = 0"
plot for [p in "kp0.5-ki0 kp0.25-ki0 kp0.1-ki0"] in using ($2):(strcol(1) eq p ? $4 : 1/0) with linespoints pt 7 ps 0.4 title p
set title "(b) ki, kp = 0.1"
plot for [p in "kp0.1-ki0.5 kp0.1-ki0.1 kp0.1-ki0.05"] in using ($2):(strcol(1) eq p ? $4 : 1/0) with linespoints pt 7 ps 0.4 title p
set title "(c) poles (Eq. 7), kp = 0.1"
set xlabel "Re"
set ylabel "Im"
set xrange [-1.2:1.2]
set yrange [-1.2:1.2]
set size ratio -1
set parametric
set trange [0:2*pi]
plot cos(t), sin(t) lc rgb "gray" title "unit circle", \
     rep using (strcol(1)[1:10] eq "fig8c_pole" ? $4 : 1/0):(0) with points pt 7 ps 1.5 title "simulated poles (ki 0.5, 0.1, 0.05)", \
     rep using (strcol(1)[1:10] eq "fig8c_pole" ? $3 : 1/0):(0) with points pt 6 ps 2.5 title "paper's poles"
unset parametric
unset multiplot
