# Helpers for the guest scripts of tests/stress/ (sourced, busybox ash).
# scripts/stress.sh copies this file next to the scenarios in the guest (/cmd). To
# run one scenario by hand:
#   make run CMD=tests/stress/fork-storm.sh GUEST_FILES=tests/stress/lib.sh:/cmd/lib.sh
# Every scenario is bounded by STRESS_SECONDS (default 10) and ends with a
# line "stress-summary: <what it exercised>".

STRESS_SECONDS=${STRESS_SECONDS:-10}
TRACEFS=${TRACEFS:-/sys/kernel/tracing}
STRESS_TMP=${STRESS_TMP:-/tmp/stress.$$}
mkdir -p "$STRESS_TMP"
stress_failed=0

now() { date +%s; }
stress_t0=$(date +%s)
# A progress line with the seconds since the scenario started.
say() { echo "[+$(( $(now) - stress_t0 ))s] $*"; }
deadline_set() { stress_end=$(( $(now) + STRESS_SECONDS )); }
before_deadline() { [ "$(now)" -lt "$stress_end" ]; }

# A failed check: say so, go on (the scenario decides when to stop), and
# make the scenario's exit status nonzero.
check_fail() { echo "FAIL: $*"; stress_failed=1; }
# A failure that leaves nothing worth checking: stop here.
fatal() { echo "FAIL: $*"; stress_cleanup 2> /dev/null; exit 1; }

# Put tracefs directories back: tracer off, no filter, default clock.
reset_tracing() { # tracefs-dir...
	for d; do
		[ -d $d ] || continue
		echo 0 > $d/tracing_on
		echo nop > $d/current_tracer
		echo > $d/set_ftrace_filter
		echo local > $d/trace_clock
		echo 1 > $d/tracing_on
	done
}
summary() { echo "stress-summary: $*"; }

# The prefix of the native system call entry points of the arch, as they
# appear in available_filter_functions: __x64_sys_ on x86_64, and so on;
# sys_ where the arch has no syscall wrappers. (A compat entry such as
# s390's __s390_sys_ may be there too: not the one the tests run.)
SYS=sys_
for p in __x64_sys_ __arm64_sys_ __s390x_sys_ __riscv_sys_ __ia32_sys_; do
	if grep -qx "${p}read" $TRACEFS/available_filter_functions; then
		SYS=$p
		break
	fi
done

# Add each function to a filter file on its own, so that one that does not
# exist (inlined, renamed) does not take the others with it. Prints the
# number added.
add_funcs() { # file func...
	f=$1 n=0; shift
	for fn in "$@"; do
		echo "$fn" >> "$f" 2> /dev/null && n=$((n + 1))
	done
	echo $n
}

# Set the graph options every structure check relies on: the task of each
# row (funcgraph-proc) and the name on each closing row (funcgraph-tail).
graph_opts() { # tracefs-dir
	echo 1 > "$1/options/funcgraph-proc"
	echo 1 > "$1/options/funcgraph-tail"
	echo 0 > "$1/options/funcgraph-abstime"
	echo 1 > "$1/options/funcgraph-cpu"
	echo global > "$1/trace_clock"
}

# Entries the ring buffers of a tracefs dir lost (overwritten): the
# structure check needs a trace without holes.
buffer_overruns() { # tracefs-dir
	cat "$1"/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }'
}

