# Aggregate frame rate and guest CPU against the number of boards streaming
# at once, 1920x1080 YUYV; one line per board kind and rate asked.
# Variables: dats (data files scale-K-BOARD-RATE.dat, space separated;
# columns: N, aggregate fps, CPU busy %, CPU ms per frame), out, kernel.
set terminal pngcairo size 1100,480 font "sans,10"
set output out
set key top left
set grid
set xlabel "boards streaming at once (N)"
set xrange [0:17]
set xtics (1, 2, 4, 8, 16)
label(d) = (strstrt(d, "-pci-") ? "PCI" : "software") . (strstrt(d, "-top.dat") ? ", top rate" : ", 60 fps") . " asked"
colour(d) = (strstrt(d, "-pci-") ? (strstrt(d, "-top.dat") ? 0x9467bd : 0xc5b0d5) : (strstrt(d, "-top.dat") ? 0xd62728 : 0xff9896))
set multiplot layout 1,2 title "Many boards streaming 1920x1080 YUYV, ".kernel." (software emulation)"
set title "aggregate frame rate"
set ylabel "frames per second, all boards"
set yrange [0:*]
plot for [d in dats] d using 1:2 with linespoints lw 2 pt 7 lc rgb colour(d) title label(d)
set title "guest CPU"
set ylabel "busy, % of all guest CPUs"
set yrange [0:105]
plot for [d in dats] d using 1:3 with linespoints lw 2 pt 7 lc rgb colour(d) title label(d)
unset multiplot
