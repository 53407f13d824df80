#!/bin/sh
# Stress (d): calls nested deeper than the shadow stack can hold.
#
# The network path of "ping 127.0.0.1" nests some 35 traced functions (the
# send path, then the loopback receive in the softirq run at bh enable, and
# the ICMP reply). A frame of the shadow stack has the same size for one
# function_graph user or sixteen, so 16 users (the top level and 15
# instances, all on the same functions) trace it as deep as one, and lose
# nothing. Deeper than the shadow stack (4 KiB, 99 frames) goes the
# recursion of fg_deep() that the fgraph KUnit code runs in the writer of
# /sys/module/fgraph_kunit/parameters/deep. Then:
#  - each user must count the calls it lost in its graph_overrun file:
#    exactly the calls missing from its trace; and the task's overrun
#    (funcgraph-overrun) must show it;
#  - each user's trace must stay well formed (lib.sh: graph_check);
#  - one more user must be refused with an error and an error_log line;
#  - back to one user, nothing is lost and the full depth is traced again.
# Bounded by STRESS_SECONDS (the 16-user rounds); prints what it exercised.
. "$(dirname "$0")/lib.sh"
cd "$TRACEFS" || exit 1

MIN_DEPTH=${MIN_DEPTH:-20}	# one user must see at least this depth
DEEP=/sys/module/fgraph_kunit/parameters/deep
DEEP_CALLS=200		# nested calls of fg_deep(): more than 99 frames
PREFIX=deep
GLOBS="${SYS}sendto __sys_sendto sock_* inet_* raw_* ip_* __ip_* icmp_*
dev_* __dev_* neigh_* netif_* __netif_* net_rx_action process_backlog
loopback_xmit do_softirq __do_softirq __local_bh_enable_ip skb_* __skb_*
ping_* kmem_cache_* __kmalloc* kmalloc* consume_skb kfree_skb* __alloc_skb
alloc_skb* sk_* __sk_* fib_* dst_* ipv4_* rt_* ip_route* fg_deep"
N=$STRESS_TMP/names

made=0
stress_cleanup() {
	echo 0 > tracing_on
	echo nop > current_tracer
	echo 0 > function_profile_enabled
	i=1
	while [ $i -le $made ]; do
		d=instances/$PREFIX$i
		if [ -d $d ]; then
			echo nop > $d/current_tracer
			rmdir $d
		fi
		i=$((i + 1))
	done
	echo > set_ftrace_filter
	echo 0 > options/funcgraph-overrun
	echo local > trace_clock
	echo 1 > tracing_on
}

setup_user() { # tracefs-dir
	echo 0 > $1/tracing_on
	if [ -s $STRESS_TMP/idx ]; then
		# by index into available_filter_functions: no scan of every
		# function per glob (15 instances of that take minutes)
		cat $STRESS_TMP/idx > $1/set_ftrace_filter
	else
		for g in $GLOBS; do echo "$g" >> $1/set_ftrace_filter 2> /dev/null; done
	fi
	graph_opts $1
	echo 1 > $1/options/funcgraph-overrun
}

# users: the top level and the instances that have function_graph
users() {
	echo .
	i=1
	while [ $i -le $made ]; do
		d=instances/$PREFIX$i
		[ "$(cat $d/current_tracer 2> /dev/null)" = function_graph ] && echo $d
		i=$((i + 1))
	done
}

pings=0
USERS=.
ping_round() { # count
	for d in $USERS; do echo > $d/trace; echo 1 > $d/tracing_on; done
	ping -q -c $1 -i 0.2 127.0.0.1 > /dev/null || check_fail "ping 127.0.0.1 failed"
	pings=$((pings + $1))
	for d in $USERS; do echo 0 > $d/tracing_on; done
}

deadline_set
stress_cleanup > /dev/null 2>&1
echo 0 > function_profile_enabled

