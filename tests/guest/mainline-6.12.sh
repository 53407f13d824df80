#!/bin/sh
# arches: x86_64
# timeout: 1800
# Mainline 6.12's own ftracetest cases of test.d/ftrace and test.d/instances
# (Debian's linux-source-6.12, packed by scripts/check.sh into
# /opt/mainline-ftracetest.tar), run against this kernel as a peer check:
# what mainline's tests expect of the function and function graph tracers
# (funcgraph-retval's fgraph-retval.tc among them), never copied into the
# project. scripts/check.sh judges each case (suite mainline-6.12;
# tests/known-nonpass/ gives the reason of each that does not pass); this
# script fails only if ftracetest did not run to its summary.
[ -f /opt/mainline-ftracetest.tar ] || { echo "FAIL: no /opt/mainline-ftracetest.tar"; exit 1; }
mkdir -p /tmp/mainline && cd /tmp/mainline || exit 1
tar -xf /opt/mainline-ftracetest.tar || exit 1
cd ftrace || exit 1
./ftracetest -l /tmp/mainline/logs test.d/ftrace test.d/instances > /tmp/mainline/out 2>&1
cat /tmp/mainline/out
grep -q '^# of passed:' /tmp/mainline/out || { echo "FAIL: ftracetest did not finish"; exit 1; }
exit 0
