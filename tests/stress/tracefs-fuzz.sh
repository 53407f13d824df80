#!/bin/sh
# Stress (f): a bounded, reproducible fuzzer of the fgraph tracefs files.
#
# A seeded generator (STRESS_SEED, printed; same seed, same sequence of
# operations) picks, until STRESS_SECONDS is up, among:
#  - a write of a valid or invalid value to current_tracer,
#    set_graph_function, set_graph_notrace, max_graph_depth,
#    set_ftrace_filter, set_ftrace_notrace, set_ftrace_pid,
#    options/funcgraph-*, function_profile_enabled, trace, graph_overrun
#    of the top level or of an instance;
#  - mkdir and rmdir of instances (rmdir also while function_graph runs);
#  - a file of an instance held open across rmdir of the instance.
# FUZZ_FILLERS instances running function_graph take most of the 16 fgraph
# users (14 and the top level's leave one), so that function_graph and the
# profiler are refused now and then.
# Checks:
#  - a write the value table says is valid succeeds and reads back, an
#    invalid one is refused; every refused write prints an error (counted
#    per file and errno); a refused write changes nothing that reads back;
#  - a function_graph refused for want of users says so in error_log;
#  - rmdir of an instance with one of its files open fails with EBUSY, the
#    instance stays usable, and goes once the file is closed.
# The console (oops, WARN, lockdep...) and hangs are judged by the host.
. "$(dirname "$0")/lib.sh"
cd "$TRACEFS" || exit 1

SEED=${STRESS_SEED:-20260101}
POOL=${FUZZ_POOL:-3}		# instances fz1..fzN the fuzzer makes and removes
FILLERS=${FUZZ_FILLERS:-14}	# instances that hold a function_graph user
STOP=$STRESS_TMP/stop
LOG=$STRESS_TMP/writes		# key result errno, one line per write
E=$STRESS_TMP/err
: > $LOG

stress_cleanup() {
	touch $STOP
	exec 3>&- 3<&-
	echo 0 > function_profile_enabled
	for d in . instances/fz* instances/fill*; do
		[ -d $d ] || continue
		echo nop > $d/current_tracer
		echo > $d/set_ftrace_filter
		echo > $d/set_ftrace_notrace
		echo > $d/set_graph_function
		echo > $d/set_graph_notrace
		echo > $d/set_ftrace_pid
		echo 0 > $d/max_graph_depth
		echo 1 > $d/tracing_on
		[ $d = . ] || rmdir $d
	done
}

# The generator: R = a number in [0, $1)
rnd=$SEED
rand() {
	rnd=$(( (rnd * 1103515245 + 12345) % 2147483648 ))
	R=$(( (rnd / 65536) % $1 ))
}
# P = one of the arguments
pick() {
	rand $#
	shift $R
	P=$1
}

# Keep the function filter of a dir from being empty: an empty filter
# traces every function, far too slow under emulation with many users.
keep_filter() { # dir
	if grep -q '^#### all functions enabled' $1/set_ftrace_filter; then
		echo ksys_read > $1/set_ftrace_filter
		refilters=$((refilters + 1))
	fi
}

