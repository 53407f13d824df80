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
# what the kernel does against speculation on this CPU model
for f in /sys/devices/system/cpu/vulnerabilities/*; do
	[ -r "$f" ] && echo "R vuln ${f##*/} $(cat "$f")"
done
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
# one user that asks for the call's timestamps, as function_graph does
cmd fgraph-times 1 "$CALLS" "$REPS"

# shadow stacks while one user is registered, and after it left
cmd hold 1
# a few new tasks while tracing
for i in 1 2 3; do sh -c true; done
mem mem-tracing
cmd release
mem mem-after

# "R calls CASE N CALLS LOST": the calls function_graph traced for N
# getppid() calls (events written, kept or overwritten, less those of a
# run with none: an entry and a return each) and the events the buffers
# lost (dropped, commit overruns), so that a row that costs less because
# fewer calls were traced shows it
calls() {
	ev() {
		echo > trace
		getppid-loop "$1" 1 > /dev/null
		echo 0 > tracing_on
		awk '/^entries:|^overrun:/ { n += $2 }
		     /^commit overrun:|^dropped events:/ { l += $3 }
		     END { print n + 0, l + 0 }' per_cpu/cpu*/stats
		echo 1 > tracing_on
	}
	set -- "$1" $(ev 0) $(ev "$WCALLS")
	echo "R calls $1 $WCALLS $((($4 - $2) / 2)) $(($3 + $5))"
}

# whole kernel: getppid() with no tracer, then function_graph on all
# functions (the trace buffer keeps overwriting)
cd $TRACEFS
echo "R wk-off $(getppid-loop "$WCALLS" "$REPS")"
echo function_graph > current_tracer || exit 1
echo "R wk-function_graph $(getppid-loop "$WCALLS" "$REPS")"
calls wk-function_graph
mem mem-wk-tracing
# the same with each option that makes function_graph record more, where
# the kernel has it (the stock kernels: 6.12 has funcgraph-retval)
for o in retval retaddr args; do
	if echo 1 2> /dev/null > options/funcgraph-$o; then
		echo "R wk-fg-$o $(getppid-loop "$WCALLS" "$REPS")"
		echo 0 > options/funcgraph-$o
	fi
done
echo nop > current_tracer
mem mem-wk-after
# the function profiler on all functions
echo 1 > function_profile_enabled || exit 1
echo "R wk-profiler $(getppid-loop "$WCALLS" "$REPS")"
echo 0 > function_profile_enabled
# the function_graph tracer on one function: the syscall itself
f=$(grep -m 1 -e '^__x64_sys_getppid$' -e '^__arm64_sys_getppid$' -e '^sys_getppid$' -e '^__do_sys_getppid$' \
	available_filter_functions)
if [ -n "$f" ] && echo "$f" > set_ftrace_filter; then
	echo function_graph > current_tracer || exit 1
	echo "R wk-fg-one $(getppid-loop "$WCALLS" "$REPS")"
	calls wk-fg-one
	echo nop > current_tracer
	echo > set_ftrace_filter
else
	echo "no traceable getppid syscall function: row wk-fg-one left out"
	grep getppid available_filter_functions
fi

# nesting depth: how many of 250 nested calls 16 function_graph users (the
# top level and 15 instances; fewer where the kernel refuses more) hook
echo 0 > tracing_on
echo fgraph_bench_deep > set_ftrace_filter || exit 1
echo function_graph > current_tracer || exit 1
users=1
for i in $(seq 2 16); do
	mkdir instances/bd$i || break
	echo fgraph_bench_deep > instances/bd$i/set_ftrace_filter
	if ! echo function_graph 2> /dev/null > instances/bd$i/current_tracer; then
		rmdir instances/bd$i
		break
	fi
	users=$((users + 1))
done
echo > trace
echo 1 > tracing_on
echo deep 250 > $B
echo 0 > tracing_on
echo "R depth $users $(grep -c 'fgraph_bench_deep()' trace) $(cat $B)"
for d in instances/bd*; do
	[ -d "$d" ] || continue
	echo nop > $d/current_tracer
	rmdir $d
done
echo nop > current_tracer
echo > set_ftrace_filter
echo 1 > tracing_on
echo "R done"
