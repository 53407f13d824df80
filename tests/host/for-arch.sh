#!/usr/bin/env bash
# for_arch (scripts/lib.sh), how make check picks the tests/guest/
# scripts of an arch by their "# arches:" line: the arch itself, a
# variant through its LIKE arch, an empty list for every arch, and no
# match on a name that only contains the arch's.
. "$(dirname "$0")/../../scripts/lib.sh"
bad=0 n=0
t() { # expected arch like list
	local got=no
	n=$((n + 1))
	( ARCH=$2 LIKE=$3; for_arch "$4" ) && got=yes
	[ "$got" = "$1" ] || { echo "for_arch: ARCH=$2 LIKE=$3 '$4': $got, expected $1"; bad=1; }
}
t yes x86_64 "" "x86_64"
t yes x86_64 "" "arm64 x86_64"
t no arm64 "" "x86_64"
t yes arm64 "" ""
t yes arm-thumb2 arm "arm"
t yes arm-thumb2 arm "arm-thumb2 sh4"
t no arm-thumb2 arm "arm64 x86_64"
t no arm "" "arm-thumb2"
t no arm "" "arm64"
t no x86 "" "x86_64"
[ $bad = 0 ] && echo "for_arch: $n lists read as expected"
exit $bad
