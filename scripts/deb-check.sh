#!/usr/bin/env bash
# make deb-check: a Debian 12 system with the packages of make deb, booted
# in QEMU from the installed kernel and the initramfs that Debian's hooks
# made; a systemd unit runs tests/deb/guest-check.sh and powers off. Ends
# "N passed, N failed, N skipped".
#   DEB_CONFIG      which make deb build (cloud)
#   DEB_KERNEL_DEBS other linux-image packages to boot instead (a check of
#                   this script with Debian's own kernel)
# amd64: mmdebstrap makes the root file system and dpkg -i runs in a
# chroot. arm64, whose programs this host cannot run: debootstrap
# --foreign only unpacks it, and the package's own kernel finishes it in
# QEMU, booted from a small initramfs made here (busybox and the
# package's virtio modules): debootstrap's second stage once (the
# finished image is kept in build/deb/), then dpkg -i in each run, which
# hands back the initramfs that Debian's hooks made.
. "$(dirname "$0")/lib.sh"

DEB_CONFIG=${DEB_CONFIG:-cloud}
case $DEB_ARCH in
amd64)
	qemu=(qemu-system-x86_64 -machine q35 -cpu max)
	console=ttyS0 outdev=/dev/ttyS1 ;;
arm64)
	qemu=(qemu-system-aarch64 -machine virt -cpu cortex-a57)
	console=ttyAMA0 outdev=/dev/hvc0 ;;
*) die "make deb-check: ARCH=x86_64 or arm64" ;;
esac
qemu+=(-smp 2 -m 2G -accel "$ACCEL" -display none -no-reboot -monitor none)
OUT=$BUILD/deb/$ARCH-$DEB_CONFIG
CHECK=$OUT/check
timeout=${TIMEOUT:-3600}
mirrors=("deb http://deb.debian.org/debian bookworm main"
	 "deb http://deb.debian.org/debian bookworm-updates main"
	 "deb http://deb.debian.org/debian-security bookworm-security main")

EXTRA_PKGS="${EXTRA_PKGS:-} mmdebstrap debootstrap e2fsprogs kmod" "$ROOT/scripts/setup.sh"

if [ -n "${DEB_KERNEL_DEBS:-}" ]; then
	debs=$DEB_KERNEL_DEBS
else
	debs=$(ls "$OUT"/linux-image-[0-9]*.deb 2>/dev/null | grep -v -- '-dbg_' || true)
	[ -n "$debs" ] || die "no packages in ${OUT#"$ROOT"/}: run make deb ARCH=$ARCH DEB_CONFIG=$DEB_CONFIG first"
fi
[ "$(echo "$debs" | wc -w)" = 1 ] || die "one linux-image package to boot, not: $debs"
release=$(dpkg-deb -f "$debs" Package | sed 's/^linux-image-//')
rm -rf "$CHECK"
mkdir -p "$CHECK"

