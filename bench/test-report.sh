#!/bin/sh
# Unit test of the benchmark report: known figures in, known verdicts out.
# usage: test-report.sh BENCH_SRC_DIR
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
k=6.1.0-test
mkdir -p "$tmp/$k/lat"
fail=0
check() {
	if grep -qF -- "$2" "$tmp/benchmarks.md"; then
		echo "ok - $1"
	else
		echo "not ok - $1: no line with '$2'"
		fail=1
	fi
}

# memcpy of a 1920x1080 YUYV frame: 2 ms, so a limit of 500 fps.
for i in $(seq 1 100); do echo $((i * 10)); done >"$tmp/$k/lat/vcap-soft-YUYV-1920x1080.txt"
cat >"$tmp/$k/results.jsonl" <<'JSON'
{"kernel":"6.1.0-test","bench":"memcpy","tool":"memcpy","bytes":4147200,"copies":100,"ns_per_copy":2e+06,"gbytes_per_s":2.07}
{"kernel":"6.1.0-test","bench":"capture","target":"vcap-soft","size":"1920x1080","lat_file":"lat/vcap-soft-YUYV-1920x1080.txt","try":1,"sustained":1,"tool":"capture","fourcc":"YUYV","set_fps":240,"req_fps":0,"frames":800,"fps":400,"drops":0,"cpu_ms_per_frame":2.2,"lat_samples":100,"lat_p50_ms":0.5,"lat_p99_ms":1,"lat_max_ms":1}
{"kernel":"6.1.0-test","bench":"capture","target":"vcap-soft-free","size":"1920x1080","lat_file":"lat/f.txt","try":1,"sustained":1,"tool":"capture","fourcc":"YUYV","set_fps":240,"req_fps":0,"frames":1280,"fps":640,"drops":0,"cpu_ms_per_frame":1,"lat_samples":0}
{"kernel":"6.1.0-test","bench":"capture","target":"vivid","size":"1920x1080","lat_file":"lat/vivid-YUYV-1920x1080.txt","try":1,"sustained":0,"tool":"capture","fourcc":"YUYV","set_fps":240,"req_fps":-1,"frames":200,"fps":120,"drops":300,"cpu_ms_per_frame":26,"lat_samples":0}
{"kernel":"6.1.0-test","bench":"capture","target":"vivid","size":"1920x1080","lat_file":"lat/vivid-YUYV-1920x1080.txt","try":2,"sustained":1,"tool":"capture","fourcc":"YUYV","set_fps":100,"req_fps":-1,"frames":200,"fps":100,"drops":0,"cpu_ms_per_frame":27,"proc_cpu_ms_per_frame":1,"lat_samples":0}
{"kernel":"6.1.0-test","bench":"capture","target":"v4l2loopback-fresh","size":"1920x1080","lat_file":"lat/x.txt","try":1,"sustained":1,"tool":"capture","fourcc":"YUYV","set_fps":30,"req_fps":-1,"frames":900,"fps":1000,"drops":0,"cpu_ms_per_frame":3,"lat_samples":0}
{"kernel":"6.1.0-test","bench":"capture","target":"vivid","size":"640x480","lat_file":"lat/v.txt","try":1,"sustained":0,"tool":"capture","fourcc":"YUYV","set_fps":240,"req_fps":-1,"frames":200,"fps":90,"drops":30,"cpu_ms_per_frame":5,"lat_samples":0}
{"kernel":"6.1.0-test","bench":"capture","target":"vivid","size":"640x480","lat_file":"lat/v.txt","try":2,"sustained":0,"tool":"capture","fourcc":"YUYV","set_fps":80,"req_fps":-1,"frames":200,"fps":70,"drops":3,"cpu_ms_per_frame":5,"lat_samples":0}
{"kernel":"6.1.0-test","bench":"capture","target":"v4l2loopback-bookkeeping","size":"1920x1080","lat_file":"lat/y.txt","try":1,"sustained":1,"tool":"capture","fourcc":"YUYV","set_fps":30,"req_fps":-1,"frames":900,"fps":1000,"drops":0,"cpu_ms_per_frame":0.5,"lat_samples":0}
{"kernel":"6.1.0-test","bench":"vram","target":"vcap-soft","size":"1920x1080","tool":"vram","fourcc":"YUYV","read_pixels":0,"opened_rdwr":0,"fps":230,"produced_fps":240,"missed":10,"torn":0,"cpu_ms_per_frame":0.4,"cpu_ms_per_produced":4.5,"board_cpu_ms_per_produced":4}
{"kernel":"6.1.0-test","bench":"scale","target":"vcap-soft","board":"soft","rate":"top","n":16,"streams":16,"late":2,"in_window":14,"first_frame_max_s":1.5,"set_fps":240,"fps":480,"fps_per_board":30,"fps_min":28.5,"drops":120,"stalled":0,"window_s":2,"cpu_busy":1.99,"cpus":2,"cpu_busy_pct":99.5,"cpu_ms_per_frame":4.146,"vmalloc_kb":265728,"slab_kb":1280,"avail_drop_kb":290000,"kmem_mib_per_stream":16.297,"avail_mib_per_stream":17.7}
{"kernel":"6.1.0-test","bench":"scale","target":"vcap-soft","board":"soft","rate":"60","n":1,"streams":1,"late":0,"in_window":1,"first_frame_max_s":-1.2,"set_fps":60,"fps":60,"fps_per_board":60,"fps_min":60,"drops":0,"stalled":0,"window_s":2,"cpu_busy":0.41,"cpus":2,"cpu_busy_pct":20.5,"cpu_ms_per_frame":6.833,"vmalloc_kb":16608,"slab_kb":64,"avail_drop_kb":17500,"kmem_mib_per_stream":16.281,"avail_mib_per_stream":17.1}
{"kernel":"6.1.0-test","bench":"scale","target":"vcap-soft","board":"soft","rate":"60","n":4,"streams":4,"late":0,"in_window":4,"first_frame_max_s":-0.9,"set_fps":60,"fps":236,"fps_per_board":59,"fps_min":58,"drops":4,"stalled":0,"window_s":2,"cpu_busy":1.2,"cpus":2,"cpu_busy_pct":60,"cpu_ms_per_frame":5.085,"vmalloc_kb":66432,"slab_kb":256,"avail_drop_kb":70000,"kmem_mib_per_stream":16.281,"avail_mib_per_stream":17.1}
{"kernel":"6.1.0-test","bench":"scale","target":"vcap-pci","board":"pci","rate":"60","transfer":"dma","n":2,"streams":2,"late":0,"in_window":2,"first_frame_max_s":-1.1,"set_fps":60,"fps":119.5,"fps_per_board":59.75,"fps_min":59.5,"drops":1,"stalled":0,"window_s":2,"cpu_busy":0.3,"cpus":2,"cpu_busy_pct":15,"cpu_ms_per_frame":2.51,"vmalloc_kb":33216,"slab_kb":128,"avail_drop_kb":35000,"kmem_mib_per_stream":16.281,"avail_mib_per_stream":17.1}
{"kernel":"6.1.0-test","bench":"capture","target":"vcap-pci-copy","size":"1920x1080","lat_file":"lat/c.txt","try":1,"sustained":1,"tool":"capture","fourcc":"YUYV","set_fps":300,"req_fps":0,"frames":600,"fps":300,"drops":0,"cpu_ms_per_frame":4,"lat_samples":100,"lat_p50_ms":2,"lat_p99_ms":3,"lat_max_ms":4}
{"kernel":"6.1.0-test","bench":"capture","target":"vcap-pci-dma","size":"1920x1080","lat_file":"lat/d.txt","try":1,"sustained":0,"tool":"capture","fourcc":"YUYV","set_fps":480,"req_fps":0,"frames":900,"fps":470,"drops":20,"cpu_ms_per_frame":0.9,"lat_samples":100,"lat_p50_ms":0.8,"lat_p99_ms":2,"lat_max_ms":3}
{"kernel":"6.1.0-test","bench":"capture","target":"vcap-pci-dma","size":"1920x1080","lat_file":"lat/d.txt","try":2,"sustained":1,"tool":"capture","fourcc":"YUYV","set_fps":450,"req_fps":0,"frames":900,"fps":450,"drops":0,"cpu_ms_per_frame":1,"lat_samples":100,"lat_p50_ms":1,"lat_p99_ms":2,"lat_max_ms":3}
{"kernel":"6.1.0-test","bench":"capture","target":"vcap-pci-dma","size":"640x480","lat_file":"lat/d.txt","try":1,"sustained":0,"tool":"capture","fourcc":"YUYV","set_fps":1000,"req_fps":0,"frames":900,"fps":800,"drops":40,"cpu_ms_per_frame":0.5,"lat_samples":0}
{"kernel":"6.1.0-test","bench":"vram","target":"vcap-pci-dma","size":"1920x1080","tool":"vram","fourcc":"YUYV","read_pixels":0,"opened_rdwr":0,"fps":59,"produced_fps":60,"missed":1,"torn":0,"cpu_ms_per_frame":0.3}
{"kernel":"6.1.0-test","bench":"machine","host_cpu":"Test CPU, 2 cores","host_cpus":2,"qemu":"QEMU 7.2","guest_cpus":2,"guest_mem":"2G","accel":"tcg","date":"2026-01-01T00:00Z"}
JSON
sh "$src/report.sh" "$tmp" "$k" "$src" "bench/run-bench.sh" >"$tmp/out.txt" 2>&1 || {
	echo "not ok - report.sh failed:"
	cat "$tmp/out.txt"
	exit 1
}
check "vcap against vivid, 4x" "| 6.1 | vcap, software board: 1920x1080 against vivid | ≥ 3x | 4.00x (400 vs 100 fps) | **met** (33% to spare) |"
check "vcap against loopback, 0.4x (numbers, not strings)" "| 6.1 | vcap, software board: 1920x1080 against v4l2loopback, fresh frame | ≥ 1x | 0.400x (400 vs 1000 fps) | **missed** (by 60%) |"
check "share of the memcpy limit, 80%" "lowest 80% (1920x1080 YUYV); 1 sizes | **met** (14% to spare) |"
check "CPU per frame, 1.1x" "| ≤ 1.3x | highest 1.10x (1920x1080 YUYV) | **met** (15% to spare) |"
check "VRAM share, 95.8%" "| ≥ 98% | lowest 95.8% (1920x1080 YUYV) | **missed** (by 2%) |"
check "VRAM CPU against bookkeeping, 0.8x" "| ≤ 1x | highest 0.800x (1920x1080 YUYV) | **met** (20% to spare) |"
check "producer against vivid, 6.5x" "| ≥ 5x cheaper | 6.50x (4.00 vs 26.0 ms) | **met** (30% to spare) |"
check "running free against vivid, 6.4x" "| 6.1 | vcap, software board running free: 1920x1080 against vivid | ≥ 3x | 6.40x (640 vs 100 fps) | **met**"
check "running free: share of the memcpy limit, 128%" "| 6.1 | vcap, software board running free: share of the memcpy limit, every size | ≥ 70% | lowest 128% (1920x1080 YUYV); 1 sizes | **met**"
check "running free: CPU per frame, 0.5x" "| 6.1 | vcap, software board running free: CPU per frame against one memcpy | ≤ 1.3x | highest 0.500x (1920x1080 YUYV) | **met**"
check "running free in the top-rate table" "| vcap, software board running free | 1920x1080 | YUYV | free running | 640 | 0 |"
check "running free's share of the limit in the rate table" "| 80% | 128% |"
if grep -q "running free: VRAM" "$tmp/benchmarks.md"; then
	echo "not ok - a VRAM goal for the board running free"
	fail=1
