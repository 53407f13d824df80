#!/usr/bin/env bash
# Debian's 32-bit userlands call the 32-bit time_t system calls (glibc's
# nanosleep for busybox sleep and timeout, utimensat for touch). A 32-bit
# guest kernel without CONFIG_COMPAT_32BIT_TIME answers them ENOSYS: every
# sleep returns at once and ftracetest's helpers stall (parisc, 2026-12-07).
# So every arch with a 32-bit Debian userland (DEB_ARCH; also while
# NO_USERLAND keeps it off) asks for it in configs/<arch>.config (or in its
# LIKE arch's).
cd "$(dirname "$0")/../.." || exit 1
command -v dpkg-architecture > /dev/null || { echo "compat-time: dpkg-architecture missing (dpkg-dev)"; exit 1; }
bad=0 n=0
for f in qemu/*.conf; do
	a=$(basename "$f" .conf)
	conf() { ARCH=x86_64 bash -c '. scripts/lib.sh; arch_conf "$1" "$2"' sh "$a" "$1"; }
	deb=$(conf DEB_ARCH)
	[ -n "$deb" ] || continue
	[ "$(dpkg-architecture -a "$deb" -qDEB_HOST_ARCH_BITS 2> /dev/null)" = 32 ] || continue
	n=$((n + 1))
	grep -qx 'CONFIG_COMPAT_32BIT_TIME=y' "configs/$a.config" "configs/$(conf LIKE).config" 2> /dev/null ||
		{ echo "compat-time: $a ($deb, a 32-bit userland): no CONFIG_COMPAT_32BIT_TIME=y in configs/$a.config"; bad=1; }
done
[ $bad = 0 ] && echo "compat-time: $n arches with a 32-bit userland, each with the 32-bit time calls"
exit $bad
