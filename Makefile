# linux-fgraph front door (README.md). `make help` prints this block.
#
# Targets
#   run            build, boot in QEMU, show function_graph on a workload;
#                  with a terminal, then a guest shell (CMD=script: run
#                  that script in the guest as root, return its status)
#   check          build, boot, KUnit + boot self-tests + ftracetest, the
#                  tests/guest boots, make stress SHORT=1 and the tooling's
#                  own tests/host; ends "N passed, N failed, N skipped"
#   stress         stress scenarios in the guest, one boot each
#   tree           build/src/linux-$(BASE): a git tree, base tagged 'base',
#                  one commit per patch of patches/series
#   export         rewrite patches/ and patches/series from base..HEAD
#   kernel         configure and build the kernel (run and check do it)
#   userland       fetch (or build) the guest's userland for ARCH
#   setup          install the Debian packages ARCH and BASE need
#   setup-bench    setup for make bench (both bases, gnuplot, gdb)
#   bisect         every prefix of the series builds and boots
#   cross          build every arch in both ftrace modes; a table
#   matrix         every arch in turn: make check's run where the arch
#                  has a userland, else a kernel-only boot; a table
#   bench          cost per traced call and memory: stock 6.1, ours and
#                  stock 6.12 under QEMU -icount (bench/README.md);
#                  ARCH=x86_64 or arm64
#   profile        per-function instruction counts of one traced call, on
#                  the kernels make bench built (x86_64, arm64)
#   deb            Debian packages of the patched kernel from Debian's
#                  own config (DEB_CONFIG), with the kernel's bindeb-pkg;
#                  ARCH=x86_64 or arm64 (docs/debian.md)
#   deb-check      a Debian 12 system (mmdebstrap) with those packages
#                  installed by dpkg -i, booted in QEMU; systemd runs the
#                  checks of tests/deb/; ends "N passed, N failed"
#   deb-versions   which served linux-source-6.1 versions the series
#                  applies to
#   clean          remove build/obj and build/run (keeps trees, userland)
#   help           this text
#   all            the same as help (plain `make`)
#
# Variables (default)
#   ARCH           a qemu/<arch>.conf (x86_64); keys: qemu/README.md
#   BASE           a bases/<base>.conf (6.1)
#   FLAVOR         kernel flavour: debug = configs/debug.config, its own
#                  object directory, guest limits x3 (empty)
#   JOBS           parallel build jobs (CPUs + 1)
#   FRAGMENTS      configs/ fragments merged onto tinyconfig, later ones
#                  win (guest ftrace kunit; debug adds debug)
#   EXTRA_CONFIGS  more Kconfig fragment files, merged last (none)
#   CONFIG_ONLY    1: make kernel stops after configuring (empty)
#   TIMEOUT        guest time limit in seconds (run 900, CMD 1800, check
#                  2700, a kernel-only boot 1200; x6 for FLAVOR=debug, x
#                  TIME_SCALE of the arch)
#   CMD            make run: a script to run in the guest (none)
#   KCMDLINE       extra kernel command-line parameters (none)
#   QEMU_EXTRA     extra QEMU options (none; FLAVOR=debug puts -smp 1
#                  -icount shift=0,sleep=off first)
#   FTRACE_CASES   ftracetest cases, a pattern on test.d/<dir>/<case>.tc,
#                  '*' for all (all; FLAVOR=debug: test.d/*/fgraph-*)
#   CHECK_STRESS   0: make check leaves out make stress SHORT=1 (1)
#   GUEST_TIMEOUT  seconds per tests/guest boot (600 x TIME_SCALE)
#   REJUDGE        make check: judge the last run's logs again, without
#                  booting; the value is the boot's exit status (empty)
#   SHORT          1: make stress runs every scenario briefly in one boot
#   SCENARIOS      make stress: which, in order (kunit fork-storm
#                  cpu-hotplug deep-stack tracefs-fuzz)
#   STRESS_SECONDS seconds per scenario (60; SHORT: 6)
#   FUZZ_SECONDS   seconds of tracefs-fuzz (STRESS_SECONDS; SHORT: 20)
#   KUNIT_STRESS_MS  fgraph_kunit.stress_ms (60000; SHORT: 3000)
#   STRESS_SEED    tracefs-fuzz's seed (random; printed)
#   STRESS_TIMEOUT guest time limit per stress boot (from the above)
#   BISECT_FROM    make bisect: check prefixes N.. only (1)
#   CROSS_ARCHES   make cross: the arches (every qemu/<arch>.conf)
#   FTRACE_MODES   make cross: ftrace modes, dynamic and/or static (both)
#   MATRIX_ARCHES  make matrix: the arches (every qemu/<arch>.conf)
#   MATRIX_CASES   make matrix: FTRACE_CASES of a check run
#                  (test.d/*/fgraph-*)
#   MATRIX_STRESS  make matrix: SCENARIOS of a check run (fork-storm)
#   BOOT_TIMEOUT   make matrix: seconds per kernel-only boot (1200)
#   KERNELS        make bench, profile: which kernels (6.1-stock
#                  6.1-fgraph 6.12-stock)
#   CALLS, REPS    make bench: calls per loop, repetitions (10000, 7)
#   WCALLS         make bench: getppid() calls per workload (2000)
#   MITIGATIONS    1: make bench builds and runs the kernels with Debian's
#                  speculation mitigations (build/bench/mitigations/)
#   USERS          make profile: fgraph user counts (1 2 16)
#   DEB_CONFIG     make deb, deb-check: Debian's flavour, cloud or full
#                  (cloud; rt is refused: docs/debian.md)
#   DEB_KERNEL_DEBS  make deb-check: other linux-image packages to boot
#                  (a check of deb-check itself with Debian's kernel)
#   FORCE          1: make tree discards work not exported (empty)
#   EXTRA_PKGS     more Debian packages for make setup (none)
#   CCACHE_MAXSIZE ccache's size limit (10G)
#   CI             set: make run never opens a guest shell (empty)
# end of help

