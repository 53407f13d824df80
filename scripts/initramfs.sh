#!/usr/bin/env bash
# Make the guest's initramfs with the kernel's own usr/gen_init_cpio:
# busybox-static, guest/init, the ftrace selftests of the tree (at
# /opt/selftests/ftrace), the kernel's modules, for 'make run CMD=...' the
# user's script at /cmd/script, and GUEST_FILES ("host-path:guest-path ...").
#   initramfs.sh OUTPUT [CMD-SCRIPT]
. "$(dirname "$0")/lib.sh"

out=$1 cmd=${2:-}
gen=$OBJ/usr/gen_init_cpio
[ -x "$gen" ] || die "$gen is missing: build the kernel first"

# busybox-static for the guest's architecture.
if [ "$DEB_ARCH" = "$(dpkg --print-architecture)" ]; then
	busybox=/bin/busybox
else
	busybox=$BUILD/userland/$DEB_ARCH/bin/busybox
	if [ ! -x "$busybox" ]; then
		step "initramfs: fetching busybox-static:$DEB_ARCH"
		d=$BUILD/userland/$DEB_ARCH
		mkdir -p "$d/deb"
		dpkg --print-foreign-architectures | grep -qx "$DEB_ARCH" || {
			dpkg --add-architecture "$DEB_ARCH" && apt-get update -q >/dev/null; }
		( cd "$d/deb" && apt-get download -q "busybox-static:$DEB_ARCH" >/dev/null )
		dpkg -x "$d"/deb/busybox-static_*.deb "$d/root"
		cp "$d/root/bin/busybox" "$busybox"
	fi
fi

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
	# chrt (util-linux) and nice (coreutils), which busybox lacks and the
	# wakeup tracer tests need, with their shared libraries.
	if [ "$busybox" = /bin/busybox ]; then
		for tool in chrt nice; do
			bin=$(command -v "$tool") || continue
			echo "file /usr/bin/$tool $bin 755 0 0"
			ldd "$bin" | grep -o '/[^ ]*' | while read -r lib; do
				echo "dir $(dirname "$lib") 755 0 0"
				echo "file $lib $(realpath "$lib") 755 0 0"
			done
		done | sort -u
	fi
	[ -z "$cmd" ] || echo "file /cmd/script $(realpath "$cmd") 755 0 0"
	for f in ${GUEST_FILES:-}; do
		echo "file ${f#*:} $(realpath "${f%%:*}") $(stat -c %a "${f%%:*}") 0 0"
	done
	# ftracetest cases known to wedge the guest: the guest does not run them.
	grep '^ftracetest|[^|]*|HANG|' "$ROOT/tests/known-nonpass.txt" | cut -d'|' -f2 > "$out.hang" || true
	echo "file /opt/selftests/ftracetest-hang $out.hang 644 0 0"
} > "$list"
"$gen" "$list" > "$out"
step "initramfs: ${out#"$ROOT"/} ($(( $(stat -c %s "$out") / 1024 )) KiB)"
