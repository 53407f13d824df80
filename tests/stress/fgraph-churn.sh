#!/bin/sh
# Stress: function_graph users come and go while tasks run traced code.
# Instances switch function_graph on and off (with their own filters), the
# profiler toggles, a CPU goes offline and online, and a fork storm runs,
# all at once, for ROUNDS rounds. Passes if the guest survives and the
# console stays clean (make run checks it). Run:
#   make run CMD=tests/stress/fgraph-churn.sh
cd "$TRACEFS" || exit 1
ROUNDS=${ROUNDS:-30}
FUNCS="ksys_write vfs_write ksys_read vfs_read do_sys_openat2 getname_flags"

echo ksys_read vfs_read > set_ftrace_filter
for i in 1 2 3 4 5 6; do
	mkdir instances/churn$i
	set -- $FUNCS
	shift $(( (i - 1) % 5 ))
	echo "$1 $2" > instances/churn$i/set_ftrace_filter
done

# workload: opens, reads and writes from the shell, and forks
( while [ ! -e /tmp/churn.stop ]; do
	read -r l < /proc/version; echo x > /dev/null
	/bin/true
  done ) &
work=$!

cpu1=/sys/devices/system/cpu/cpu1/online
for r in $(seq 1 "$ROUNDS"); do
	for i in 1 2 3 4 5 6; do
		if [ $(( (r + i) % 2 )) = 0 ]; then
			echo function_graph > instances/churn$i/current_tracer
		else
			echo nop > instances/churn$i/current_tracer
		fi
	done
	echo $((r % 2)) > function_profile_enabled
	if [ $((r % 3)) = 0 ]; then
		echo function_graph > current_tracer
	else
		echo nop > current_tracer
	fi
	[ -w $cpu1 ] && echo $((r % 2)) > $cpu1
	echo 1 > instances/churn$(( r % 6 + 1 ))/set_graph_notrace 2> /dev/null
	echo vfs_read > instances/churn$(( r % 6 + 1 ))/set_graph_notrace 2> /dev/null
	printf '%s ' "$r"
done
echo
touch /tmp/churn.stop
wait $work
[ -w $cpu1 ] && echo 1 > $cpu1
echo 0 > function_profile_enabled
echo nop > current_tracer
for i in 1 2 3 4 5 6; do
	echo nop > instances/churn$i/current_tracer
	rmdir instances/churn$i || exit 1
done
echo "survived $ROUNDS rounds of fgraph user churn"
