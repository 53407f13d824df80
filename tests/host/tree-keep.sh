#!/usr/bin/env bash
# make tree (scripts/tree.sh) never replaces a directory it did not make:
# SRC set to a git worktree (.git is a file there) or any other directory
# is refused with the reason, and what it holds stays (FORCE=1 replaces it
# by design: not passed on from the caller).
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
bad=0
tree=$(dirname "$0")/../../scripts/tree.sh
for kind in worktree plain; do
	src=$d/$kind
	mkdir -p "$src" && echo mine > "$src/work.c"
	[ $kind = worktree ] && echo "gitdir: /nowhere" > "$src/.git"
	out=$(env -u FORCE SRC=$src "$tree" 2>&1) && { echo "tree: $kind SRC accepted"; bad=1; }
	case $out in
	*"is not a tree that make tree made"*) ;;
	*) echo "tree: $kind SRC: no reason given: $out"; bad=1 ;;
	esac
	[ "$(cat "$src/work.c" 2>/dev/null)" = mine ] || { echo "tree: $kind SRC: its files are gone"; bad=1; }
done
[ $bad = 0 ] && echo "tree: a worktree and a plain directory as SRC refused, their files kept"
exit $bad
