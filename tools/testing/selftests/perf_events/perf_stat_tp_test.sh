#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) counts tracepoints through
# perf_event_open(2): syscall tracepoints by name (perf reads their ids
# from tracefs), with a filter (--filter, PERF_EVENT_IOC_SET_FILTER), and
# sched:sched_switch.  The workload is perf's own syscall benchmark, which
# makes exactly the number of getppid() calls it is asked for.  Skipped
# where perf is not installed.

ksft_skip=4
n=0
failed=0
loops=1000

if ! command -v perf >/dev/null 2>&1; then
	echo "1..0 # SKIP perf is not installed"
	exit $ksft_skip
fi
[ -d /sys/kernel/tracing/events ] ||
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null

echo "TAP version 13"
echo "1..4"

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

out=/tmp/perf_stat_tp_test.$$
bench="perf bench syscall basic --loop $loops"

# 1: a syscall tracepoint counts each call the command makes.
perf stat -x, -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid \
	-- $bench 2>"$out" >/dev/null
enter=$(value syscalls:sys_enter_getppid "$out")
exit=$(value syscalls:sys_exit_getppid "$out")
ok=1
[ "$enter" = "$loops" ] && [ "$exit" = "$loops" ] && ok=0
[ $ok = 0 ] || cat "$out"
check $ok "perf stat counts syscalls:sys_enter_getppid and sys_exit_getppid"

# 2: the example, on a command that calls getpid(): a count, not
# "<not supported>" or "<not counted>".
perf stat -x, -e syscalls:sys_enter_getpid -- /bin/sh -c 'echo $$' \
	2>"$out" >/dev/null
cnt=$(value syscalls:sys_enter_getpid "$out")
ok=1
case "$cnt" in
'' | *[!0-9]*) ;;
*) ok=0 ;;
esac
[ $ok = 0 ] || cat "$out"
check $ok "perf stat counts syscalls:sys_enter_getpid"

# 3: a filter on a common field drops every record of the command.
perf stat -x, -e syscalls:sys_enter_getppid --filter 'common_pid == 1' \
	-e syscalls:sys_exit_getppid -- $bench 2>"$out" >/dev/null
enter=$(value syscalls:sys_enter_getppid "$out")
exit=$(value syscalls:sys_exit_getppid "$out")
ok=1
[ "$enter" = 0 ] && [ "$exit" = "$loops" ] && ok=0
[ $ok = 0 ] || cat "$out"
check $ok "perf stat --filter applies ftrace filters"

# 4: sched_switch counts the switches of a command that sleeps.
perf stat -x, -e sched:sched_switch -- /bin/sh -c \
	'sleep 0.01; sleep 0.01; sleep 0.01' 2>"$out" >/dev/null
sw=$(value sched:sched_switch "$out")
ok=1
case "$sw" in
'' | *[!0-9]*) ;;
*) [ "$sw" -ge 3 ] && ok=0 ;;
esac
[ $ok = 0 ] || cat "$out"
check $ok "perf stat counts sched:sched_switch"

rm -f "$out"
exit $failed
