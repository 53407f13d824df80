#!/usr/bin/env bash
# Turn the "R ..." result lines of bench/guest.sh (one file per kernel,
# DIR/<kernel>.txt, written by scripts/bench.sh) into:
#   DIR/bench.csv      per-call cost, one row per kernel and case
#   DIR/bench-mem.csv  shadow-stack memory, one row per kernel and phase
#   DIR/bench.png      per-call cost against the number of fgraph users
#   DIR/bench.txt      the table printed at the end
#   bench-report.sh DIR
. "$(dirname "$0")/lib.sh"

dir=${1:-$BUILD/bench}
kernels=
for k in 6.1-stock 6.1-fgraph 6.12-stock; do
	[ -s "$dir/$k.txt" ] && kernels="$kernels $k"
done
[ -n "$kernels" ] || die "no results in ${dir#"$ROOT"/}: run 'make bench'"

# per call: min and median over the repetitions, in guest ns per call
{
	echo "kernel,case,users,calls,reps,min_ns,median_ns,error"
	for k in $kernels; do
		awk -v k="$k" '
		$1 == "R" && ($2 == "off" || $2 == "function" || $2 ~ /^fgraph/ || $2 ~ /^wk-/) {
			if ($2 ~ /^wk-/) { c = $2; u = 0; f = 3 } else { c = $2; u = $3; f = 4 }
			if ($f == "error") { printf "%s,%s,%s,,,,,%s\n", k, c, u, $(f + 1); next }
			calls = $f; n = 0
			for (i = f + 1; i <= NF; i++) v[++n] = $i / calls
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf "%s,%s,%s,%d,%d,%.1f,%.1f,\n", k, c, u, calls, n, v[1], med
		}' "$dir/$k.txt"
	done
} > "$dir/bench.csv"

{
	echo "kernel,phase,tasks,tasks_with_stack,bytes,bytes_per_task,idle_tasks_with_stack,idle_bytes"
	for k in $kernels; do
		awk -v k="$k" '$1 == "R" && $3 == "mem" {
			per = $7 ? $9 / $7 : 0
			printf "%s,%s,%d,%d,%d,%d,%d,%d\n", k, substr($2, 5), $5, $7, $9, per, $13, $15
		}' "$dir/$k.txt"
	done
} > "$dir/bench-mem.csv"

# The chart: median cost per call against users, one line per kernel.
if command -v gnuplot >/dev/null; then
	for k in $kernels; do
		awk -F, -v k="$k" '$1 == k && $2 == "fgraph" && $7 != "" { print $3, $7 }' \
			"$dir/bench.csv" > "$dir/plot-$k.dat"
	done
	plots=
	for k in $kernels; do
		plots="$plots${plots:+, }'$dir/plot-$k.dat' using 1:2 with linespoints lw 2 pt 7 title '$k'"
	done
	gnuplot <<-EOF
	set terminal pngcairo size 900,560 noenhanced
	set output '$dir/bench.png'
	set title 'Cost of one traced call, by number of fgraph users (QEMU -icount: 1 ns = 1 instruction)'
	set xlabel 'fgraph users on the function'
	set ylabel 'guest ns per call (median)'
	set logscale x 2
	set xrange [0.8:20]
	set pointsize 1.5
	set xtics (1, 2, 4, 8, 16)
	set key top left
	set grid
	set yrange [0:*]
	plot $plots
	EOF
	rm -f "$dir"/plot-*.dat
else
	echo "gnuplot is missing: no chart (run 'make setup-bench')" >&2
fi

