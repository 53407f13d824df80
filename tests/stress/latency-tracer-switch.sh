#!/bin/sh
# Stress: switch the latency tracers on and off with function tracing of
# every function (options/function-trace, the default), so that ftrace
# patches every call site 320 times. Under QEMU's multi-threaded TCG this
# wedged the guest within a few dozen switches (a stale int3 translation,
# see docs/testing.md, "QEMU: one TCG thread"); with one TCG thread it passes.
# Run: make run CMD=tests/stress/latency-tracer-switch.sh
# Optional: FUNCTION_TRACE=0 in the environment to compare.
cd "$TRACEFS" || exit 1
echo "${FUNCTION_TRACE:-1}" > options/function-trace
for i in $(seq 1 40); do
	for t in wakeup_rt wakeup wakeup_dl irqsoff; do
		printf '%s:%s ' "$i" "$t"
		echo $t > current_tracer || exit 1
		echo nop > current_tracer || exit 1
	done
done
echo
echo "survived 160 latency tracer switches"
