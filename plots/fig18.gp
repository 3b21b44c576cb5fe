# COMBO Fig. 18: the render time of each frame of a Severed Steel trace and the scheme COMBO
# took for it: blue background = exact integrated SM sharing (stable load), white = relaxed
# intra-SM sharing (fluctuating load), from fig18.csv (experiments/combo/fig18/report.sh).
# Usage: gnuplot -e "in='DIR/fig18.csv'; out='plots/out/fig18.png'" plots/fig18.gp
set terminal pngcairo size 1400,500 font ",10"
set output out
set datafile separator ","
set title "COMBO's scheme over a Severed Steel trace (4 s of stable and 4 s of dynamic load in turn), simulated\nblue: exact integrated SM sharing; white: relaxed intra-SM sharing"
set xlabel "frame"
set ylabel "render time (ms)"
set yrange [4:9.5]
set xrange [-1:*]
set autoscale xfixmax
set grid ytics
set key bottom left opaque
set style fill solid 1.0 noborder
set boxwidth 1
plot in every ::1 using 1:($4 == 1 ? 9.5 : 1/0) with boxes lc rgb "#c6dbef" title "exact integrated SM sharing", \
     '' every ::1 using 1:2 with lines lw 1.5 lc rgb "black" title "render time alone on the whole GPU (trace)", \
     '' every ::1 using 1:3 with points pt 7 ps 0.35 lc rgb "#d62728" title "render time under COMBO (finish - start)", \
     1000.0/120 with lines dt 2 lc rgb "black" title "QoS target (8.33 ms)"
