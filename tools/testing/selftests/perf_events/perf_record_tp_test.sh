#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) records tracepoints and prints
# the records: perf record -e sched:sched_switch -a (CPU-wide ring
# buffers, raw records) and perf script, which decodes each record with
# the event's format file; and a syscall tracepoint on a command, where
# each call is one record.  Skipped where perf is not installed.

. "$(dirname "$0")/perf_tap.sh"
loops=200

tap_require perf
mount_tracefs
tap_plan 2

data=/tmp/perf_record_tp_test.$$.data
out=/tmp/perf_record_tp_test.$$.out

# 1: sched_switch system-wide; perf script shows the decoded records of
# the command's switches (prev_comm=sleep ... ==> next_comm=...).
perf record -q -e sched:sched_switch -a -o "$data" -- \
	/bin/sh -c 'sleep 0.05; sleep 0.05' >/dev/null 2>"$out.err"
perf script -i "$data" >"$out" 2>>"$out.err"
pat='sched:sched_switch: prev_comm=sleep prev_pid=[0-9]* prev_prio=[0-9]*'
pat="$pat"' prev_state=[A-Z+]* ==> next_comm=.* next_pid=[0-9]* next_prio=[0-9]*'
nr=$(grep -c "$pat" "$out")
ok=1
[ "$nr" -ge 2 ] && ok=0
echo "# $nr records of sleep"
check $ok "perf record -a and perf script print sched:sched_switch records" \
	"$out.err" "$out"

# 2: one record per call, with the call's fields, on a command.
perf record -q -e syscalls:sys_enter_getppid -o "$data" -- \
	perf bench syscall basic --loop $loops >/dev/null 2>"$out.err"
perf script -i "$data" >"$out" 2>>"$out.err"
nr=$(grep -c 'syscalls:sys_enter_getppid:' "$out")
ok=1
[ "$nr" = "$loops" ] && ok=0
echo "# $nr records"
check $ok "perf record and perf script: one record per system call" \
	"$out.err" "$out"

rm -f "$data" "$data.old" "$out" "$out.err"
tap_exit