# Check that a function_graph trace is well formed:
#  - every row names a function (an identifier, optionally with .suffixes)
#    that is in the names file (the user's filter);
#  - per task (per CPU for the idle tasks), an entry "f() {" or a leaf
#    "f();" is deeper than the open entry it is nested in (or at its depth:
#    fgraph lowers the task's depth before the return callbacks write the
#    closing row, so an interrupt in that window shows its calls at the
#    depth of the returning function, as in mainline; these "inwindow"
#    rows are counted and must stay under a tenth of all), and a closing
#    row "} /* f */" is at the depth of the innermost open entry and names
#    the same function; a closing row with nothing open (its entry was
#    before the trace began) is shallower than all rows seen before it;
#  - depths are at least 1 and at most maxdepth.
# An idle task may start over at a lower depth after its CPU went offline
# and came back (allow_idle_reset=1). Rows need funcgraph-proc and
# funcgraph-tail, trace_clock global for tasks that move between CPUs.
# Prints "rows=.. open=.. close=.. leaf=.. tasks=.. maxdepth=.. bad=.." and
# up to 10 problems (lines starting with "bad:").
graph_check() { # trace-file names-file maxdepth allow_idle_reset
	awk -v names="$2" -v maxd="$3" -v idle_reset="${4:-0}" '
	BEGIN {
		while ((getline n < names) > 0) {
			sub(/[ \t].*/, "", n)
			if (n != "" && n !~ /^#/)
				ok[n] = 1
		}
	}
	function bad(msg) {
		nbad++
		if (nbad <= 10)
			print "bad: line " NR ": " msg ": " $0
	}
	/^#/ { next }
	!/^ *[0-9]+\) / { next }
	{
		n = split($0, f, "|")
		if (n < 3)
			next
		# CPU and task: " 1)    ping-159    "
		hd = f[1]
		cpu = hd; sub(/^ */, "", cpu); sub(/\).*/, "", cpu)
		task = hd; sub(/^ *[0-9]+\) */, "", task); sub(/ *$/, "", task)
		pid = task; sub(/.*-/, "", pid)
		if (task == "" || pid !~ /^[0-9]+$/) {
			# not a graph row of a task (irq markers...)
			next
		}
		key = (pid == 0) ? "idle/" cpu : pid
		body = f[n]
		for (i = n - 1; i >= 3; i--)	# "|" inside the body: none expected
			body = f[i] "|" body
		if (body !~ /[{};]/ && body !~ /\/\*/)
			next
		match(body, /^ */)
		depth = RLENGTH / 2
		text = substr(body, RLENGTH + 1)
		rows++
		if (depth < 1 || depth > maxd)
			bad("depth " depth " out of range 1.." maxd)
		if (depth > maxdepth)
			maxdepth = depth
		if (!(key in seen)) {
			seen[key] = 1
			low[key] = 1000000
			tasks++
		}
		sp = top[key] + 0
		if (text ~ /^[}] \/\* .* \*\/$/) {
			name = text; sub(/^[}] \/\* /, "", name); sub(/ \*\/$/, "", name)
			closes++
			if (sp == 0) {
				if (depth >= low[key])
					bad("close of " name " at depth " depth " with nothing open, not above the rows before it (" low[key] ")")
			} else if (depth != sd[key, sp]) {
				bad("close of " name " at depth " depth " but " sn[key, sp] " is open at depth " sd[key, sp])
				top[key] = sp - 1
			} else {
				if (name != sn[key, sp])
					bad("close names " name " but the open entry is " sn[key, sp])
				top[key] = sp - 1
				if (win[key] == sp)
					win[key] = 0
			}
		} else if (text ~ /^[^ (]+\(\) [{]$/ || text ~ /^[^ (]+\(\);$/) {
			name = text; sub(/\(.*/, "", name)
			if (sp > 0 && depth == sd[key, sp] && !(idle_reset && pid == 0)) {
				# in the return window of the open entry
				inwin++
				if (!win[key])
					win[key] = sp
			} else if (sp > 0 && depth < sd[key, sp]) {
				if (idle_reset && pid == 0)
					top[key] = sp = 0
				else
					bad(name " at depth " depth " inside " sn[key, sp] " at depth " sd[key, sp])
			}
			if (text ~ /[{]$/) {
				opens++
				top[key] = ++sp
				sd[key, sp] = depth
				sn[key, sp] = name
			} else {
				leaves++
			}
		} else {
			bad("not a graph row")
			next
		}
		if (name !~ /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/)
			bad("garbage function name \"" name "\"")
		else if (!(name in ok))
			bad("function " name " is not in the filter")
		if (depth < low[key])
			low[key] = depth
	}
	END {
		if (inwin * 10 > rows) {
			nbad++
			print "bad: " inwin " of " rows " rows are at the depth of the entry they are in: more than interrupts in return windows explain"
		}
		printf "rows=%d open=%d close=%d leaf=%d tasks=%d maxdepth=%d inwindow=%d bad=%d\n",
			rows, opens, closes, leaves, tasks, maxdepth, inwin, nbad
	}' "$1"
}

# Run graph_check and turn its verdict into a check. Prints one line, and
# sets GRAPH_MAXDEPTH.
# With GRAPH_HOLES set to a nonzero count of entries the ring buffer lost,
# rows may miss their pairs: then only the names and depths are judged.
graph_ok() { # what trace-file names-file maxdepth [allow_idle_reset]
	what=$1; shift
	res=$(graph_check "$@")
	line=$(echo "$res" | tail -n 1)
	GRAPH_MAXDEPTH=$(echo "$line" | sed 's/.*maxdepth=\([0-9]*\).*/\1/')
	echo "  $what: $line"
	case $line in
	*" bad=0") return 0 ;;
	esac
	if [ "${GRAPH_HOLES:-0}" != 0 ]; then
		res=$(echo "$res" | grep -E '^bad: .*(garbage function name|is not in the filter|out of range)')
		echo "  $what: the ring buffer lost ${GRAPH_HOLES} entries: only names and depths judged"
		[ -n "$res" ] || return 0
	fi
	echo "$res" | grep '^bad:' | sed 's/^/    /'
	check_fail "$what: the trace is not well formed"
	return 1
}

# Count rows of a graph trace that call function f (entry or leaf).
graph_rows() { # trace-file func
	grep -c "| *$2()" "$1" || true
}
