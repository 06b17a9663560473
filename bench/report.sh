#!/bin/sh
# Writes the benchmark report from a run's results: bench.json, the plots
# (gnuplot) and benchmarks.md, all in the results directory.
#
# usage: report.sh RESULTS_DIR "KERNEL..." BENCH_SRC_DIR [COMMAND [SECONDS]]
set -eu
res=$1
kernels=$2
src=$3
command=${4:-bench/run-bench.sh --build build --publish}
secs=${5:-2}

# bench.json: every measurement, grouped by kernel.
{
	printf '{"generated":"%s","command":"%s","kernels":{' \
		"$(date -u +%Y-%m-%dT%H:%MZ)" "$command"
	sep=
	for k in $kernels; do
		printf '%s"%s":[' "$sep" "$k"
		[ -f "$res/$k/results.jsonl" ] && sed '$!s/$/,/' "$res/$k/results.jsonl"
		printf ']'
		sep=,
	done
	printf '}}\n'
} >"$res/bench.json"

: >"$res/gnuplot.log"
files=
for k in $kernels; do
	[ -f "$res/$k/results.jsonl" ] && files="$files $res/$k/results.jsonl"
done
[ -n "$files" ] || { echo "report: no results in $res" >&2; exit 1; }
analysis=
[ -f "$src/analysis.md" ] && analysis=$src/analysis.md

# shellcheck disable=SC2086
awk -v kernels="$kernels" -v res="$res" -v analysis="$analysis" \
	-v command="$command" -v secs="$secs" -f "$src/report.awk" $files >"$res/benchmarks.md"

# Plots: frames per second against size, the latency distribution, and
# the scale runs' rate and CPU against the number of boards.
for k in $kernels; do
	sk=$(echo "$k" | cut -d. -f1,2)
	# Aggregate rate and CPU against the number of boards.
	sdats=
	for d in "$res/scale-$sk-soft-60.dat" "$res/scale-$sk-soft-top.dat" \
		 "$res/scale-$sk-pci-60.dat" "$res/scale-$sk-pci-top.dat"; do
		[ -s "$d" ] && sdats="$sdats${sdats:+ }$d"
	done
	if [ -n "$sdats" ]; then
		gnuplot -e "dats='$sdats'; out='$res/scale-$sk.png'; kernel='$k'" \
			"$src/scale.gp" 2>>"$res/gnuplot.log" ||
			echo "report: the scale plot failed for $k (see $res/gnuplot.log)" >&2
	fi
	dats=
	for f in YUYV NV12; do
		d=$res/fps-$sk-$f.dat
		# Only a format with at least one driver's figure.
		[ -f "$d" ] && awk '{ for (i = 3; i <= NF; i++) if ($i != "NaN") found = 1 } END { exit !found }' "$d" &&
			dats="$dats${dats:+ }$d"
	done
	[ -n "$dats" ] || continue
	gnuplot -e "dats='$dats'; out='$res/fps-$sk.png'; kernel='$k'" \
		"$src/fps.gp" 2>>"$res/gnuplot.log" ||
		echo "report: the fps plot failed for $k (see $res/gnuplot.log)" >&2
	list=$res/latency-$sk.list
	plots=
	if [ -s "$list" ]; then
		while read -r target file; do
			[ -s "$res/$k/$file" ] || continue
			cdf=$res/latency-$sk-$target.cdf
			sort -n "$res/$k/$file" | awk '{ v[NR] = $1 } END { for (i = 1; i <= NR; i++) printf "%.3f %.5f\n", v[i] / 1000, i / NR }' >"$cdf"
			plots="$plots${plots:+, }'$cdf' using 1:2 with steps lw 2 title '$target'"
		done <"$list"
	fi
	if [ -n "$plots" ]; then
		gnuplot -e "out='$res/latency-$sk.png'; kernel='$k'" -e "load '$src/latency.gp'" \
			-e "plot $plots" 2>>"$res/gnuplot.log" ||
			echo "report: the latency plot failed for $k (see $res/gnuplot.log)" >&2
	fi
done
