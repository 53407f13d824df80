#!/usr/bin/env bash
# Install what the project needs from Debian's registry: build tools, QEMU,
# busybox for the guest, and the pinned kernel source package of each base
# given as an argument (default: $BASE), and EXTRA_PKGS.
. "$(dirname "$0")/lib.sh"

bases=${*:-$BASE}
pkgs="git build-essential flex bison bc libelf-dev libssl-dev dwarves cpio kmod
      ccache python3 jq xz-utils busybox-static $QEMU_PKG ${EXTRA_PKGS:-}"
[ -n "$CROSS_COMPILE" ] && pkgs="$pkgs gcc-${CROSS_COMPILE%-}"
# a GCC plugin for the arch's compiler (GCC 12 in Debian 12): its headers
[ -n "${GCC_PLUGIN:-}" ] && pkgs="$pkgs g++ gcc-12-plugin-dev-${CROSS_COMPILE%-}"
# a userland built from source (scripts/userland.sh): Debian's cross libc
[ "${USERLAND_FROM:-}" = source ] && pkgs="$pkgs curl dpkg-dev libc6-dev-$DEB_ARCH-cross"

# Installing needs root: as root, apt-get directly; otherwise through sudo
# if it is there and lets us in. Without either, say what to run instead.
SUDO=
need_root() { # packages...
	[ "$(id -u)" -eq 0 ] && return 0
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		SUDO=sudo
		return 0
	fi
	cat >&2 <<-EOF
	setup: these Debian packages are missing and installing them needs root:
	  $*
	There is no usable sudo here$(command -v sudo >/dev/null 2>&1 && echo ' (it asks for a password)'). As root, run:
	  apt-get update && apt-get install -y --no-install-recommends $*
	then run this command again.
	EOF
	exit 1
}
apt_updated=
# An index that fails to download (a mirror in the middle of a sync, seen
# for one foreign arch's security index) need not stop the install: what
# apt-get install cannot find then fails there, with its name.
apt_update() {
	mkdir -p "$BUILD/logs"
	step "setup: apt-get update"
	$SUDO apt-get -o Acquire::Retries=3 update > "$BUILD/logs/apt-update.log" 2>&1 ||
		step "setup: apt-get update reported errors (build/logs/apt-update.log), going on"
	apt_updated=1
}
apt_install() {
	need_root "$@"
	[ -n "$apt_updated" ] || apt_update
	logged "$BUILD/logs/apt-install.log" "setup: installing $*" \
		$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] || apt_install $missing

for b in $bases; do
	# shellcheck source=/dev/null
	( . "$ROOT/bases/$b.conf"
	  have=$(dpkg-query -W -f='${Version}' "$PACKAGE" 2>/dev/null || true)
	  [ "$have" = "$VERSION" ] && exit 0
	  need_root "$PACKAGE=$VERSION"
	  [ -n "$apt_updated" ] || apt_update
	  if apt-cache madison "$PACKAGE" | awk '{print $3}' | grep -qx "$VERSION"; then
		logged "$BUILD/logs/apt-install.log" "setup: installing $PACKAGE=$VERSION" \
			$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --allow-downgrades "$PACKAGE=$VERSION"
	  else
		newest=$(apt-cache madison "$PACKAGE" | awk '{print $3}' | sort -V | tail -n 1)
		[ -n "$newest" ] || die "the registry serves no $PACKAGE at all"
		cat >&2 <<-WARN
		################################################################
		# WARNING: $PACKAGE $VERSION (pinned in bases/$b.conf) is not
		# served by the registry; using the newest one, $newest.
		# Results are NOT for the pinned base. Update the pin.
		################################################################
		WARN
		[ "$have" = "$newest" ] || logged "$BUILD/logs/apt-install.log" "setup: installing $PACKAGE=$newest" \
			$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --allow-downgrades "$PACKAGE=$newest"
	  fi )
done
# The guest's userland of another arch comes from Debian's packages of
# that arch (scripts/userland.sh fetches them): dpkg must know the arch.
if [ -n "${DEB_ARCH:-}" ] && [ -z "${NO_USERLAND:-}" ] && [ -z "${USERLAND_FROM:-}" ] &&
   [ "$DEB_ARCH" != "$(dpkg --print-architecture)" ] &&
   ! dpkg --print-foreign-architectures | grep -x "$DEB_ARCH" >/dev/null; then
	[ "$(id -u)" -eq 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && SUDO=sudo; } ||
		die "the $ARCH guest's userland needs dpkg --add-architecture $DEB_ARCH, and that needs root: as root, run dpkg --add-architecture $DEB_ARCH && apt-get update, then this command again"
	step "setup: dpkg --add-architecture $DEB_ARCH"
	$SUDO dpkg --add-architecture "$DEB_ARCH"
	# (apt-get download then says what is missing)
	apt_update
fi
step "setup: packages present"
