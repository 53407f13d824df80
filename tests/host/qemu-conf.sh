#!/usr/bin/env bash
# qemu/<arch>.conf files are declarations: comments and KEY=value lines
# only, every key one that scripts/lib.sh knows (ARCH_CONF_KEYS: what
# arch_conf clears before it reads another arch) and that qemu/README.md
# documents.
cd "$(dirname "$0")/../.." || exit 1
keys=" $(sed -n '/^ARCH_CONF_KEYS="/,/"$/p' scripts/lib.sh | tr -d '"' | sed 's/^ARCH_CONF_KEYS=//' | tr '\n\t' '  ') "
bad=0 n=0
for f in qemu/*.conf; do
	n=$((n + 1))
	while IFS= read -r l; do
		case $l in '#'*|'') continue ;; esac
		k=${l%%=*}
		if [ "$k" = "$l" ] || ! [[ $k =~ ^[A-Z_][A-Z0-9_]*$ ]]; then
			echo "qemu-conf: $f: not a KEY=value line: $l"; bad=1; continue
		fi
		case $keys in *" $k "*) ;; *) echo "qemu-conf: $f: $k is not in ARCH_CONF_KEYS (scripts/lib.sh)"; bad=1 ;; esac
		grep -q "^| \`$k\` |" qemu/README.md || { echo "qemu-conf: $f: $k is not documented in qemu/README.md"; bad=1; }
		# a script the key names (scripts/arch/<name>.sh) is there to run
		v=${l#*=} v=${v#[\"\']} v=${v%[\"\']}
		case $k in FIRMWARE|BUILD_CHECK)
			[ -x "scripts/arch/$v.sh" ] || { echo "qemu-conf: $f: $k: no executable scripts/arch/$v.sh"; bad=1; } ;;
		esac
	done < "$f"
done
# a variant (LIKE=<arch>) names an arch that is no variant itself, and
# inherits what it does not set (arch_conf in scripts/lib.sh)
v=0
for f in qemu/*.conf; do
	like=$(sed -n 's/^LIKE=//p' "$f")
	[ -n "$like" ] || continue
	v=$((v + 1)) a=$(basename "$f" .conf)
	if [ ! -f "qemu/$like.conf" ] || grep -q '^LIKE=' "qemu/$like.conf"; then
		echo "qemu-conf: $f: LIKE=$like is not an arch of its own"; bad=1; continue
	fi
	got=$(ARCH=x86_64 bash -c '. scripts/lib.sh; arch_conf "$1" KARCH' sh "$a")
	want=$(ARCH=x86_64 bash -c '. scripts/lib.sh; arch_conf "$1" KARCH' sh "$like")
	[ "$got" = "$want" ] || { echo "qemu-conf: $f: KARCH '$got', its LIKE arch $like has '$want'"; bad=1; }
done
[ $bad = 0 ] && echo "qemu-conf: $n files ($v variants), every key known and documented"
exit $bad
