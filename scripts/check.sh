#!/usr/bin/env bash
# Boot the kernel in check mode and judge the run: KUnit (parsed with the
# kernel's tools/testing/kunit/kunit.py), ftracetest (its own result lines
# and summary) and the console (panics, BUGs, WARNINGs, lockdep...).
# Non-passes are failures unless tests/known-nonpass/<arch>.txt (that arch
# only; its entry for a test wins) or tests/known-nonpass/common.txt (every
# arch) explains them; under FLAVOR=debug, tests/known-nonpass/debug.txt
# comes first.
# Ends with the line "N passed, N failed, N skipped".
. "$(dirname "$0")/lib.sh"

known=$RUNDIR/known-nonpass.txt	# the lists (known_nonpass in lib.sh)
mkdir -p "$RUNDIR"
known_nonpass > "$known"
# REJUDGE=<boot status> judges the logs of the last run again, without
# booting (for work on this script and on tests/known-nonpass/).
# The debug checkers slow the guest down tenfold and more in the cases
# that trace every function: under FLAVOR=debug, ftracetest runs the
# fgraph cases only, unless FTRACE_CASES says otherwise (a pattern on
# test.d/<dir>/<case>.tc; "*" for all of them).
ft_cases=${FTRACE_CASES:-}
[ -n "$ft_cases" ] || [ -z "$FLAVOR" ] || ft_cases='test.d/*/fgraph-*'
if [ -n "${REJUDGE:-}" ]; then
	boot_rc=$REJUDGE
else
	[ -z "$ft_cases" ] || step "check: ftracetest cases matching $ft_cases"
	KCMDLINE="${KCMDLINE:-}${ft_cases:+ fgcases=$ft_cases}" \
		"$ROOT/scripts/boot.sh" check && boot_rc=0 || boot_rc=$?
fi
console=$RUNDIR/console.log output=$RUNDIR/output.log
# (a guest that never started left no logs: judged as such below)
[ -e "$console" ] || : > "$console"
[ -e "$output" ] || : > "$output"
results=$RUNDIR/results.txt	# suite|test|RESULT, one line per test
judged=$RUNDIR/judged.txt	# suite|test|pass, fail or skip (explained)
: > "$results"
: > "$judged"

# KUnit: built-in suites ran at boot and printed KTAP on the console.
# kunit.py parse exits 1 when a test failed (judged below, per test); any
# other status is a parse failure.
kunit_rc=0
python3 "$SRC/tools/testing/kunit/kunit.py" parse --json="$RUNDIR/kunit.json" \
	< "$console" > "$RUNDIR/kunit.txt" 2>&1 || kunit_rc=$?
if [ -s "$RUNDIR/kunit.json" ]; then
	jq -r '.sub_groups[] | .name as $s | [.. | .test_cases? // empty | .[]] |
		.[] | "kunit:\($s)|\(.name)|\(.status)"' "$RUNDIR/kunit.json" >> "$results"
fi

# ftracetest: "[N] description<TAB>[RESULT]"
tr -d '\r' < "$output" | sed -n 's/^\[[0-9]*\]\( (instance) \)\{0,1\} *\(.*\)\t\[\([A-Z]*\)\]$/ftracetest\1|\2|\3/p' |
	sed 's/^ftracetest (instance) |/ftracetest-instance|/' >> "$results"
ft_total=$(grep -c '^ftracetest' "$results" || true)
# Cases that wedge the guest were not run; they count as explained skips.
grep '^ftracetest|[^|]*|HANG|' "$known" | cut -d'|' -f1-3 >> "$results" || true
ft_summary=$(tr -d '\r' < "$output" | sed -n 's/^# of [a-z()]*: *\([0-9]*\)$/\1/p; s/^# of undefined(test bug): *\([0-9]*\)$/\1/p' |
	awk '{s += $1} END {print s + 0}')

