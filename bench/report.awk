# report.awk: turns the benchmark's results.jsonl files into the tables of
# benchmarks.md (on stdout) and the data files of its plots.
#
# Variables: kernels (space separated releases), res (results directory),
# analysis (a markdown file appended as is), command (how it was run).
# Input: every kernel's results.jsonl, each line one flat JSON object.

function parse(line, r,    s, kv, k, v) {
	s = line
	sub(/^[ \t]*\{/, "", s)
	sub(/\}[ \t]*$/, "", s)
	while (match(s, /"[^"]*":("[^"]*"|[^,]*)/)) {
		kv = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
		k = kv
		sub(/":.*/, "", k)
		sub(/^"/, "", k)
		v = kv
		sub(/^"[^"]*":/, "", v)
		gsub(/^"|"$/, "", v)
		R[r, k] = v
	}
}

function has(r, k) { return ((r, k) in R) }
function get(r, k) { return has(r, k) ? R[r, k] : "" }
# The same, as a number (awk compares strings as strings).
function num(r, k) { return get(r, k) + 0 }

# A number with three significant figures at most, or "–".
function n3(x) {
	if (x == "" || x == "nan")
		return "–"
	x += 0
	if (x < 0)
		return "-" n3(-x)
	if (x >= 100)
		return sprintf("%.0f", x)
	if (x >= 10)
		return sprintf("%.1f", x)
	if (x >= 1)
		return sprintf("%.2f", x)
	return sprintf("%.3f", x)
}

function frame_bytes(fcc, size,    w, h) {
	w = size; sub(/x.*/, "", w)
	h = size; sub(/.*x/, "", h)
	return fcc == "NV12" ? w * h * 3 / 2 : w * h * 2
}

function short_kernel(k,    a) {
	split(k, a, ".")
	return a[1] "." a[2]
}

# QEMU's memory size (2G, 1024M) as text.
function mem_str(m,    u) {
	u = substr(m, length(m))
	if (u == "G")
		return substr(m, 1, length(m) - 1) " GiB"
	if (u == "M")
		return substr(m, 1, length(m) - 1) " MiB"
	return m
}

function verdict(ok) { return ok ? "**met**" : "**missed**" }

BEGIN {
	# The PCI board by transfer: DMA (it writes into the buffers), copy
	# (the driver copies each frame), or plain from a driver that does
	# not say which.
	nt = split("vcap-soft vcap-soft-free vcap-pci-dma vcap-pci-copy vcap-pci vivid v4l2loopback-fresh v4l2loopback-bookkeeping", T, " ")
	TN["vcap-soft"] = "vcap, software board"
	TN["vcap-soft-free"] = "vcap, software board running free"
	TN["vcap-pci-dma"] = "vcap, PCI board, DMA"
	TN["vcap-pci-copy"] = "vcap, PCI board, copy"
	TN["vcap-pci"] = "vcap, PCI board"
	TN["vivid"] = "vivid (HDMI input)"
	TN["v4l2loopback-fresh"] = "v4l2loopback, fresh frame"
	TN["v4l2loopback-bookkeeping"] = "v4l2loopback, bookkeeping only"
	ns = split("640x480 1280x720 1920x1080 3840x2160", S, " ")
	nf = split("YUYV NV12", F, " ")
	nk = split(kernels, K, " ")
}

{
	nr++
	parse($0, nr)
	k = get(nr, "kernel")
	b = get(nr, "bench")
	t = get(nr, "target")
	if (b == "capture") {
		key = k SUBSEP t SUBSEP get(nr, "fourcc") SUBSEP get(nr, "size")
		if (get(nr, "sustained") == 1)
			CAP[key] = nr
		if (get(nr, "try") == 1)
			TOP[key] = nr
		if (!(key in BEST) || num(nr, "fps") > BEST[key] + 0) {
			BEST[key] = num(nr, "fps")
			BESTR[key] = nr
		}
		TRIES[key]++
	} else if (b == "memcpy") {
		MC[k, get(nr, "bytes")] = nr
	} else if (b == "vram") {
		VR[k, t, get(nr, "fourcc"), get(nr, "size"), get(nr, "read_pixels")] = nr
		HAS_VRAM[k, t] = 1
	} else if (b == "touch") {
		TOUCH[k, ++ntouch[k]] = nr
	} else if (b == "crosscheck") {
		XC[k, ++nxc[k]] = nr
	} else if (b == "machine") {
		MACH[k] = nr
	} else if (b == "note") {
		NOTE[k, ++nnote[k]] = nr
	} else if (b == "scale") {
		x = get(nr, "board")
		SC[k, x, num(nr, "n"), get(nr, "rate")] = nr
		if (!((k, x, num(nr, "n")) in SCN)) {
			SCN[k, x, num(nr, "n")] = 1
			SCNS[k, x] = SCNS[k, x] " " num(nr, "n")
		}
		HAS_SCALE = 1
	} else if (b == "feed") {
		FEED[k, t, get(nr, "fourcc"), get(nr, "size")] = nr
	}
	if (b == "capture")
		SEEN[k, t] = 1
	if (b == "capture" && t ~ /^vcap-pci-(dma|copy)$/)
		HAS_XFER = 1
}

# memcpy time of one frame in ms, "" if not measured.
function memcpy_ms(k, fcc, size,    r) {
	r = MC[k, frame_bytes(fcc, size)]
	return r ? num(r, "ns_per_copy") / 1e6 : ""
}

function fps_of(k, t, fcc, size,    r) {
	r = CAP[k, t, fcc, size]
	return r ? num(r, "fps") : ""
}

# The run a driver's figures come from: its sustained run, or where none
# was free of drops, the run that delivered the most.
function pick(k, t, fcc, size) {
	if (CAP[k, t, fcc, size])
		return CAP[k, t, fcc, size]
	return BESTR[k, t, fcc, size]
}

function mark(k, t, fcc, size) {
	return CAP[k, t, fcc, size] ? "" : " †"
}

# A competitor's figure for a goal: its sustained rate, or where no run was
# free of drops, the best rate it delivered in any run (an upper bound).
function ref_fps(k, t, fcc, size,    v) {
	v = fps_of(k, t, fcc, size)
	if (v != "")
		return v
	return BEST[k, t, fcc, size] == "" ? "" : BEST[k, t, fcc, size] + 0
}

function ref_note(k, t, fcc, size) {
	if (fps_of(k, t, fcc, size) != "" || BEST[k, t, fcc, size] == "")
		return ""
	return "; " t " had no run free of drops: its best delivered rate is used"
}

function kernel_section(k,    i, j, f, s, t, r, lim, line, sk, dat, a, v, n, x, rw) {
	sk = short_kernel(k)
	printf "## Kernel %s\n\n", k

	print "### Maximum sustained frame rate, zero drops, V4L2 MMAP\n"
	print "Frames per second counted over wall time in a run with no sequence gap"
	print "(for v4l2loopback: no frame the producer queued was missed). The limit"
	print "is the guest's memcpy bandwidth divided by the frame size: the rate a"
	print "path that copies each frame once cannot beat.\n"
	line = "| size | format | memcpy limit |"
	for (i = 1; i <= nt; i++)
		if (SEEN[k, T[i]])
			line = line " " TN[T[i]] " |"
	line = line " vcap soft / limit |"
	if (SEEN[k, "vcap-soft-free"])
		line = line " running free / limit |"
	print line
	line = "| --- | --- | ---: |"
	for (i = 1; i <= nt; i++)
		if (SEEN[k, T[i]])
			line = line " ---: |"
	if (SEEN[k, "vcap-soft-free"])
		line = line " ---: |"
	print line " ---: |"
	for (j = 1; j <= nf; j++) {
		f = F[j]
		dat = res "/fps-" sk "-" f ".dat"
		printf "" > dat
		for (i = 1; i <= ns; i++) {
			s = S[i]
			lim = memcpy_ms(k, f, s)
			lim = lim ? 1000 / lim : ""
			line = "| " s " | " f " | " n3(lim) " |"
			printf "%s %s", s, (lim == "" ? "NaN" : lim) >> dat
			for (x = 1; x <= nt; x++) {
				t = T[x]
				v = fps_of(k, t, f, s)
				printf " %s", (v == "" ? "NaN" : v) >> dat
				if (!SEEN[k, t])
					continue
				r = BESTR[k, t, f, s]
				if (v != "")
					line = line " " n3(v) " |"
				else if (r)
					line = line " none (" n3(get(r, "fps")) " with drops) |"
				else
					line = line " – |"
			}
			printf "\n" >> dat
			v = fps_of(k, "vcap-soft", f, s)
			line = line " " ((v != "" && lim) ? sprintf("%.0f%%", 100 * v / lim) : "–") " |"
			v = fps_of(k, "vcap-soft-free", f, s)
			if (SEEN[k, "vcap-soft-free"])
				line = line " " ((v != "" && lim) ? sprintf("%.0f%%", 100 * v / lim) : "–") " |"
			print line
		}
		close(dat)
	}
	print ""
	printf "![frames per second against frame size, %s](bench/fps-%s.png)\n\n", k, sk

	print "At the top rate asked of each driver (the first run of each search),"
	print "with the drops it had:\n"
	print "| driver | size | format | asked | fps | drops |"
	print "| --- | --- | --- | ---: | ---: | ---: |"
	for (x = 1; x <= nt; x++)
		for (j = 1; j <= nf; j++)
			for (i = 1; i <= ns; i++) {
				r = TOP[k, T[x], F[j], S[i]]
				if (!r)
					continue
				a = get(r, "set_fps")
				if (T[x] ~ /loopback/)
					a = "unpaced producer"
				else if (T[x] ~ /free/)
					a = "free running"
				else
					a = n3(a) " fps"
				printf "| %s | %s | %s | %s | %s | %s |\n", TN[T[x]], S[i], F[j], a, n3(get(r, "fps")), get(r, "drops")
			}
	print ""

	dma_section(k)

	print "### CPU time per frame\n"
	print "Busy time of the whole guest (both CPUs: the driver's threads and"
	print "interrupts, the reader and, for v4l2loopback, the producer) divided by"
	print "the frames delivered, in the sustained runs, and its ratio to one memcpy"
	print "of the frame in the same guest. † marks a driver with no run free of"
	print "drops at that size: the figure is from its fastest run.\n"
	line = "| size | format | memcpy of a frame |"
	for (i = 1; i <= nt; i++)
		if (SEEN[k, T[i]])
			line = line " " TN[T[i]] " |"
	print line
	line = "| --- | --- | ---: |"
	for (i = 1; i <= nt; i++)
		if (SEEN[k, T[i]])
			line = line " ---: |"
	print line
	for (j = 1; j <= nf; j++)
		for (i = 1; i <= ns; i++) {
			f = F[j]; s = S[i]
			lim = memcpy_ms(k, f, s)
			if (lim == "")
				continue
			line = "| " s " | " f " | " n3(lim) " ms |"
			for (x = 1; x <= nt; x++) {
				t = T[x]
				if (!SEEN[k, t])
					continue
				r = pick(k, t, f, s)
				if (!r) {
					line = line " – |"
					continue
				}
				v = num(r, "cpu_ms_per_frame")
				line = line sprintf(" %s ms (%sx)%s |", n3(v), n3(v / lim), mark(k, t, f, s))
			}
			print line
		}
	print ""

	print "### Latency, buffer timestamp to dequeue\n"
	print "From the buffer's monotonic timestamp to the return of VIDIOC_DQBUF, in"
	print "the sustained runs. vcap stamps a buffer with the board's own time"
	print "stamp (the software board's clock is the guest's; a PCI board's is"
	print "carried into the guest's clock), so its figures include the board's"
	print "notification and the driver's copy on the copy path, and on the DMA"
	print "path the notification and the completion's handling;"
	print "v4l2loopback carries the producer's time of queueing; vivid stamps the"
	print "nominal end of the frame's period, ahead of when it fills the buffer, so"
	print "its figures read low by up to a frame period and can be negative. †: no"
	print "run free of drops at that size; the fastest run's figures.\n"
	print "| driver | size | format | fps | p50 ms | p99 ms | max ms |"
	print "| --- | --- | --- | ---: | ---: | ---: | ---: |"
	for (x = 1; x <= nt; x++)
		for (j = 1; j <= nf; j++)
			for (i = 1; i <= ns; i++) {
				r = pick(k, T[x], F[j], S[i])
				if (!r || !num(r, "lat_samples"))
					continue
				printf "| %s | %s | %s | %s%s | %s | %s | %s |\n", TN[T[x]], S[i], F[j], n3(get(r, "fps")), mark(k, T[x], F[j], S[i]), n3(get(r, "lat_p50_ms")), n3(get(r, "lat_p99_ms")), n3(get(r, "lat_max_ms"))
			}
	print ""
	printf "![latency distribution at 1920x1080 YUYV, %s](bench/latency-%s.png)\n\n", k, sk
	# The latency files of the 1080p YUYV sustained runs, for the plot.
	dat = res "/latency-" sk ".list"
	printf "" > dat
	for (x = 1; x <= nt; x++) {
		r = pick(k, T[x], "YUYV", "1920x1080")
		if (r && num(r, "lat_samples") && T[x] != "vivid")
			printf "%s %s\n", T[x], get(r, "lat_file") >> dat
	}
	close(dat)

	print "### The VRAM path\n"
	print "Frames read through the /dev/vcapN mapping (VCAP_IOC_WAIT_FRAME, then the"
	print "slot's sequence lock checked) while the board produces at its top rate"
	print "for the mode and the V4L2 side copies nothing. \"produced\" is the board's"
	print "own frame counter over the same time. \"read\" also reads every pixel"
	print "once, as a viewer's upload would.\n"
	print "| board | size | format | produced fps | frames read/s | of produced | missed | torn | CPU ms per frame | with pixel read: fps, CPU ms |"
	print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	n = 0
	for (x = 1; x <= nt; x++)
		for (j = 1; j <= nf; j++)
			for (i = 1; i <= ns; i++) {
				r = VR[k, T[x], F[j], S[i], 0]
				v = VR[k, T[x], F[j], S[i], 1]
				if (!r)
					continue
				n++
				printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", TN[T[x]], S[i], F[j], n3(get(r, "produced_fps")), n3(get(r, "fps")), (num(r, "produced_fps") > 0 ? sprintf("%.1f%%", 100 * num(r, "fps") / num(r, "produced_fps")) : "–"), get(r, "missed"), get(r, "torn"), n3(get(r, "cpu_ms_per_frame")), (v ? n3(get(v, "fps")) " fps, " n3(get(v, "cpu_ms_per_frame")) " ms" : "–")
			}
	if (!n)
		print "| – | not measured on this kernel | | | | | | | | |"
	print ""
	for (x = 1; x <= nt; x++)
		for (j = 1; j <= nf; j++)
			for (i = 1; i <= ns; i++) {
				r = VR[k, T[x], F[j], S[i], 0]
				if (r && num(r, "opened_rdwr") == 1)
					rw = 1
			}
	if (rw) {
		print "The driver refused a read-only mapping of a read-only open of"
		print "/dev/vcapN (EINVAL): these figures were taken through an O_RDWR open,"
		print "still mapped PROT_READ.\n"
	}

	print "### First touch of an 8 MiB buffer\n"
	print "mmap() of 8 MiB of a capture buffer, then one read per page; the median"
	print "of 9. vcap maps its vmalloc buffers from a fault handler that maps"
	print "`prefault_pages` pages per fault (1: only the faulting page); vivid's"
	print "vb2-vmalloc maps every page at mmap() time; anonymous memory (written,"
	print "so each page is allocated and zeroed) is the guest's plain page-fault cost.\n"
	print "| mapping | prefault_pages | MAP_POPULATE | mmap() µs | mmap + touch µs | µs per page |"
	print "| --- | ---: | --- | ---: | ---: | ---: |"
	for (i = 1; i <= ntouch[k]; i++) {
		r = TOUCH[k, i]
		printf "| %s | %s | %s | %s | %s | %s |\n", get(r, "target"), (has(r, "prefault_pages") ? get(r, "prefault_pages") : "–"), (get(r, "populate") == 1 ? "yes" : "no"), n3(get(r, "mmap_us")), n3(get(r, "total_us")), n3(get(r, "us_per_page"))
	}
	print ""

	f = res "/" k "/mem-bench.txt"
	if ((getline line < f) > 0) {
		print "The allocator's own benchmark (`tests/mem/mem-bench`, which writes"
		print "each page) in the same guest:\n"
		print "```"
		print line
		while ((getline line < f) > 0)
			print line
		print "```\n"
	}
	close(f)

	print "### Guest memcpy bandwidth\n"
	print "| frame | bytes | one copy | GB/s | fps limit |"
	print "| --- | ---: | ---: | ---: | ---: |"
	for (j = 1; j <= nf; j++)
		for (i = 1; i <= ns; i++) {
			r = MC[k, frame_bytes(F[j], S[i])]
			if (!r)
				continue
			printf "| %s %s | %d | %s ms | %s | %s |\n", S[i], F[j], get(r, "bytes"), n3(get(r, "ns_per_copy") / 1e6), n3(get(r, "gbytes_per_s")), n3(1e9 / get(r, "ns_per_copy"))
		}
	print ""

	if (nxc[k]) {
		print "### Cross-check with `vcap-stream bench`\n"
		print "The project's own tool, run once per device at 1280x720 YUYV at the"
		print "device's default rate; its CPU figure is that process's only.\n"
		print "| device | fps | drops | latency p50 | process CPU per frame |"
		print "| --- | ---: | ---: | ---: | ---: |"
		for (i = 1; i <= nxc[k]; i++) {
			r = XC[k, i]
			printf "| %s | %s | %s | %s | %s ms |\n", get(r, "target"), n3(get(r, "fps")), get(r, "drops"), (has(r, "p50") ? n3(get(r, "p50") / 1e6) " ms" : "–"), n3(get(r, "cpu_ns_per_frame") / 1e6)
		}
		print ""
	}
	for (i = 1; i <= nnote[k]; i++)
		printf "Note: %s: %s.\n\n", get(NOTE[k, i], "target"), get(NOTE[k, i], "note")
}

# The PCI board's two transfers side by side, measured in the same guest:
# the same firmware writing each frame into the driver's buffer (DMA), or
# into its VRAM ring for the driver to copy out (copy).
function dma_section(k,    i, j, f, s, c, d, a, b, line) {
	if (!SEEN[k, "vcap-pci-dma"] || !SEEN[k, "vcap-pci-copy"])
		return
	print "### PCI board: DMA against copy\n"
	print "The same board, in the same guest, two ways: its firmware writing each"
	print "frame into the V4L2 buffer the driver posted (DMA: the guest's CPU"
	print "copies nothing), or into its VRAM ring, from which the driver copies"
	print "each frame into the buffer (copy). Sustained rate, guest CPU time per"
	print "frame and latency from the figures above; \"DMA / copy\" is the DMA"
	print "path's CPU per frame over the copy path's. †: no run free of drops at"
	print "that size; the fastest run's figures.\n"
	print "| size | format | copy fps | DMA fps | copy CPU per frame | DMA CPU per frame | DMA / copy | copy p50 latency | DMA p50 latency |"
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for (j = 1; j <= nf; j++)
		for (i = 1; i <= ns; i++) {
			f = F[j]; s = S[i]
			c = pick(k, "vcap-pci-copy", f, s)
			d = pick(k, "vcap-pci-dma", f, s)
			if (!c && !d)
				continue
			a = c ? num(c, "cpu_ms_per_frame") : ""
			b = d ? num(d, "cpu_ms_per_frame") : ""
			line = "| " s " | " f " |"
			line = line " " (c ? n3(get(c, "fps")) mark(k, "vcap-pci-copy", f, s) : "–") " |"
			line = line " " (d ? n3(get(d, "fps")) mark(k, "vcap-pci-dma", f, s) : "–") " |"
			line = line " " (c ? n3(a) " ms" : "–") " |"
			line = line " " (d ? n3(b) " ms" : "–") " |"
			line = line " " ((c && d && a > 0) ? n3(b / a) "x" : "–") " |"
			line = line " " ((c && num(c, "lat_samples")) ? n3(get(c, "lat_p50_ms")) " ms" : "–") " |"
			line = line " " ((d && num(d, "lat_samples")) ? n3(get(d, "lat_p50_ms")) " ms" : "–") " |"
			print line
		}
	print ""
}

# One row of the goals table.  val is the measured ratio, tgt the goal's,
# hi 1 when more is better; the margin is relative to the goal.
function goal(k, what, want, got, ok, val, tgt, hi,    m) {
	m = ""
	if (ok != "" && tgt > 0) {
		m = hi ? val / tgt - 1 : 1 - val / tgt
		if (ok)
			m = sprintf(" (%.0f%% to spare)", 100 * m)
		else
			m = sprintf(" (by %.0f%%)", -100 * m)
	}
	printf "| %s | %s | %s | %s | %s%s |\n", short_kernel(k), what, want, got, (ok == "" ? "not measured" : verdict(ok)), m
}

function goals(k,    v, l, r, i, j, f, s, lim, worst, ws, ok, vv, p, t, b) {
	for (b = 1; b <= nt; b++) {
		t = T[b]
		if (t !~ /^vcap-/ || !SEEN[k, t])
			continue
		v = fps_of(k, t, "YUYV", "1920x1080")
		l = ref_fps(k, "vivid", "YUYV", "1920x1080")
		goal(k, TN[t] ": 1920x1080 against vivid", "≥ 3x", (v != "" && l != "") ? sprintf("%sx (%s vs %s fps%s)", n3(v / l), n3(v), n3(l), ref_note(k, "vivid", "YUYV", "1920x1080")) : "–", (v != "" && l != "") ? (v >= 3 * l) : "", (l ? v / l : 0), 3, 1)
		l = ref_fps(k, "v4l2loopback-fresh", "YUYV", "1920x1080")
		if (SEEN[k, "v4l2loopback-fresh"])
			goal(k, TN[t] ": 1920x1080 against v4l2loopback, fresh frame", "≥ 1x", (v != "" && l != "") ? sprintf("%sx (%s vs %s fps%s)", n3(v / l), n3(v), n3(l), ref_note(k, "v4l2loopback-fresh", "YUYV", "1920x1080")) : "–", (v != "" && l != "") ? (v >= l) : "", (l ? v / l : 0), 1, 1)
		worst = ""; ok = 1; n = 0
		for (j = 1; j <= nf; j++)
			for (i = 1; i <= ns; i++) {
				f = F[j]; s = S[i]
				lim = memcpy_ms(k, f, s)
				vv = fps_of(k, t, f, s)
				if (lim == "" || vv == "")
					continue
				n++
				p = vv * lim / 1000
				if (p < 0.7)
					ok = 0
				if (worst == "" || p < worst) {
					worst = p
					ws = s " " f
				}
			}
		goal(k, TN[t] ": share of the memcpy limit, every size", "≥ 70%", n ? sprintf("lowest %.0f%% (%s); %d sizes", 100 * worst, ws, n) : "–", n ? ok : "", worst, 0.7, 1)
		worst = ""; ok = 1; n = 0
		for (j = 1; j <= nf; j++)
			for (i = 1; i <= ns; i++) {
				f = F[j]; s = S[i]
				lim = memcpy_ms(k, f, s)
				r = CAP[k, t, f, s]
				if (lim == "" || !r)
					continue
				n++
				p = num(r, "cpu_ms_per_frame") / lim
				if (p > 1.3)
					ok = 0
				if (worst == "" || p > worst) {
					worst = p
					ws = s " " f
				}
			}
		goal(k, TN[t] ": CPU per frame against one memcpy", "≤ 1.3x", n ? sprintf("highest %sx (%s)", n3(worst), ws) : "–", n ? ok : "", worst, 1.3, 0)
		# The VRAM path is the board's, measured at the mode's rate.
		if (t == "vcap-soft-free")
			continue
		worst = ""; ok = 1; n = 0
		for (j = 1; j <= nf; j++)
			for (i = 1; i <= ns; i++) {
				r = VR[k, t, F[j], S[i], 0]
				if (!r || num(r, "produced_fps") <= 0)
					continue
				n++
				p = num(r, "fps") / num(r, "produced_fps")
				if (p < 0.98)
					ok = 0
				if (worst == "" || p < worst) {
					worst = p
					ws = S[i] " " F[j]
				}
			}
		goal(k, TN[t] ": VRAM frames read of those produced", "≥ 98%", n ? sprintf("lowest %.1f%% (%s)", 100 * worst, ws) : "–", n ? ok : "", worst, 0.98, 1)
		if (SEEN[k, "v4l2loopback-bookkeeping"]) {
			worst = ""; ok = 1; n = 0
			for (j = 1; j <= nf; j++)
				for (i = 1; i <= ns; i++) {
					r = VR[k, t, F[j], S[i], 0]
					l = CAP[k, "v4l2loopback-bookkeeping", F[j], S[i]]
					if (!r || !l || num(l, "cpu_ms_per_frame") <= 0)
						continue
					n++
					p = num(r, "cpu_ms_per_frame") / num(l, "cpu_ms_per_frame")
					if (p > 1)
						ok = 0
					if (worst == "" || p > worst) {
						worst = p
						ws = S[i] " " F[j]
					}
				}
			goal(k, TN[t] ": VRAM CPU per frame against v4l2loopback bookkeeping", "≤ 1x", n ? sprintf("highest %sx (%s)", n3(worst), ws) : "–", n ? ok : "", worst, 1, 0)
		}
	}
	# The software board's producer against vivid's generator, 1080p YUYV:
	# CPU per frame outside the reading process, with nobody copying for
	# the software board, against vivid's per delivered frame.
	r = VR[k, "vcap-soft", "YUYV", "1920x1080", 0]
	l = pick(k, "vivid", "YUYV", "1920x1080")
	if (r && l && num(r, "board_cpu_ms_per_produced") > 0) {
		v = num(l, "cpu_ms_per_frame") - num(l, "proc_cpu_ms_per_frame")
		p = v / num(r, "board_cpu_ms_per_produced")
		goal(k, "software board producer against vivid's generator, 1920x1080 (CPU per frame outside the reader)", "≥ 5x cheaper", sprintf("%sx (%s vs %s ms)", n3(p), n3(get(r, "board_cpu_ms_per_produced")), n3(v)), p >= 5, p, 5, 1)
	} else if (SEEN[k, "vcap-soft"] || SEEN[k, "vivid"]) {
		goal(k, "software board producer against vivid's generator, 1920x1080 (CPU per frame outside the reader)", "≥ 5x cheaper", "–", "")
	}
}

# The board counts of a kernel's scale runs on one board kind, in order:
# fills L[1..n], returns n.
function scale_ns(k, board, L,    n, i, j, t) {
	n = split(SCNS[k, board], L, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && L[j - 1] + 0 > L[j] + 0; j--) {
			t = L[j]; L[j] = L[j - 1]; L[j - 1] = t
		}
	return n
}

function scale_section(    i, k, sk, x, bd, j, n, L, q, rt, r, dat, a, w) {
	print "## Scale: many boards streaming at once\n"
	print "vcap.ko loaded with N software boards (`soft_boards=N`, 16 MiB of board"
	print "memory each: four 1920x1080 YUYV slots), and every board's V4L2 node"
	print "streaming 1920x1080 YUYV at once, one `vbench capture` per node, first"
	print "at 60 fps, which every board offers, then at the top rate the board"
	print "offers; then the PCI boards the host attached, streaming together the"
	print "same way (their firmware runs on the host, so the pixels they produce"
	print "are outside the guest's CPU figures). Every capture counts the frames"
	print "it dequeues inside one common window, fixed on the guest's monotonic"
	print "clock, which opens once all of them have been set up and streaming for"
	print "a warm-up; the aggregate rate is the frames of all streams in that"
	print "window over its length. \"In the window\" is how many streams had"
	print "delivered a frame before it opened: a stream that started late (or"
	print "stalled) is counted, not hidden, and its row then covers fewer than N"
	print "streams for part of the window. Drops are the sequence gaps of all"
	print "streams in the window. CPU is the busy time of the whole guest over the"
	print "window, as a share of all its CPUs, and per frame delivered by all"
	print "boards together. The kernel memory of a stream is the rise of"
	print "VmallocUsed (the frame buffers) and Slab (videobuf2's and the"
	print "driver's objects) in /proc/meminfo from the boards loaded and idle to"
	print "all of them streaming, over N; the guest's `slub_debug` pads its slab"
	print "objects.\n"
	print "| kernel | board | N | rate asked | in the window | aggregate fps | fps per board | drops | CPU busy | CPU per frame | kernel memory per stream |"
	print "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= nk; i++) {
		k = K[i]
		for (x = 1; x <= 2; x++) {
			bd = x == 1 ? "soft" : "pci"
			n = scale_ns(k, bd, L)
			for (j = 1; j <= n; j++)
				for (q = 1; q <= 2; q++) {
					rt = q == 1 ? "60" : "top"
					r = SC[k, bd, L[j], rt]
					if (!r)
						continue
					a = rt == "top" ? "top (" n3(get(r, "set_fps")) " fps)" : n3(get(r, "set_fps")) " fps"
					w = get(r, "in_window")
					w = w == "" ? "–" : w + 0 < L[j] ? "**" w " of " L[j] "**" : w " of " L[j]
					printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s%% | %s ms | %s MiB |\n", k, TN["vcap-" bd] (get(r, "transfer") == "dma" ? ", DMA" : get(r, "transfer") == "copy" ? ", copy" : ""), L[j], a, w, n3(get(r, "fps")), n3(get(r, "fps_per_board")), get(r, "drops"), n3(get(r, "cpu_busy_pct")), n3(get(r, "cpu_ms_per_frame")), n3(get(r, "kmem_mib_per_stream"))
				}
		}
	}
	print ""
	for (i = 1; i <= nk; i++) {
		k = K[i]
		sk = short_kernel(k)
		a = 0
		# One data file per board and rate: N, aggregate fps, CPU busy %.
		for (x = 1; x <= 2; x++) {
			bd = x == 1 ? "soft" : "pci"
			n = scale_ns(k, bd, L)
			for (q = 1; q <= 2; q++) {
				rt = q == 1 ? "60" : "top"
				dat = res "/scale-" sk "-" bd "-" rt ".dat"
				printf "" > dat
				for (j = 1; j <= n; j++) {
					r = SC[k, bd, L[j], rt]
					if (!r)
						continue
					printf "%d %s %s %s\n", L[j], get(r, "fps"), get(r, "cpu_busy_pct"), get(r, "cpu_ms_per_frame") >> dat
					a = 1
				}
				close(dat)
			}
		}
		if (a)
			printf "![aggregate frame rate and CPU against the number of boards, %s](bench/scale-%s.png)\n\n", k, sk
	}
}

