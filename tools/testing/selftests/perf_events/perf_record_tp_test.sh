#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) records tracepoints and prints
# the records: perf record -e sched:sched_switch -a (CPU-wide ring
# buffers, raw records) and perf script, which decodes each record with
# the event's format file; and a syscall tracepoint on a command, where
# each call is one record.  Skipped where perf is not installed.

ksft_skip=4
n=0
failed=0
loops=200

if ! command -v perf >/dev/null 2>&1; then
	echo "1..0 # SKIP perf is not installed"
	exit $ksft_skip
fi
[ -d /sys/kernel/tracing/events ] ||
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null

echo "TAP version 13"
echo "1..2"

check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=1
	fi
}

data=/tmp/perf_record_tp_test.$$.data
out=/tmp/perf_record_tp_test.$$.out

# 1: sched_switch system-wide; perf script shows the decoded records of
# the command's switches (prev_comm=sleep ... ==> next_comm=...).
perf record -q -e sched:sched_switch -a -o "$data" -- \
	/bin/sh -c 'sleep 0.05; sleep 0.05' >/dev/null 2>"$out.err"
perf script -i "$data" >"$out" 2>>"$out.err"
nr=$(grep -c 'sched:sched_switch: prev_comm=sleep prev_pid=[0-9]* prev_prio=[0-9]* prev_state=[A-Z+]* ==> next_comm=.* next_pid=[0-9]* next_prio=[0-9]*' "$out")
ok=1
[ "$nr" -ge 2 ] && ok=0
[ $ok = 0 ] || { echo "# $nr records of sleep"; head -20 "$out.err" "$out" | sed 's/^/# /'; }
check $ok "perf record -a and perf script print sched:sched_switch records"

# 2: one record per call, with the call's fields, on a command.
perf record -q -e syscalls:sys_enter_getppid -o "$data" -- \
	perf bench syscall basic --loop $loops >/dev/null 2>"$out.err"
perf script -i "$data" >"$out" 2>>"$out.err"
nr=$(grep -c 'syscalls:sys_enter_getppid:' "$out")
ok=1
[ "$nr" = "$loops" ] && ok=0
[ $ok = 0 ] || { echo "# $nr records"; head -20 "$out.err" "$out" | sed 's/^/# /'; }
check $ok "perf record and perf script: one record per system call"

rm -f "$data" "$data.old" "$out" "$out.err"
exit $failed
