#!/usr/bin/env bash
# Build the series for several architectures in both ftrace modes (make
# cross): "dynamic" (configs/guest + configs/cross: the tracers, the
# boot-time tracer tests and the fgraph KUnit suite) and "static" (the
# same with configs/static.config: no dynamic ftrace, so the arch's
# _mcount tests the graph hooks itself). Each build is scripts/kernel.sh
# in build/obj/<arch>-cross-<mode>-<base>, except the dynamic kernel of
# an arch with a Debian userland: that is make check's kernel (its
# fragments hold all of configs/cross), built in make check's object
# directory, so that make matrix and make check find it built
# (CROSS_OWN_DYNAMIC in qemu/<arch>.conf keeps make cross's own). The
# tracing code and the
# arch's ftrace/mcount/entry code are compiled again each time, so that
# their warnings are counted on every run.
# Ends with an arch x mode table; fails if any build failed.
#   CROSS_ARCHES   the qemu/<arch>.conf names to build (default: all)
#   FTRACE_MODES   "dynamic static" (default), or one of them
. "$(dirname "$0")/lib.sh"

arches=${CROSS_ARCHES:-$(all_arches)}
modes=${FTRACE_MODES:-dynamic static}
res=$BUILD/cross/results.txt	# arch|mode|ok/FAIL|seconds|warnings
mkdir -p "$BUILD/cross"
: > "$res"
for a in $arches; do
	notc=$(arch_conf "$a" NO_TOOLCHAIN)
	if [ -n "$notc" ]; then
		for f in $modes; do echo "$a|$f|no-cc|0|0" >> "$res"; done
		step "cross: $a: not built: $notc"
		continue
	fi
	# the arch's toolchain, from Debian's registry
	cc=$(arch_conf "$a" CROSS_COMPILE)
	[ -z "$cc" ] || command -v "${cc}gcc" >/dev/null ||
		ARCH=$a "$ROOT/scripts/setup.sh" || die "setup for $a failed"
	nograph=$(arch_conf "$a" STATIC_NO_GRAPH) nostatic=$(arch_conf "$a" NO_STATIC)
	# make check's kernel as the dynamic one, unless the arch has no
	# userland (no make check) or builds its own (CROSS_OWN_DYNAMIC)
	checkkernel=y
	[ -z "$(arch_conf "$a" NO_USERLAND)$(arch_conf "$a" CROSS_OWN_DYNAMIC)" ] || checkkernel=n
	for f in $modes; do
		if [ "$f" = static ] && [ -n "$nostatic" ]; then
			echo "$a|$f|n/a|0|0" >> "$res"
			step "cross: $a, $f: n/a: $nostatic"
			continue
		fi
		frags="guest cross" graph=y obj=$BUILD/obj/$a-cross-$f-$BASE
		[ "$f" = static ] && frags="$frags static"
		[ "$f" = static ] && [ -n "$nograph" ] && frags="$frags nograph" graph=n
		[ "$f" = dynamic ] && [ $checkkernel = y ] &&
			frags="guest ftrace kunit" obj=$BUILD/obj/$a-fgraph-$BASE
		step "cross: $a, $f ftrace"
		t=$(date +%s) rc=0
		if [ -d "$obj/kernel/trace" ]; then
			find "$obj/kernel/trace" "$obj/arch" -name '*.o' \
				\( -path '*/kernel/trace/*' -o -name '*ftrace*' -o -name '*mcount*' \
				-o -name 'entry*' -o -name 'stacktrace*' \) -delete
		fi
		ARCH=$a OBJ=$obj FRAGMENTS=$frags "$ROOT/scripts/kernel.sh" \
			> "$BUILD/cross/$a-$f.log" 2>&1 || rc=$?
		t=$(( $(date +%s) - t ))
		# gcc's "file:line:col: warning:" lines in the code the series touches
		w=$({ grep -sE '^[^ ]*(kernel/trace/|include/linux/(ftrace|trace_recursion)|arch/[a-z0-9]*/(kernel|include)/[^ ]*(ftrace|mcount|entry|stacktrace))[^ ]*:[0-9]+:[0-9]+: warning:' \
			"$obj/build.log" || true; } | sort -u | tee "$BUILD/cross/$a-$f.warnings" | wc -l)
		if [ $rc -eq 0 ] && [ $graph = y ]; then
			grep -q '^CONFIG_FUNCTION_GRAPH_TRACER=y' "$obj/.config" || rc=graph
		fi
		case $rc in
		0) r=ok; [ $graph = y ] || r=ok-nograph ;;
		graph) r=FAIL; echo "    $a $f: built, but without CONFIG_FUNCTION_GRAPH_TRACER" ;;
		*) r=FAIL; tail -n 15 "$BUILD/cross/$a-$f.log" | sed 's/^/    /' ;;
		esac
		echo "$a|$f|$r|$t|$w" >> "$res"
		step "cross: $a, $f: $r in ${t}s, $w warning(s) in trace/ftrace code"
	done
done

echo
# one row per arch: build result, seconds and warnings of each mode
printf '%-10s' arch; for f in $modes; do printf ' %-24s' "$f (s, warnings)"; done; echo
failed=0
for a in $arches; do
	printf '%-10s' "$a"
	for f in $modes; do
		IFS='|' read -r _ _ r t w < <(grep "^$a|$f|" "$res") || r=missing t=0 w=0
		printf ' %-24s' "$r ($t s, $w)"
		case $r in ok*|n/a|no-cc) [ "$w" -eq 0 ] || failed=$((failed + 1)) ;; *) failed=$((failed + 1)) ;; esac
	done
	echo
done
for a in $arches; do
	for v in STATIC_NO_GRAPH:ok-nograph NO_STATIC:n/a NO_TOOLCHAIN:no-cc; do
		n=$(arch_conf "$a" "${v%%:*}")
		[ -z "$n" ] || echo "$a ${v#*:}: $n"
	done
done
echo "(dynamic: make check's kernel where the arch has a userland and no CROSS_OWN_DYNAMIC;"
echo " logs: build/cross/<arch>-<mode>.log, warnings: build/cross/<arch>-<mode>.warnings)"
[ $failed -eq 0 ] || die "cross: $failed build(s) failed or warned"
step "cross: all built"
