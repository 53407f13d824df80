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
conf() { ARCH=x86_64 bash -c '. scripts/lib.sh; arch_conf "$1" "$2"' sh "$1" "$2"; }
bad=0 n=0 n32=0
for f in qemu/*.conf; do
	a=$(basename "$f" .conf)
	deb=$(conf "$a" DEB_ARCH) || { echo "compat-time: $a: arch_conf failed"; bad=1; continue; }
	[ -n "$deb" ] || continue
	n=$((n + 1))
	bits=$(dpkg-architecture -a "$deb" -qDEB_HOST_ARCH_BITS 2> /dev/null) ||
		{ echo "compat-time: $a: dpkg-architecture does not know DEB_ARCH=$deb"; bad=1; continue; }
	[ "$bits" = 32 ] || continue
	n32=$((n32 + 1))
	like=$(conf "$a" LIKE)
	grep -qx 'CONFIG_COMPAT_32BIT_TIME=y' "configs/$a.config" ${like:+"configs/$like.config"} 2> /dev/null ||
		{ echo "compat-time: $a ($deb, a 32-bit userland): no CONFIG_COMPAT_32BIT_TIME=y in configs/$a.config${like:+ or configs/$like.config}"; bad=1; }
done
[ $n -gt 0 ] || { echo "compat-time: no qemu/*.conf with a DEB_ARCH"; bad=1; }
[ $bad = 0 ] && echo "compat-time: $n32 of $n arches with a Debian userland are 32-bit, each with the 32-bit time calls"
exit $bad
