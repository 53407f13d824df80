#!/usr/bin/env bash
# Check that the series is bisectable: every prefix of base..HEAD in the
# tree builds (same config as 'make kernel') and boots to the function_graph
# demo. Objects go to build/obj/<arch>-bisect-<base>, guest logs to
# build/run/<arch>-bisect-<base>/<n>. The tree goes back on its branch.
#   make bisect            (after 'make kernel')
#   make bisect BISECT_FROM=N   prefixes N.. only (to go on after a stop)
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no tree at ${SRC#"$ROOT"/}; run 'make tree' first"
[ -f "$OBJ/.config" ] || die "no $OBJ/.config: run 'make kernel' first"
[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
	die "${SRC#"$ROOT"/} has uncommitted changes"

# back on the branch (or commit) the tree was on
head=$(git -C "$SRC" symbolic-ref -q --short HEAD || git -C "$SRC" rev-parse HEAD)
total=$(git -C "$SRC" rev-list --count base..HEAD)
from=${BISECT_FROM:-1}
case $from in ''|*[!0-9]*|0) die "BISECT_FROM=$from: want a prefix number, 1 to $total" ;; esac
[ "$from" -le "$total" ] || die "BISECT_FROM=$from: the series has $total patches"
bobj=$BUILD/obj/$ARCH-bisect-$BASE
brun=$BUILD/run/$ARCH-bisect-$BASE
mkdir -p "$bobj" "$brun"
trap 'git -C "$SRC" checkout -q "$head"' EXIT

n=0 bad=0
for c in $(git -C "$SRC" rev-list --reverse base..HEAD); do
	n=$((n + 1))
	[ "$n" -ge "$from" ] || continue
	subject=$(git -C "$SRC" log -1 --format=%s "$c")
	git -C "$SRC" checkout -q "$c"
	# the full config each time: olddefconfig drops what this prefix lacks
	cp "$OBJ/.config" "$bobj/.config"
	step "bisect: $n: $subject"
	# a prefix that does not build stops here, with the build log's tail
	OBJ=$bobj logged "$brun/$n-build.log" "bisect: $n: build" \
		kmake -j"$JOBS" olddefconfig bzImage modules
	rm -rf "$bobj/mods"
	OBJ=$bobj logged "$brun/$n-modules.log" "bisect: $n: modules_install" \
		kmake INSTALL_MOD_PATH="$bobj/mods" INSTALL_MOD_STRIP=1 modules_install
	if OBJ=$bobj RUNDIR=$brun/$n TIMEOUT=600 "$ROOT/scripts/boot.sh" run \
		> "$brun/$n-boot.log" 2>&1 < /dev/null &&
	   grep -q 'graph lines in trace' "$brun/$n-boot.log"; then
		step "bisect: $n: boots, function_graph works"
	else
		step "bisect: $n: BOOT FAILED (see ${brun#"$ROOT"/}/$n-boot.log)"
		bad=$((bad + 1))
	fi
done
[ "$from" -eq 1 ] && what="all $n prefixes" || what="prefixes $from to $n of $n"
[ $bad -eq 0 ] || die "$bad of the $what of the series failed"
step "bisect: $what of the series build and boot"
