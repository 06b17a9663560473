#!/bin/sh
# Bytes written by the host into an ivshmem-plain memory file are read in
# the guest through BAR2, and the guest's bytes are read back on the host.
set -eu
vm=$1 kver=$2 host=$3 guest=$4
mem=$(mktemp /dev/shm/vcap-rt.XXXXXX)
trap 'rm -f "$mem"' EXIT
truncate -s 16M "$mem"
"$host" put "$mem"
"$vm" --kernel "$kver" --timeout 120 --ivshmem-plain "$mem" -- "$guest"
"$host" check "$mem"
