#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) counts software events through
# perf_event_open(2): perf stat on a command, on a command that forks
# (inheritance), and with enable_on_exec (perf stat opens its counters
# disabled on the forked command and lets exec enable them).  Skipped
# where perf is not installed.

ksft_skip=4
n=0
failed=0

if ! command -v perf >/dev/null 2>&1; then
	echo "1..0 # SKIP perf is not installed"
	exit $ksft_skip
fi

echo "TAP version 13"
echo "1..3"

# Print the value perf stat -x, reports for event $1 in file $2.
value() {
	awk -F, -v ev="$1" '$3 == ev { print $1 }' "$2"
}

check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=1
	fi
}

out=/tmp/perf_stat_test.$$

# 1: a simple command gets counts for every software event asked for.
perf stat -x, -e task-clock,page-faults,context-switches -- /bin/true \
	2>"$out" >/dev/null
tc=$(value task-clock "$out")
pf=$(value page-faults "$out")
ok=1
case "$tc$pf" in
*[!0-9.]* | "") ;;
*) [ "${pf%.*}" -gt 0 ] && ok=0 ;;
esac
[ $ok = 0 ] || cat "$out"
check $ok "perf stat counts a command"

# 2: children of the command are counted (inheritance): 20 short-lived
# processes fault far more than one.
perf stat -x, -e page-faults -- /bin/true 2>"$out" >/dev/null
one=$(value page-faults "$out")
perf stat -x, -e page-faults -- /bin/sh -c \
	'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do /bin/true; done' \
	2>"$out" >/dev/null
many=$(value page-faults "$out")
ok=1
[ -n "$one" ] && [ -n "$many" ] && [ "$many" -gt $((one * 5)) ] && ok=0
[ $ok = 0 ] || { echo "# one=$one many=$many"; cat "$out"; }
check $ok "perf stat counts the children of a command"

# 3: nothing is counted before exec: perf's own work between fork and
# exec stays out, so the count of a tiny static command is small.
perf stat -x, -e context-switches -- /bin/true 2>"$out" >/dev/null
cs=$(value context-switches "$out")
ok=1
[ -n "$cs" ] && [ "$cs" -lt 50 ] && ok=0
[ $ok = 0 ] || cat "$out"
check $ok "perf stat starts counting at exec"

rm -f "$out"
exit $failed
