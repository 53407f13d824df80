#!/usr/bin/env bash
# Build and boot the series on each architecture in turn (make matrix),
# one table at the end:
#  - an arch with a Debian userland gets make check's run
#    (scripts/check.sh, same kernel and object directory as
#    make check ARCH=<arch>): KUnit and the boot-time tracer tests at
#    boot, then ftracetest, the guest tests and the fork storm of
#    make stress, judged with tests/known-nonpass/;
#  - an arch without one (NO_USERLAND in qemu/<arch>.conf) boots the
#    dynamic-ftrace kernel of make cross (same object directory) without
#    a userland (scripts/boot.sh kernel): the boot-time tracer tests
#    (function_graph with 16 users among them) and the built-in KUnit
#    suites run, then the kernel stops with "No working init found",
#    which is expected there.
# Columns: build; boot (a clean console); the function_graph boot-time
# self-test; the fgraph and fgraph_stress KUnit suites (passed/total,
# +Ns for cases skipped with their reason); ftracetest (passed/total,
# +Ns for non-passes tests/known-nonpass/ explains); the unwinder (the
# KUnit case fgraph_test_unwind, and fgraph-unwind.tc through tracefs);
# the fork storm; seconds. Fails if a cell that ran did not pass.
#   MATRIX_ARCHES  the qemu/<arch>.conf names (default: all)
#   MATRIX_CASES   ftracetest cases of a check run (FTRACE_CASES of
#                  make check; default: the fgraph cases, test.d/*/fgraph-*,
#                  as CI runs arm64: the whole suite takes 20-40 min per
#                  arch here; '*' for all of it)
#   MATRIX_STRESS  make stress scenarios of a check run (default
#                  fork-storm)
#   BOOT_TIMEOUT   guest seconds per kernel-only boot (default 1200)
. "$(dirname "$0")/lib.sh"

arches=${MATRIX_ARCHES:-$(all_arches)}
out=$BUILD/matrix
# arch|build|boot|selftest|kunit fgraph|kunit stress|ftracetest|unwinder|fork storm|seconds|note
res=$out/results.txt
mkdir -p "$out"
: > "$res"

# passed/total of a KUnit suite in a kunit.py JSON report, then +<n>s if
# n cases were skipped
kunit_cell() { # json suite
	jq -r --arg s "$2" '[.sub_groups[]? | select(.name == $s) |
		[.. | .test_cases? // empty | .[]]] | flatten |
		(map(select(.status == "SKIP")) | length) as $k |
		"\(map(select(.status == "PASS")) | length)/\(length)" +
		(if $k > 0 then "+\($k)s" else "" end)' "$1" 2>/dev/null || echo 0/0
}
# the status of one KUnit case (PASS, FAIL, SKIP, or nothing)
kunit_case() { # json case
	jq -r --arg c "$2" '[.. | .test_cases? // empty | .[] | select(.name == $c) |
		.status] | first // empty' "$1" 2>/dev/null || true
}

