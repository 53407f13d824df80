#!/bin/sh
# Stress (c): CPU 1 goes offline and online in a loop while function_graph
# traces in the top level and in an instance.
#
# The idle task of CPU 1 dies inside do_idle() and starts over when the
# CPU comes back, tasks on CPU 1 migrate, and now and then the instance's
# user goes and comes back while CPU 1 is offline (registration must give
# the CPU's tasks a shadow stack when it returns). Workers read and write
# on both CPUs meanwhile. At the end:
#  - every offline/online write succeeded and the CPU is online;
#  - after the last cycle both users trace CPU 1 (its idle loop and the
#    workers) and CPU 0;
#  - both traces are well formed (lib.sh: graph_check; an idle task may
#    start over after its CPU came back).
# Bounded by STRESS_SECONDS; prints what it exercised.
. "$(dirname "$0")/lib.sh"
cd "$TRACEFS" || exit 1

I=instances/hotplug
CPU1=/sys/devices/system/cpu/cpu1/online
STOP=$STRESS_TMP/stop

stress_cleanup() {
	touch $STOP
	[ -w $CPU1 ] && echo 1 > $CPU1
	reset_tracing . $I
	[ -d $I ] && rmdir $I
}

[ -w $CPU1 ] || fatal "CPU 1 cannot go offline here ($CPU1): no hotplug"
[ "$(cat $CPU1)" = 1 ] || echo 1 > $CPU1 || fatal "cannot bring CPU 1 online"
deadline_set
mkdir $I || fatal "mkdir $I"
n0=$(add_funcs set_ftrace_filter do_idle ksys_read vfs_read _cpu_down _cpu_up \
	takedown_cpu cpuhp_invoke_callback cpuhp_thread_fun cpu_startup_entry \
	sched_cpu_dying sched_cpu_starting)
n1=$(add_funcs $I/set_ftrace_filter do_idle ksys_write vfs_write \
	cpuhp_invoke_callback migrate_tasks sched_cpu_deactivate)
echo "filters: top $n0 functions, $I $n1"
for d in . $I; do
	grep -qx do_idle $d/set_ftrace_filter || fatal "do_idle is not traceable"
	graph_opts $d
	echo function_graph > $d/current_tracer || fatal "cannot select function_graph in $d"
done
cat set_ftrace_filter > $STRESS_TMP/top.names
cat $I/set_ftrace_filter > $STRESS_TMP/inst.names

rm -f $STOP
worker() { # n: a read and a write, then a short sleep (CPUs go idle)
	i=0
	while [ ! -e $STOP ]; do
		read -r l < /proc/sys/kernel/ostype
		echo $i > /dev/null
		sleep 0.05
		i=$((i + 1))
	done
	echo $i > $STRESS_TMP/worker.$1
}
worker 1 &
worker 2 &

cycles=0 swaps=0
while before_deadline || [ $cycles -lt 2 ]; do
	echo 0 2> $STRESS_TMP/err > $CPU1 || check_fail "CPU 1 offline failed: $(cat $STRESS_TMP/err)"
	[ "$(cat $CPU1)" = 0 ] || check_fail "CPU 1 still online after writing 0"
	if [ $((cycles % 3)) = 2 ]; then
		# a user goes and comes back while CPU 1 is offline
		echo nop > $I/current_tracer
		echo function_graph > $I/current_tracer || check_fail "function_graph refused in $I"
		swaps=$((swaps + 1))
	fi
	echo 1 2> $STRESS_TMP/err > $CPU1 || check_fail "CPU 1 online failed: $(cat $STRESS_TMP/err)"
	[ "$(cat $CPU1)" = 1 ] || check_fail "CPU 1 still offline after writing 1"
	cycles=$((cycles + 1))
	# keep the window checked at the end short
	[ $((cycles % 2)) = 0 ] && for d in . $I; do echo > $d/trace; done
done
# The structure check takes the traces of the last cycles (up to two,
# with their offline/online transitions).
for d in . $I; do echo 0 > $d/tracing_on; done
cp trace $STRESS_TMP/top.trace
cp $I/trace $STRESS_TMP/inst.trace
ov=$(( $(buffer_overruns .) + $(buffer_overruns $I) ))
# The last window: CPU 1 is back; both users must trace it.
for d in . $I; do echo > $d/trace; echo 1 > $d/tracing_on; done
# (until both users show both idle loops, at most 30 s: slow debug kernels)
w=0
while [ $w -lt 30 ]; do
	sleep 1
	w=$((w + 1))
	seen=0
	for d in . $I; do
		for cpu in 0 1; do
			grep -q 'do_idle()' $d/per_cpu/cpu$cpu/trace && seen=$((seen + 1))
		done
	done
	[ $seen -lt 4 ] || break
done
for d in . $I; do echo 0 > $d/tracing_on; done
touch $STOP
wait
work=$(( $(cat $STRESS_TMP/worker.1) + $(cat $STRESS_TMP/worker.2) ))
echo "$cycles offline/online cycles, $swaps user swaps while offline, $work worker rounds"
[ "$ov" = 0 ] || echo "ring buffers overran ($ov entries): a row may miss its pair"
GRAPH_HOLES=$ov

check_user() { # dir trace names what funcs...
	d=$1 t=$2 names=$3 what=$4; shift 4
	for cpu in 0 1; do
		c=$(grep -c 'do_idle()' $d/per_cpu/cpu$cpu/trace || true)
		echo "  $what: CPU $cpu: $c do_idle rows after the last cycle"
		[ "$c" -gt 0 ] || check_fail "$what: no do_idle on CPU $cpu after the last cycle"
	done
	for f in "$@"; do
		c=$(graph_rows $d/trace $f)
		echo "  $what: $c rows of $f after the last cycle"
		[ "$c" -gt 0 ] || check_fail "$what: no $f after the last cycle"
	done
	graph_ok "$what, last cycles" $t $names 100 1
}
check_user . $STRESS_TMP/top.trace $STRESS_TMP/top.names "top level" ksys_read
check_user $I $STRESS_TMP/inst.trace $STRESS_TMP/inst.names "$I" ksys_write

stress_cleanup
summary "$cycles CPU 1 offline/online cycles with 2 fgraph users ($swaps user swaps while offline), $work worker read/write rounds"
exit $stress_failed