else
	echo "ok - no VRAM goal for the board running free"
fi
if grep -q "vcap, PCI board:" "$tmp/benchmarks.md"; then
	echo "not ok - a goal for the PCI board, which was not measured"
	fail=1
else
	echo "ok - no goal for a board not measured"
fi
# The PCI board's DMA and copy paths, side by side.
check "DMA and copy in the rate table, DMA first" "| vcap, PCI board, DMA | vcap, PCI board, copy | vivid (HDMI input) |"
check "DMA against copy, 1080p: rates, CPU, their ratio, latency" "| 1920x1080 | YUYV | 300 | 450 | 4.00 ms | 1.00 ms | 0.250x | 2.00 ms | 1.00 ms |"
check "DMA against copy, no zero-drop run marked, copy not measured" "| 640x480 | YUYV | – | 800 † | – | 0.500 ms | – | – | – |"
check "DMA goal against vivid" "| 6.1 | vcap, PCI board, DMA: 1920x1080 against vivid | ≥ 3x | 4.50x (450 vs 100 fps) | **met** (50% to spare) |"
check "copy goal against vivid" "| 6.1 | vcap, PCI board, copy: 1920x1080 against vivid | ≥ 3x | 3.00x (300 vs 100 fps) | **met** (0% to spare) |"
check "the PCI board's VRAM row" "| vcap, PCI board, DMA | 1920x1080 | YUYV | 60.0 | 59.0 | 98.3% | 1 | 0 | 0.300 | – |"
check "the method says how DMA and copy were run" "runs the copy path"
check "top-rate table" "| vivid (HDMI input) | 1920x1080 | YUYV | 240 fps | 120 | 300 |"
check "no zero-drop run: best delivered shown" "| 640x480 | YUYV | – | – | – | none (800 with drops) | – | none (90.0 with drops) |"
check "machine" "| 6.1.0-test | Test CPU, 2 cores | 2 |"
check "guest memory from the machine line" "| 2 CPUs, tcg, 2 GiB |"
check "scale: 16 boards at the top rate, 2 of them late" "| 6.1.0-test | vcap, software board | 16 | top (240 fps) | **14 of 16** | 480 | 30.0 | 120 | 99.5% | 4.15 ms | 16.3 MiB |"
check "scale: one board at 60 fps" "| 6.1.0-test | vcap, software board | 1 | 60.0 fps | 1 of 1 | 60.0 | 60.0 | 0 | 20.5% | 6.83 ms | 16.3 MiB |"
check "scale: two PCI boards, DMA" "| 6.1.0-test | vcap, PCI board, DMA | 2 | 60.0 fps | 2 of 2 | 120 | 59.8 | 1 | 15.0% | 2.51 ms | 16.3 MiB |"
# Rows by board, then N in numbers (4 before 16), then 60 before top.
rows=$(grep '^| 6.1.0-test | vcap, ' "$tmp/benchmarks.md" | awk -F' [|] ' '{ printf "%s/%s/%s ", $2, $3, $4 }')
want="vcap, software board/1/60.0 fps vcap, software board/4/60.0 fps vcap, software board/16/top (240 fps) vcap, PCI board, DMA/2/60.0 fps "
if [ "$rows" = "$want" ]; then
	echo "ok - scale rows in order"