# One user: the path is deep, nothing is lost.
setup_user .
cat set_ftrace_filter > $N
awk 'NR == FNR { want[$1] = 1; next } ($1 in want) { print FNR }' $N available_filter_functions > $STRESS_TMP/idx
echo "filter: $(wc -l < $N) network functions"
grep -qx ip_output $N || fatal "ip_output is not traceable: the path of this test is missing"
echo function_graph > current_tracer || fatal "cannot select function_graph"
ping_round 3
cp trace $STRESS_TMP/one.trace
GRAPH_HOLES=$(buffer_overruns .)
lost1=$(cat graph_overrun)
graph_ok "one user" $STRESS_TMP/one.trace $N 1000
d1=$GRAPH_MAXDEPTH
say "one user: max depth $d1, graph_overrun $lost1"
[ "$lost1" = 0 ] || check_fail "one user lost $lost1 calls of a path that fits in the shadow stack"
[ "$d1" -ge "$MIN_DEPTH" ] || fatal "one user traced only depth $d1 (< $MIN_DEPTH): the path is not deep enough for this test"

# Up to 16 users: the top level and instances until the kernel refuses.
refused=
while [ $made -lt 20 ]; do
	made=$((made + 1))
	d=instances/$PREFIX$made
	mkdir $d || fatal "mkdir $d failed"
	setup_user $d
	cmp -s $N $d/set_ftrace_filter || fatal "$d did not get the filter of the top level"
	tail1=$(tail -n 2 $d/error_log)
	if ! echo function_graph 2> $STRESS_TMP/err > $d/current_tracer; then
		refused=$d
		break
	fi
done
USERS=$(users)
nusers=$(echo $USERS | wc -w)
say "function_graph users: $nusers (top level and $((nusers - 1)) instances)"
[ -n "$refused" ] || fatal "function_graph was never refused: no limit on users"
[ "$nusers" -eq 16 ] || check_fail "$nusers users got function_graph, 16 expected"

# limit + 1: refused with an error, said in error_log, left as nop
msg=$(cat $STRESS_TMP/err)
echo "user $((nusers + 1)) refused: $msg"
[ -n "$msg" ] || check_fail "the refusal of user $((nusers + 1)) gave no error message"
[ "$(cat $refused/current_tracer)" = nop ] || check_fail "the refused instance has $(cat $refused/current_tracer)"
grep -q 'function graph users are busy' $refused/error_log ||
	check_fail "no error_log line for the refused function_graph: $(cat $refused/error_log)"
[ "$(tail -n 2 $refused/error_log)" != "$tail1" ] || check_fail "error_log did not change"
if echo 1 2> $STRESS_TMP/err > function_profile_enabled; then
	check_fail "function_profile_enabled accepted with all fgraph users taken"
	echo 0 > function_profile_enabled
else
	echo "profiler refused: $(cat $STRESS_TMP/err)"
fi
rmdir $refused

# 16 users on the network path, until the deadline: it fits as for one.
rounds=0
while before_deadline || [ $rounds -lt 2 ]; do
	ping_round 1
	rounds=$((rounds + 1))
done
say "16 users: $rounds rounds, $pings pings in all"
maxd16=0
for d in $USERS; do
	lost=$(cat $d/graph_overrun)
	cp $d/trace $STRESS_TMP/t
	GRAPH_HOLES=$(buffer_overruns $d)
	[ "$(graph_rows $STRESS_TMP/t ${SYS}sendto)" -gt 0 ] ||
		check_fail "$d: no ${SYS}sendto in its trace (the user traced nothing?)"
	graph_ok "$d (graph_overrun $lost)" $STRESS_TMP/t $N 1000
	md=$GRAPH_MAXDEPTH
	[ "$md" -gt "$maxd16" ] && maxd16=$md
	[ "$lost" = 0 ] || check_fail "$d lost $lost calls of a path one user traces whole"
	# (one ping may take a level more or less than another)
	[ "$md" -ge $((d1 - 2)) ] || check_fail "$d traced depth $md with 16 users, one user $d1: frames grow with users"
done
say "16 users on the network path: max depth $maxd16 (one user: $d1), nothing lost"

# 16 users on a recursion deeper than the shadow stack
[ -w $DEEP ] || fatal "no $DEEP (CONFIG_FGRAPH_KUNIT_TEST=y): cannot nest calls deeper than the shadow stack"
for d in $USERS; do echo > $d/trace; echo 1 > $d/tracing_on; done
for d in $USERS; do before=$(cat $d/graph_overrun); echo $before > $STRESS_TMP/lost.$(echo $d | tr / _); done
echo $DEEP_CALLS > $DEEP || check_fail "write of $DEEP_CALLS to $DEEP failed"
for d in $USERS; do echo 0 > $d/tracing_on; done
ran=$(cat $DEEP)
say "fg_deep(): $ran nested calls (asked for $DEEP_CALLS)"
lost_users=0 lost_sum=0 maxdd=0 fits=
if [ "$ran" -le 120 ] && [ "$ran" -lt "$DEEP_CALLS" ]; then
	# large frames (MIPS in 8 KiB) fill the kernel stack first: then
	# every user must trace all of the calls and lose none
	say "only $ran nested calls fit on this kernel stack: each user must trace them all"
	fits=1