ARCH ?= x86_64
BASE ?= 6.1
export ARCH BASE
export T0 := $(shell date +%s)

S := scripts

.PHONY: all setup setup-bench tree export kernel userland run check stress bisect cross matrix bench profile deb deb-check deb-versions clean help
all: help
help:
	@sed -n '3,/^# end of help/p' Makefile | sed '$$d; s/^# \{0,1\}//'

setup:
	@$(S)/setup.sh

tree: setup
	@$(S)/tree.sh

export:
	@$(S)/export.sh

kernel: tree
	@$(S)/kernel.sh

# the guest's userland (busybox and the tools ftracetest needs) for ARCH
userland: setup
	@$(S)/userland.sh

run: userland kernel
	@$(S)/boot.sh $(if $(CMD),cmd,run) $(CMD)

check: userland kernel
	@$(S)/check.sh

# fgraph stress scenarios (scripts/stress.sh): SHORT=1, STRESS_SECONDS,
# STRESS_SEED, SCENARIOS, FLAVOR=debug
stress: userland kernel
	@$(S)/stress.sh

# every prefix of the series builds and boots (slow: one build per patch)
bisect: kernel
	@$(S)/bisect-series.sh

# each qemu/<arch>.conf with dynamic and with static ftrace (CROSS_ARCHES,
# FTRACE_MODES); a table of builds and warnings
cross: tree
	@$(S)/cross.sh

# each qemu/<arch>.conf in turn: make check's run where the arch has a
# userland, else make cross's dynamic kernel booted without one
# (MATRIX_ARCHES, MATRIX_CASES, MATRIX_STRESS); one table
matrix: tree
	@$(S)/matrix.sh

# three kernels (stock 6.1, ours, stock 6.12) with bench/fgraph_bench.c;
# table, CSVs and chart in build/bench/
setup-bench:
	@EXTRA_PKGS="gnuplot-nox gdb $(if $(filter-out x86_64,$(ARCH)),gdb-multiarch libc6-dev-$(ARCH)-cross)" $(S)/setup.sh 6.1 6.12

bench: setup-bench
	@$(S)/bench.sh

# gdb single-steps one call per case in each bench kernel (KERNELS, USERS)
profile: setup-bench
	@$(S)/profile.sh

# Debian packages from Debian's config, and a Debian 12 system with them
deb: setup
	@$(S)/deb.sh

deb-check: setup
	@$(S)/deb-check.sh

deb-versions: setup
	@$(S)/deb-versions.sh

clean:
	rm -rf build/obj build/run
