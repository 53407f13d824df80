# Common settings and helpers, sourced by every script in scripts/.
# shellcheck shell=bash
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ARCH=${ARCH:-x86_64}
BASE=${BASE:-6.1}
SERIES=${SERIES:-$ROOT/patches}	# directory holding 'series' and the patches
BUILD=${BUILD:-$ROOT/build}
# One source tree per base, one object directory per (arch, variant).
# FLAVOR=debug adds configs/debug.config (KASAN, lockdep, kmemleak...) and
# builds in its own object directory.
FLAVOR=${FLAVOR:-}
case $FLAVOR in
'') ;;
debug) FRAGMENTS=${FRAGMENTS:-guest ftrace kunit debug} ;;
*) echo "FLAVOR=$FLAVOR: only 'debug' exists" >&2; exit 2 ;;
esac
VARIANT=${VARIANT:-fgraph${FLAVOR:+-$FLAVOR}}
SRC=${SRC:-$BUILD/src/linux-$BASE}
OBJ=${OBJ:-$BUILD/obj/$ARCH-$VARIANT-$BASE}
RUNDIR=${RUNDIR:-$BUILD/run/$ARCH-$VARIANT-$BASE}
JOBS=${JOBS:-$(( $(nproc) + 1 ))}

[ -f "$ROOT/bases/$BASE.conf" ] || { echo "no such base: bases/$BASE.conf" >&2; exit 2; }
[ -f "$ROOT/qemu/$ARCH.conf" ] || { echo "no such arch: qemu/$ARCH.conf" >&2; exit 2; }
# shellcheck source=/dev/null
. "$ROOT/bases/$BASE.conf"
# A variant of an arch (LIKE=<arch>: arm-thumb2) takes that arch's
# settings, then its own over them (one level: the LIKE arch is no variant).
LIKE=$(sed -n 's/^LIKE=//p' "$ROOT/qemu/$ARCH.conf")
[ -z "$LIKE" ] || [ -f "$ROOT/qemu/$LIKE.conf" ] || { echo "qemu/$ARCH.conf: no such arch: LIKE=$LIKE" >&2; exit 2; }
# shellcheck source=/dev/null
[ -z "$LIKE" ] || . "$ROOT/qemu/$LIKE.conf"
# shellcheck source=/dev/null
. "$ROOT/qemu/$ARCH.conf"
# One host thread for all vCPUs (every arch): with QEMU 7.2's multi-threaded
# TCG, ftrace's live patching of call sites wedged the guest (docs/testing.md)
ACCEL=${ACCEL:-tcg,thread=single}
# FLAVOR=debug: one vCPU, guest time counted in instructions (1 ns each).
# With KASAN and lockdep, TCG ran the timer tick under function_graph on
# every function for longer than a tick of host time, and the boot-time
# function_graph self-test livelocked in it (stock 6.1's too). Under
# -icount the tick gets 4 million instructions however slow the host is;
# QEMU 7.2 did not run a second vCPU under -icount here (x86's second CPU
# stopped for good in its bring-up wait), hence one (docs/testing.md).
[ "$FLAVOR" != debug ] || QEMU_EXTRA="-smp 1 -icount shift=0,sleep=off ${QEMU_EXTRA:-}"
# How much longer guests may take: the debug checkers slow the guest down
# about threefold, its one vCPU under -icount about twofold again (the
# 16-instance ftracetest case alone ran 18 minutes).
FLAVOR_TIME_SCALE=1
[ -z "$FLAVOR" ] || FLAVOR_TIME_SCALE=6

