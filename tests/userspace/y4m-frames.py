#!/usr/bin/env python3
# y4m-frames.py FILE [CHROMA]: prints the number of whole frames in a Y4M
# file; fails unless the file is a header and whole frames only (and,
# with CHROMA, its C tag is that, e.g. 422).
import sys

d = open(sys.argv[1], "rb").read()
hdr, _, rest = d.partition(b"\n")
assert hdr.startswith(b"YUV4MPEG2 "), hdr
f = dict((t[:1], t[1:]) for t in hdr.split(b" ")[1:])
w, h, c = int(f[b"W"]), int(f[b"H"]), f.get(b"C", b"420jpeg")
if len(sys.argv) > 2:
    assert c == sys.argv[2].encode(), "chroma %r, expected %s" % (c, sys.argv[2])
size = {b"422": w * h * 2, b"mono": w * h}.get(c, w * h * 3 // 2)
# Walk by offset: slicing off each frame would copy the rest of the file
# once per frame.
n = off = 0
while off < len(rest):
    assert rest[off:off + 6] == b"FRAME\n", "frame %d: no FRAME marker" % n
    assert len(rest) - off >= 6 + size, "frame %d truncated" % n
    off += 6 + size
    n += 1
print(n)
