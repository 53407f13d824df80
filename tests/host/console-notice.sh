#!/usr/bin/env bash
# The console check (console_problems in scripts/lib.sh) passes the
# hw-vuln advisory that a kernel with speculation mitigations prints on a
# CPU model without its microcode (make bench MITIGATIONS=1), and still
# reports every other WARNING, also one on a line next to the advisory.
. "$(dirname "$0")/../../scripts/lib.sh" > /dev/null 2>&1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
adv='Speculative Return Stack Overflow: WARNING: See https://kernel.org/doc/html/latest/admin-guide/hw-vuln/srso.html for mitigation options.'
printf 'boot\n%s\nok\n' "$adv" > "$d/notice.log"
printf 'boot\n%s\nWARNING: CPU: 0 PID: 1 at kernel/trace/fgraph.c:1 x\n' "$adv" > "$d/warn.log"
bad=0
out=$(console_problems "$d/notice.log")
[ -z "$out" ] || { echo "console: the hw-vuln advisory was reported: $out"; bad=1; }
out=$(console_problems "$d/warn.log")
case $out in
*"WARNING: CPU: 0 PID: 1"*) ;;
*) echo "console: a WARNING next to the advisory was not reported"; bad=1 ;;
esac
[ $bad = 0 ] && echo "console: the hw-vuln advisory passes, a WARNING beside it does not"
exit $bad
