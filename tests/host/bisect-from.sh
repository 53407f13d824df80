#!/usr/bin/env bash
# make bisect's BISECT_FROM (scripts/bisect-series.sh) on a made-up
# two-commit tree that cannot build: out-of-range values are refused with
# the reason, BISECT_FROM=2 starts at prefix 2 (not 1), and the tree is
# back on its branch after the failed build.
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
bad=0
export SRC=$d/src OBJ=$d/obj BUILD=$d/build JOBS=1
mkdir -p "$SRC" "$OBJ" && : > "$OBJ/.config"
g() { git -C "$SRC" -c user.name=t -c user.email=t@t "$@" > /dev/null; }
g init -q -b topic && g commit -q --allow-empty -m base && g tag base &&
	g commit -q --allow-empty -m first && g commit -q --allow-empty -m second
bisect=$(dirname "$0")/../../scripts/bisect-series.sh
for v in 0 3 x; do
	out=$(BISECT_FROM=$v "$bisect" 2>&1) &&
		{ echo "bisect: BISECT_FROM=$v: accepted"; bad=1; }
	case $out in
	*"BISECT_FROM=$v: "*) ;;
	*) echo "bisect: BISECT_FROM=$v: no reason given: $out"; bad=1 ;;
	esac
done
# (to a file: the build step's progress ticker keeps a pipe open for a minute)
BISECT_FROM=2 "$bisect" > "$d/out" 2>&1 && { echo "bisect: a tree that cannot build passed"; bad=1; }
out=$(cat "$d/out")
case $out in *"bisect: 1: "*) echo "bisect: BISECT_FROM=2 checked prefix 1"; bad=1 ;; esac
case $out in *"bisect: 2: second"*) ;; *) echo "bisect: BISECT_FROM=2 did not start at prefix 2: $out"; bad=1 ;; esac
[ "$(git -C "$SRC" symbolic-ref -q --short HEAD)" = topic ] ||
	{ echo "bisect: the tree is not back on its branch"; bad=1; }
[ $bad = 0 ] && echo "bisect: BISECT_FROM refused 0, 3 and x, started at 2, tree back on its branch"
exit $bad
