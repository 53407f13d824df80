#!/usr/bin/env bash
# make bench: what function graph tracing costs per traced call with 0..16
# users, and the shadow stacks tasks hold, on three kernels built from the
# same Kconfig fragments (configs/guest, ftrace, bench and $ARCH):
#
#   6.1-stock    bases/6.1.conf, no patches
#   6.1-fgraph   bases/6.1.conf + patches/series (this project)
#   6.12-stock   bases/6.12.conf, no patches (mainline multi-user fgraph)
#
# Each gets bench/fgraph_bench.c built in (lib/, so that its target function
# is traceable) and boots under QEMU with -icount shift=0: guest time is the
# count of executed instructions, so the figures repeat from run to run.
# ARCH=x86_64 (results in build/bench/) or arm64 (build/bench/arm64/).
# The guest runs bench/guest.sh; scripts/bench-report.sh makes the table,
# the CSVs and the chart in build/bench/.
#
# Variables: KERNELS (default: all three), CALLS, REPS, WCALLS (see
# bench/guest.sh).
#
# MITIGATIONS=1: the same three kernels with the speculation mitigations
# Debian builds in (configs/mitigations-<base>.config: retpolines, return
# thunks, SLS), booted on a CPU model the kernels treat as affected (QEMU's
# EPYC, AMD family 17h: without an affected CPU the return thunks are
# patched back to plain returns at boot) with the same spectre_v2= and
# retbleed= on each; results in build/bench/mitigations/, beside what
# /sys/devices/system/cpu/vulnerabilities/ says on each kernel.
. "$(dirname "$0")/lib.sh"

case $ARCH in
x86_64) out=$BUILD/bench ;;
# the same workloads: guest time from the clock (bench/getppid-loop.c)
# (a CPU model with LSE atomics, as configs/bench.arm64.config builds in)
arm64) out=$BUILD/bench/$ARCH QEMU_EXTRA="-cpu neoverse-n1 ${QEMU_EXTRA:-}" ;;
*) die "make bench runs on x86_64 and arm64, not $ARCH" ;;
esac
mit=
if [ -n "${MITIGATIONS:-}" ]; then
	[ "$ARCH" = x86_64 ] || die "MITIGATIONS=1: x86_64 only (Debian's x86 mitigations: configs/mitigations-*.config)"
	mit=-mit
	out=$BUILD/bench/mitigations
	QEMU_EXTRA="-cpu EPYC-v2 ${QEMU_EXTRA:-}"
	KCMDLINE="spectre_v2=retpoline retbleed=unret ${KCMDLINE:-}"
fi
mkdir -p "$out/empty-series"
: > "$out/empty-series/series"

# The whole-kernel workload, a static binary for the guest.
"${CROSS_COMPILE:-}gcc" -O2 -static -Wall -o "$out/getppid-loop" "$ROOT/bench/getppid-loop.c" ||
	die "bench: cannot build bench/getppid-loop.c${CROSS_COMPILE:+ (is libc6-dev-$DEB_ARCH-cross there? make setup-bench)}"

KERNELS=${KERNELS:-6.1-stock 6.1-fgraph 6.12-stock}
for k in $KERNELS; do
	case $k in
	*-stock) series=$out/empty-series ;;
	*-fgraph) series=$ROOT/patches ;;
	*) die "KERNELS: $k is not <base>-stock or <base>-fgraph" ;;
	esac
	(
	export BASE=${k%-*} VARIANT=bench-${k#*-} SERIES=$series
	export SRC=$BUILD/src/bench-$k OBJ=$BUILD/obj/$ARCH-bench-$k$mit RUNDIR=$BUILD/run/$ARCH-bench-$k$mit
	[ -z "$mit" ] || export EXTRA_CONFIGS="$ROOT/configs/mitigations-$BASE.config"
	step "bench: $k${mit:+ (mitigations)}"
	# the bench trees hold nothing of ours but what is re-made here
	FORCE=1 "$ROOT/scripts/tree.sh"
	cmp -s "$ROOT/bench/fgraph_bench.c" "$SRC/lib/fgraph_bench.c" ||
		cp "$ROOT/bench/fgraph_bench.c" "$SRC/lib/fgraph_bench.c"
	# lib/ is built without the ftrace flags; the target must be traceable
	grep -qx 'obj-y += fgraph_bench.o' "$SRC/lib/Makefile" ||
		printf '%s\n' 'obj-y += fgraph_bench.o' \
			'CFLAGS_fgraph_bench.o += $(CC_FLAGS_FTRACE)' >> "$SRC/lib/Makefile"
	FRAGMENTS="guest ftrace bench" "$ROOT/scripts/kernel.sh"
	QEMU_EXTRA="-smp 1 -icount shift=0,sleep=off ${QEMU_EXTRA:-}" \
	GUEST_FILES="$out/getppid-loop:/usr/bin/getppid-loop" \
	KCMDLINE="CALLS=${CALLS:-10000} REPS=${REPS:-7} WCALLS=${WCALLS:-2000} ${KCMDLINE:-}" \
		"$ROOT/scripts/boot.sh" cmd "$ROOT/bench/guest.sh" > "$out/$k.log" 2>&1 ||
		{ tail -n 20 "$out/$k.log" >&2; die "bench: the $k guest failed (log: ${out#"$ROOT"/}/$k.log)"; }
	# shellcheck source=/dev/null
	. "$ROOT/bases/$BASE.conf"
	{ echo "R kernel $k $PACKAGE $(dpkg-query -W -f='${Version}' "$PACKAGE")"
	  [ -z "$mit" ] || echo "R mitigations $(sed 's/#.*//' "$EXTRA_CONFIGS" | xargs), $QEMU_EXTRA, $KCMDLINE"
	  sed -n 's/\r$//; /^R /p' "$out/$k.log"; } > "$out/$k.txt"
	step "bench: $k: $(grep -c '^R ' "$out/$k.txt") results in ${out#"$ROOT"/}/$k.txt"
	)
done
"$ROOT/scripts/bench-report.sh" "$out"
