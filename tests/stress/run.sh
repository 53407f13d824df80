#!/bin/sh
# Guest side of scripts/stress.sh: run the stress scenarios named in
# STRESS_SCENARIOS (comma separated, from the kernel command line) one after
# the other, each from /cmd/<name>.sh (scripts/stress.sh puts them there), and print for each a line
#   stress-result: <name> PASS|FAIL <seconds> <its stress-summary line>
# The exit status is nonzero if any failed.
dir=${STRESS_DIR:-/cmd}
rc=0
echo "stress: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs," \
	"STRESS_SECONDS=${STRESS_SECONDS:-default} STRESS_SEED=${STRESS_SEED:-default}"
for s in $(echo "${STRESS_SCENARIOS:-}" | tr ',' ' '); do
	echo "=== stress: $s"
	t=$(date +%s)
	src=0
	if [ -f "$dir/$s.sh" ]; then
		# streamed, so that the host shows progress
		{ STRESS_TMP=/tmp/stress-$s sh "$dir/$s.sh" 2>&1; echo $? > /tmp/stress-$s.rc; } |
			tee /tmp/stress-$s.log
		src=$(cat /tmp/stress-$s.rc)
	else
		echo "FAIL: no scenario $dir/$s.sh"
		src=1
	fi
	secs=$(( $(date +%s) - t ))
	what=$(sed -n 's/^stress-summary: //p' /tmp/stress-$s.log 2> /dev/null | tail -n 1)
	if [ $src -eq 0 ] && [ -n "$what" ]; then
		res=PASS
	else
		res=FAIL rc=1
		[ -n "$what" ] || what="no summary (exit status $src): $(grep -m 1 '^FAIL' /tmp/stress-$s.log)"
	fi
	echo "stress-result: $s $res $secs $what"
done
exit $rc
