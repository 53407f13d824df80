#!/usr/bin/env bash
# scripts/arch/parisc-cache-stride.sh (FIRMWARE of qemu/parisc.conf)
# changes QEMU 7.2's hppa firmware in its two cc_block deposits only
# (11 to 1: a cache flush stride of 32 bytes, not 32 KiB), and refuses a
# firmware that does not hold them exactly twice.
cd "$(dirname "$0")/../.." || exit 1
fw=/usr/share/qemu/hppa-firmware.img
# qemu-system-data, which every qemu-system-* package that setup installs
# depends on, ships it: its absence is a failure, not a skip
if [ ! -f "$fw" ]; then
	echo "parisc-firmware: no $fw (qemu-system-data)"
	exit 1
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
bad=0
scripts/arch/parisc-cache-stride.sh "$d/fw.img" 2> "$d/err" ||
	{ echo "parisc-firmware: refused QEMU's firmware: $(cat "$d/err")"; exit 1; }
# two bytes differ, each 0x76 (im5 of 11) to 0x62 (im5 of 1)
diff=$(cmp -l "$fw" "$d/fw.img" | awk '{ print $2 ":" $3 }' | sort | uniq -c | awk '{ print $1 "x" $2 }')
[ "$diff" = "2x166:142" ] || { echo "parisc-firmware: changed bytes (count x old:new, octal): ${diff:-none}"; bad=1; }
# the altered copy holds no cc_block deposit of 11: refused
if scripts/arch/parisc-cache-stride.sh "$d/again.img" "$d/fw.img" 2>/dev/null; then
	echo "parisc-firmware: a firmware without the two deposits was altered"; bad=1
fi
[ $bad = 0 ] && echo "parisc-firmware: QEMU's hppa firmware gets cc_block 1 in its two PDC_CACHE deposits, no other byte changed; another firmware is refused"
exit $bad
