# linux-fgraph front door. See README.md.
#
#   make run              build, boot, show function_graph on a workload
#   make run CMD=script   run a script in the guest, return its status
#   make check            build, boot, run KUnit + ftracetest, summarize
#                         (ARCH=arm64, arm, i386, ppc64le, s390x, mipsel,
#                         riscv64, mips: the same on that arch, with a
#                         userland from Debian's packages or source)
#   make userland         fetch the guest's userland for ARCH
#   make stress           build, stress scenarios in the guest, one boot
#                         each (SHORT=1: a few seconds each, one boot)
#   make tree / export    developer workflow on build/src/linux-$(BASE)
#   make bisect           every prefix of the series builds and boots
#                         (BISECT_FROM=N: prefixes N.. only)
#   make cross            build every arch, dynamic and static ftrace
#   make matrix           every arch in turn: make check where a Debian
#                         userland exists, else a kernel-only boot; one
#                         table
#   make bench            cost per traced call and memory: stock 6.1,
#                         ours and stock 6.12, under QEMU -icount
#   make profile          where one traced call's instructions go, per
#                         function, on the kernels make bench built
#
# Variables: ARCH (qemu/*.conf, default x86_64), BASE (bases/*.conf,
# default 6.1), JOBS, TIMEOUT (seconds), CMD, EXTRA_CONFIGS.

ARCH ?= x86_64
BASE ?= 6.1
export ARCH BASE
export T0 := $(shell date +%s)

S := scripts

.PHONY: all setup setup-bench tree export kernel userland run check stress bisect cross matrix bench profile clean help
all: help
help:
	@sed -n '2,23p' Makefile | sed 's/^# \{0,1\}//'

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
	@$(S)/initramfs.sh --userland

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
# FLAVOURS); a table of builds and warnings
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
	@EXTRA_PKGS="gnuplot-nox gdb" $(S)/setup.sh 6.1 6.12

bench: setup-bench
	@$(S)/bench.sh

# gdb single-steps one call per case in each bench kernel (KERNELS, USERS)
profile: setup-bench
	@$(S)/profile.sh

clean:
	rm -rf build/obj build/run