# Choose a file of dir $D and a value: F (path), K (key for the counts),
# V (value), M (> or >>), X (ok: must succeed, err: must be refused, fg:
# may be refused for want of fgraph users, any).
choose_write() {
	pick current_tracer set_graph_function set_graph_notrace max_graph_depth \
		set_ftrace_filter set_ftrace_notrace set_ftrace_pid options \
		options function_profile_enabled trace graph_overrun
	K=$P M='>' X=any
	case $K in
	current_tracer)
		rand 7
		case $R in
		0|1|2) V=function_graph X=fg ;;
		3|4) V=nop X=ok ;;
		5) V=no_such_tracer X=err ;;
		6) V='' X=err ;;
		esac ;;
	set_graph_function|set_graph_notrace)
		rand 9
		case $R in
		0) V=vfs_read X=ok ;;
		1) V=ksys_read X=ok M='>>' ;;
		2) V='vfs_write ksys_write' X=ok M='>>' ;;
		3) V='vfs_*' X=ok ;;
		4) V='' X=ok ;;
		5) V=no_such_function_zz X=err M='>>' ;;
		6) V='!vfs_read' X=any M='>>' ;;
		7) V='vfs_read:traceon' X=any M='>>' ;;
		8) V=$(printf '%0300d' 7) X=err M='>>' ;;
		esac ;;
	max_graph_depth)
		rand 8
		case $R in
		0) V=0 X=ok ;;
		1) V=1 X=ok ;;
		2) V=3 X=ok ;;
		3) V=100 X=ok ;;
		4) V=-1 X=err ;;
		5) V=abc X=err ;;
		6) V=99999999999999999999 X=err ;;
		7) V='' X=err ;;
		esac ;;
	set_ftrace_filter)
		# never '>' with an invalid value: the open empties the filter
		rand 8
		case $R in
		0) V=ksys_read X=ok ;;
		1) V='vfs_read ksys_write' X=ok ;;
		2) V=kernel_clone X=ok M='>>' ;;
		3) V='ksys_*' X=ok ;;
		4) V=no_such_function_zz X=err M='>>' ;;
		5) V='ksys_read:bogus_command' X=err M='>>' ;;
		6) V='ksys_write:traceon' X=any M='>>' ;;
		7) V='!ksys_write:traceon' X=any M='>>' ;;
		esac ;;
	set_ftrace_notrace)
		rand 5
		case $R in
		0) V=vfs_write X=ok M='>>' ;;
		1) V='' X=ok ;;
		2) V=no_such_function_zz X=err M='>>' ;;
		3) V='!vfs_write' X=any M='>>' ;;
		4) V='*read*' X=ok M='>>' ;;
		esac ;;
	set_ftrace_pid)
		rand 7
		case $R in
		0) V=$$ X=ok ;;
		1) V=$work X=ok M='>>' ;;
		2) V=99999 X=any ;;
		3) V='' X=ok ;;
		4) V=abc X=err ;;
		5) V=-1 X=err ;;
		6) V="1 $$" X=ok ;;
		esac ;;
	options)
		pick abstime cpu duration irqs overhead overrun proc tail
		K=options/funcgraph-$P
		rand 5
		case $R in
		0|1) V=$R X=ok ;;
		2) V=2 X=err ;;
		3) V=abc X=err ;;
		4) V='' X=err ;;
		esac ;;
	function_profile_enabled)
		if [ $D != . ]; then K=max_graph_depth V=2 X=ok; else
		rand 4
		case $R in
		0) V=0 X=ok ;;
		1) V=1 X=fg ;;
		2) V=abc X=err ;;
		3) V='' X=err ;;
		esac; fi ;;
	trace)
		V='' X=ok ;;
	graph_overrun)
		V=0 X=err ;;
	esac
	F=$D/$K
}

