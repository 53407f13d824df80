#!/usr/bin/env bash
# make deb: Debian packages (linux-image, linux-headers) of the patched
# kernel, built by the kernel's own bindeb-pkg from Debian's configuration
# of $ARCH (the linux-config-6.1 package of the pinned version, or of the
# newest version the registry serves if it does not serve that one).
#   DEB_CONFIG=cloud  Debian's cloud flavour (default: made for virtual
#                     machines, about a third of the modules)
#   DEB_CONFIG=full   Debian's generic flavour (every module: hours)
#   DEB_CONFIG=rt     refused: see below
# The packages go to build/deb/$ARCH-$DEB_CONFIG/; docs/debian.md says how
# to install them.
. "$(dirname "$0")/lib.sh"

DEB_CONFIG=${DEB_CONFIG:-cloud}
case $DEB_CONFIG in
cloud) flavour=cloud-$DEB_ARCH ;;
full) flavour=$DEB_ARCH ;;
rt)
	# Debian's rt flavour is its generic config plus PREEMPT_RT, whose
	# patches come with Debian's 'linux' source package only: on
	# linux-source-6.1 the rt config would build a kernel that is not RT
	# and call it one. The registry here serves that package's index but
	# not its files (404), so the series has not been tried on them.
	die "DEB_CONFIG=rt: linux-source-$BASE has none of Debian's real-time patches (they are in Debian's 'linux' source package, whose files this registry does not serve), so its rt config would build a non-RT kernel; not built (docs/debian.md)" ;;
*) die "DEB_CONFIG=$DEB_CONFIG: cloud, full or rt" ;;
esac
case $DEB_ARCH in
amd64 | arm64) ;;
*) die "make deb: ARCH=x86_64 or arm64 (Debian's configs of $BASE are for those here)" ;;
esac
[ "$BASE" = 6.1 ] || die "make deb: BASE=6.1 only (the base the series is for)"

OUT=$BUILD/deb/$ARCH-$DEB_CONFIG
# bindeb-pkg writes the packages to the parent of the object directory
OBJ=$OUT/obj
export OBJ

# Debian's configs for the arch, by download (another arch's cannot be
# installed here): those of the pinned version; if the registry does not
# serve them (it keeps the source of older versions longer than their
# configs, and its arm64 configs may be older), those of the newest
# version it serves, said loudly
EXTRA_PKGS="${EXTRA_PKGS:-} dpkg-dev fakeroot rsync kmod bc" "$ROOT/scripts/setup.sh"
cfgpkg=linux-config-$BASE
cfgfile=config.${DEB_ARCH}_none_$flavour.xz
served=$(apt-cache madison "$cfgpkg:$DEB_ARCH") || die "apt-cache madison $cfgpkg:$DEB_ARCH failed"
served=$(echo "$served" | awk '{print $3}' | sort -V -r -u)
if echo "$served" | grep -qxF -- "$VERSION"; then
	cfgver=$VERSION
else
	cfgver=$(echo "$served" | head -n 1)
	[ -n "$cfgver" ] || die "the registry serves no $cfgpkg:$DEB_ARCH$([ "$DEB_ARCH" = "$(dpkg --print-architecture)" ] || echo " (dpkg --add-architecture $DEB_ARCH?)")"
	if [ "$(printf '%s\n' "$cfgver" "$VERSION" | sort -V | tail -n 1)" = "$cfgver" ]; then
		age=newer
	else
		age=older
	fi
	echo "WARNING: the registry does not serve $cfgpkg:$DEB_ARCH=$VERSION (the base); using Debian's config of $cfgver, $age than the base (served: $(echo "$served" | tr '\n' ' '))" >&2
fi
cfgroot=$BUILD/deb/$cfgpkg-$cfgver-$DEB_ARCH
cfgdir=$cfgroot/usr/src/$cfgpkg
if [ ! -f "$cfgdir/$cfgfile" ]; then
	dl=$BUILD/deb/download
	mkdir -p "$dl"
	step "deb: downloading $cfgpkg:$DEB_ARCH=$cfgver"
	( cd "$dl" && apt-get download -q "$cfgpkg:$DEB_ARCH=$cfgver" >/dev/null ) ||
		die "could not download $cfgpkg:$DEB_ARCH=$cfgver (stale package lists? apt-get update)"
	dpkg-deb -x "$dl/${cfgpkg}_${cfgver}_$DEB_ARCH.deb" "$cfgroot"
fi
[ -f "$cfgdir/$cfgfile" ] || die "Debian's $cfgpkg has no $cfgfile"
"$ROOT/scripts/tree.sh"