kernel_only() { # arch: build and boot make cross's kernel without a userland
	local a=$1 t=$2 obj=$BUILD/obj/$1-cross-dynamic-$BASE console=$out/$1-console.log
	local rundir=$BUILD/run/$1-cross-dynamic-$BASE
	step "matrix: $a: build (make cross's dynamic kernel)"
	if ! ARCH=$a OBJ=$obj FRAGMENTS="guest cross" "$ROOT/scripts/kernel.sh" \
		> "$out/$a-build.log" 2>&1; then
		tail -n 15 "$out/$a-build.log" | sed 's/^/    /'
		echo "$a|FAIL|-|-|-|-|-|-|-|$(( $(date +%s) - t ))|" >> "$res"
		return
	fi
	step "matrix: $a: boot (kernel only: $(arch_conf "$a" NO_USERLAND))"
	rm -f "$console"
	local boot=FAIL rc=0 self kf ks uw problems
	ARCH=$a OBJ=$obj RUNDIR=$rundir TIMEOUT=${BOOT_TIMEOUT:-1200} \
		"$ROOT/scripts/boot.sh" kernel > "$out/$a-boot.log" 2>&1 || rc=$?
	cp "$rundir/console.log" "$console" 2>/dev/null || true
	[ $rc -eq 0 ] && boot=ok
	self=$(selftest_cell "$console")
	python3 "$SRC/tools/testing/kunit/kunit.py" parse --json="$out/$a-kunit.json" \
		< "$console" > "$out/$a-kunit.txt" 2>&1 || true
	kf=$(kunit_cell "$out/$a-kunit.json" fgraph)
	ks=$(kunit_cell "$out/$a-kunit.json" fgraph_stress)
	uw=$(kunit_case "$out/$a-kunit.json" fgraph_test_unwind)
	case $uw in PASS) uw=ok ;; SKIP) uw=skip ;; *) uw=FAIL ;; esac
	# boot.sh found problems before the kernel looked for an init: how many
	if [ $rc -eq 125 ]; then
		problems=$(sed '/No working init found/q' "$console" |
			grep -av 'No working init found' | grep -a -E -c "$CONSOLE_BAD" || true)
		boot="FAIL($problems)"
	fi
	echo "$a|ok|$boot|$self|$kf|$ks|-|$uw|-|$(( $(date +%s) - t ))|no userland: ftracetest, tracefs unwinder and fork storm not run" >> "$res"
	step "matrix: $a: boot $boot, function_graph self-test $self, KUnit fgraph $kf, fgraph_stress $ks, unwind case $uw"
}

