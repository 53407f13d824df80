#!/bin/sh
# Stress (b): a fork/exec storm while function_graph traces the fork path
# in the top level and in two instances.
#
# Each new task gets its shadow stack while the graph users are hooked
# into the very functions that create it (kernel_clone, copy_process) and
# that tear it down (do_exit, release_task). Workers fork subshells,
# fork+exec busybox, and run pipelines; meanwhile one instance switches
# function_graph off and on (a user goes and comes back while tasks are
# created), and the traces are cleared now and then (the last window is
# what is checked). At the end:
#  - every worker finished, none is left behind;
#  - each user traced the functions of its filter, and nothing else;
#  - each trace is well formed (lib.sh: graph_check).
# Bounded by STRESS_SECONDS; prints what it exercised.
. "$(dirname "$0")/lib.sh"
cd "$TRACEFS" || exit 1

WORKERS=${WORKERS:-3}
A=instances/fork_a B=instances/fork_b
STOP=$STRESS_TMP/stop

stress_cleanup() {
	touch $STOP
	reset_tracing . $A $B
	for d in $A $B; do [ -d $d ] && rmdir $d; done
}

FORK="${SYS}clone ${SYS}clone3 ${SYS}fork ${SYS}vfork kernel_clone
copy_process dup_task_struct sched_fork copy_files copy_fs copy_sighand
copy_signal copy_mm dup_mm copy_thread wake_up_new_task"
EXEC='do_execveat_common bprm_execve begin_new_exec exec_mmap load_elf_binary
setup_new_exec'
EXIT="do_exit exit_mm exit_files exit_fs exit_notify release_task do_group_exit
${SYS}exit_group"

deadline_set
mkdir $A || fatal "mkdir $A"
mkdir $B || fatal "mkdir $B"
n0=$(add_funcs set_ftrace_filter $FORK)
na=$(add_funcs $A/set_ftrace_filter kernel_clone copy_process $EXEC)
nb=$(add_funcs $B/set_ftrace_filter kernel_clone $EXIT)
echo "filters: top $n0 fork functions, $A $na fork+exec, $B $nb fork+exit"
for d in . $A $B; do
	grep -qx kernel_clone $d/set_ftrace_filter || fatal "kernel_clone is not traceable in $d"
	graph_opts $d
	echo function_graph > $d/current_tracer || fatal "cannot select function_graph in $d"
done
cat set_ftrace_filter > $STRESS_TMP/top.names
cat $A/set_ftrace_filter > $STRESS_TMP/a.names
cat $B/set_ftrace_filter > $STRESS_TMP/b.names

# Workers: each counts its rounds in its own file.
worker() { # n
	i=0
	while [ ! -e $STOP ]; do
		case $(( i % 4 )) in
		0) ( : ) ;;				# fork
		1) /bin/true ;;				# fork + exec
		2) x=$(echo $i) ;;			# fork, pipe
		3) echo $i | cat > /dev/null ;;		# two forks, an exec
		esac
		i=$((i + 1))
	done
	echo $i > $STRESS_TMP/worker.$1
}
rm -f $STOP
n=1
while [ $n -le $WORKERS ]; do
	worker $n &
	n=$((n + 1))
done

toggles=0 clears=0 t=0
while before_deadline; do
	sleep 1
	t=$((t + 1))
	# instance B's user goes and comes back while tasks come and go
	if [ $((t % 2)) = 1 ]; then
		echo nop > $B/current_tracer
		sleep 1
		echo function_graph > $B/current_tracer || check_fail "function_graph refused in $B"
		toggles=$((toggles + 1))
	fi
	# keep the window checked at the end short: no buffer overrun
	for d in . $A; do echo > $d/trace; done
	clears=$((clears + 1))
done
# the window checked below: two more seconds of the storm after the last
# clear (on a slow guest, a shorter one may hold no exec at all)
sleep 2
for d in . $A $B; do echo 0 > $d/tracing_on; done
touch $STOP
wait
forks=0 n=1
while [ $n -le $WORKERS ]; do
	r=$(cat $STRESS_TMP/worker.$n 2> /dev/null)
	[ -n "$r" ] || check_fail "worker $n did not finish"
	forks=$((forks + ${r:-0}))
	n=$((n + 1))
done
echo "workers: $WORKERS, rounds: $forks (about $((forks * 5 / 4)) forks, $((forks / 2)) execs)"
[ "$forks" -gt 0 ] || check_fail "the workers did nothing"

# What each user traced
check_user() { # dir names what funcs-that-must-appear...
	d=$1 names=$2 what=$3; shift 3
	cp $d/trace $STRESS_TMP/t
	ov=$(buffer_overruns $d)
	GRAPH_HOLES=$ov
	for f in "$@"; do
		c=$(graph_rows $STRESS_TMP/t $f)
		echo "  $what: $c rows of $f"
		[ "$c" -gt 0 ] || check_fail "$what: no $f in the trace"
	done
	graph_ok "$what" $STRESS_TMP/t $names 100
}
check_user . $STRESS_TMP/top.names "top level" kernel_clone copy_process
check_user $A $STRESS_TMP/a.names "$A" kernel_clone bprm_execve
check_user $B $STRESS_TMP/b.names "$B" kernel_clone do_exit

stress_cleanup
summary "$WORKERS workers, ~$((forks * 5 / 4)) forks and ~$((forks / 2)) execs in ${STRESS_SECONDS}s, traced by 3 users; $toggles off/on switches of one user, $clears trace clears"
exit $stress_failed
