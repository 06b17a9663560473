# Settings of the latency plot (the plot command is given by report.sh).
# Variables: out, kernel.
set terminal pngcairo size 800,480 font "sans,10"
set output out
set title "Latency, buffer timestamp to dequeue, 1920x1080 YUYV, ".kernel
set xlabel "milliseconds"
set ylabel "fraction of frames"
set yrange [0:1.02]
set logscale x
set grid
set key bottom right