# Write V to F as chosen, judge it, count it.
do_write() {
	# builtins only where every write pays: forks are slow under TCG
	case $K in
	max_graph_depth|options/*|current_tracer|function_profile_enabled)
		read -r before < $F; readback=1 ;;
	*)	readback=0 ;;
	esac
	[ $X != fg ] || elog=$(tail -n 3 $D/error_log)
	if [ "$M" = '>>' ]; then
		echo "$V" 2> $E >> $F
	else
		echo "$V" 2> $E > $F
	fi
	rc=$?
	msg=
	read -r msg < $E
	[ $readback = 0 ] || read -r after < $F
	what="$F <- '$(echo "$V" | cut -c1-40)' ($M)"
	if [ $rc = 0 ]; then
		echo "$K ok -" >> $LOG
		[ -z "$msg" ] || check_fail "$what succeeded but printed: $msg"
		[ $X != err ] || check_fail "$what: an invalid value was accepted"
		case $K in
		max_graph_depth|options/*|current_tracer)
			[ "$after" = "$V" ] || check_fail "$what: reads back '$after'" ;;
		function_profile_enabled)
			[ "$after" = "$V" ] || check_fail "$what: reads back '$after'" ;;
		esac
	else
		errno=$(echo "$msg" | sed -n 's/.*write error: //p; s/.*can.t create.*: //p' | head -n 1)
		echo "$K refused $(echo "${errno:-NONE}" | tr ' ' '_')" >> $LOG
		[ -n "$msg" ] || check_fail "$what was refused without an error"
		[ $X != ok ] || check_fail "$what: a valid value was refused: $msg"
		if [ $X = fg ]; then
			case $msg in
			*"No space left on device"*) ;;
			*) check_fail "$what: refused, but not for want of fgraph users: $msg" ;;
			esac
		fi
		case $K in
		max_graph_depth|options/*|current_tracer|function_profile_enabled)
			[ "$after" = "$before" ] || check_fail "$what: refused, yet it changed from '$before' to '$after'" ;;
		esac
		if [ $K = current_tracer ] && [ $X = fg ]; then
			new=$(tail -n 3 $D/error_log)
			if [ "$new" != "$elog" ] && echo "$new" | grep -q 'function graph users are busy'; then
				elog_lines=$((elog_lines + 1))
			else
				check_fail "$what: refused for want of users, but no error_log line: $new"
			fi
		fi
	fi
	case $K in set_ftrace_filter|set_ftrace_notrace) keep_filter $D ;; esac
}

HOLD='set_graph_function set_graph_notrace max_graph_depth set_ftrace_filter
set_ftrace_notrace set_ftrace_pid current_tracer trace graph_overrun error_log
options/funcgraph-proc options/funcgraph-tail per_cpu/cpu0/trace tracing_on'
# Hold a file of instance $D open across its rmdir.
do_hold() {
	pick $HOLD
	h=$D/$P
	# a failed redirection of exec would end the shell
	[ -e $h ] || { check_fail "$h is missing"; return; }
	case $P in
	graph_overrun|per_cpu/*) exec 3< $h || { check_fail "cannot open $h"; return; } ;;
	*) exec 3>> $h || { check_fail "cannot open $h"; return; } ;;
	esac
	if rmdir $D 2> $E; then
		exec 3>&- 3<&-
		check_fail "rmdir $D succeeded while $P was open"
		return
	fi
	case $(cat $E) in
	*busy*) ;;
	*) check_fail "rmdir $D with $P open failed, but not with EBUSY: $(cat $E)" ;;
	esac
	holds=$((holds + 1))
	# the instance is still there and works
	case $P in
	graph_overrun|per_cpu/*) cat <&3 > /dev/null ;;
	max_graph_depth) echo 2 >&3 ;;
	current_tracer) echo nop >&3 ;;
	options/*|tracing_on) echo 1 >&3 ;;
	set_ftrace_filter) echo ksys_read >&3 ;;
	*) echo >&3 ;;
	esac
	exec 3>&- 3<&-
	[ -d $D ] || check_fail "$D vanished while $P was open"
	keep_filter $D
	rand 2
	if [ $R = 0 ]; then
		rmdir $D 2> $E || check_fail "rmdir $D failed after $P was closed: $(cat $E)"
		rmdirs=$((rmdirs + 1))
	fi
}

stress_cleanup > /dev/null 2>&1
rm -f $STOP
echo "seed $SEED (STRESS_SEED=$SEED reproduces this run), $POOL fuzzed instances, $FILLERS filler users"

# fillers: function_graph users that stay
n=1
while [ $n -le $FILLERS ]; do
	mkdir instances/fill$n || fatal "mkdir instances/fill$n"
	echo ksys_read > instances/fill$n/set_ftrace_filter
	echo function_graph > instances/fill$n/current_tracer || break
	n=$((n + 1))
done
echo ksys_read > set_ftrace_filter

say "$((n - 1)) fillers run function_graph"
iter=0 mkdirs=0 rmdirs=0 rmdirs_fg=0 holds=0 reads=0 elog_lines=0 refilters=0

# The limit once for sure: the fillers, the top level and the profiler
# take the 16 users; function_graph in one more instance must be refused
# (the usual write checks: an errno, ENOSPC, an error_log line).
if [ $((n - 1)) = 14 ]; then
	mkdir instances/fz1 || fatal "mkdir instances/fz1"
	echo ksys_read > instances/fz1/set_ftrace_filter
	echo function_graph > current_tracer || fatal "function_graph refused in the top level with 15 users"
	echo 1 > function_profile_enabled || fatal "the profiler refused as the 16th user"
	D=instances/fz1 K=current_tracer F=instances/fz1/current_tracer V=function_graph X=fg M='>'
	do_write
	tail -n 1 $LOG | grep -q ' refused No_space_left_on_device$' ||
		check_fail "function_graph accepted as the 17th fgraph user: $(tail -n 1 $LOG)"
	echo 0 > function_profile_enabled
	echo nop > current_tracer
	say "17th user refused: $(tail -n 1 $LOG)"
fi
# FUZZ_SECONDS, if given, bounds the fuzzer instead of STRESS_SECONDS
STRESS_SECONDS=${FUZZ_SECONDS:-$STRESS_SECONDS}
deadline_set
# workload: reads, writes, forks
( while [ ! -e $STOP ]; do read -r l < /proc/version; echo x > /dev/null; /bin/true; done ) &
work=$!

while [ $((iter % 8)) != 0 ] || before_deadline; do
	iter=$((iter + 1))
	present=
	i=1
	while [ $i -le $POOL ]; do
		[ -d instances/fz$i ] && present="$present instances/fz$i"
		i=$((i + 1))
	done
	rand 100
	op=$R
	pick . $present
	D=$P
	if [ $op -lt 70 ]; then
		choose_write
		[ -e $F ] || { check_fail "$F is missing"; continue; }
		do_write
	elif [ $op -lt 76 ]; then
		pick trace graph_overrun max_graph_depth set_graph_function set_ftrace_filter error_log
		cat $D/$P > /dev/null 2> $E || check_fail "reading $D/$P failed: $(cat $E)"
		reads=$((reads + 1))
	elif [ $op -lt 84 ]; then
		rand $POOL
		d=instances/fz$((R + 1))
		[ -d $d ] && continue
		mkdir $d 2> $E || { check_fail "mkdir $d failed: $(cat $E)"; continue; }
		echo ksys_read > $d/set_ftrace_filter
		mkdirs=$((mkdirs + 1))
	elif [ $op -lt 90 ]; then
		[ $D = . ] && continue
		[ "$(cat $D/current_tracer)" = function_graph ] && rmdirs_fg=$((rmdirs_fg + 1))
		rmdir $D 2> $E || check_fail "rmdir $D failed: $(cat $E)"
		rmdirs=$((rmdirs + 1))
	else
		[ $D = . ] && continue
		do_hold
	fi
done
touch $STOP
wait $work

echo "$iter operations: $(wc -l < $LOG) writes, $reads reads, $mkdirs mkdir, $rmdirs rmdir ($rmdirs_fg with function_graph running), $holds rmdir refused with a file open, $elog_lines error_log lines checked"
echo "per file: tried ok refused (errno: count)"
awk '{ t[$1]++; if ($2 == "ok") ok[$1]++; else { rf[$1]++; e[$1] = e[$1] " " $3 } }
END {
	for (k in t) {
		split(e[k], a, " "); delete c; s = ""
		for (i in a) c[a[i]]++
		for (x in c) s = s " " x ":" c[x]
		printf "  %-28s %4d %4d %4d %s\n", k, t[k], ok[k], rf[k], s
	}
}' $LOG | sort
refused=$(grep -c ' refused ' $LOG || true)
[ "$refused" -gt 0 ] || check_fail "no write was refused: the fuzzer did not try invalid values"
[ "$(grep -c ' ok ' $LOG)" -gt 0 ] || check_fail "no write succeeded"

stress_cleanup
summary "seed $SEED: $iter ops, $(wc -l < $LOG) writes ($refused refused, each with an errno), $mkdirs mkdir/$rmdirs rmdir ($rmdirs_fg tracing), $holds rmdir EBUSY with a file open, $elog_lines error_log lines"
exit $stress_failed
