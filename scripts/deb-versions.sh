#!/usr/bin/env bash
# make deb-versions: which versions of linux-source-6.1 that the registry
# serves the series applies to. Each version's package is downloaded
# (build/deb/download), the files the series changes are taken from its
# tarball, and the patches are applied in order; one line per version.
. "$(dirname "$0")/lib.sh"

"$ROOT/scripts/tree.sh"
dl=$BUILD/deb/download
work=$BUILD/deb/versions
mkdir -p "$dl"
# the files the series changes that the base has (the others it creates)
files=$(git -C "$SRC" diff --name-only base HEAD | sort -u)
# shellcheck disable=SC2086
present=$(git -C "$SRC" ls-tree -r --name-only base -- $files)
patches=$(grep -v '^[[:space:]]*\(#\|$\)' "$SERIES/series")

versions=$(apt-cache madison "$PACKAGE" | awk '{ print $3 }' | sort -V -r -u)
[ -n "$versions" ] || die "the registry serves no $PACKAGE (apt-get update?)"
step "deb-versions: $(echo $versions | wc -w) versions of $PACKAGE served; the base is $VERSION"
bad=0
for v in $versions; do
	deb=$dl/${PACKAGE}_${v}_all.deb
	if [ ! -f "$deb" ]; then
		( cd "$dl" && apt-get download -q "$PACKAGE=$v" > /dev/null 2>&1 ) ||
			{ printf '  %-14s not downloadable\n' "$v"; bad=1; continue; }
	fi
	rm -rf "$work"
	mkdir -p "$work"
	# shellcheck disable=SC2086
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ".$TARBALL" |
		tar -xJ -C "$work" --strip-components=1 $(printf "$PACKAGE/%s " $present) ||
		{ printf '  %-14s its tarball lacks files the series changes\n' "$v"; bad=1; continue; }
	result=applies
	for p in $patches; do
		if ! patch -d "$work" -p1 -s -f --no-backup-if-mismatch < "$SERIES/$p" > "$work/.log" 2>&1; then
			result="fails at $p: $(sed -n 's/ -- saving rejects to file \(.*\)\.rej$/ in \1/p; /can.t find\|malformed/p' "$work/.log" | head -n 1)"
			break
		fi
	done
	mark=
	[ "$v" = "$VERSION" ] && mark=" (the base)"
	printf '  %-14s %s%s\n' "$v" "$result" "$mark"
	[ "$v" != "$VERSION" ] || [ "$result" = applies ] || bad=1
done
rm -rf "$work"
newest=$(echo "$versions" | head -n 1)
[ "$newest" = "$VERSION" ] ||
	step "deb-versions: the newest served version is $newest, the base $VERSION: rebase the series and move the pin (bases/$BASE.conf)"
[ $bad = 0 ] || die "the series does not apply to the base, or a version could not be checked"
