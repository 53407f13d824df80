#!/usr/bin/env bash
# Boot the built kernel in QEMU (TCG) with a fresh initramfs.
#   boot.sh run            show function_graph on a workload; with a terminal
#                          on stdin, then leave the user at a guest shell
#   boot.sh cmd SCRIPT     run SCRIPT in the guest as root, return its status
#   boot.sh check          run ftracetest (KUnit runs at boot); check.sh
#                          reads the logs
#   boot.sh kernel         the kernel alone, no initramfs (an arch without
#                          a userland, for make matrix): the boot-time
#                          tests and built-in KUnit suites run, then the
#                          kernel panics with "No working init found", the
#                          expected end; exits 0 if the console was clean
#                          up to there
# The serial console (ttyS0) goes to $RUNDIR/console.log, results (ttyS1,
# or a virtio console: OUTPUT_TTY of qemu/<arch>.conf) to
# $RUNDIR/output.log and to stdout as they come.
. "$(dirname "$0")/lib.sh"

mode=$1 cmd=${2:-}
case $mode in
run) timeout=${TIMEOUT:-900} ;;
cmd) timeout=${TIMEOUT:-1800}; [ -f "$cmd" ] || die "CMD=$cmd: no such file" ;;
check) timeout=${TIMEOUT:-2700} ;;
kernel) timeout=${TIMEOUT:-1200} ;;
*) die "usage: boot.sh run|cmd SCRIPT|check|kernel" ;;
esac
# the debug flavour's guest is slower (FLAVOR_TIME_SCALE in scripts/lib.sh)
[ -n "${TIMEOUT:-}" ] || timeout=$((timeout * FLAVOR_TIME_SCALE))
# so does a slow arch (TIME_SCALE in qemu/<arch>.conf)
[ -n "${TIMEOUT:-}" ] || timeout=$((timeout * ${TIME_SCALE:-1}))
interactive=0
[ "$mode" = run ] && [ -t 0 ] && [ -t 1 ] && [ -z "${CI:-}" ] && interactive=1

# Guest failures get their own exit codes, apart from the guest's own status.
fail() { printf '[%6s] ERROR: %s\n' "$(elapsed)" "$2" >&2; exit "$1"; }

mkdir -p "$RUNDIR"
console=$RUNDIR/console.log output=$RUNDIR/output.log
rm -f "$console" "$output"
initrd=()
if [ "$mode" != kernel ]; then
	"$ROOT/scripts/initramfs.sh" "$RUNDIR/initramfs-$mode.cpio" "$cmd" ||
		fail 126 "no initramfs for the guest"
	initrd=(-initrd "$RUNDIR/initramfs-$mode.cpio")
fi
: > "$output"

append="console=$CONSOLE panic=-1 ${BOOT_APPEND:-} ${KCMDLINE:-}"
[ "$mode" = kernel ] || append="$append fgmode=$mode"
if [ "$mode" = kernel ]; then
	serial=(-monitor none -serial "file:$console")
elif [ $interactive = 1 ]; then
	append="$append fgout=/dev/console fgshell=1"
	serial=(-chardev "stdio,id=con,mux=on,signal=off,logfile=$console"
		-serial chardev:con -mon chardev=con -serial "file:$output")
else
	append="$append fgout=/dev/$OUTPUT_TTY"
	serial=(-monitor none -serial "file:$console")
	# a board with one UART: results on a virtio console (OUTPUT_DEVICE,
	# the virtio-serial bus of the board)
	if [ -n "${OUTPUT_DEVICE:-}" ]; then
		serial+=(-chardev "file,id=fgout,path=$output" -device "$OUTPUT_DEVICE"
			 -device virtconsole,chardev=fgout)
	else
		serial+=(-serial "file:$output")
	fi
fi
# FIRMWARE: the board's firmware, as scripts/arch/<name>.sh alters QEMU's
bios=()
if [ -n "${FIRMWARE:-}" ]; then
	"$ROOT/scripts/arch/$FIRMWARE.sh" "$RUNDIR/firmware.img" ||
		fail 126 "no firmware for the guest (scripts/arch/$FIRMWARE.sh)"
	bios=(-bios "$RUNDIR/firmware.img")
fi
# shellcheck disable=SC2086
qemu=($QEMU $QEMU_ARGS ${QEMU_EXTRA:-} "${bios[@]}" -accel "$ACCEL" -display none -no-reboot
      -kernel "$OBJ/$IMAGE" "${initrd[@]}" -append "$append" "${serial[@]}")
echo "${qemu[*]}" > "$RUNDIR/qemu.cmdline"

step "boot: $ARCH guest, mode $mode, timeout ${timeout}s, console in ${console#"$ROOT"/}"
t=$(date +%s)
rc=0
if [ $interactive = 1 ]; then
	"${qemu[@]}" || rc=$?
elif [ "$mode" = kernel ]; then
	timeout -k 10 "$timeout" "${qemu[@]}" < /dev/null > "$RUNDIR/qemu.log" 2>&1 &
	qpid=$!
	# not every firmware can reboot (sparc64's OpenBIOS loops on "Reboot
	# failed!"): stop the guest 5 s after the kernel has panicked
	while kill -0 $qpid 2>/dev/null; do
		if grep -qa 'Kernel panic' "$console" 2>/dev/null; then
			sleep 5
			kill $qpid 2>/dev/null || true
			break
		fi
		sleep 2
	done
	wait $qpid || rc=$?
	step "boot: guest ran for $(( $(date +%s) - t )) s"
	grep -qa 'No working init found' "$console" || [ $rc -ne 124 ] ||
		fail 124 "guest timed out after ${timeout}s (see ${console#"$ROOT"/})"
	# the expected end: a panic for want of an init, nothing before it
	grep -qa 'No working init found' "$console" || fail 127 "the kernel did not get to look for an init (see ${console#"$ROOT"/})"
	problems=$(sed '/No working init found/q' "$console" | grep -av 'No working init found' |
		grep -a -E -n -A 12 "$CONSOLE_BAD" | head -n 200 || true)
	[ -z "$problems" ] || { printf '%s\n' "$problems" >&2
		echo "*** the kernel reported problems before it looked for an init (full log: ${console#"$ROOT"/})" >&2
		exit 125; }
	step "boot: the kernel ran to its init, console clean"
	exit 0
else
	timeout -k 10 "$timeout" "${qemu[@]}" < /dev/null &
	qpid=$!
	tail -n +1 -f --pid=$qpid "$output" | grep --line-buffered -v '^fgraph-guest: done' &
	wait $qpid || rc=$?
	wait || true
fi
step "boot: guest ran for $(( $(date +%s) - t )) s"

problems=$(console_problems "$console")
if [ -n "$problems" ]; then
	printf '%s\n' "$problems" >&2
	echo "*** the kernel reported problems on the console (above; full log: ${console#"$ROOT"/})" >&2
fi
[ $rc -ne 124 ] || fail 124 "guest timed out after ${timeout}s (see ${console#"$ROOT"/})"
[ $rc -eq 0 ] || fail 126 "QEMU exited with status $rc (see ${console#"$ROOT"/})"
log=$output
[ $interactive = 0 ] || log=$console
guest_rc=$(sed -n 's/^fgraph-guest: done rc=\([0-9]*\).*/\1/p' "$log" | tail -n 1)
[ -n "$guest_rc" ] || fail 127 "the guest stopped before finishing (panic? see ${console#"$ROOT"/})"
[ -z "$problems" ] || exit 125
[ "$mode" = check ] || step "boot: guest exit status $guest_rc"
exit "$guest_rc"
