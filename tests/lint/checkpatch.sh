#!/bin/sh
# checkpatch.pl --strict over the kernel-side sources: the module, the
# code it shares with the firmware, and the two ABI headers.
set -u
src=$1
cp=${VCAP_CHECKPATCH:-/opt/vcap/checkpatch/scripts/checkpatch.pl}
[ -f "$cp" ] || { echo "checkpatch.pl not found at $cp: run scripts/install-deps.sh" >&2; exit 1; }
files=$(ls "$src"/kernel/*.c "$src"/kernel/*.h "$src"/common/*.c "$src"/common/*.h \
	"$src"/include/vcap/*.h "$src"/include/uapi/linux/*.h 2>/dev/null)
[ -n "$files" ] || { echo "no kernel sources found under $src" >&2; exit 1; }
rc=0
for f in $files; do
	# The ABI headers and the shared code are also built in user space,
	# where BIT() and the kernel's own types do not exist.
	case $f in
	*/include/*) ignore=BIT_MACRO ;;
	*/common/vcap-types.h) ignore=PREFER_KERNEL_TYPES ;;
	# Version tests are what compat.h is for.
	*/kernel/compat.h) ignore=LINUX_VERSION_CODE,CONSTANT_COMPARISON ;;
	*) ignore= ;;
	esac
	out=$(perl "$cp" --no-tree --strict --terse --show-types \
		--ignore "FILE_PATH_CHANGES${ignore:+,$ignore}" -f "$f" 2>&1)
	if printf '%s\n' "$out" | grep -qE ': (ERROR|WARNING|CHECK):'; then
		printf '%s\n' "$out" | grep -E ': (ERROR|WARNING|CHECK):'
		rc=1
	fi
done
n=$(printf '%s\n' "$files" | wc -l)
[ $rc -eq 0 ] && echo "checkpatch --strict: $n files clean"
exit $rc
