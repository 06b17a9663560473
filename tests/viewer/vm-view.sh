#!/bin/sh
# In the guest: vcap-view --frames 30 --snapshot under Xvfb against a
# capture source, with the snapshot's pixels checked against the source's
# colour bars.
#
# usage: vm-view.sh VCAP_VIEW VV_IMGCHECK OUTDIR SOURCE [KO] [VIEW ARGS...]
#   SOURCE: vivid, vcap-soft KO or vcap-vram KO (see vm-source.sh)
set -u
view=$1
check=$2
out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)

fail() {
	echo "FAIL: $*"
	vv_source_down
	exit 1
}

. "$here/vm-source.sh"
. "$here/vv-stats.sh"
source=$1
vv_source_up "$@"
shift $?
mkdir -p "$out" || fail "cannot create $out"
echo "source: $source at $node"

snap=$out/$source.png
rm -f "$snap"
start=$(date +%s)
# SDL's software renderer: the guest has no GPU, and Mesa's llvmpipe
# under QEMU's emulation takes about a second per frame.
SDL_RENDER_DRIVER=software xvfb-run -a -s "-screen 0 1024x768x24" \
	"$view" -d "$node" --frames 30 --snapshot "$snap" -v --stats "$@" \
	>"$out/$source.out"
rc=$?
cat "$out/$source.out"
echo "vcap-view exited $rc after $(($(date +%s) - start)) s"
vv_source_down
[ $rc -eq 0 ] || fail "vcap-view exited $rc"
# The frames are the source's buffers, uploaded once: no other copy.
case $source in
vcap-vram) path="vram slot read in place, sdl upload" ;;
*) path="v4l2-mmap held, sdl upload" ;;
esac
vv_check_stats "$out/$source.out" 1 "$path"
# vcap stamps each buffer with its frame's end on the board, on
# CLOCK_MONOTONIC; vivid's nominal times can lie after the show.
[ "$source" = vivid ] || vv_check_latency "$out/$source.out"
"$check" "$snap" --level $level --tolerance $tolerance --bars ||
	fail "the snapshot does not show the colour bars"
echo "PASS: $snap shows the colour bars"