# The packages' version names the base and the series: 6.1.192-3+fgraph.<commit>
commit=$(git -C "$SRC" rev-parse --short=12 HEAD)
pkgversion=$VERSION+fgraph.$commit
localversion=-fgraph-$flavour

mkdir -p "$OBJ"
step "deb: $cfgfile of $cfgpkg $cfgver, local version $localversion, in ${OUT#"$ROOT"/}"
cfg=$OBJ/.config
[ -f "$cfg" ] && cp "$cfg" "$OBJ/.config.prev"
xz -dc "$cfgdir/$cfgfile" > "$cfg"
# The release names the project; the rest is Debian's. Debian's own build
# sets the signing keys (its certificates): left out of the shipped
# config, they take the kernel's defaults, a key made at build time
# (in the object directory, never packaged) that the kernel trusts; with
# it every module of the package is signed (MODULE_SIG_ALL), so that they
# load where the kernel is locked down (Secure Boot: docs/debian.md).
"$SRC/scripts/config" --file "$cfg" --set-str LOCALVERSION "$localversion" \
	--disable LOCALVERSION_AUTO --enable MODULE_SIG_ALL
# set but empty: setlocalversion would add a '+' for the git tree
export LOCALVERSION=
logged "$OBJ/config.log" "deb: olddefconfig" kmake olddefconfig
if [ -f "$OBJ/.config.prev" ] && cmp -s "$cfg" "$OBJ/.config.prev"; then
	mv "$OBJ/.config.prev" "$cfg"
fi
for opt in FUNCTION_GRAPH_TRACER DYNAMIC_FTRACE MODULES MODULE_SIG_ALL; do
	grep -qx "CONFIG_$opt=y" "$cfg" || die "Debian's $cfgfile lost CONFIG_$opt on the patched tree"
done
release=$(kmake -s kernelrelease)

rm -f "$OUT"/*.deb "$OUT"/*.buildinfo "$OUT"/*.changes
# dpkg-buildpackage runs the kernel's build (and its ccache) from
# debian/rules; the debug symbols of DEBUG_INFO go to a -dbg package.
logged "$OUT/build.log" "deb: make -j$JOBS bindeb-pkg ($release, $DEB_CONFIG; ccache)" \
	kmake -j"$JOBS" KDEB_PKGVERSION="$pkgversion" KDEB_COMPRESS=xz bindeb-pkg
# External modules for make deb-check, built as a user would against
# the packages' build: the livepatch sample (Debian's config builds no
# samples), signed with the build's key as the package's own modules are,
# so that it loads where only signed modules may. An arch without
# livepatch in $BASE (no HAVE_LIVEPATCH: arm64's came later) gets none,
# and make deb-check says why it skips that check; a config that turns
# livepatch off where the arch has it is an error.
ext=$OUT/extmod
rm -rf "$ext"
mkdir -p "$ext"
if grep -qx CONFIG_LIVEPATCH=y "$cfg"; then
	cp "$SRC/samples/livepatch/livepatch-sample.c" "$ext/"
	echo 'obj-m := livepatch-sample.o' > "$ext/Kbuild"
	logged "$ext/build.log" "deb: the livepatch sample, an external module" kmake M="$ext" modules
	"$OBJ/scripts/sign-file" sha256 "$OBJ/certs/signing_key.pem" "$OBJ/certs/signing_key.x509" \
		"$ext/livepatch-sample.ko" || die "could not sign $ext/livepatch-sample.ko"
elif ! grep -qx CONFIG_HAVE_LIVEPATCH=y "$cfg"; then
	step "deb: no livepatch sample: $ARCH has no livepatch in $BASE (no HAVE_LIVEPATCH)"
else
	die "$cfgfile has livepatch off on $ARCH, which has it: the deb-check of a livepatch would be lost"
fi
step "deb: packages of $release ($pkgversion):"
for f in "$OUT"/*.deb; do
	printf '  %-80s %6s MB\n' "${f#"$ROOT"/}" $(( $(stat -c %s "$f") / 1048576 ))
done
cat <<EOF
  Install on a Debian 12 $DEB_ARCH machine: dpkg -i linux-image-${release}_*.deb
  (and linux-headers-* to build external modules$([ "$DEB_ARCH" = "$(dpkg --print-architecture)" ] || echo "; its host tools are $(dpkg --print-architecture) programs, built here: external modules cannot be built on the $DEB_ARCH machine with it"));
  not linux-libc-dev (it would replace Debian's); see docs/debian.md.
EOF
