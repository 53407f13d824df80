#!/bin/sh
# kcmdline: ftrace_graph_filter=vfs_read ftrace_graph_notrace=vfs_write ftrace_graph_max_depth=3
# The top level's set_graph_function, set_graph_notrace and max_graph_depth
# set on the kernel command line, before the top level's trace_array
# exists (0097 hands them over when function_graph registers): each reads
# back, function_graph follows the filter at once, and the boot-time
# self-test (which runs without them) passed: with the filter in force it
# found no entries and took function_graph away ("function_graph
# refused" here).
T=${TRACEFS:-/sys/kernel/tracing}
fail() { echo "FAIL: $*"; exit 1; }
grep -qx vfs_read $T/set_graph_function ||
	fail "set_graph_function holds '$(cat $T/set_graph_function)', not vfs_read"
grep -qx vfs_write $T/set_graph_notrace ||
	fail "set_graph_notrace holds '$(cat $T/set_graph_notrace)', not vfs_write"
[ "$(cat $T/max_graph_depth)" = 3 ] ||
	fail "max_graph_depth is $(cat $T/max_graph_depth), not 3"
read PID _ < /proc/self/stat
echo $PID > $T/set_ftrace_pid
echo function_graph > $T/current_tracer || fail "function_graph refused"
for i in 1 2 3; do read -r x < /proc/self/stat; echo $i > /dev/null; done
echo 0 > $T/tracing_on
grep -q ' vfs_read() {\| vfs_read();' $T/trace ||
	fail "no vfs_read in the trace: $(grep -v '^#' $T/trace | head -n 5)"
if grep -q 'vfs_write' $T/trace; then
	fail "vfs_write, not in set_graph_function, in the trace"
fi
echo nop > $T/current_tracer
echo > $T/set_ftrace_pid
echo "PASS: the kernel command line's graph filters are the top level's"