# Mainline 6.12's ftracetest, for tests/guest/mainline-6.12.sh: its
# tools/testing/selftests/ftrace from Debian's linux-source-6.12, packed
# once per version of the package
mainline_tar=
if [ -z "${REJUDGE:-}" ] && [ -f "$ROOT/tests/guest/mainline-6.12.sh" ] &&
	for_arch "$(sed -n 's/^# arches: //p' "$ROOT/tests/guest/mainline-6.12.sh")"; then
	"$ROOT/scripts/setup.sh" 6.12 > /dev/null
	v612=$(. "$ROOT/bases/6.12.conf"; echo "$VERSION")
	mainline_tar=$BUILD/mainline/ftracetest-$v612.tar
	if [ ! -f "$mainline_tar" ]; then
		mkdir -p "$BUILD/mainline/unpack"
		logged "$BUILD/mainline/unpack.log" "check: mainline $v612's ftracetest from linux-source-6.12" \
			tar -xJf "$(. "$ROOT/bases/6.12.conf"; echo "$TARBALL")" -C "$BUILD/mainline/unpack" \
			--strip-components=4 linux-source-6.12/tools/testing/selftests/ftrace
		tar -cf "$mainline_tar.tmp" -C "$BUILD/mainline/unpack" ftrace
		mv "$mainline_tar.tmp" "$mainline_tar"
		rm -rf "$BUILD/mainline/unpack"
	fi
fi

# Scripts of tests/guest/ that need a boot of their own (a kernel command
# line given by a "# kcmdline:" line, a time limit by "# timeout:", the
# arches they are for by "# arches:"): one cmd-mode boot each. The
# ftracetest result lines a script prints are judged as suite <script>.
if [ -z "${REJUDGE:-}" ]; then
	rm -f "$RUNDIR"/guest-*.result "$RUNDIR"/guest-*.log
	for g in "$ROOT"/tests/guest/*.sh; do
		[ -e "$g" ] || continue
		name=$(basename "$g" .sh)
		arches=$(sed -n 's/^# arches: //p' "$g")
		for_arch "$arches" || continue
		gtime=$(sed -n 's/^# timeout: //p' "$g")
		# a HANG entry: not run, a skip with its reason
		if grep -q "^guest|$name|HANG|" "$known"; then
			step "check: tests/guest/$name.sh not run: $(grep "^guest|$name|HANG|" "$known" | head -n 1 | cut -d'|' -f4)"
			echo "guest|$name|HANG" > "$RUNDIR/guest-$name.result"
			continue
		fi
		step "check: tests/guest/$name.sh"
		grc=0
		RUNDIR=$RUNDIR/guest-$name TIMEOUT=${GUEST_TIMEOUT:-$((${gtime:-600} * ${TIME_SCALE:-1} * FLAVOR_TIME_SCALE))} \
			KCMDLINE="${KCMDLINE:-} $(sed -n 's/^# kcmdline: //p' "$g")" \
			GUEST_FILES="${GUEST_FILES:-}${mainline_tar:+ $mainline_tar:/opt/mainline-ftracetest.tar}" \
			"$ROOT/scripts/boot.sh" cmd "$g" > "$RUNDIR/guest-$name.log" 2>&1 || grc=$?
		if [ $grc -eq 0 ]; then
			echo "guest|$name|PASS" > "$RUNDIR/guest-$name.result"
		else
			sed 's/^/    /' "$RUNDIR/guest-$name.log" | tail -n 30
			echo "guest|$name|FAIL" > "$RUNDIR/guest-$name.result"
		fi
	done
fi
cat "$RUNDIR"/guest-*.result >> "$results" 2>/dev/null || true
for l in "$RUNDIR"/guest-*.log; do
	[ -e "$l" ] || continue
	name=$(basename "$l" .log)
	tr -d '\r' < "$l" | sed -n 's/^\[[0-9]*\]\( (instance) \)\{0,1\} *\(.*\)\t\[\([A-Z]*\)\]$/\2|\3/p' |
		sed "s/^/${name#guest-}|/" >> "$results"
done

# Tests of the tooling itself (tests/host/*.sh), run on the host.
for h in "$ROOT"/tests/host/*.sh; do
	[ -e "$h" ] || continue
	name=$(basename "$h" .sh)
	if "$h" > "$RUNDIR/host-$name.log" 2>&1; then
		echo "host|$name|PASS" >> "$results"
	else
		sed 's/^/    /' "$RUNDIR/host-$name.log"
		echo "host|$name|FAIL" >> "$results"
	fi
done

# The short form of make stress (scripts/stress.sh SHORT=1): every
# scenario for a few seconds, in one boot of its own. CHECK_STRESS=0 leaves
# it out (for quick iterations; CI never sets it).
if [ -z "${REJUDGE:-}" ] && [ "${CHECK_STRESS:-1}" != 0 ]; then
	step "check: make stress SHORT=1"
	rm -f "$RUNDIR/stress.result" "$RUNDIR/stress-short/results.txt"
	# its progress lines as it goes, its table at the end
	SHORT=1 RUNDIR=$RUNDIR "$ROOT/scripts/stress.sh" 2>&1 | tee "$RUNDIR/stress.log" |
		grep --line-buffered '^\[' | sed -u 's/^/    /' || true
	# what the failed scenarios printed (stress.sh shows it indented)
	if grep -q '^[a-z0-9_-]* *FAIL ' "$RUNDIR/stress.log"; then
		grep -E '^    ' "$RUNDIR/stress.log" | tail -n 60 || true
	fi
	sed -n '/^scenario /,/^(logs/p' "$RUNDIR/stress.log" | sed 's/^/    /'
	if ! grep -q '^scenario ' "$RUNDIR/stress.log"; then
		tail -n 30 "$RUNDIR/stress.log" | sed 's/^/    /'
		echo "stress|scripts/stress.sh SHORT=1|FAIL" > "$RUNDIR/stress.result"
	else
		sed -n 's/^\([^|]*\)|\([^|]*\)|.*/stress|\1|\2/p' \
			"$RUNDIR/stress-short/results.txt" > "$RUNDIR/stress.result"
	fi
