#!/bin/sh
# The in-guest part of 'make profile': one call per case, in the order of
# the PROFILE_CASES that scripts/profile.sh gives gdb (bench/profile.py).
# USERS: the fgraph user counts (comma-separated) to profile a call of
# fgraph_bench_target with.
B=/proc/fgraph_bench
[ -w $B ] || { echo "no $B: not a bench kernel"; exit 1; }
echo "off 0 1 1" > $B || exit 1
echo "function 0 1 1" > $B || exit 1
for u in $(echo "${USERS:-1,2,16}" | tr , " "); do
	# stock 6.1 refuses a second user: an untraced call stands for it
	echo "fgraph $u 1 1" > $B || exit 1
	grep -q error $B && { echo "off 0 1 1" > $B || exit 1; }
done
# one getppid() with function_graph, then the profiler, on every function
cd "$TRACEFS" || exit 1
echo function_graph > current_tracer || exit 1
getppid-loop 1 1 > /dev/null
echo nop > current_tracer
echo 1 > function_profile_enabled || exit 1
getppid-loop 1 1 > /dev/null
echo 0 > function_profile_enabled
echo "profile: done"
