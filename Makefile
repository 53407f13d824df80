# linux-fgraph front door. See README.md.
#
#   make run              build, boot, show function_graph on a workload
#   make run CMD=script   run a script in the guest, return its status
#   make check            build, boot, run KUnit + ftracetest, summarize
#   make tree / export    developer workflow on build/src/linux-$(BASE)
#   make bisect           every prefix of the series builds and boots
#
# Variables: ARCH (qemu/*.conf, default x86_64), BASE (bases/*.conf,
# default 6.1), JOBS, TIMEOUT (seconds), CMD, EXTRA_CONFIGS.

ARCH ?= x86_64
BASE ?= 6.1
export ARCH BASE
export T0 := $(shell date +%s)

S := scripts

.PHONY: all setup tree export kernel initramfs run check bisect clean help
all: help
help:
	@sed -n '2,11p' Makefile | sed 's/^# \{0,1\}//'

setup:
	@$(S)/setup.sh

tree: setup
	@$(S)/tree.sh

export:
	@$(S)/export.sh

kernel: tree
	@$(S)/kernel.sh

run: kernel
	@$(S)/boot.sh $(if $(CMD),cmd,run) $(CMD)

check: kernel
	@$(S)/check.sh

# every prefix of the series builds and boots (slow: one build per patch)
bisect: kernel
	@$(S)/bisect-series.sh

clean:
	rm -rf build/obj build/run
