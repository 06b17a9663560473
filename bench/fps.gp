# Frames per second against frame size, one line per driver; YUYV and NV12.
# The columns follow report.awk's targets: its T list, in order.
# Variables: dats (data files, one per format, space separated), out, kernel.
set terminal pngcairo size 1100,520 font "sans,10"
set output out
set datafile missing "NaN"
set logscale y
set grid ytics mytics
set key outside right top
set ylabel "frames per second (zero drops)"
set xlabel "frame size"
set multiplot layout 1,words(dats) title "Maximum sustained frame rate, V4L2 MMAP, ".kernel." (software emulation)"
do for [d in dats] {
	set title (strstrt(d, "NV12") ? "NV12" : "YUYV")
	plot d using 0:2:xticlabels(1) with lines dt 2 lw 2 lc rgb "gray40" title "memcpy limit", \
	     '' using 0:3 with linespoints lw 2 pt 7 lc rgb "#d62728" title "vcap soft", \
	     '' using 0:4 with linespoints lw 2 pt 6 lc rgb "#8c564b" title "vcap soft, running free", \
	     '' using 0:5 with linespoints lw 2 pt 5 lc rgb "#e377c2" title "vcap PCI, DMA", \
	     '' using 0:6 with linespoints lw 2 pt 4 lc rgb "#9467bd" title "vcap PCI, copy", \
	     '' using 0:7 with linespoints lw 2 pt 5 lc rgb "#9467bd" title "vcap PCI", \
	     '' using 0:8 with linespoints lw 2 pt 9 lc rgb "#1f77b4" title "vivid", \
	     '' using 0:9 with linespoints lw 2 pt 11 lc rgb "#2ca02c" title "v4l2loopback fresh", \
	     '' using 0:10 with linespoints lw 2 pt 13 lc rgb "#ff7f0e" title "v4l2loopback bookkeeping"
}
unset multiplot
