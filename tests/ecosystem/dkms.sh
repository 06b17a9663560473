#!/bin/sh
# DKMS round trip of vcap.ko on the host, in a private DKMS tree: the
# module source laid out as vcap-dkms installs it, then dkms add, build and
# install for every kernel given, each module checked, then dkms remove,
# which must leave nothing behind.  Nothing outside a temporary directory
# changes: a private mount namespace hides dkms's signing key directory.
# Usage: dkms.sh SOURCE_DIR VERSION KERNEL_RELEASE...
set -u
src=$1 version=$2
shift 2
fail() { echo "dkms: FAIL: $*" >&2; exit 1; }
[ $# -gt 0 ] || fail "no kernel given"
command -v dkms >/dev/null || fail "dkms not installed (scripts/install-deps.sh)"
[ "$(id -u)" -eq 0 ] || fail "needs root (a private mount namespace)"

if [ -z "${VCAP_DKMS_PRIVATE:-}" ]; then
	exec env VCAP_DKMS_PRIVATE=1 unshare --mount --propagation private \
		sh "$0" "$src" "$version" "$@"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vcap-dkms.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# dkms signs modules with a key it keeps in /var/lib/dkms: keep it here.
mkdir -p "$tmp/keys"
mount --bind "$tmp/keys" /var/lib/dkms || fail "cannot hide /var/lib/dkms"

srctree=$tmp/src tree=$tmp/dkms inst=$tmp/modules
mkdir -p "$srctree" "$tree" "$inst"
sh "$src/packaging/dkms/stage-dkms.sh" "$src" "$srctree/vcap-$version" "$version" ||
	fail "staging the source"
D="dkms --sourcetree $srctree --dkmstree $tree --installtree $inst"
mv_args="-m vcap -v $version"

$D add $mv_args || fail "dkms add"
for kver in "$@"; do
	mkdir -p "$inst/$kver"
	start=$(date +%s)
	$D build $mv_args -k "$kver" >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log" "$tree/vcap/$version/build/make.log" >&2; fail "dkms build for $kver"; }
	$D install $mv_args -k "$kver" --no-depmod >"$tmp/install.log" 2>&1 ||
		{ cat "$tmp/install.log" >&2; fail "dkms install for $kver"; }
	ko=$(find "$inst/$kver" -name 'vcap.ko*' | head -n 1)
	[ -n "$ko" ] || fail "no vcap.ko installed for $kver"
	magic=$(modinfo -F vermagic "$ko")
	case $magic in
	"$kver "*) ;;
	*) fail "$ko: vermagic '$magic' is not for $kver" ;;
	esac
	echo "dkms: $kver: built and installed ${ko#$inst/} in $(($(date +%s) - start))s"
done
status=$($D status -m vcap)
echo "$status" | sed 's/^/    /'
for kver in "$@"; do
	echo "$status" | grep -q "^vcap/$version, $kver, [^:]*: installed" ||
		fail "dkms status does not show vcap installed for $kver"
done

$D remove $mv_args --all >"$tmp/remove.log" 2>&1 ||
	{ cat "$tmp/remove.log" >&2; fail "dkms remove"; }
[ -z "$($D status -m vcap)" ] || fail "dkms status still shows vcap after remove"
left=$(find "$inst" "$tree" -name '*vcap*')
[ -z "$left" ] || fail "left behind after remove: $left"
echo "dkms: removed cleanly from $# kernels"
