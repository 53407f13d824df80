#!/usr/bin/env bash
# make profile: where the instructions of one traced call go, per function,
# on the bench kernels that 'make bench' built (KERNELS, default all three).
# gdb (bench/profile.py) single-steps the guest through QEMU's gdbstub
# while bench/profile-guest.sh makes one call per case: an empty traced
# function with nothing, one ftrace_ops, and USERS (default "1 2 16") fgraph
# users; getppid() with function_graph and with the profiler on every
# function. Tables in build/bench/profile-<kernel>.txt (ARCH=arm64:
# build/bench/arm64/).
. "$(dirname "$0")/lib.sh"

case $ARCH in
x86_64) out=$BUILD/bench gdb=gdb sys=__x64_sys_getppid ;;
# the CPU model of make bench (scripts/bench.sh)
arm64) out=$BUILD/bench/$ARCH gdb=gdb-multiarch sys=__arm64_sys_getppid
	QEMU_EXTRA="-cpu neoverse-n1 ${QEMU_EXTRA:-}" ;;
*) die "make profile runs on x86_64 and arm64, not $ARCH" ;;
esac
command -v $gdb > /dev/null || die "make profile needs $gdb (make setup-bench)"
USERS=${USERS:-1 2 16}
cases="off@fgraph_bench_target function@fgraph_bench_target"
for u in $USERS; do cases="$cases fgraph-$u@fgraph_bench_target"; done
cases="$cases getppid-function_graph@$sys getppid-profiler@$sys"

for k in ${KERNELS:-6.1-stock 6.1-fgraph 6.12-stock}; do
	obj=$BUILD/obj/$ARCH-bench-$k
	[ -f "$obj/vmlinux" ] || die "no $obj/vmlinux: run 'make bench' first"
	step "profile: $k"
	rundir=$BUILD/run/$ARCH-profile-$k
	# -S stops the guest until gdb attaches to the gdbstub (-s, tcp::1234)
	if command -v ss > /dev/null && [ -n "$(ss -ltnH 'sport = :1234')" ]; then
		die "profile: tcp port 1234 is in use (another gdbstub?): the guest's gdbstub needs it"
	fi
	# gdb waits for the gdbstub; if it fails, the stopped guest is killed
	# rather than left to boot.sh's timeout
	( sleep 1
	  PROFILE_CASES=$cases PROFILE_ARCH=$ARCH $gdb -q -batch -nx "$obj/vmlinux" \
		-x "$ROOT/bench/profile.py" > "$out/profile-$k.gdb" 2>&1 || true
	  if ! grep -q '^P case ' "$out/profile-$k.gdb"; then
		echo "profile: gdb stepped no case, stopping the guest" >&2
		# (the guest may not be started yet: its initramfs is built first)
		for _ in $(seq 60); do
			pkill -f -- "$rundir/console.log" && break
			sleep 1
		done
	  fi ) &
	gdbpid=$!
	OBJ=$obj RUNDIR=$rundir \
	QEMU_EXTRA="-s -S -smp 1 -icount shift=0,sleep=off ${QEMU_EXTRA:-}" \
	GUEST_FILES="$out/getppid-loop:/usr/bin/getppid-loop" \
	KCMDLINE="nokaslr USERS=${USERS// /,}" \
		"$ROOT/scripts/boot.sh" cmd "$ROOT/bench/profile-guest.sh" > "$out/profile-$k.log" 2>&1 ||
		{ tail -n 20 "$out/profile-$k.log" >&2; die "profile: the $k guest failed"; }
	wait "$gdbpid" || true
	sed -n 's/^P //p' "$out/profile-$k.gdb" > "$out/profile-$k.txt"
	grep -q '^case ' "$out/profile-$k.txt" ||
		die "profile: gdb found no case (${out#"$ROOT"/}/profile-$k.gdb)"
	step "profile: $k: ${out#"$ROOT"/}/profile-$k.txt"
	cat "$out/profile-$k.txt"
done
