#!/bin/sh
# kcmdline: maxcpus=1
# A CPU that comes online after the first fgraph user registered: its idle
# task must get a shadow stack, so that its idle loop is graph-traced.
# Booted with maxcpus=1, so that no boot-time tracer test gave CPU 1's idle
# task a stack; CPU 1 is brought online while function_graph traces
# do_idle, then taken down and up again under a second user (the instance)
# to check that the stack survives and serves a new user too.
cd "$TRACEFS" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cpu1=/sys/devices/system/cpu/cpu1/online
[ -e $cpu1 ] || fail "no CPU 1 to bring online (the guest needs -smp 2 and CPU hotplug)"
[ "$(cat $cpu1)" = 0 ] || fail "CPU 1 is already online: the guest must boot with maxcpus=1"

idle_rows() { # tracefs-dir cpu
	grep -c 'do_idle()' "$1/per_cpu/cpu$2/trace" || true
}

echo do_idle > set_ftrace_filter
echo function_graph > current_tracer || fail "cannot select function_graph"
echo 1 > $cpu1 || fail "cannot bring CPU 1 online"
sleep 1
echo 0 > tracing_on
n0=$(idle_rows . 0) n1=$(idle_rows . 1)
echo "first user, CPU 1 onlined while tracing: do_idle rows: CPU 0 $n0, CPU 1 $n1"
[ "$n0" -gt 0 ] || fail "no do_idle rows on CPU 0: the test itself is broken"
[ "$n1" -gt 0 ] || fail "CPU 1's idle loop was not graph-traced (its idle task has no shadow stack)"
other=$(grep -v '^#' per_cpu/cpu1/trace | grep -o '[A-Za-z_0-9.]*()' | grep -v '^do_idle()$' | sort -u)
[ -z "$other" ] || fail "CPU 1's trace shows functions outside set_ftrace_filter: $other"

# Down and up again with every user gone, then a new user in an instance.
echo nop > current_tracer
echo 0 > $cpu1 || fail "cannot take CPU 1 offline"
mkdir instances/hp || fail "cannot make an instance"
echo do_idle > instances/hp/set_ftrace_filter
echo function_graph > instances/hp/current_tracer || fail "function_graph in the instance"
echo 1 > $cpu1 || fail "cannot bring CPU 1 online again"
sleep 1
echo 0 > instances/hp/tracing_on
n1=$(idle_rows instances/hp 1)
echo "new user in an instance, CPU 1 offline at registration: do_idle rows on CPU 1: $n1"
echo nop > instances/hp/current_tracer
rmdir instances/hp
echo > set_ftrace_filter
echo 1 > tracing_on
[ "$n1" -gt 0 ] || fail "CPU 1's idle loop was not traced by the second user"
echo "PASS"