elif [ "$ran" -le 120 ]; then
	fatal "only $ran nested calls of fg_deep() ran: not deeper than the shadow stack"
fi
for d in $USERS; do
	before=$(cat $STRESS_TMP/lost.$(echo $d | tr / _))
	lost=$(($(cat $d/graph_overrun) - before))
	cp $d/trace $STRESS_TMP/t
	GRAPH_HOLES=$(buffer_overruns $d)
	graph_ok "$d (deep: graph_overrun +$lost)" $STRESS_TMP/t $N 1000
	rows=$(graph_rows $STRESS_TMP/t fg_deep)
	md=$GRAPH_MAXDEPTH
	[ "$md" -gt "$maxdd" ] && maxdd=$md
	[ "$lost" -gt 0 ] && lost_users=$((lost_users + 1))
	lost_sum=$((lost_sum + lost))
	[ "$rows" -gt 0 ] || check_fail "$d: no fg_deep in its trace"
	if [ -n "$fits" ]; then
		[ "$lost" = 0 ] || check_fail "$d lost $lost calls of $ran that fit in a shadow stack"
		# (an interrupt that comes in near the deepest call holds a few frames)
		[ "$rows" -ge $((ran - 4)) ] || check_fail "$d traced $rows of the $ran nested calls"
		continue
	fi
	# (an interrupt that came in may have lost calls of its own too)
	[ "$GRAPH_HOLES" = 0 ] && [ $((rows + lost)) -lt "$ran" ] &&
		check_fail "$d: $rows calls of fg_deep traced + $lost lost < $ran calls: calls lost silently"
	[ "$rows" -lt "$ran" ] || check_fail "$d: all $ran nested calls traced: deeper than the shadow stack?"
done
if [ -z "$fits" ]; then
	over=$(grep -o 'Overruns: [0-9]*' trace | sed 's/Overruns: //' | sort -n | tail -n 1)
	say "16 users, $ran nested calls: $lost_users of $nusers lost calls, $lost_sum lost in all; max depth $maxdd; task overruns shown up to ${over:-none}"
	[ "$lost_users" -eq "$nusers" ] || check_fail "only $lost_users of $nusers users counted lost calls in graph_overrun"
	[ "${over:-0}" -gt 0 ] || check_fail "funcgraph-overrun shows no overrun of the task"
	deep="$ran nested calls: all $lost_users lost calls ($lost_sum), max depth $maxdd"
else
	deep="$ran nested calls (all the kernel stack holds) traced whole by each user, max depth $maxdd"
fi

# Back to one user: nothing lost, full depth again.
i=1
while [ $i -le $made ]; do
	d=instances/$PREFIX$i
	if [ -d $d ]; then echo nop > $d/current_tracer; rmdir $d || check_fail "rmdir $d"; fi
	i=$((i + 1))
done
echo nop > current_tracer
echo function_graph > current_tracer || fatal "cannot select function_graph again"
made=0 USERS=.
ping_round 3
cp trace $STRESS_TMP/again.trace
GRAPH_HOLES=$(buffer_overruns .)
lost3=$(cat graph_overrun)
graph_ok "one user again" $STRESS_TMP/again.trace $N 1000
d3=$GRAPH_MAXDEPTH
say "one user again: max depth $d3, graph_overrun $lost3"
[ "$lost3" = 0 ] || check_fail "one user lost $lost3 calls after the others left"
[ "$d3" -ge "$MIN_DEPTH" ] || check_fail "one user traced only depth $d3 after the others left"

stress_cleanup
summary "$pings pings on a depth-$d1 path; 16 users: $rounds rounds, depth $maxd16, 0 lost; $deep; user 17 refused; one user again: depth $d3, 0 lost"
exit $stress_failed