with_userland() { # arch: make check's kernel and run
	local a=$1 t=$2 rundir=$BUILD/run/$1-$VARIANT-$BASE
	step "matrix: $a: userland and build (make check's kernel)"
	if ! ARCH=$a "$ROOT/scripts/userland.sh" > "$out/$a-build.log" 2>&1; then
		tail -n 5 "$out/$a-build.log" | sed 's/^/    /'
		echo "$a|FAIL|-|-|-|-|-|-|-|$(( $(date +%s) - t ))|no userland (see build/matrix/$a-build.log)" >> "$res"
		return
	fi
	if ! ARCH=$a "$ROOT/scripts/kernel.sh" >> "$out/$a-build.log" 2>&1; then
		tail -n 15 "$out/$a-build.log" | sed 's/^/    /'
		echo "$a|FAIL|-|-|-|-|-|-|-|$(( $(date +%s) - t ))|" >> "$res"
		return
	fi
	step "matrix: $a: make check (ftracetest cases ${MATRIX_CASES:-test.d/*/fgraph-*}), stress: ${MATRIX_STRESS:-fork-storm}"
	local rc=0
	# nothing of an earlier run may fill a cell
	rm -f "$rundir"/{summary.txt,judged.txt,results.txt,kunit.json,console.log,output.log}
	ARCH=$a CHECK_STRESS=1 FTRACE_CASES=${MATRIX_CASES:-test.d/*/fgraph-*} SCENARIOS=${MATRIX_STRESS:-fork-storm} \
		"$ROOT/scripts/check.sh" > "$out/$a-check.log" 2>&1 || rc=$?
	grep -E '^FAIL: |^stale' "$out/$a-check.log" | sed 's/^/    /' || true
	cp "$rundir/console.log" "$out/$a-console.log" 2>/dev/null || true
	local json=$rundir/kunit.json boot=ok self kf ks ft uw fs
	# the check boot: its guest finished, its console was clean
	grep -q '^fgraph-guest: done' "$rundir/output.log" 2>/dev/null || boot=FAIL
	[ "$(sed -n 's/^boot //p' "$rundir/summary.txt" 2>/dev/null)" = 0 ] ||
		[ "$(sed -n 's/^boot //p' "$rundir/summary.txt" 2>/dev/null)" = 1 ] || boot=FAIL
	self=$(selftest_cell "$rundir/console.log")
	kf=$(kunit_cell "$json" fgraph)
	ks=$(kunit_cell "$json" fgraph_stress)
	# ftracetest, top level and instances: passed/total, +Ns explained
	ft=$(awk '$1 ~ /^ftracetest/ { p += $2; f += $3; s += $4 }
		END { printf "%d/%d%s", p, p + f + s, s ? "+" s "s" : "" }' "$rundir/summary.txt" 2>/dev/null || true)
	# the unwinder: the KUnit case and the tracefs case, as make check
	# judged them (pass, or a skip with its reason)
	uw=$(kunit_case "$json" fgraph_test_unwind)
	if { [ "$uw" = PASS ] || [ "$uw" = SKIP ]; } &&
	   grep -q '^ftracetest|ftrace - stack unwinding shows real callers with several fgraph users|\(pass\|skip\)$' \
		"$rundir/judged.txt" 2>/dev/null; then
		uw=ok
	else
		uw=FAIL
	fi
	fs=FAIL
	grep -q '^stress|fork-storm|pass$' "$rundir/judged.txt" 2>/dev/null && fs=ok
	case " ${MATRIX_STRESS:-fork-storm} " in *" fork-storm "*) ;; *) fs=- ;; esac
	local note=
	[ $rc -eq 0 ] || note="make check: $(tail -n 1 "$out/$a-check.log")"
	echo "$a|ok|$boot|$self|$kf|$ks|${ft:-0/0}|$uw|$fs|$(( $(date +%s) - t ))|$note" >> "$res"
	step "matrix: $a: $(tail -n 1 "$out/$a-check.log"); ftracetest $ft, unwinder $uw, fork storm $fs"
}

for a in $arches; do
	reason=$(arch_conf "$a" NO_TOOLCHAIN)
	[ -n "$reason" ] || reason=$(arch_conf "$a" NO_QEMU)
	[ -n "$reason" ] || [ -n "$(arch_conf "$a" QEMU)" ] || reason="no QEMU settings"
	if [ -n "$reason" ]; then
		echo "$a|-|-|-|-|-|-|-|-|0|not run: $reason" >> "$res"
		step "matrix: $a: skipped: $reason"
		continue
	fi
	command -v "$(arch_conf "$a" CROSS_COMPILE)gcc" >/dev/null &&
		command -v "$(arch_conf "$a" QEMU)" >/dev/null ||
		ARCH=$a "$ROOT/scripts/setup.sh" || die "setup for $a failed"
	if [ -n "$(arch_conf "$a" NO_USERLAND)" ]; then
		kernel_only "$a" "$(date +%s)"
	else
		with_userland "$a" "$(date +%s)"
	fi
done

echo
fmt='%-9s %-5s %-8s %-8s %-9s %-8s %-11s %-8s %-6s %s\n'
# shellcheck disable=SC2059
printf "$fmt" arch build boot selftest "kunit" "kstress" ftracetest unwinder fork seconds
failed=0
while IFS='|' read -r a b boot self kf ks ft uw fs t note; do
	# shellcheck disable=SC2059
	printf "$fmt" "$a" "$b" "$boot" "$self" "$kf" "$ks" "$ft" "$uw" "$fs" "$t${note:+  ($note)}"
	[ "$b" = - ] && continue	# not run, with its reason
	ok=1
	[ "$b" = ok ] && [ "$boot" = ok ] && [ "$self" = ok ] || ok=0
	case $uw in ok|skip) ;; *) ok=0 ;; esac
	case $fs in ok|-) ;; *) ok=0 ;; esac
	case $note in "make check:"*) ok=0 ;; esac
	for c in "$kf" "$ks" "$ft"; do
		[ "$c" = - ] && continue
		# passed + skipped (each with its reason) = total
		tot=${c#*/} sk=0
		case $tot in *+*s) sk=${tot#*+}; sk=${sk%s}; tot=${tot%%+*} ;; esac
		[ $(( ${c%%/*} + sk )) = "$tot" ] && [ "$tot" != 0 ] || ok=0
	done
	[ $ok = 1 ] || failed=$((failed + 1))
done < "$res"
# each skipped KUnit case with its reason (arches booted in this run)
for a in $arches; do
	grep -q "^$a|ok|" "$res" || continue
	grep -s '^ *ok [0-9]* .* # SKIP' "$out/$a-console.log" | sed "s/^ */$a: skipped: /" || true
done
echo "(kunit: the fgraph suite, kstress: fgraph_stress; logs: build/matrix/<arch>-*.log, make check's in build/run/<arch>-$VARIANT-$BASE/)"
[ $failed -eq 0 ] || die "matrix: $failed arch(es) did not pass"
step "matrix: all passed"