fi
# a run without it leaves no result behind for a later REJUDGE
[ "${CHECK_STRESS:-1}" != 0 ] || rm -f "$RUNDIR/stress.result"
[ "${CHECK_STRESS:-1}" = 0 ] || cat "$RUNDIR/stress.result" >> "$results" 2>/dev/null ||
	echo "stress|scripts/stress.sh SHORT=1|FAIL" >> "$results"

# Judge every result.
passed=0 failed=0 skipped=0 stale=
declare -A row_p row_f row_s
order=
while IFS='|' read -r suite test result; do
	case " $order " in *" $suite "*) ;; *) order="$order $suite" ;; esac
	entry=$(grep -F "$suite|$test|" "$known" 2>/dev/null | grep -v '^#' | head -n 1 || true)
	if [ "$result" = PASS ]; then
		passed=$((passed + 1)); row_p[$suite]=$(( ${row_p[$suite]:-0} + 1 ))
		echo "$suite|$test|pass" >> "$judged"
		# FLAKY entries fail only sometimes: a pass does not make them stale
		case $entry in *"|FLAKY|"*) entry= ;; esac
		[ -z "$entry" ] || stale="$stale\n  $suite: $test (listed as ${entry#*|*|}; it passes now: remove the entry)"
	elif [ -n "$entry" ] && { [ "$(echo "$entry" | cut -d'|' -f3)" = "$result" ] ||
		{ [ "$result" = FAIL ] && [ "$(echo "$entry" | cut -d'|' -f3)" = FLAKY ]; }; }; then
		skipped=$((skipped + 1)); row_s[$suite]=$(( ${row_s[$suite]:-0} + 1 ))
		echo "$suite|$test|skip" >> "$judged"
	else
		failed=$((failed + 1)); row_f[$suite]=$(( ${row_f[$suite]:-0} + 1 ))
		echo "$suite|$test|fail" >> "$judged"
		echo "FAIL: $suite: $test: $result${entry:+ (tests/known-nonpass/ expects $(echo "$entry" | cut -d'|' -f3))}"
		# what the case said: CI keeps no logs but this output
		case $suite in kunit:*)
			tr -d '\r' < "$console" |
				grep -A4 -E "# $test: (EXPECTATION|ASSERTION) FAILED" |
				head -n 40 | sed 's/^[[:space:]]*/    /' ;;
		esac
	fi
