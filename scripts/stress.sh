#!/usr/bin/env bash
# Stress the multi-user function graph tracer in the guest (make stress).
#   kunit         (a) 16 users registering/unregistering on every CPU, then
#                 limit+1, and (e) a task asleep in a traced function across
#                 unregister and slot reuse: the KUnit suite fgraph_stress,
#                 run at boot for fgraph_kunit.stress_ms, judged with the
#                 kernel's kunit.py
#   fork-storm    (b) fork/exec storm traced in the top level and 2 instances
#   cpu-hotplug   (c) CPU 1 offline/online in a loop while tracing
#   deep-stack    (d) calls deeper than the shadow stack holds (16 users)
#   tracefs-fuzz  (f) seeded fuzzer of the fgraph tracefs files
# The guest scenarios are tests/stress/<name>.sh (with tests/stress/lib.sh),
# run by tests/stress/run.sh. Ends with a table (scenario, result, seconds,
# what it exercised); exits nonzero if any failed. Variables:
#   SHORT=1          a few seconds each, all in one boot (for make check)
#   STRESS_SECONDS   seconds per guest scenario (default 60, SHORT: 6)
#   FUZZ_SECONDS     seconds of the fuzzer (default STRESS_SECONDS, SHORT: 20)
#   KUNIT_STRESS_MS  fgraph_kunit.stress_ms (default 60000, SHORT: 3000)
#   STRESS_SEED      the fuzzer's seed (it prints the one it used)
#   SCENARIOS        which to run, in order (default: all of the above)
#   FLAVOR=debug     the debug kernel (longer timeouts: FLAVOR_TIME_SCALE)
. "$(dirname "$0")/lib.sh"

ALL="kunit fork-storm cpu-hotplug deep-stack tracefs-fuzz"
SCENARIOS=${SCENARIOS:-$ALL}
if [ -n "${SHORT:-}" ]; then
	secs=${STRESS_SECONDS:-6} kunit_ms=${KUNIT_STRESS_MS:-3000} mode=short
	# a fuzzer operation costs about a second under TCG (each accepted
	# function_graph patches code): give it enough for a few dozen
	fuzz_secs=${FUZZ_SECONDS:-20}
else
	secs=${STRESS_SECONDS:-60} kunit_ms=${KUNIT_STRESS_MS:-60000} mode=long
	fuzz_secs=${FUZZ_SECONDS:-$secs}
fi
base=$RUNDIR/stress-$mode
mkdir -p "$base"
[ -f "$OBJ/$IMAGE" ] || die "no kernel at ${OBJ#"$ROOT"/}/$IMAGE: build it first (make kernel)"
results=$base/results.txt	# name|PASS/FAIL|seconds|what
: > "$results"
step "stress: $mode, scenarios: $SCENARIOS; ${secs}s per guest scenario, KUnit stress ${kunit_ms} ms${FLAVOR:+, $FLAVOR kernel}"

result() { # name result seconds what
	echo "$1|$2|$3|$4" >> "$results"
	step "stress: $1: $2 (${3}s) $4"
}

# The KUnit part of one boot's console: fgraph_stress, if the kernel has it.
judge_kunit() { # rundir boot-seconds boot-status
	local dir=$1 t=$2 brc=$3 krc=0 what
	if ! grep -q '# Subtest: fgraph_stress' "$dir/console.log"; then
		result kunit FAIL "$t" "not run: no fgraph_stress suite in this kernel"
		return
	fi
	python3 "$SRC/tools/testing/kunit/kunit.py" parse < "$dir/console.log" \
		> "$dir/kunit.txt" 2>&1 || krc=$?
	what=$({ grep -o 'Ran [0-9]* tests.*' "$dir/kunit.txt" || true; } | tail -n 1)
	what="fgraph_stress, stress_ms=$kunit_ms: ${what:-no summary from kunit.py}"
	if [ "$krc" -ne 0 ]; then
		grep -E '\[(FAILED|CRASHED)\]|# .*(fail|Expected)' "$dir/kunit.txt" | head -n 20 | sed 's/^/    /'
		result kunit FAIL "$t" "$what (kunit.py status $krc, see ${dir#"$ROOT"/}/kunit.txt)"
	elif [ "$brc" -eq 125 ]; then
		result kunit FAIL "$t" "$what; the console shows a kernel problem (see ${dir#"$ROOT"/}/console.log)"
	else
		result kunit PASS "$t" "$what"
	fi
}