# The table
med() { # kernel case users
	awk -F, -v k="$1" -v c="$2" -v u="$3" \
		'$1 == k && $2 == c && $3 == u { print ($7 == "" ? "-" : $7) }' "$dir/bench.csv"
}
added() { # kernel: (cost with 16 users - cost with 1) / 15
	awk -v a="$(med "$1" fgraph 1)" -v b="$(med "$1" fgraph 16)" \
		'BEGIN { if (a == "" || b == "" || a == "-" || b == "-") print "-"; else printf "%.1f", (b - a) / 15 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a == "" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'; }
{
	echo "make bench, $(date -u +%F): guest ns per call = instructions ($ARCH, QEMU $($QEMU --version | sed -n '1s/.*version \([^ ]*\).*/\1/p') -icount shift=0, TCG, 1 vCPU)"
	for k in $kernels; do
		sed -n "s/^R kernel \([^ ]*\) \(.*\)/  \1: \2/p" "$dir/$k.txt"
		sed -n "s/^R mitigations \(.*\)/    with \1/p" "$dir/$k.txt"
	done
	printf '\n%-28s %11s %11s %11s %9s %9s\n' "per call (median)" 6.1-stock 6.1-fgraph 6.12-stock ours/6.1 ours/6.12
	row() { # label case users
		local a b c
		a=$(med 6.1-stock "$2" "$3"); b=$(med 6.1-fgraph "$2" "$3"); c=$(med 6.12-stock "$2" "$3")
		printf '%-28s %11s %11s %11s %9s %9s\n' "$1" "${a:--}" "${b:--}" "${c:--}" \
			"$(ratio "$b" "$a")" "$(ratio "$b" "$c")"
	}
	row "tracing off" off 0
	row "function tracer (1 ops)" function 0
	for u in 1 2 4 8 16; do row "fgraph, $u user(s)" fgraph "$u"; done
	row "fgraph, 1 user, timestamps" fgraph-times 1
	a=$(added 6.1-fgraph) c=$(added 6.12-stock)
	printf '%-28s %11s %11s %11s %9s %9s\n' "each added user (1->16)" - "$a" "$c" - "$(ratio "$a" "$c")"
	step12() { # kernel: cost with 2 users - cost with 1
		awk -v a="$(med "$1" fgraph 1)" -v b="$(med "$1" fgraph 2)" \
			'BEGIN { if (a == "" || b == "" || a == "-" || b == "-") print "-"; else printf "%.1f", b - a }'
	}
	a=$(step12 6.1-fgraph) c=$(step12 6.12-stock)
	printf '%-28s %11s %11s %11s %9s %9s\n' "step from 1 to 2 users" - "$a" "$c" - "$(ratio "$a" "$c")"
	row "getppid(), no tracer" wk-off 0
	row "getppid(), function_graph" wk-function_graph 0
	row "  with funcgraph-retval" wk-fg-retval 0
	row "  with funcgraph-retaddr" wk-fg-retaddr 0
	row "  with funcgraph-args" wk-fg-args 0
	row "getppid(), profiler" wk-profiler 0
	row "getppid(), graph on 1 fn" wk-fg-one 0
	calls() { # label case: calls traced per getppid() and events lost
		local k v
		printf '%-28s' "$1"
		for k in 6.1-stock 6.1-fgraph 6.12-stock; do
			v=
			[ -s "$dir/$k.txt" ] && v=$(awk -v c="$2" '$1 == "R" && $2 == "calls" && $3 == c {
				printf "%.1f, %d", $5 / $4, $6 }' "$dir/$k.txt")
			printf ' %11s' "${v:--}"
		done
		echo
	}
	calls "  calls traced, lost: all" wk-function_graph
	calls "  calls traced, lost: 1 fn" wk-fg-one
	echo "(calls traced: per getppid(), by function_graph; lost: events the ring buffer dropped)"
	printf '%-28s' "depth: calls hooked of 250"
	for k in 6.1-stock 6.1-fgraph 6.12-stock; do
		v=
		[ -s "$dir/$k.txt" ] &&
			v=$(awk '$1 == "R" && $2 == "depth" { printf "%d (%d u)", $4, $3 }' "$dir/$k.txt")
		printf ' %11s' "${v:--}"
	done
	echo
	echo "(depth: nested calls of a recursion hooked by N function_graph users (u):"
	echo " the top level and N-1 instances, 16 where the kernel allows them)"
	printf '\n%-28s %11s %11s %11s\n' "shadow stack, bytes/task" 6.1-stock 6.1-fgraph 6.12-stock
	for p in boot tracing after wk-tracing wk-after; do
		printf '%-28s' "$p"
		for k in 6.1-stock 6.1-fgraph 6.12-stock; do
			v=$(awk -F, -v k="$k" -v p="$p" '$1 == k && $2 == p { printf "%d (%d/%d)", $6, $4, $3 }' "$dir/bench-mem.csv")
			printf ' %11s' "${v:--}"
		done
		echo
	done
	echo "(bytes/task: per task holding a stack, (tasks holding one/all tasks); idle tasks not counted."
	echo " boot: before any tracing; tracing/after: one fgraph user registered/gone;"
	echo " wk-*: function_graph on all functions, then nop.)"
	# /sys/devices/system/cpu/vulnerabilities: those some kernel is affected by
	vulns=$(for k in $kernels; do awk '$1 == "R" && $2 == "vuln" && $3 != "" &&
		$4 " " $5 != "Not affected" { print $3 }' "$dir/$k.txt"; done | sort -u)
	if [ -n "$vulns" ]; then
		echo
		echo "CPU vulnerabilities (/sys/devices/system/cpu/vulnerabilities), where not 'Not affected':"
		for v in $vulns; do
			for k in $kernels; do
				awk -v v="$v" -v k="$k" '$1 == "R" && $2 == "vuln" && $3 == v {
					$1 = $2 = $3 = ""; sub(/^ +/, ""); printf "  %-22s %-11s %s\n", v, k, $0 }' "$dir/$k.txt"
			done
		done
	fi
} > "$dir/bench.txt"
cat "$dir/bench.txt"
step "bench: ${dir#"$ROOT"/}/bench.txt, bench.csv, bench-mem.csv, bench.png"