done < "$results"

extra_fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
[ -z "$stale" ] || { printf "stale entries in tests/known-nonpass/{common,$ARCH${LIKE:+,$LIKE}${FLAVOR:+,$FLAVOR}}.txt:$stale\n"; extra_fail "tests/known-nonpass/ has stale entries"; }
grep -q '^kunit:' "$results" || extra_fail "no KUnit results on the console (see ${RUNDIR#"$ROOT"/}/kunit.txt)"
[ "$kunit_rc" -le 1 ] || extra_fail "kunit.py parse failed (status $kunit_rc, see ${RUNDIR#"$ROOT"/}/kunit.txt)"
# What must have run: every case of the fgraph KUnit suites (a KTAP "ok"
# or "not ok" line of its own) and every fgraph-*.tc of the tree, whatever
# the console or ftracetest lost.
cases=$(cat "$SRC"/kernel/trace/fgraph_kunit*.c |
	sed -n 's/^[[:space:]]*KUNIT_CASE[A-Z_]*(\([a-z0-9_]*\).*/\1/p')
[ -n "$cases" ] || extra_fail "no KUNIT_CASE found in kernel/trace/fgraph_kunit*.c"
ktap=$(tr -d '\r' < "$console" | sed -n 's/^[[:space:]]*\(not \)\{0,1\}ok [0-9]* \([a-z0-9_]*\).*/\2/p')
for c in $cases; do
	printf '%s\n' "$ktap" | grep -qx "$c" ||
		extra_fail "KUnit case $c (kernel/trace/fgraph_kunit*.c) did not run"
done
for tc in "$SRC"/tools/testing/selftests/ftrace/test.d/*/fgraph-*.tc; do
	# (only those FTRACE_CASES asked for)
	# shellcheck disable=SC2254
	[ -z "$ft_cases" ] || case test.d/${tc#*/test.d/} in $ft_cases) ;; *) continue ;; esac
	desc=$(sed -n 's/^# description: //p' "$tc")
	grep -qF "ftracetest|$desc|" "$results" ||
		extra_fail "${tc##*/} did not run (no result for \"$desc\")"
done
[ "$ft_total" -gt 0 ] || extra_fail "ftracetest produced no results"
[ "$ft_total" = "$ft_summary" ] || extra_fail "ftracetest printed $ft_total result lines but its summary counts $ft_summary (did it finish?)"
case $boot_rc in
0|1) ;;	# ftracetest's own status; judged per test above
125) extra_fail "the kernel reported problems on the console (printed above)" ;;
124) extra_fail "the guest timed out (a hang: see console.log)" ;;
*) extra_fail "the guest run failed (status $boot_rc: 126 QEMU failed, 127 guest stopped early)" ;;
esac

echo
printf '%-40s %6s %6s %7s\n' suite passed failed skipped
# the same numbers for make matrix: "suite passed failed skipped", then
# "all ..." (the verdict, with the extra failures above)
summary=$RUNDIR/summary.txt
: > "$summary"
for s in $order; do
	printf '%-40s %6d %6d %7d\n' "$s" "${row_p[$s]:-0}" "${row_f[$s]:-0}" "${row_s[$s]:-0}"
	echo "$s ${row_p[$s]:-0} ${row_f[$s]:-0} ${row_s[$s]:-0}" >> "$summary"
done
echo "all $passed $failed $skipped" >> "$summary"
echo "boot $boot_rc" >> "$summary"
echo "(skipped = non-pass explained in tests/known-nonpass/{common,$ARCH${LIKE:+,$LIKE}${FLAVOR:+,$FLAVOR}}.txt; logs in ${RUNDIR#"$ROOT"/}/)"
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
