#!/bin/sh
# Reproducer: switch the latency tracers on and off with function tracing of
# every function (options/function-trace, the default). Stock 6.1 under TCG
# wedges the guest within a few dozen switches; with function-trace off it
# does 160 switches in about 36 s. Run: make run CMD=tests/stress/latency-tracer-switch.sh
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
