#!/usr/bin/env bash
# The sh stack reader (arch/sh/kernel/dumpstack.c) finds the retp of a
# hooked call, the word below the function's CFA, among the
# GRAPH_RETP_WORDS words from where the prologue saved the hooked pr up.
# Check that on the built kernel: for every function that starts with
# the -pg entry (..., <_mcount>, ..., lds.l @r15+,pr), count the words
# its prologue stores below the CFA before it pushes pr (each
# "mov.l rN,@-r15", and "add #-N,r15" as N/4). The largest count is how
# far above the saved pr the retp lies; it must be less than
# GRAPH_RETP_WORDS. A function that does not push pr before its first
# branch keeps the hooked pr in the register (no saved copy to find).
# Run by scripts/kernel.sh after the build (BUILD_CHECK in qemu/sh4.conf).
#   sh-retp-window.sh OBJDUMP VMLINUX SRC
set -euo pipefail
objdump=$1 vmlinux=$2 src=$3

# the window is the graph tracer's (dumpstack.c uses it only then)
if ! grep -q '^CONFIG_FUNCTION_GRAPH_TRACER=y$' "$(dirname "$vmlinux")/.config"; then
	echo "sh-retp-window: not checked: no function graph tracer in this kernel"
	exit 0
fi
window=$(sed -n 's/^#define GRAPH_RETP_WORDS[[:space:]]*\([0-9]*\)$/\1/p' \
	"$src/arch/sh/kernel/dumpstack.c")
if [ -z "$window" ]; then
	echo "sh-retp-window: no GRAPH_RETP_WORDS in arch/sh/kernel/dumpstack.c" >&2
	exit 1
fi
"$objdump" -d "$vmlinux" | awk -v window="$window" '
	/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); state = 0; next }
	# the -pg entry: a new function, also one objdump shows no symbol for
	/<_mcount>/ { state = 1; next }
	state == 1 && /lds\.l\t@r15\+,pr/ { state = 2; words = 0; next }
	state == 2 && /mov\.l\tr[0-9]+,@-r15/ { words++; next }
	state == 2 && /add\t#-[0-9]+,r15/ {
		n = $0; sub(/.*add\t#-/, "", n); sub(/,r15.*/, "", n)
		words += n / 4; next
	}
	state == 2 && /sts\.l\tpr,@-r15/ {
		state = 0; count++
		if (words > max) { max = words; maxfn = fn }
		if (words >= window) { bad++; print "    " fn ": retp " words " words above the saved pr" }
		next
	}
	state == 2 && /\t(rts|jsr|jmp|bra|bsr|braf|bsrf|bt|bf|bt[./]s|bf[./]s)(\t|$)/ { state = 0; next }
	END {
		if (!count) { print "sh-retp-window: no function with the -pg entry saves pr: is this an sh kernel built with -pg?"; exit 1 }
		printf "sh-retp-window: %d prologues save the hooked pr; the retp is at most %d words above it (%s); the stack reader looks at %d\n", count, max, maxfn, window
		if (bad) { printf "sh-retp-window: %d functions out of the window: GRAPH_RETP_WORDS is too small\n", bad; exit 1 }
	}'