# One boot: the KUnit stress suite (if "kunit" is among the names) and the
# guest scenarios among them, in order.
boot_scenarios() { # name...
	local name=$*; name=${name// /+}
	local dir=$base/$name guest= kc= files t brc s
	for s in "$@"; do
		[ "$s" = kunit ] || guest="$guest${guest:+,}$s"
	done
	case " $* " in
	*" kunit "*) kc="fgraph_kunit.stress_ms=$kunit_ms kunit.filter_glob=fgraph_stress*" ;;
	*) kc="kunit.filter_glob=none_at_all" ;;	# no KUnit run: a shorter boot
	esac
	files="$ROOT/tests/stress/lib.sh:/cmd/lib.sh"
	for s in ${guest//,/ }; do
		[ -f "$ROOT/tests/stress/$s.sh" ] || die "no scenario tests/stress/$s.sh"
		files="$files $ROOT/tests/stress/$s.sh:/cmd/$s.sh"
	done
	# boot (about 1-2 min under TCG), the KUnit stress, each scenario
	# with its setup and checks; the debug flavour is slower
	local n=$(( $(echo "${guest//,/ }" | wc -w) ))
	local timeout=$(( 300 + kunit_ms / 1000 * 3 + fuzz_secs * 2 + n * (secs * 2 + 240) ))
	timeout=$((timeout * FLAVOR_TIME_SCALE))
	timeout=$((timeout * ${TIME_SCALE:-1}))
	step "stress: boot for $*"
	t=$(date +%s)
	mkdir -p "$dir"
	set +e
	RUNDIR=$dir TIMEOUT=${STRESS_TIMEOUT:-$timeout} GUEST_FILES="${GUEST_FILES:-} $files" \
		KCMDLINE="${KCMDLINE:-} $kc STRESS_SCENARIOS=$guest STRESS_SECONDS=$secs FUZZ_SECONDS=$fuzz_secs${STRESS_SEED:+ STRESS_SEED=$STRESS_SEED}" \
		"$ROOT/scripts/boot.sh" cmd "$ROOT/tests/stress/run.sh" 2>&1 |
		tee "$dir/boot.log" | sed -u 's/^/    /'
	brc=${PIPESTATUS[0]}
	set -e
	t=$(( $(date +%s) - t ))
	case " $* " in *" kunit "*) judge_kunit "$dir" "$t" "$brc" ;; esac
	local problem=
	case $brc in
	0|1) ;;
	125) problem="the kernel reported problems on the console (oops/WARN/lockdep...)" ;;
	124) problem="the guest timed out after ${STRESS_TIMEOUT:-$timeout}s (a hang?)" ;;
	*) problem="the guest run failed (boot.sh status $brc)" ;;
	esac
	[ -z "$problem" ] || { { grep -A 14 -E "$CONSOLE_BAD" "$dir/console.log" || true; } | head -n 40 | sed 's/^/    /'; step "stress: $problem; console: ${dir#"$ROOT"/}/console.log"; }
	for s in ${guest//,/ }; do
		local line res secs_s what
		line=$(tr -d '\r' < "$dir/output.log" | grep "^stress-result: $s " | tail -n 1) || true
		if [ -z "$line" ]; then
			tr -d '\r' < "$dir/output.log" | sed -n "/^=== stress: $s\$/,\$p" | tail -n 20 | sed 's/^/    /' || true
			result "$s" FAIL "?" "did not finish${problem:+: $problem}"
			continue
		fi
		read -r _ _ res secs_s what <<< "$line"
		if [ "$res" = PASS ] && [ -n "$problem" ]; then
			res=FAIL what="$what; $problem"
		fi
		if [ "$res" != PASS ]; then
			tr -d '\r' < "$dir/output.log" | sed -n "/^=== stress: $s\$/,/^stress-result: $s /p" |
				grep -E '^(FAIL|  |    bad)' | head -n 30 | sed 's/^/    /' || true
		fi
		result "$s" "$res" "$secs_s" "$what"
	done
}

if [ "$mode" = short ]; then
	# A boot costs more than all the short scenarios: one for all.
	# shellcheck disable=SC2086
	boot_scenarios $SCENARIOS
else
	for s in $SCENARIOS; do
		boot_scenarios "$s"
	done
fi

echo
printf '%-14s %-6s %7s  %s\n' scenario result seconds "what it exercised"
failed=0
while IFS='|' read -r name res t what; do
	printf '%-14s %-6s %7s  %s\n' "$name" "$res" "$t" "$what"
	[ "$res" = PASS ] || failed=$((failed + 1))
done < "$results"
echo "(logs in ${base#"$ROOT"/}/)"
[ "$failed" -eq 0 ] || die "stress: $failed scenario(s) failed"
step "stress: all passed"