# The arches: one per qemu/<arch>.conf (qemu/README.md documents the keys).
all_arches() {
	( cd "$ROOT/qemu" && ls ./*.conf | sed 's|^\./||; s|\.conf$||' )
}
# A setting of another arch's qemu/<arch>.conf, empty if it has none (the
# keys of $ARCH, which lib.sh sourced, are cleared first).
ARCH_CONF_KEYS="LIKE KARCH CROSS_COMPILE IMAGE DEB_ARCH USERLAND_FROM NO_USERLAND QEMU_PKG
	QEMU QEMU_ARGS ACCEL CONSOLE OUTPUT_TTY OUTPUT_DEVICE BOOT_APPEND TIME_SCALE
	GCC_PLUGIN BUILD_CHECK EXTRA_PKGS NO_QEMU NO_TOOLCHAIN NO_STATIC STATIC_NO_GRAPH
	CROSS_OWN_DYNAMIC FIRMWARE"
arch_conf() { # arch variable
	# shellcheck disable=SC2086
	( unset $ARCH_CONF_KEYS
	  l=$(sed -n 's/^LIKE=//p' "$ROOT/qemu/$1.conf")
	  [ -z "$l" ] || . "$ROOT/qemu/$l.conf"
	  . "$ROOT/qemu/$1.conf"
	  eval "echo \"\${$2:-}\"" )
}

# Is $ARCH (or, for a variant, its LIKE arch) in a list of arches, such
# as a test's "# arches:" line? An empty list means every arch.
for_arch() { # list
	[ -n "$1" ] || return 0
	case " $1 " in *" $ARCH "*) return 0 ;; esac
	[ -n "${LIKE:-}" ] && case " $1 " in *" $LIKE "*) return 0 ;; esac
	return 1
}

T0=${T0:-$(date +%s)}
export T0

# Elapsed time since the front-door command started, as m:ss.
elapsed() {
	local s=$(( $(date +%s) - T0 ))
	printf '%d:%02d' $((s / 60)) $((s % 60))
}

# Progress line: "[ 3:21] kernel: building".
step() { printf '[%6s] %s\n' "$(elapsed)" "$*"; }
die() { printf '[%6s] ERROR: %s\n' "$(elapsed)" "$*" >&2; exit 1; }

# Run a command with its output in a log file, printing only the log tail on
# failure; long steps print a line every minute so that CI shows progress.
logged() {
	local log=$1 what=$2; shift 2
	local t=$(date +%s) rc=0
	mkdir -p "$(dirname "$log")"
	# (the ticker stops with its script, should that be killed)
	( while sleep 60 && kill -0 $$ 2>/dev/null; do
		step "$what: still running ($(( ($(date +%s) - t) / 60 )) min)"; done ) &
	local ticker=$!
	"$@" >"$log" 2>&1 || rc=$?
	kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true
	if [ $rc -ne 0 ]; then
		tail -n 40 "$log" >&2
		die "$what failed (exit $rc), full log: ${log#"$ROOT"/}"
	fi
	step "$what: done in $(( $(date +%s) - t )) s"
}

# GCC_PLUGIN (qemu/<arch>.conf) names scripts/gcc/<name>.cc, a plugin that
# the arch's compiler needs (scripts/kernel.sh builds it)
GCC_PLUGIN_SO=${GCC_PLUGIN:+$BUILD/gcc/$GCC_PLUGIN.so}
kmake() {
	make -C "$SRC" O="$OBJ" ARCH="$KARCH" ${CROSS_COMPILE:+CROSS_COMPILE=$CROSS_COMPILE} \
		CC="ccache ${CROSS_COMPILE}gcc" HOSTCC="ccache gcc" \
		${GCC_PLUGIN_SO:+KCFLAGS=-fplugin=$GCC_PLUGIN_SO} "$@"
}

# Reproducible build metadata, and ccache hits across clones and tree paths.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=fgraph KBUILD_BUILD_HOST=qemu
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}

# Where scripts/userland.sh puts the guest's userland: UL_BUSYBOX, the
# busybox binary; UL_ROOT, the unpacked Debian packages of a foreign arch
# (empty: the host's own tools); UL_TOOLS, the tools the initramfs takes
# from there (empty where busybox was built with them).
userland_paths() {
	UL_ROOT= UL_TOOLS="chrt nice"
	if [ "${USERLAND_FROM:-}" = source ]; then
		UL_BUSYBOX=$BUILD/userland/$DEB_ARCH/busybox UL_TOOLS=
	elif [ "$DEB_ARCH" = "$(dpkg --print-architecture)" ]; then
		UL_BUSYBOX=/bin/busybox
	else
		UL_ROOT=$BUILD/userland/$DEB_ARCH/root UL_BUSYBOX=$UL_ROOT/bin/busybox
	fi
}

# The tests that do not pass, with their reasons: under FLAVOR=debug the
# flavour's list first, then $ARCH's, then (for a variant) its LIKE arch's,
# then the common one (the first entry for a test wins).
known_nonpass() {
	{ [ -z "$FLAVOR" ] || cat "$ROOT/tests/known-nonpass/$FLAVOR.txt"
	  cat "$ROOT/tests/known-nonpass/$ARCH.txt"
	  [ -z "${LIKE:-}" ] || cat "$ROOT/tests/known-nonpass/$LIKE.txt"
	  cat "$ROOT/tests/known-nonpass/common.txt"; } 2>/dev/null || true
}

# A hash of the series file and every patch it names: tells whether the tree
# was made from the patches that are in the repository now.
series_stamp() {
	( cd "$SERIES" && { cat series; { grep -v '^[[:space:]]*\(#\|$\)' series || true; } | xargs -r cat; } ) |
		sha256sum | cut -d' ' -f1
}

# Print the console lines that show the kernel in trouble (with the lines that
# follow each, for the backtrace); nothing when the log is clean.
CONSOLE_BAD='Kernel panic|BUG:|WARNING:|Oops|KASAN|KFENCE|UBSAN|general protection fault|Unable to handle kernel|kernel BUG at|invalid opcode|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|INFO: lockdep|detected stalls?|hung_task|blocked for more than|unreferenced object|suspected memory leaks'
# Not trouble: the advisory of a kernel with speculation mitigations on a CPU
# model whose microcode it cannot check (make bench MITIGATIONS=1: "...:
# WARNING: See https://kernel.org/doc/html/latest/admin-guide/hw-vuln/...").
CONSOLE_NOTICE='WARNING: See https://kernel\.org/doc/html/latest/admin-guide/hw-vuln/'
console_problems() { # console.log
	grep -E -v "$CONSOLE_NOTICE" "$1" | grep -E -n -A 12 "$CONSOLE_BAD" | head -n 200 || true
}

# make matrix's function_graph column (tests/host/selftest-cell.sh).
# "Testing tracer function_graph: " and its verdict share a line unless a
# message came in between (a late "sched: DL replenish lagged too much"
# from the wakeup tests' deadline thread, on arm64): the verdict is the
# first line starting with PASSED after it, before the next test starts.
# Any boot-time tracer test that FAILED! fails the cell too.
selftest_cell() { # console
	local r
	r=$(awk 'on && /^Testing / { exit }
		/^Testing tracer function_graph:/ { on = 1; sub(/^[^:]*: */, "") }
		on && /^PASSED/ { print "ok"; exit }
		on && /FAILED/ { exit }' "$1" 2>/dev/null) || true
	grep -q '^Testing tracer.*FAILED!\|^FAILED!' "$1" 2>/dev/null && r=
	echo "${r:-FAIL}"
}