# What the check adds to the system: the unit, its script, the project's
# ftracetest cases (from the tree the packages were built from) and the
# external modules that make deb built
add_check() { # root
	local r=$1
	install -D -m 755 "$ROOT/tests/deb/guest-check.sh" "$r/usr/local/sbin/fgraph-deb-check"
	mkdir -p "$r/etc/systemd/system/default.target.wants" "$r/usr/local/lib/fgraph"
	cat > "$r/etc/systemd/system/fgraph-deb-check.service" <<-EOF
	[Unit]
	Description=linux-fgraph checks (make deb-check)
	After=multi-user.target

	[Service]
	Type=oneshot
	ExecStart=/usr/local/sbin/fgraph-deb-check $outdev
	ExecStopPost=/bin/systemctl --no-block poweroff
	TimeoutStartSec=infinity
	EOF
	ln -sf /etc/systemd/system/fgraph-deb-check.service \
		"$r/etc/systemd/system/default.target.wants/"
	# the results console is the check's, not a login's
	ln -sf /dev/null "$r/etc/systemd/system/serial-getty@hvc0.service"
	echo fgraph-deb > "$r/etc/hostname"
	printf '/dev/vda / ext4 rw 0 1\n' > "$r/etc/fstab"
	cp -a "$SRC/tools/testing/selftests/ftrace" "$r/usr/local/lib/fgraph/"
	[ -z "${DEB_KERNEL_DEBS:-}" ] || return 0
	cp "$OUT"/extmod/*.ko "$r/usr/local/lib/fgraph/" 2>/dev/null || true
}

pkgs="systemd-sysv udev initramfs-tools kmod procps trace-cmd linux-perf bpftrace"
tag=$DEB_ARCH-$(echo "$pkgs" | sha256sum | cut -c1-8)
img=$CHECK/disk.img

if [ "$DEB_ARCH" = amd64 ]; then
	# The base system, made once for a given package list (about a minute)
	base=$BUILD/deb/rootfs-$tag.tar
	if [ ! -f "$base" ]; then
		logged "$BUILD/deb/mmdebstrap.log" "deb-check: mmdebstrap of Debian 12 ($DEB_ARCH)" \
			mmdebstrap --variant=apt --format=tar --architectures="$DEB_ARCH" \
			--include="${pkgs// /,}" bookworm "$base.tmp" "${mirrors[@]}"
		mv "$base.tmp" "$base"
	fi
	root=$CHECK/root
	umount_all() {
		local m
		for m in dev/pts dev sys proc; do
			! mountpoint -q "$root/$m" || umount "$root/$m"
		done
	}
	trap umount_all EXIT
	mkdir -p "$root"
	logged "$CHECK/unpack.log" "deb-check: unpacking the base system" tar -C "$root" -xf "$base"
	# installed as a user would: dpkg -i, whose hooks run update-initramfs
	mkdir -p "$root/tmp/debs"
	cp "$debs" "$root/tmp/debs/"
	mount -t proc proc "$root/proc"
	mount -t sysfs sys "$root/sys"
	mount --bind /dev "$root/dev"
	mount --bind /dev/pts "$root/dev/pts"
	logged "$CHECK/dpkg.log" "deb-check: dpkg -i ${debs##*/}" \
		chroot "$root" sh -c 'dpkg -i /tmp/debs/*.deb'
	umount_all
	rm -rf "$root/tmp/debs"
	[ -f "$root/boot/initrd.img-$release" ] ||
		die "dpkg -i made no initramfs for $release (see ${CHECK#"$ROOT"/}/dpkg.log)"
	add_check "$root"
	cp "$root/boot/vmlinuz-$release" "$root/boot/initrd.img-$release" "$CHECK/"
	logged "$CHECK/mke2fs.log" "deb-check: a 6 GiB ext4 disk image of the system" \
		mke2fs -q -t ext4 -L fgraph-root -d "$root" "$img" 6G
	rm -rf "$root"
	disks=(-drive "file=$img,format=raw,if=virtio")
	outdevs=(-serial "file:$CHECK/output.log")
