#!/usr/bin/env bash
# selftest_cell (scripts/lib.sh), make matrix's reading of the
# function_graph boot-time self-test, on made-up consoles: the verdict on
# the test's line, pushed to a later line by another message, failed, or
# missing.
. "$(dirname "$0")/../../scripts/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
bad=0
t() { # expected name console
	local got
	printf "$3" > "$d/$2"
	got=$(selftest_cell "$d/$2")
	[ "$got" = "$1" ] || { echo "selftest_cell: $2: $got, expected $1"; bad=1; }
}
t ok one-line 'Testing tracer wakeup_dl: PASSED\nTesting tracer function_graph: PASSED\nNET: x\n'
t ok split 'Testing tracer function_graph: \nsched: DL replenish lagged too much\nPASSED\n'
t ok split-crlf 'Testing tracer function_graph: \r\nsched: DL replenish lagged too much\r\nPASSED\r\n'
t FAIL failed 'Testing tracer function_graph: FAILED!\n'
t FAIL split-failed 'Testing tracer function_graph: \nsched: DL replenish lagged too much\nFAILED!\n'
t FAIL no-verdict 'Testing tracer function_graph: \nTesting ftrace filter: OK\nPASSED\n'
t FAIL no-verdict-then-again 'Testing tracer function_graph: \nTesting tracer function_graph: PASSED\n'
t FAIL other-test-failed 'Testing tracer wakeup: FAILED!\nTesting tracer function_graph: PASSED\n'
[ "$(selftest_cell "$d/missing")" = FAIL ] || { echo "selftest_cell: missing console: not FAIL"; bad=1; }
[ $bad = 0 ] && echo "selftest_cell: 9 consoles read as expected"
exit $bad
