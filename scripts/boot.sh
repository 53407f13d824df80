#!/usr/bin/env bash
# Boot the built kernel in QEMU (TCG) with a fresh initramfs.
#   boot.sh run            show function_graph on a workload; with a terminal
#                          on stdin, then leave the user at a guest shell
#   boot.sh cmd SCRIPT     run SCRIPT in the guest as root, return its status
#   boot.sh check          run ftracetest (KUnit runs at boot); check.sh
#                          reads the logs
# The serial console (ttyS0) goes to $RUNDIR/console.log, results (ttyS1,
# or a virtio console: OUTPUT_TTY of qemu/<arch>.conf) to
# $RUNDIR/output.log and to stdout as they come.
. "$(dirname "$0")/lib.sh"

mode=$1 cmd=${2:-}
case $mode in
run) timeout=${TIMEOUT:-900} ;;
cmd) timeout=${TIMEOUT:-1800}; [ -f "$cmd" ] || die "CMD=$cmd: no such file" ;;
check) timeout=${TIMEOUT:-2700} ;;
*) die "usage: boot.sh run|cmd SCRIPT|check" ;;
esac
# the debug checkers (KASAN, lockdep...) slow the guest down about threefold
[ -z "$FLAVOR" ] || [ -n "${TIMEOUT:-}" ] || timeout=$((timeout * 3))
# so does a slow arch (TIME_SCALE in qemu/<arch>.conf)
[ -n "${TIMEOUT:-}" ] || timeout=$((timeout * ${TIME_SCALE:-1}))
interactive=0
[ "$mode" = run ] && [ -t 0 ] && [ -t 1 ] && [ -z "${CI:-}" ] && interactive=1

# Guest failures get their own exit codes, apart from the guest's own status.
fail() { printf '[%6s] ERROR: %s\n' "$(elapsed)" "$2" >&2; exit "$1"; }

mkdir -p "$RUNDIR"
console=$RUNDIR/console.log output=$RUNDIR/output.log
rm -f "$console" "$output"
initrd=$RUNDIR/initramfs-$mode.cpio
"$ROOT/scripts/initramfs.sh" "$initrd" "$cmd" || fail 126 "no initramfs for the guest"
: > "$output"

append="console=$CONSOLE panic=-1 ${BOOT_APPEND:-} fgmode=$mode ${KCMDLINE:-}"
if [ $interactive = 1 ]; then
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
# shellcheck disable=SC2086
qemu=($QEMU $QEMU_ARGS ${QEMU_EXTRA:-} -accel "${ACCEL:-tcg}" -display none -no-reboot
      -kernel "$OBJ/$IMAGE" -initrd "$initrd" -append "$append" "${serial[@]}")
echo "${qemu[*]}" > "$RUNDIR/qemu.cmdline"

step "boot: $ARCH guest, mode $mode, timeout ${timeout}s, console in ${console#"$ROOT"/}"
t=$(date +%s)
rc=0
if [ $interactive = 1 ]; then
	"${qemu[@]}" || rc=$?
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