else
	"$ROOT/scripts/userland.sh"
	userland_paths
	# The package's kernel and modules, unpacked here
	kroot=$CHECK/kernel
	dpkg-deb -x "$debs" "$kroot"
	cp "$kroot/boot/vmlinuz-$release" "$CHECK/"
	# A small initramfs: busybox, the virtio modules with what they need,
	# and an init that mounts /dev/vda and runs its /fgraph-init
	ird=$CHECK/initramfs
	mkdir -p "$ird/bin" "$ird/dev" "$ird/proc" "$ird/sys" "$ird/newroot" "$ird/lib/modules"
	cp "$UL_BUSYBOX" "$ird/bin/busybox"
	for a in sh mount insmod sleep switch_root echo; do ln -s busybox "$ird/bin/$a"; done
	moddir=$kroot/lib/modules/$release
	# Debian's own packages leave modules.dep to their postinst
	[ -f "$moddir/modules.dep" ] || depmod -b "$kroot" "$release"
	# modules.dep: "a.ko: b.ko c.ko", c needed by b, loaded first
	for m in virtio_pci virtio_blk; do
		line=$(grep "/$m\.ko:" "$moddir/modules.dep") || die "no $m module in the package"
		for f in $(echo "${line#*:}" | tr ' ' '\n' | tac) "${line%%:*}"; do
			grep -qxF "$f" "$ird/modules.order" 2>/dev/null && continue
			cp "$moddir/$f" "$ird/lib/modules/"
			echo "$f" >> "$ird/modules.order"
		done
	done
	cat > "$ird/init" <<-'EOF'
	#!/bin/sh
	mount -t proc proc /proc
	mount -t devtmpfs dev /dev
	for m in $(cat /modules.order); do insmod /lib/modules/${m##*/}; done
	n=0
	while [ ! -b /dev/vda ] && [ $n -lt 30 ]; do sleep 1; n=$((n + 1)); done
	mount -t ext4 /dev/vda /newroot || { echo "fgraph-init: no root"; exit 1; }
	umount /proc /dev
	exec switch_root /newroot /fgraph-init
	EOF
	chmod 755 "$ird/init"
	(cd "$ird" && find . | cpio -o -H newc --quiet) > "$CHECK/boot.cpio"
	# runs in the guest with / on /dev/vda and the payload disk's
	# run.sh (/dev/vdb), then powers off
	fgraph_init() { # root
		cat > "$1/fgraph-init" <<-'EOF'
		#!/bin/sh
		export PATH=/usr/sbin:/usr/bin:/sbin:/bin
		mount -t proc proc /proc
		mount -t sysfs sys /sys
		mount -t devtmpfs dev /dev
		mkdir -p /mnt
		mount /dev/vdb /mnt
		sh /mnt/run.sh; echo "fgraph-init: rc=$?"
		umount /mnt
		sync
		# debootstrap --second-stage unmounts /proc when it ends
		[ -e /proc/sysrq-trigger ] || mount -t proc proc /proc
		mount -o remount,ro /
		echo o > /proc/sysrq-trigger
		# the power-off is queued work: init must not exit first
		sleep 60
		EOF
		chmod 755 "$1/fgraph-init"
	}
	# boot_init [SECONDS] NAME RUN.SH [files for the payload...]: one
	# boot of /fgraph-init with a payload disk, at most SECONDS
	# ($timeout); fails unless run.sh succeeded
	boot_init() {
		local limit=$timeout
		case $1 in [0-9]*) limit=$1; shift ;; esac
		local name=$1 run=$2 p=$CHECK/$1.payload
		shift 2
		rm -rf "$p"
		mkdir -p "$p/out"
		cp "$run" "$p/run.sh"
		[ $# = 0 ] || cp -a "$@" "$p/"
		mke2fs -q -t ext4 -d "$p" "$CHECK/$name.img" 2G
		rm -rf "$p"
		step "deb-check: boot '$name' of the package's kernel, console in ${CHECK#"$ROOT"/}/$name.log"
		timeout -k 10 "$limit" "${qemu[@]}" -kernel "$CHECK/vmlinuz-$release" \
			-initrd "$CHECK/boot.cpio" -append "console=$console panic=-1" \
			-drive "if=none,id=d0,file=$img,format=raw" -device virtio-blk-pci,drive=d0 \
			-drive "if=none,id=d1,file=$CHECK/$name.img,format=raw" -device virtio-blk-pci,drive=d1 \
			-serial "file:$CHECK/$name.log" < /dev/null ||
			die "boot '$name': QEMU failed or timed out (${CHECK#"$ROOT"/}/$name.log)"
		grep -aq '^fgraph-init: rc=0' "$CHECK/$name.log" ||
			die "boot '$name' failed (${CHECK#"$ROOT"/}/$name.log)"
	}

	# The base system, finished once for a given package list and
	# /fgraph-init, and kept
	base=$BUILD/deb/rootfs-$tag-$(declare -f fgraph_init | sha256sum | cut -c1-8).img
	if [ ! -f "$base" ]; then
		root=$CHECK/root
		logged "$BUILD/deb/debootstrap-$DEB_ARCH.log" "deb-check: debootstrap --foreign of Debian 12 ($DEB_ARCH)" \
			debootstrap --foreign --arch="$DEB_ARCH" --include="${pkgs// /,}" bookworm "$root" \
			http://deb.debian.org/debian
		fgraph_init "$root"
		mke2fs -q -t ext4 -L fgraph-root -d "$root" "$img" 6G
		rm -rf "$root"
		echo '/debootstrap/debootstrap --second-stage' > "$CHECK/second.sh"
		# some 160 packages configured under TCG: the longest boot
		boot_init $((timeout * 3)) second-stage "$CHECK/second.sh"
		mv "$img" "$base"
	fi
	cp --sparse=always "$base" "$img"
	# dpkg -i in the guest; the initramfs it made comes back on the payload
	ov=$CHECK/overlay
	add_check "$ov"
	cat > "$CHECK/install.sh" <<-EOF
	set -e
	dpkg -i /mnt/${debs##*/}
	cp -a /mnt/overlay/. /
	cp /boot/initrd.img-$release /mnt/out/
	EOF
	boot_init install "$CHECK/install.sh" "$debs" "$ov"
	debugfs -R "dump /out/initrd.img-$release $CHECK/initrd.img-$release" "$CHECK/install.img" 2>/dev/null
	[ -s "$CHECK/initrd.img-$release" ] || die "dpkg -i in the guest made no initramfs for $release"
	rm -rf "$ov" "$kroot" "$ird" "$CHECK/install.img"
	disks=(-drive "if=none,id=d0,file=$img,format=raw" -device virtio-blk-pci,drive=d0)
	outdevs=(-device virtio-serial-pci -chardev "file,id=out,path=$CHECK/output.log"
		 -device virtconsole,chardev=out)
fi

# Turning function_graph on for every function of Debian's kernel patches
# some 50,000 call sites; under TCG, with the host busy, that loop took
# over RCU's 21 s and reported a stall on Debian's own kernel too, and
# ours (the 72-patch series) a soft lockup of 22 s in the tracer's entry
# while every function was traced. A stall of 5 minutes and a soft
# lockup of 2 minutes are still reported.
stall="rcupdate.rcu_cpu_stall_timeout=300 watchdog_thresh=60"
: > "$CHECK/output.log"
qemu+=("${disks[@]}" -kernel "$CHECK/vmlinuz-$release" -initrd "$CHECK/initrd.img-$release"
       -append "root=/dev/vda rw console=$console panic=-1 $stall ${KCMDLINE:-}"
       -serial "file:$CHECK/console.log" "${outdevs[@]}")
echo "${qemu[*]}" > "$CHECK/qemu.cmdline"
step "deb-check: booting $release (systemd), timeout ${timeout}s, console in ${CHECK#"$ROOT"/}/console.log"
t=$(date +%s)
rc=0
timeout -k 10 "$timeout" "${qemu[@]}" < /dev/null &
qpid=$!
tail -n +1 -f --pid=$qpid "$CHECK/output.log" &
wait $qpid || rc=$?
wait || true
step "deb-check: guest ran for $(( $(date +%s) - t )) s"
[ $rc -ne 124 ] && [ $rc -ne 137 ] || die "the guest timed out after ${timeout}s (see ${CHECK#"$ROOT"/}/console.log)"
problems=$(console_problems "$CHECK/console.log")
summary=$(grep -a '^[0-9]* passed, [0-9]* failed' "$CHECK/output.log" | tail -n 1 || true)
[ -n "$summary" ] || die "the guest stopped before its summary (see ${CHECK#"$ROOT"/}/console.log)"
if [ -n "$problems" ]; then
	printf '%s\n' "$problems" >&2
	die "the kernel reported problems on the console (full log: ${CHECK#"$ROOT"/}/console.log)"
fi
step "deb-check: $release: $summary"
case $summary in *" 0 failed"*) exit 0 ;; *) exit 1 ;; esac