else
	echo "not ok - scale rows in order: '$rows', not '$want'"
	fail=1
fi
# The plot's data: N, aggregate fps, CPU busy %, one file per board and rate.
if [ "$(cat "$tmp/scale-6.1-soft-60.dat" 2>/dev/null)" = "$(printf '1 60 20.5 6.833\n4 236 60 5.085')" ] &&
   [ "$(cat "$tmp/scale-6.1-soft-top.dat" 2>/dev/null)" = "16 480 99.5 4.146" ]; then
	echo "ok - scale plot data"
else
	echo "not ok - scale plot data:"
	cat "$tmp"/scale-6.1-*.dat
	fail=1
fi
check "scale plot in the report" "![aggregate frame rate and CPU against the number of boards, 6.1.0-test](bench/scale-6.1.png)"
if grep -q 'scale plot failed' "$tmp/out.txt"; then
	echo "not ok - the scale plot failed:"
	cat "$tmp/gnuplot.log"
	fail=1
else
	echo "ok - the scale plot drew"
fi
# The fps plot draws every column of its data: one per driver, in order.
cols=$(awk '{ print NF; exit }' "$tmp/fps-6.1-YUYV.dat" 2>/dev/null)
plotted=$(sed -n 's/.*using 0:\([0-9]*\).*/\1/p' "$src/fps.gp" | sort -n | tail -n 1)
if [ -n "$cols" ] && [ "$cols" = "$plotted" ]; then
	echo "ok - the fps plot draws all $cols columns"
else
	echo "not ok - the fps data has ${cols:-no} columns, the plot draws up to ${plotted:-none}"
	fail=1
fi
for f in bench.json fps-6.1.png latency-6.1.png scale-6.1.png; do
	if [ -s "$tmp/$f" ]; then echo "ok - $f written"; else echo "not ok - $f missing"; fail=1; fi
done
if head -c 1 "$tmp/bench.json" | grep -q '{' && tail -c 4 "$tmp/bench.json" | grep -q ']}}'; then
	echo "ok - bench.json is one object"
else
	echo "not ok - bench.json is not one object"
	fail=1
fi
exit $fail
