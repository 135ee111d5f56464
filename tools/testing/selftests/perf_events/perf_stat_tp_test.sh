#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) counts tracepoints through
# perf_event_open(2): syscall tracepoints by name (perf reads their ids
# from tracefs), with a filter (--filter, PERF_EVENT_IOC_SET_FILTER), and
# sched:sched_switch.  The workload is perf's own syscall benchmark, which
# makes exactly the number of getppid() calls it is asked for.  Skipped
# where perf is not installed.

. "$(dirname "$0")/perf_tap.sh"
loops=1000

tap_require perf
mount_tracefs
tap_plan 4

out=/tmp/perf_stat_tp_test.$$
bench="perf bench syscall basic --loop $loops"

# 1: a syscall tracepoint counts each call the command makes.
perf stat -x, -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid \
	-- $bench 2>"$out" >/dev/null
enter=$(stat_value syscalls:sys_enter_getppid "$out")
exit=$(stat_value syscalls:sys_exit_getppid "$out")
ok=1
[ "$enter" = "$loops" ] && [ "$exit" = "$loops" ] && ok=0
check $ok "perf stat counts syscalls:sys_enter_getppid and sys_exit_getppid" \
	"$out"

# 2: the issue's example, on a command that calls getpid(): a count, not
# "<not supported>" or "<not counted>".
perf stat -x, -e syscalls:sys_enter_getpid -- /bin/sh -c 'echo $$' \
	2>"$out" >/dev/null
cnt=$(stat_value syscalls:sys_enter_getpid "$out")
ok=1
is_count "$cnt" && ok=0
check $ok "perf stat counts syscalls:sys_enter_getpid" "$out"

# 3: a filter on a common field drops every record of the command.
perf stat -x, -e syscalls:sys_enter_getppid --filter 'common_pid == 1' \
	-e syscalls:sys_exit_getppid -- $bench 2>"$out" >/dev/null
enter=$(stat_value syscalls:sys_enter_getppid "$out")
exit=$(stat_value syscalls:sys_exit_getppid "$out")
ok=1
[ "$enter" = 0 ] && [ "$exit" = "$loops" ] && ok=0
check $ok "perf stat --filter applies ftrace filters" "$out"

# 4: sched_switch counts the switches of a command that sleeps.
perf stat -x, -e sched:sched_switch -- /bin/sh -c \
	'sleep 0.01; sleep 0.01; sleep 0.01' 2>"$out" >/dev/null
sw=$(stat_value sched:sched_switch "$out")
ok=1
is_count "$sw" && [ "$sw" -ge 3 ] && ok=0
check $ok "perf stat counts sched:sched_switch" "$out"

rm -f "$out"
tap_exit