END {
	print "# Benchmarks: vcap, vivid and v4l2loopback side by side\n"
	print "Every figure below comes from one run of the command below, in QEMU"
	print "guests booted from Debian's kernels, each driver measured in the same"
	print "guest, one after the other. The guests run under software emulation"
	print "(TCG, no KVM) on a small shared machine: absolute times are inflated"
	print "many times over and vary with the host's load, so **the ratios between"
	print "drivers and against the guest's own memcpy, measured in the same guest,"
	print "are what carry**; the absolute rates are not what real hardware does.\n"
	print "Regenerate (as root, after `scripts/install-deps.sh` and a build):\n"
	printf "    %s\n\n", command
	print "The run writes its figures as JSON to `build/bench-results/bench.json`"
	print "(one object per measurement, by kernel), and this page and its plots to"
	print "`build/bench-results/`; `--publish` copies them into `docs/`. The"
	print "benchmarks are also the ctest tests `bench-<kernel>` (label `bench`, not"
	print "in the default run).\n"
	print "The PCI board is measured on both of its paths in the same guest: DMA,"
	print "the guest's memory being a file shared with the board's firmware, and"
	print "copy, a second board whose firmware is not given it. The memory file is"
	print "the guest's size (1 GiB, 2 GiB with the scale part) and goes to"
	print "`/dev/shm` (`VCAP_RAM_DIR` to put it elsewhere); `--no-dma` measures the"
	print "copy path alone, without it. `--only vcap` measures the boards and"
	print "nothing else, for a quicker comparison of the two paths.\n"

	print "## Machine\n"
	print "| kernel | host CPU | host CPUs | emulator | guest | vcap revision | run at |"
	print "| --- | --- | ---: | --- | --- | --- | --- |"
	for (i = 1; i <= nk; i++) {
		r = MACH[K[i]]
		if (r)
			printf "| %s | %s | %s | %s | %s CPUs, %s, %s | %s | %s |\n", K[i], get(r, "host_cpu"), get(r, "host_cpus"), get(r, "qemu"), get(r, "guest_cpus"), get(r, "accel"), (has(r, "guest_mem") ? mem_str(get(r, "guest_mem")) : "1 GiB"), get(r, "revision"), get(r, "date")
	}
	print ""

	print "## Method\n"
	print "- **Modes**: YUYV at 640x480, 1280x720, 1920x1080 and 3840x2160, and NV12"
	print "  at 1920x1080."
	print "- **Sustained rate**: `vbench capture` streams through V4L2 MMAP with"
	print "  buffers for 30 ms of frames at the rate set (at least 4 or the driver's"
	print "  minimum, at most 32 or the driver's maximum: the same slack in time at"
	print "  every rate, for every driver), waits 0.5 s, then counts frames"
	print "  dequeued over the wall time of a " secs "-second window; drops are gaps in"
	print "  the buffers' sequence numbers. The first run asks for the driver's top"
	print "  rate; while a run drops frames, the rate asked is lowered below what was"
	print "  delivered (by 7% when drops were rare, 15% otherwise; a run with rare"
	print "  drops is repeated once at the same rate, since one stall of the shared"
	print "  host loses a frame), up to 5 runs. A driver with no run free of drops"
	print "  is shown as \"none\" with its fastest run. vcap's rates are those its"
	print "  board publishes (at most 1000 fps, 240 at 3840x2160); the software"
	print "  board also runs free (its `free_run` attribute): it makes a frame"
	print "  whenever a buffer is queued and the last frame was taken, so the rate"
	print "  is the capture path's own, and the reader keeps v4l2-ctl's count of"
	print "  buffers (4, raised to the driver's minimum of 6), since a source that"
	print "  waits for buffers needs no slack against a clock; vivid's HDMI"
	print "  input is set to CVT reduced-blanking timings at the rate asked (its"
	print "  webcam input caps the rate by size); v4l2loopback is fed by `vbench feed`"
	print "  through its output node (`exclusive_caps=1`, reloaded before every run),"
	print "  either copying a fresh frame into every buffer (one memcpy per frame, as"
	print "  vcap's copy path) or only queueing buffers (bookkeeping only), first"
	print "  unpaced and then paced. Its capture buffers carry no sequence number,"
	print "  so its drops are the frames the producer queued during the window"
	print "  (matched by the timestamps the producer sets) that the reader missed."
	print "- **CPU per frame** is the busy time of the whole guest, since a"
	print "  driver's copy runs in its own context, not the reader's: the time"
	print "  every online CPU was up, less the idle and iowait time of"
	print "  `/proc/stat`, which the kernel clocks at each idle entry and exit."
	print "  (Its busy columns are sampled at the tick, which a source paced in"
	print "  step with it meets at the same phase of every frame, and so read"
	print "  anything from little to all of a frame's work.) The reader does not"
	print "  touch the pixels."
	print "- **memcpy**: frame-sized copies rotating over 3 sources and 4"
	print "  destinations, as a copy from the board's ring into the next buffer; each"
	print "  copy timed, the median kept (a stall of the emulator spoils a few)."
	print "- **VRAM**: `vbench vram`; the board is put in the mode by a V4L2 stream"
	print "  that is never dequeued, so the driver's copies stop once its buffers"
	print "  are full; the reader waits for each frame and also takes from the ring"
	print "  the frames published while it was away (`-a`), as a recorder would."
	print "  On the PCI board the pixels are produced by the firmware on the"
	print "  host, outside the guest's CPU figures; on the software board by the"
	print "  guest kernel, inside them."
	if (HAS_XFER) {
		print "- **PCI board, DMA and copy**: the guest's memory is a file shared with"
		print "  the host (`vcap-vm --guest-ram`), and the PCI board's firmware is given"
		print "  it (`vcap-fw serve --guest-ram`): the board writes each frame into the"
		print "  buffer the driver posted, and the driver copies nothing (its sysfs"
		print "  `transfer` reads `dma`). A second PCI board in the same guest, whose"
		print "  firmware is not given the guest's memory, runs the copy path"
		print "  (`transfer` reads `copy`): the driver copies each frame out of the"
		print "  board's VRAM ring. Both are measured the same way, one after the other;"
		print "  their rows are labelled \"DMA\" and \"copy\". `--no-dma` measures the"
		print "  copy path alone."
	}
	if (HAS_SCALE) {
		print "- **Scale**: 1, 4, 8 and 16 software boards, and the PCI boards, all"
		print "  streaming 1920x1080 YUYV at once, one `vbench capture` per node over"
		print "  the same window, at 60 fps and at the board's top rate; the guest has"
		print "  2 GiB for it (see [Scale](#scale-many-boards-streaming-at-once))."
	}
	print ""

	print "## Goals\n"
	print "| kernel | goal | target | measured | verdict |"
	print "| --- | --- | --- | --- | --- |"
	for (i = 1; i <= nk; i++)
		goals(K[i])
	print ""

	for (i = 1; i <= nk; i++)
		kernel_section(K[i])
	if (HAS_SCALE)
		scale_section()

	if (analysis != "") {
		while ((getline l < analysis) > 0)
			print l
		close(analysis)
	}
}
