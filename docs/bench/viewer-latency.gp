# The viewer's latency per path (docs/vcap-view.md):
#   gnuplot docs/bench/viewer-latency.gp  (from the source tree's top)
set terminal pngcairo size 900,420 font "sans,10"
set output "docs/bench/viewer-latency.png"
set title "vcap-view: buffer timestamp to shown (dequeue, wake-up), p50 and p99, 640x480 at 30 fps"
set ylabel "milliseconds"
set logscale y
set yrange [0.5:300]
set grid ytics
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -20
set key top left
plot "docs/bench/viewer-latency.dat" using 2:xtic(1) title "6.1 p50", \
     "" using 3 title "6.1 p99", \
     "" using 5 title "6.12 p50", \
     "" using 6 title "6.12 p99"
