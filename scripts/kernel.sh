#!/usr/bin/env bash
# Configure and build the kernel in $OBJ from $SRC: tinyconfig, then our
# Kconfig fragments merged with the kernel's own merge_config.sh, then
# olddefconfig; fail if Kconfig dropped any option a fragment asks for.
. "$(dirname "$0")/lib.sh"

# FRAGMENTS names configs/*.config files (default: guest ftrace kunit),
# each followed by its arch parts configs/<fragment>.$ARCH.config if there
# are any, then configs/$ARCH.config and EXTRA_CONFIGS; a later fragment
# overrides an earlier one. The arch parts of a variant (LIKE in
# qemu/<arch>.conf) are its LIKE arch's, then its own.
frags=
for f in ${FRAGMENTS:-guest ftrace kunit}; do
	[ -f "$ROOT/configs/$f.config" ] || die "FRAGMENTS: no configs/$f.config"
	frags="$frags $ROOT/configs/$f.config"
	for a in ${LIKE:-} "$ARCH"; do
		[ ! -f "$ROOT/configs/$f.$a.config" ] || frags="$frags $ROOT/configs/$f.$a.config"
	done
done
for a in ${LIKE:-} "$ARCH"; do
	[ ! -f "$ROOT/configs/$a.config" ] || frags="$frags $ROOT/configs/$a.config"
done
for f in ${EXTRA_CONFIGS:-}; do frags="$frags $(realpath "$f")"; done

mkdir -p "$OBJ"
cd "$SRC"
step "kernel: configuring $ARCH ($VARIANT) in ${OBJ#"$ROOT"/}"
cfg=$OBJ/.config
[ -f "$cfg" ] && cp "$cfg" "$OBJ/.config.prev"
# Kconfig asks the compiler what it supports (cc-option): configure with
# the compiler that builds, the arch's cross compiler.
logged "$OBJ/config.log" "kernel: tinyconfig + fragments" sh -c '
	make -s -C "$1" O="$2" ARCH="$3" CROSS_COMPILE="$5" tinyconfig &&
	ARCH="$3" "$1/scripts/kconfig/merge_config.sh" -m -O "$2" "$2/.config" $4 &&
	make -s -C "$1" O="$2" ARCH="$3" CROSS_COMPILE="$5" olddefconfig' \
	sh "$SRC" "$OBJ" "$KARCH" "$frags" "$CROSS_COMPILE"
# Keep the old .config (and its timestamp) when nothing changed, so that an
# unchanged tree is not reconfigured.
if [ -f "$OBJ/.config.prev" ] && cmp -s "$cfg" "$OBJ/.config.prev"; then
	mv "$OBJ/.config.prev" "$cfg"
fi

# Every option the fragments ask for (the last word on each) must have
# survived olddefconfig.
bad=0
while read -r opt want frag; do
	have=$(grep -E "^($opt=|# $opt is not set)" "$cfg" || true)
	if [ "$want" = unset ]; then
		case "$have" in "$opt="*) echo "  $opt: asked off by $frag, got '$have'" >&2; bad=1 ;; esac
	elif [ "$have" != "$want" ]; then
		echo "  $opt: $frag asks '$want', .config has '${have:-nothing}'" >&2
		bad=1
	fi
done < <(for f in $frags; do
		sed -n "s/^\(CONFIG_[A-Za-z0-9_]*\)=n\$/\1 unset/p
			s/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1 \1=\2/p
			s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set\$/\1 unset/p" "$f" |
			sed "s|\$| ${f##*/}|"
	done | awk '{ want[$1] = $0 } END { for (o in want) print want[o] }' | sort)
[ $bad -eq 0 ] || die "Kconfig dropped options the fragments need (missing dependency?)"
step "kernel: all $(cat $frags | grep -c '^CONFIG_\|^# CONFIG_') fragment options present"
# CONFIG_ONLY=1: stop after the configuration (a quick check of the
# fragments for an arch)
[ -z "${CONFIG_ONLY:-}" ] || exit 0

if [ -n "${GCC_PLUGIN:-}" ]; then
	# the compiler's plugin, built against its own headers
	# (the compiler names its plugin directory once its headers are there)
	plugdir=$("${CROSS_COMPILE}gcc" -print-file-name=plugin)
	[ -d "$plugdir/include" ] || { "$ROOT/scripts/setup.sh" &&
		plugdir=$("${CROSS_COMPILE}gcc" -print-file-name=plugin); }
	src=$ROOT/scripts/gcc/$GCC_PLUGIN.cc
	if [ ! -f "$GCC_PLUGIN_SO" ] || [ "$src" -nt "$GCC_PLUGIN_SO" ]; then
		mkdir -p "$(dirname "$GCC_PLUGIN_SO")"
		logged "$BUILD/gcc/$GCC_PLUGIN.log" "kernel: GCC plugin $GCC_PLUGIN" \
			g++ -shared -fPIC -fno-rtti -O2 -I"$plugdir/include" -o "$GCC_PLUGIN_SO" "$src"
	fi
	# its check: the code the plugin is for, compiled with it
	check=$ROOT/scripts/gcc/$GCC_PLUGIN.check
	[ ! -x "$check" ] || "$check" "${CROSS_COMPILE}gcc" "$GCC_PLUGIN_SO" ||
		die "GCC plugin $GCC_PLUGIN does not do its job: ${check#"$ROOT"/} failed"
fi
logged "$OBJ/build.log" "kernel: make -j$JOBS (ccache)" kmake -j"$JOBS"
# the arch's check of the built kernel against an assumption of its code
# (BUILD_CHECK of qemu/<arch>.conf: scripts/arch/<name>.sh)
if [ -n "${BUILD_CHECK:-}" ]; then
	"$ROOT/scripts/arch/$BUILD_CHECK.sh" "${CROSS_COMPILE}objdump" "$OBJ/vmlinux" "$SRC" | sed 's/^/    /' ||
		die "the built kernel breaks an assumption of the arch code: scripts/arch/$BUILD_CHECK.sh failed"
fi
rm -rf "$OBJ/mods"
logged "$OBJ/modules_install.log" "kernel: modules_install" \
	kmake INSTALL_MOD_PATH="$OBJ/mods" INSTALL_MOD_STRIP=1 modules_install
step "kernel: $(kmake -s kernelrelease) ready: ${OBJ#"$ROOT"/}/$IMAGE"
