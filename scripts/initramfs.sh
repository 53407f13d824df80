#!/usr/bin/env bash
# Make the guest's initramfs with the kernel's own usr/gen_init_cpio:
# busybox-static, guest/init, the ftrace selftests of the tree (at
# /opt/selftests/ftrace), the kernel's modules, for 'make run CMD=...' the
# user's script at /cmd/script, and GUEST_FILES ("host-path:guest-path ...").
# The userland is what scripts/userland.sh (make userland) put in place.
#   initramfs.sh OUTPUT [CMD-SCRIPT]
. "$(dirname "$0")/lib.sh"

out=$1 cmd=${2:-}

userland_paths
ul=$UL_ROOT busybox=$UL_BUSYBOX tools=$UL_TOOLS
[ -x "$busybox" ] || die "no userland for $ARCH (${busybox#"$ROOT"/}): run make userland ARCH=$ARCH"
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
	known_nonpass | grep '^ftracetest|[^|]*|HANG|' | cut -d'|' -f2 > "$out.hang" || true
	echo "file /opt/selftests/ftracetest-hang $out.hang 644 0 0"
} > "$list"
"$gen" "$list" > "$out"
step "initramfs: ${out#"$ROOT"/} ($(( $(stat -c %s "$out") / 1024 )) KiB)"
