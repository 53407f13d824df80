#!/usr/bin/env bash
# Make the guest's initramfs with the kernel's own usr/gen_init_cpio:
# busybox-static, guest/init, the ftrace selftests of the tree (at
# /opt/selftests/ftrace), the kernel's modules, for 'make run CMD=...' the
# user's script at /cmd/script, and GUEST_FILES ("host-path:guest-path ...").
#   initramfs.sh OUTPUT [CMD-SCRIPT]
#   initramfs.sh --userland    only fetch the guest's userland (make setup
#                              for a guest of another arch), or say why
#                              there is none
. "$(dirname "$0")/lib.sh"

out=$1 cmd=${2:-}

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
ul= tools="chrt nice"
[ -z "${NO_USERLAND:-}" ] ||
	die "no userland for $ARCH: $NO_USERLAND; make matrix MATRIX_ARCHES=$ARCH runs its KUnit suites and boot-time tests without one"
if [ "${USERLAND_FROM:-}" = source ]; then
	d=$BUILD/userland/$DEB_ARCH
	busybox=$d/busybox tools=
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
			step "initramfs: fetching Debian's busybox source $ver"
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
		logged "$d/build.log" "initramfs: building busybox for $DEB_ARCH (static, ${CROSS_COMPILE}gcc)" \
			env -u ARCH -u MAKEFLAGS -u MAKELEVEL \
			sh -c 'yes "" | make -C "$1" O="$2" CROSS_COMPILE="$3" oldconfig >/dev/null &&
			       make -C "$1" O="$2" CROSS_COMPILE="$3" -j"$4"' sh \
			"$s/busybox-${ver#*:}" "$d/obj" "$CROSS_COMPILE" "$JOBS"
		cp "$d/obj/busybox" "$d/busybox"
		echo "$want" > "$d/packages"
	fi
elif [ "$DEB_ARCH" = "$(dpkg --print-architecture)" ]; then
	busybox=/bin/busybox
else
	d=$BUILD/userland/$DEB_ARCH
	ul=$d/root
	busybox=$ul/bin/busybox
	want=$(for p in busybox-static util-linux coreutils libc6; do echo "$p:$DEB_ARCH"; done)
	if [ "$(cat "$d/packages" 2>/dev/null)" != "$want" ]; then
		step "initramfs: fetching busybox-static, util-linux, coreutils and libc6 for $DEB_ARCH"
		dpkg --print-foreign-architectures | grep -x "$DEB_ARCH" >/dev/null ||
			die "dpkg does not know $DEB_ARCH: run make setup ARCH=$ARCH first"
		rm -rf "$d"
		mkdir -p "$d/deb"
		# shellcheck disable=SC2086
		( cd "$d/deb" && apt-get download -q -o APT::Sandbox::User="$(id -un)" $want >/dev/null ) ||
			die "apt-get download $(echo $want) failed"
		for deb in "$d"/deb/*.deb; do dpkg -x "$deb" "$d/root.new"; done
		mv "$d/root.new" "$ul"
		echo "$want" > "$d/packages"
	fi
fi
[ "$out" != --userland ] || { step "setup: userland for $ARCH present"; exit 0; }
gen=$OBJ/usr/gen_init_cpio
[ -x "$gen" ] || die "$gen is missing: build the kernel first"

# A path of the unpacked foreign userland with its symbolic links
# followed inside it (absolute ones too).
in_ul() { # guest-path
	local p=$1 l n=0
	while [ -L "$ul$p" ] && [ $n -lt 16 ]; do
		l=$(readlink "$ul$p")
		case $l in /*) p=$l ;; *) p=$(dirname "$p")/$l ;; esac
		n=$((n + 1))
	done
	echo "$ul$p"
}
# gen_init_cpio lines for a dynamically linked tool at /usr/bin/<tool> and
# its libraries (each at its own path, which the loader searches).
tool_lines() { # tool
	local bin lib interp need
	if [ -z "$ul" ]; then
		bin=$(command -v "$1") || return 0
		echo "file /usr/bin/$1 $bin 755 0 0"
		ldd "$bin" | grep -o '/[^ ]*' | while read -r lib; do
			echo "dir $(dirname "$lib") 755 0 0"
			echo "file $lib $(realpath "$lib") 755 0 0"
		done
		return 0
	fi
	bin=$(in_ul "/usr/bin/$1")
	[ -f "$bin" ] || die "userland of $DEB_ARCH has no /usr/bin/$1"
	echo "file /usr/bin/$1 $bin 755 0 0"
	interp=$(readelf -l "$bin" | sed -n 's/.*interpreter: \(.*\)\]$/\1/p')
	need=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
	for lib in $interp $(for n in $need; do
			( cd "$ul" && ls -d lib/*/"$n" lib*/"$n" usr/lib/*/"$n" 2>/dev/null ) |
				head -n 1 | sed 's|^|/|'
		done); do
		[ -e "$(in_ul "$lib")" ] || die "userland of $DEB_ARCH: $1 needs $lib, not found"
		d=$(dirname "$lib")
		while [ "$d" != / ]; do echo "dir $d 755 0 0"; d=$(dirname "$d"); done
		echo "file $lib $(in_ul "$lib") 755 0 0"
	done
}

# Emit gen_init_cpio lines for a host directory copied to a guest path.
tree_lines() { # hostdir guestdir
	local h=$1 g=$2
	( cd "$h" && find . -mindepth 1 | sort ) | while read -r p; do
		p=${p#./}
		if [ -L "$h/$p" ]; then
			echo "slink $g/$p $(readlink "$h/$p") 777 0 0"
		elif [ -d "$h/$p" ]; then
			echo "dir $g/$p $(stat -c %a "$h/$p") 0 0"
		else
			echo "file $g/$p $h/$p $(stat -c %a "$h/$p") 0 0"
		fi
	done
}

list=$out.list
{
	for d in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /root /etc \
		 /lib /lib/modules /opt /opt/selftests /cmd /mnt; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "nod /dev/null 666 0 0 c 1 3"
	echo "file /bin/busybox $busybox 755 0 0"
	echo "slink /bin/sh busybox 777 0 0"
	echo "file /init $ROOT/guest/init 755 0 0"
	echo "file /etc/passwd $ROOT/guest/passwd 644 0 0"
	echo "file /etc/group $ROOT/guest/group 644 0 0"
	echo "dir /opt/selftests/ftrace 755 0 0"
	tree_lines "$SRC/tools/testing/selftests/ftrace" /opt/selftests/ftrace
	[ -d "$OBJ/mods/lib/modules" ] && tree_lines "$OBJ/mods/lib/modules" /lib/modules
	for tool in $tools; do tool_lines "$tool"; done | sort -u
	[ -z "$cmd" ] || echo "file /cmd/script $(realpath "$cmd") 755 0 0"
	for f in ${GUEST_FILES:-}; do
		echo "file ${f#*:} $(realpath "${f%%:*}") $(stat -c %a "${f%%:*}") 0 0"
	done
	# ftracetest cases known to wedge the guest: the guest does not run them.
	cat "$ROOT/tests/known-nonpass.$ARCH.txt" "$ROOT/tests/known-nonpass.txt" 2>/dev/null |
		grep '^ftracetest|[^|]*|HANG|' | cut -d'|' -f2 > "$out.hang" || true
	echo "file /opt/selftests/ftracetest-hang $out.hang 644 0 0"
} > "$list"
"$gen" "$list" > "$out"
step "initramfs: ${out#"$ROOT"/} ($(( $(stat -c %s "$out") / 1024 )) KiB)"
