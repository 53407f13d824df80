#!/usr/bin/env bash
# QEMU 7.2's firmware for the B160L (SeaBIOS-hppa, in qemu-system-data)
# answers PDC_CACHE with cc_block raised from 1 to 11 in both cache
# configurations ("Revisit for HP-UX", says its source): the kernel then
# computes a flush stride of 32 KiB, and Debian's 6.1.192 aligns every
# slab object to that stride (arch_slab_minalign() is dcache_stride on
# parisc). With objects of 32 KiB, SLUB warns at boot and a tracefs
# instance's event files take hundreds of MiB: the guest runs out of
# memory. Write a copy of the firmware whose two "depwi 11,7,4,r19"
# (cc_block = 11) deposit 1 instead, the B160L's own value (stride 32
# bytes), and alter nothing unless the firmware holds that instruction
# exactly twice, as QEMU 7.2's (Debian's 1:7.2+dfsg-7+deb12u18) does.
# Run by scripts/boot.sh before each parisc boot (FIRMWARE in
# qemu/parisc.conf); QEMU gets the copy with -bios.
#   parisc-cache-stride.sh OUT [FIRMWARE]   (default: QEMU's)
set -euo pipefail
out=${1:?usage: parisc-cache-stride.sh OUT [FIRMWARE]} fw=${2:-/usr/share/qemu/hppa-firmware.img}
[ -f "$fw" ] || { echo "parisc-cache-stride: no $fw (qemu-system-data)" >&2; exit 1; }
# the instruction's big-endian word, and the same with im5 = 1
old=d6761f1c new=d6621f1c
# (od -w4 prints one aligned word a line, at its decimal offset)
offs=$(od -A d -v -t x1 -w4 "$fw" | awk -v w="$old" '
	{ s = $2 $3 $4 $5 } s == w { print $1 + 0 }')
if [ "$(echo "$offs" | grep -c .)" != 2 ]; then
	echo "parisc-cache-stride: $fw holds the word $old at $(echo "$offs" | grep -c .) places, not the 2 of QEMU 7.2's PDC_CACHE: not altered" >&2
	exit 1
fi
trap 'rm -f "$out.tmp"' EXIT
cp "$fw" "$out.tmp"
for o in $offs; do
	printf '%b' "$(echo "$new" | sed 's/../\\x&/g')" |
		dd of="$out.tmp" bs=1 seek="$o" conv=notrunc status=none
done
mv "$out.tmp" "$out"
