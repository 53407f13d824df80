#!/bin/sh
# The in-guest part of 'make bench', run as 'make run CMD=...' runs a script.
# Each result is one line starting with "R ": scripts/bench-report.sh reads
# them. Needs /proc/fgraph_bench (bench/fgraph_bench.c) and
# /usr/bin/getppid-loop (bench/getppid-loop.c).
B=/proc/fgraph_bench
CALLS=${CALLS:-10000} REPS=${REPS:-7} WCALLS=${WCALLS:-2000}
cmd() {
	if echo "$*" > $B; then
		echo "R $(cat $B)"
	else
		echo "R $1 ${2:-0} error write"
	fi
}
mem() { echo mem > $B && echo "R $1 $(cat $B)"; }

echo "kernel: $(uname -r) ($(grep -c ^processor /proc/cpuinfo) CPU)"
[ -w $B ] || { echo "no $B: not a bench kernel"; exit 1; }
mem mem-boot

# per traced call: nothing, one ftrace_ops, 1..16 fgraph users
cmd off 0 "$CALLS" "$REPS"
cmd function 0 "$CALLS" "$REPS"
# the function tracer refuses a filter that matches nothing
if grep -q error $B; then
	echo "fgraph_bench_target is not traceable (built without -pg?)"
	exit 1
fi
for u in 1 2 4 8 16; do
	cmd fgraph "$u" "$CALLS" "$REPS"
done

# shadow stacks while one user is registered, and after it left
cmd hold 1
# a few new tasks while tracing
for i in 1 2 3; do sh -c true; done
mem mem-tracing
cmd release
mem mem-after

# whole kernel: getppid() with no tracer, then function_graph on all
# functions (the trace buffer keeps overwriting)
cd $TRACEFS
echo "R wk-off $(getppid-loop "$WCALLS" "$REPS")"
echo function_graph > current_tracer || exit 1
echo "R wk-function_graph $(getppid-loop "$WCALLS" "$REPS")"
mem mem-wk-tracing
echo nop > current_tracer
mem mem-wk-after
echo "R done"
