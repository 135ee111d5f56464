#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# rr (Debian's) records a program and replays it: rr counts the
# program's retired conditional branches with a hardware event
# (BR_INST_RETIRED.CONDITIONAL on Intel, 0xd1 on AMD from Zen), asks
# for an overflow signal to the recorded thread (F_SETOWN_EX) to
# interrupt it after a given count, and in a replay finds each
# asynchronous event again by that count: if a count is off by one, or
# an overflow signal is lost, the replay diverges and rr says so.  Its
# syscall buffer also uses a context-switch software event with a
# signal per switch ("desched").  The program (rr_workload) folds where
# 10 ms timer signals arrive into what it prints, and runs two threads
# that rr schedules by their counts.
#
#  1. rr record runs it;
#  2. rr replay -a replays it to the end, printing exactly the same;
#  3. the same without the syscall buffer (rr record -n), where every
#     system call is a ptrace stop.
#
# Skipped where rr is not installed, there is no hardware PMU, or rr
# does not know the CPU model (it refuses one whose events it has no
# table for, such as the harness's PMU=intel, family 6 model 48).

dir=$(dirname "$0")
. "$dir/perf_tap.sh"
workload=$(cd "$dir" && pwd)/rr_workload

tap_require rr
[ -d /sys/bus/event_source/devices/cpu ] ||
	tap_skip_each 3 "no hardware PMU (no /sys/bus/event_source/devices/cpu)"

perf_scratch rr_test
export _RR_TRACE_DIR="$tmp/traces"
paranoid=/proc/sys/kernel/perf_event_paranoid
old_paranoid=$(cat $paranoid)
# rr wants the kernel's counts of the process alone; 1 lets it have them.
echo 1 >$paranoid

# rr's verdict on the CPU: it names a model it does not know.
rr record -o "$tmp/probe" "$workload" 1 >/dev/null 2>"$tmp/probe.err"
if grep -q 'unknown' "$tmp/probe.err"; then
	echo "$old_paranoid" >$paranoid
	why=$(sed -n 's/.*\] //p' "$tmp/probe.err" | head -1)
	rm -rf "$tmp"
	tap_skip_each 3 "rr: $why"
fi
tap_plan 3

# Record with rr options $1 into trace $2, then replay it: $ok_rec and
# $ok_rep are 0 for each that worked and gave the program's output.
record_replay() {
	ok_rec=1
	ok_rep=1
	# shellcheck disable=SC2086 # no options is no word
	rr record $1 -o "$tmp/$2" "$workload" >"$tmp/$2.out" \
		2>"$tmp/$2.err" &&
		grep -q '^signals ' "$tmp/$2.out" && ok_rec=0
	[ $ok_rec = 0 ] || return
	rr replay -a "$tmp/$2" >"$tmp/$2.replay" 2>"$tmp/$2.replay.err" &&
		cmp -s "$tmp/$2.out" "$tmp/$2.replay" && ok_rep=0
	sed 's/^/# /' "$tmp/$2.out"
}

record_replay "" buffered
check $ok_rec "rr record runs the program" "$tmp/buffered.err"
check $ok_rep "rr replay -a gives exactly its output" \
	"$tmp/buffered.out" "$tmp/buffered.replay" "$tmp/buffered.replay.err"
record_replay -n unbuffered
[ $ok_rec = 0 ] && ok=$ok_rep || ok=1
check $ok "the same without the syscall buffer" "$tmp/unbuffered.err" \
	"$tmp/unbuffered.replay" "$tmp/unbuffered.replay.err"

echo "$old_paranoid" >$paranoid
rm -rf "$tmp"
tap_exit
