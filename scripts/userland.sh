#!/usr/bin/env bash
# Fetch (or build) the guest's userland for ARCH (make userland, which make
# run, check and stress run first), or say why there is none.
. "$(dirname "$0")/lib.sh"

# The guest's userland, for its architecture: busybox-static, and chrt
# (util-linux) and nice (coreutils), which busybox lacks and the wakeup
# tracer tests need, with the libc they link. The host's own for its
# arch; for another arch, the same Debian packages of that arch
# (multiarch: make setup adds the architecture to dpkg), unpacked in
# build/userland/<arch>; the list of packages there says what it holds.
# An arch Debian 12 has no packages of (USERLAND_FROM=source) gets
# busybox built from Debian's source of the host's busybox-static, with
# Debian's static configuration plus chrt and nice, statically linked
# with the cross compiler and Debian's cross libc.
[ -z "${NO_USERLAND:-}" ] ||
	die "no userland for $ARCH: $NO_USERLAND; make matrix MATRIX_ARCHES=$ARCH runs its KUnit suites and boot-time tests without one"
if [ "${USERLAND_FROM:-}" = source ]; then
	d=$BUILD/userland/$DEB_ARCH
	# the candidate's source version: the pool holds only current ones
	ver=$(apt-cache show --no-all-versions busybox-static |
	      awk '/^Source: busybox \(/ { s = $3; gsub(/[()]/, "", s) }
		   /^Version: / { v = $2 } END { print (s != "" ? s : v) }')
	[ -n "$ver" ] || die "apt-cache show busybox-static gave no version"
	want="busybox $ver from source, ${CROSS_COMPILE}gcc, static config + CHRT NICE"
	if [ "$(cat "$d/packages" 2>/dev/null)" != "$want" ]; then
		s=$BUILD/userland/src
		dsc=busybox_${ver#*:}.dsc
		if [ ! -d "$s/busybox-${ver#*:}" ]; then
			step "userland: fetching Debian's busybox source $ver"
			# the pool directory of the host's package holds the source
			pool=$(apt-get download --print-uris busybox-static | sed -n "s|^'\(.*\)/[^/]*' .*|\1|p") ||
				die "apt-get download --print-uris busybox-static failed"
			[ -n "$pool" ] || die "apt-get download --print-uris busybox-static gave no address"
			rm -rf "$s" && mkdir -p "$s"
			curl -sSfL --retry 3 -o "$s/$dsc" "$pool/$dsc" || die "cannot fetch $pool/$dsc"
			# the files the .dsc names (dpkg-source checks their sums)
			for f in $(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]* [0-9]* //p' "$s/$dsc"); do
				curl -sSfL --retry 3 -o "$s/$f" "$pool/$f" || die "cannot fetch $pool/$f"
			done
			# (unpacked under another name: a failure leaves no tree behind)
			( cd "$s" && dpkg-source -q -x "$dsc" unpack ) > "$s/unpack.log" 2>&1 ||
				die "dpkg-source -x $dsc failed: see ${s#"$ROOT"/}/unpack.log"
			mv "$s/unpack" "$s/busybox-${ver#*:}"
		fi
		rm -rf "$d" && mkdir -p "$d/obj"
		sed -e 's/^# CONFIG_CHRT is not set/CONFIG_CHRT=y/' \
		    -e 's/^# CONFIG_NICE is not set/CONFIG_NICE=y/' \
			"$s/busybox-${ver#*:}/debian/config/pkg/static" > "$d/obj/.config"
		logged "$d/build.log" "userland: building busybox for $DEB_ARCH (static, ${CROSS_COMPILE}gcc)" \
			env -u ARCH -u MAKEFLAGS -u MAKELEVEL \
			sh -c 'yes "" | make -C "$1" O="$2" CROSS_COMPILE="$3" oldconfig >/dev/null &&
			       make -C "$1" O="$2" CROSS_COMPILE="$3" -j"$4"' sh \
			"$s/busybox-${ver#*:}" "$d/obj" "$CROSS_COMPILE" "$JOBS"
		cp "$d/obj/busybox" "$d/busybox"
		echo "$want" > "$d/packages"
	fi
elif [ "$DEB_ARCH" != "$(dpkg --print-architecture)" ]; then
	d=$BUILD/userland/$DEB_ARCH
	want=$(for p in busybox-static util-linux coreutils libc6; do echo "$p:$DEB_ARCH"; done)
	if [ "$(cat "$d/packages" 2>/dev/null)" != "$want" ]; then
		step "userland: fetching busybox-static, util-linux, coreutils and libc6 for $DEB_ARCH"
		dpkg --print-foreign-architectures | grep -x "$DEB_ARCH" >/dev/null ||
			die "dpkg does not know $DEB_ARCH: run make setup ARCH=$ARCH first"
		rm -rf "$d"
		mkdir -p "$d/deb"
		# shellcheck disable=SC2086
		( cd "$d/deb" && apt-get download -q -o APT::Sandbox::User="$(id -un)" $want >/dev/null ) ||
			die "apt-get download $(echo $want) failed"
		for deb in "$d"/deb/*.deb; do dpkg -x "$deb" "$d/root.new"; done
		mv "$d/root.new" "$d/root"
		echo "$want" > "$d/packages"
	fi
fi
step "setup: userland for $ARCH present"
