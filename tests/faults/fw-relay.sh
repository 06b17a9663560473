# Sourced by the guest-side fault scripts (POSIX sh) run under faults.sh:
#   fw ARGS...   one "vcap-fw ctl ARGS" request through the host's relay;
#                succeeds when the firmware answered with status 0.
# The requests are files in $FX_RPC, named after $FW_TAG (default "sh").
fw_n=0
fw() {
	fw_n=$((fw_n + 1))
	fw_id=${FW_TAG:-sh}.$fw_n
	echo "$*" >"$FX_RPC/tmp.$fw_id"
	mv "$FX_RPC/tmp.$fw_id" "$FX_RPC/cmd.$fw_id"
	fw_i=0
	while [ ! -f "$FX_RPC/out.$fw_id" ] && [ $fw_i -lt 200 ]; do
		sleep 0.05
		fw_i=$((fw_i + 1))
	done
	grep -q '^status 0$' "$FX_RPC/out.$fw_id" 2>/dev/null
}
