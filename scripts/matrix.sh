#!/usr/bin/env bash
# Build and boot the series on each architecture (make matrix): the
# dynamic-ftrace kernel of make cross (configs/guest + configs/cross: the
# boot-time tracer tests, function_graph with 16 users among them, and the
# built-in fgraph KUnit suites) boots in QEMU without a userland; the
# console is judged with kunit.py parse and the console scan of make check.
# The kernel ends with "No working init found", which is expected here.
# Ends with an arch table; fails if a cell that ran did not pass.
#   MATRIX_ARCHES  the qemu/<arch>.conf names (default: all that have a
#                  toolchain and a QEMU)
#   BOOT_TIMEOUT   guest seconds per boot (default 1200)
. "$(dirname "$0")/lib.sh"

conf() { # arch variable
	( unset QEMU NO_QEMU NO_TOOLCHAIN; . "$ROOT/qemu/$1.conf"; eval "echo \"\${$2:-}\"" )
}
arches=${MATRIX_ARCHES:-$(cd "$ROOT/qemu" && ls ./*.conf | sed 's|^\./||; s|\.conf$||')}
out=$BUILD/matrix
res=$out/results.txt	# arch|build|boot|selftest|kunit fgraph|kunit stress|seconds
mkdir -p "$out"
: > "$res"
for a in $arches; do
	reason=$(conf "$a" NO_TOOLCHAIN)
	[ -n "$reason" ] || reason=$(conf "$a" NO_QEMU)
	[ -n "$reason" ] || [ -n "$(conf "$a" QEMU)" ] || reason="no QEMU settings"
	if [ -n "$reason" ]; then
		echo "$a|-|-|-|-|-|0|$reason" >> "$res"
		step "matrix: $a: skipped: $reason"
		continue
	fi
	( . "$ROOT/qemu/$a.conf"
	  command -v "${CROSS_COMPILE}gcc" >/dev/null && command -v "$QEMU" >/dev/null ||
		ARCH=$a "$ROOT/scripts/setup.sh" ) || die "setup for $a failed"
	t=$(date +%s)
	obj=$BUILD/obj/$a-cross-dynamic-$BASE
	step "matrix: $a: build"
	if ! ARCH=$a OBJ=$obj FRAGMENTS="guest cross" "$ROOT/scripts/kernel.sh" \
		> "$out/$a-build.log" 2>&1; then
		tail -n 15 "$out/$a-build.log" | sed 's/^/    /'
		echo "$a|FAIL|-|-|-|-|$(( $(date +%s) - t ))|" >> "$res"
		continue
	fi
	step "matrix: $a: boot (kernel only)"
	console=$out/$a-console.log
	rm -f "$console"
	( . "$ROOT/qemu/$a.conf"
	  # shellcheck disable=SC2086
	  timeout -k 10 "${BOOT_TIMEOUT:-1200}" $QEMU $QEMU_ARGS -accel "${ACCEL:-tcg}" \
		-display none -no-reboot -monitor none -serial "file:$console" \
		-kernel "$obj/$IMAGE" -append "console=$CONSOLE panic=-1 ${BOOT_APPEND:-}" < /dev/null &
	  q=$!
	  # not every firmware can reboot (sparc64's OpenBIOS loops on
	  # "Reboot failed!"): stop the guest once the kernel has panicked
	  while kill -0 $q 2>/dev/null; do
		if grep -qa 'Kernel panic' "$console" 2>/dev/null; then
			sleep 5
			kill $q 2>/dev/null || true
			break
		fi
		sleep 2
	  done
	  wait $q || true
	) > "$out/$a-qemu.log" 2>&1 || true
	boot=FAIL
	grep -q 'No working init found' "$console" 2>/dev/null && boot=ok
	self=FAIL
	grep -q '^Testing tracer function_graph: PASSED' "$console" 2>/dev/null && self=ok
	grep -q '^Testing tracer.*FAILED!\|^FAILED!' "$console" 2>/dev/null && self=FAIL
	python3 "$SRC/tools/testing/kunit/kunit.py" parse --json="$out/$a-kunit.json" \
		< "$console" > "$out/$a-kunit.txt" 2>&1 || true
	k() { # suite: passed/total, then +<n>s if n cases were skipped
		jq -r --arg s "$1" '[.sub_groups[]? | select(.name == $s) |
			[.. | .test_cases? // empty | .[]]] | flatten |
			(map(select(.status == "SKIP")) | length) as $k |
			"\(map(select(.status == "PASS")) | length)/\(length)" +
			(if $k > 0 then "+\($k)s" else "" end)' \
			"$out/$a-kunit.json" 2>/dev/null || echo 0/0
	}
	kf=$(k fgraph) ks=$(k fgraph_stress)
	# the expected end: a panic for want of an init, nothing before it
	problems=$(sed '/No working init found/q' "$console" 2>/dev/null |
		grep -v 'No working init found' | grep -a -E -c "$CONSOLE_BAD" || true)
	[ "$problems" -eq 0 ] || boot="FAIL($problems)"
	echo "$a|ok|$boot|$self|$kf|$ks|$(( $(date +%s) - t ))|" >> "$res"
	step "matrix: $a: boot $boot, function_graph self-test $self, KUnit fgraph $kf, fgraph_stress $ks"
done

echo
printf '%-10s %-6s %-9s %-9s %-13s %-13s %s\n' arch build boot selftest "kunit fgraph" "kunit stress" seconds
failed=0
while IFS='|' read -r a b boot self kf ks t why; do
	printf '%-10s %-6s %-9s %-9s %-13s %-13s %s\n' "$a" "$b" "$boot" "$self" "$kf" "$ks" "$t${why:+  ($why)}"
	[ -n "$why" ] && continue
	ok=1
	[ "$b" = ok ] && [ "$boot" = ok ] && [ "$self" = ok ] || ok=0
	for c in "$kf" "$ks"; do
		# passed + skipped (each with its reason in the console) = total
		tot=${c#*/} sk=0
		case $tot in *+*s) sk=${tot#*+}; sk=${sk%s}; tot=${tot%%+*} ;; esac
		[ $(( ${c%%/*} + sk )) = "$tot" ] && [ "$tot" != 0 ] || ok=0
	done
	[ $ok = 1 ] || failed=$((failed + 1))
done < "$res"
# each skipped KUnit case with its reason
for a in $arches; do
	grep -q "^$a|ok|" "$res" || continue	# not booted in this run
	grep -s '^ *ok [0-9]* .* # SKIP' "$out/$a-console.log" | sed "s/^ */$a: skipped: /" || true
done
echo "(consoles and KUnit reports: build/matrix/<arch>-console.log, <arch>-kunit.txt)"
[ $failed -eq 0 ] || die "matrix: $failed arch(es) did not pass"
step "matrix: all passed"
