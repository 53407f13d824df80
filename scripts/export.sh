#!/usr/bin/env bash
# Regenerate $SERIES (the patch files and 'series') from the commits on top of
# 'base' in $SRC. File names and contents are stable: no commit hashes, no
# version signature, blob abbreviations of 7 digits (git would lengthen them
# as the tree's object count grows).
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no tree at ${SRC#"$ROOT"/}; run 'make tree' first"
cd "$SRC"
[ -z "$(git status --porcelain)" ] || die "${SRC#"$ROOT"/} has uncommitted changes; commit them first"
# A file that a .gitignore rule hides is in no commit, so in no patch: the
# builds use O=, so nothing in the source tree should be ignored.
ignored=$(git ls-files --others --ignored --exclude-standard --directory)
[ -z "$ignored" ] || die "files in ${SRC#"$ROOT"/} that .gitignore hides (in no patch): $(echo $ignored); 'git add -f' them or remove them"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# suppressBlankEmpty: a context line for an empty line is written empty,
# not as a lone space (git am reads both; checkpatch, run on the files,
# takes the lone space for trailing whitespace)
git -c core.abbrev=7 -c diff.suppressBlankEmpty=true format-patch -q --no-signature --zero-commit \
	-o "$tmp" base..HEAD
rm -f "$SERIES"/*.patch
{
	echo "# Applied in this order on top of the base package (bases/$BASE.conf)."
	for f in "$tmp"/*.patch; do
		[ -e "$f" ] || continue
		cp "$f" "$SERIES/"
		basename "$f"
	done
} > "$SERIES/series"
git rev-parse HEAD > .git/fgraph-applied
series_stamp > .git/fgraph-stamp
step "export: $(git rev-list --count base..HEAD) patches written to ${SERIES#"$ROOT"/}/"
