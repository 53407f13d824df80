#!/usr/bin/env bash
# Prepare $SRC: a git tree of the pinned base (commit tagged 'base') with the
# patches of $SERIES/series applied on top as commits, one per patch.
#
# The tree is re-made only when the base package or patches/ changed since it
# was last applied or exported; then it must hold no work that was not
# exported, or we stop rather than throw it away.
. "$(dirname "$0")/lib.sh"

installed=$(dpkg-query -W -f='${Version}' "$PACKAGE" 2>/dev/null) ||
	die "$PACKAGE is not installed (run: make setup)"
[ -f "$TARBALL" ] || die "$TARBALL is missing (reinstall $PACKAGE)"

make_base() {
	local tmp=$BUILD/src/.unpack-$BASE
	rm -rf "$tmp" "$SRC"
	mkdir -p "$tmp"
	logged "$BUILD/logs/unpack-$BASE.log" "tree: unpacking $PACKAGE $installed" \
		tar -C "$tmp" -xf "$TARBALL"
	mv "$tmp"/* "$SRC"
	rmdir "$tmp"
	cd "$SRC"
	# Debian's packaging appends a rule '/*' (with '!/debian/') to the
	# top-level .gitignore: every new file would be ignored, so 'git add'
	# skips it silently and 'git clean -fdx' deletes it. The tree must
	# track new files like any kernel tree: drop that part of the file.
	if grep -qx '/\*' .gitignore; then
		sed -i '/^# Debian packaging/,$d' .gitignore
		grep -qx '/\*' .gitignore && die "could not drop Debian's '/*' rule from .gitignore"
	fi
	git init -q
	git config user.name >/dev/null || git config user.name "linux-fgraph developer"
	git config user.email >/dev/null || git config user.email "dev@linux-fgraph.invalid"
	git config gc.auto 0
	logged "$BUILD/logs/git-base-$BASE.log" "tree: committing the base" sh -c '
		git add -A -f . &&
		GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		git commit -q -m "base: $1 $2"' sh "$PACKAGE" "$installed"
	git tag -f base >/dev/null
	echo "$PACKAGE $installed $TREE_FORMAT" > .git/fgraph-base
}

apply_series() {
	cd "$SRC"
	git reset -q --hard base
	git clean -q -fdx
	local n=0 p out
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$SERIES/$p" ] || die "patches/series names $p, which does not exist"
		if ! out=$(git am -q "$SERIES/$p" 2>&1); then
			git am --abort >/dev/null 2>&1 || true
			printf '%s\n' "$out" | sed 's/^/    /' >&2
			files=$(printf '%s\n' "$out" | sed -n 's/^error: patch failed: \(.*\):[0-9]*$/\1/p;
				s/^error: \(.*\): does not exist in index$/\1/p;
				s/^error: \(.*\): already exists in index$/\1/p' | sort -u | tr '\n' ' ')
			die "patch $p does not apply to $PACKAGE $installed (failing file: ${files:-see above})"
		fi
		n=$((n + 1))
	done < "$SERIES/series"
	git rev-parse HEAD > .git/fgraph-applied
	series_stamp > .git/fgraph-stamp
	step "tree: applied $n patches from ${SERIES#"$ROOT"/}/series"
}

# Bumped when make_base changes what the base commit holds (2: Debian's
# '/*' rule dropped from .gitignore), so that older trees are made anew.
TREE_FORMAT=2
mkdir -p "$BUILD/src"
# a directory that make tree did not make (a git worktree has a .git file):
# never replaced without FORCE, it may hold the user's work
if [ -e "$SRC" ] && [ ! -d "$SRC/.git" ] && [ -z "${FORCE:-}" ]; then
	die "${SRC#"$ROOT"/} exists but is not a tree that make tree made (a git worktree, or another directory): move it away, or FORCE=1 to replace it"
fi
if [ ! -d "$SRC/.git" ] || [ "$(cat "$SRC/.git/fgraph-base" 2>/dev/null)" != "$PACKAGE $installed $TREE_FORMAT" ]; then
	if [ -d "$SRC/.git" ] && [ -z "${FORCE:-}" ]; then
		cd "$SRC"
		[ "$(git rev-parse HEAD)" = "$(cat .git/fgraph-applied 2>/dev/null)" ] && [ -z "$(git status --porcelain)" ] ||
			die "the base package changed, but ${SRC#"$ROOT"/} holds work that was not exported; run 'make export' or FORCE=1"
	fi
	make_base
	apply_series
elif [ "$(cat "$SRC/.git/fgraph-stamp" 2>/dev/null)" != "$(series_stamp)" ]; then
	cd "$SRC"
	if [ -z "${FORCE:-}" ] && { [ "$(git rev-parse HEAD)" != "$(cat .git/fgraph-applied 2>/dev/null)" ] ||
				     [ -n "$(git status --porcelain)" ]; }; then
		die "patches/ changed, but ${SRC#"$ROOT"/} holds work that was not exported; run 'make export' first, or FORCE=1 to discard it"
	fi
	apply_series
else
	step "tree: ${SRC#"$ROOT"/} is up to date ($(git -C "$SRC" rev-list --count base..HEAD) patches on $PACKAGE $installed)"
fi
