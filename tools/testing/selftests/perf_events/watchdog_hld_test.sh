#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The hard lockup detector (kernel/watchdog_hld.c) on the perf_event
# kernel API: a pinned cycles counter per CPU, made with
# perf_event_create_kernel_counter(), whose overflow handler runs in NMI
# and reports a CPU that has stopped taking timer interrupts.
#
# The guest boots with nmi_watchdog=0 (harness/boot.sh), so that the
# other tests find every counter free.  This test switches the detector
# on with watchdog_thresh=1 and the soft lockup detector off (a bounded
# lockup longer than two seconds would otherwise be reported as a soft
# one too when it ends), and checks:
#   1. /proc/sys/kernel/nmi_watchdog reads 1;
#   2. on every online CPU, a group of cycles events has one counter
#      fewer than before (hw_cycles_fit): the detector's event is there
#      (on a hybrid CPU, whose kinds of core have different counters,
#      each CPU fewer than it had itself);
#   3. after the last CPU goes offline and comes back, that CPU has the
#      detector's counter again;
#   4. the test_lockup module, loaded on the last CPU with interrupts
#      off for a bounded time, is reported: "Watchdog detected hard
#      LOCKUP on cpu N" in the kernel log;
#   5. switched off again, every CPU has all its counters back.
#
# While the CPU is locked up, the console shows only KERN_EMERG
# messages: the report's first line reaches it, the registers and the
# call trace that follow (which the harness would take for a splat)
# stay in the kernel log, where the test reads them, and RCU stall
# warnings are suppressed.  Everything is restored on the way out.
# The lockup spins on one CPU only and ends, so later tests are not
# affected.  Skipped without the detector, a hardware PMU or the module.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"
fit=$dir/hw_cycles_fit
module=/lib/modules/test_lockup.ko
ntests=5
sysk=/proc/sys/kernel
stall=/sys/module/rcupdate/parameters/rcu_cpu_stall_suppress

[ -f $sysk/nmi_watchdog ] ||
	tap_skip_each $ntests "no hard lockup detector ($sysk/nmi_watchdog)"
[ -n "$hw_pmu" ] || tap_skip_each $ntests "no hardware PMU"
ncpus=$(grep -c '^processor' /proc/cpuinfo)
[ "$ncpus" -ge 2 ] || tap_skip_each $ntests "one CPU: a lockup would stop the test"
last=$((ncpus - 1))

old_nmi=$(cat $sysk/nmi_watchdog)
old_soft=$(cat $sysk/soft_watchdog)
old_thresh=$(cat $sysk/watchdog_thresh)
old_printk=$(cut -f1 $sysk/printk)
old_stall=$(cat $stall 2>/dev/null)
old_rate=$(cat $sysk/perf_event_max_sample_rate)
restore() {
	echo "$old_nmi" >$sysk/nmi_watchdog
	echo "$old_thresh" >$sysk/watchdog_thresh
	echo "$old_soft" >$sysk/soft_watchdog
	echo "$old_printk" >$sysk/printk
	[ -n "$old_stall" ] && echo "$old_stall" >$stall
	# The report, printed in NMI, takes long enough to lower the rate.
	echo "$old_rate" >$sysk/perf_event_max_sample_rate
	[ -f /sys/devices/system/cpu/cpu$last/online ] &&
		echo 1 >/sys/devices/system/cpu/cpu$last/online
}
trap restore EXIT

# How many cycles events of a group fit on CPU $1's counters.
fit_on() {
	taskset -c "$1" "$fit"
}

# The CPUs on which $1 events fit, as "cpu:n" words.
fits() {
	cpu=0
	out=
	while [ $cpu -lt "$ncpus" ]; do
		out="$out $cpu:$(fit_on $cpu)"
		cpu=$((cpu + 1))
	done
	echo "$out"
}

echo 0 >$sysk/nmi_watchdog
free=$(fits)
for f in $free; do
	n=${f#*:}
	if ! is_count "$n" || [ "$n" -lt 2 ]; then
		tap_skip_each $ntests "cycles events do not fit on the PMU ('$f')"
	fi
done
echo "# with the detector off, cycles events in a group, per CPU:$free"

# $free with each CPU's count less $1.
fewer() {
	for f in $free; do
		printf ' %s:%s' "${f%%:*}" $((${f#*:} - $1))
	done
}

echo 1 >$sysk/watchdog_thresh
echo 0 >$sysk/soft_watchdog
if ! echo 1 >$sysk/nmi_watchdog 2>/dev/null; then
	tap_skip_each $ntests "the detector cannot be switched on"
fi
tap_plan $ntests

# 1
[ "$(cat $sysk/nmi_watchdog)" = 1 ]
check $? "nmi_watchdog reads 1 once switched on"

# Whether each CPU fits $1 events fewer than with the detector off;
# says what it saw ($2: when).
fit_everywhere() {
	got=$(fits)
	echo "# per CPU, $2:$got"
	[ "$got" = "$(fewer "$1")" ]
}

# 2
fit_everywhere 1 "with the detector on"
check $? "the detector holds one counter on every CPU"

# 3
hp=/sys/devices/system/cpu/cpu$last/online
if [ -f $hp ] && echo 0 >$hp && echo 1 >$hp; then
	n=$(fit_on $last)
	echo "# CPU $last offline and back: $n fit"
	[ "$n" = $((${free##*:} - 1)) ]
	check $? "the detector's counter comes back with a CPU"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP CPU $last cannot go offline"
fi

# 4: lock CPU $last up with interrupts off for long enough to span two
# of the detector's periods (the report needs two overflows with no
# timer interrupt between them).  The period is cpu_khz * 1000 cycles
# (watchdog_thresh 1); how many this CPU runs in a second of lockup
# depends on the machine (on the emulated PMU, one cycle an instruction,
# far fewer than the TSC's rate), so lockups of one and of three seconds
# counted by perf on that CPU measure it first: their difference leaves
# out what loading the module costs.
report="Watchdog detected hard LOCKUP on cpu $last"
before=$(dmesg | grep -c "$report")
echo 1 >$sysk/printk
[ -n "$old_stall" ] && echo 1 >$stall
found=1
why=
mhz=$(awk -F: '/^cpu MHz/ { print int($2); exit }' /proc/cpuinfo)

# Cycles CPU $last runs in a lockup of $1 seconds, module load included.
lockup_cycles() {
	n=$(perf stat -a -C $last -x, -e cycles -- taskset -c $last \
		insmod $module disable_irq=1 time_secs=$1 2>&1 >/dev/null |
		awk -F, '$3 ~ /cycles/ && $1 ~ /^[0-9]+$/ { print $1; exit }')
	is_count "$n" && echo "$n" || echo 0
}

if [ ! -f $module ]; then
	why="no $module"
elif ! command -v perf >/dev/null; then
	why="no perf to measure the lockup's cycles"
elif ! is_count "$mhz" || [ "$mhz" -eq 0 ]; then
	why="no cpu MHz in /proc/cpuinfo"
else
	c1=$(lockup_cycles 1)
	c3=$(lockup_cycles 3)
	rate=$(((c3 - c1) / 2))
	period=$((mhz * 1000000))
	# Four periods (at most 40 s, and at least three): two whole ones
	# wherever the lockup starts, and a margin for a machine whose
	# speed varies (on the emulated PMU, lockups measured at under 3.2
	# periods were seldom reported, and each retry costs a minute).  A
	# lockup that was not reported is tried once more, twice as long.
	secs=0 least=0
	if [ "$rate" -gt 0 ]; then
		secs=$(((4 * period + rate - 1) / rate))
		least=$(((3 * period + rate - 1) / rate))
	fi
	[ "$secs" -gt 40 ] && secs=40
	echo "# $rate cycles a second of lockup, a period of $period"
	if [ "$least" -eq 0 ] || [ "$least" -gt 40 ]; then
		why="CPU $last too slow for a lockup of three periods ($rate cycles/s)"
	fi
	tries=0
	while [ -z "$why" ] && [ $tries -lt 2 ] && [ $found = 1 ]; do
		tries=$((tries + 1))
		start=$(date +%s)
		n=$(lockup_cycles $secs)
		echo "# lockup of CPU $last for $secs s: $n cycles," \
			"$((n * 10 / period)) tenths of a period," \
			"$(($(date +%s) - start)) s"
		[ "$(dmesg | grep -c "$report")" -gt "$before" ] && found=0
		secs=$((secs * 2 > 40 ? 40 : secs * 2))
	done
fi
# The report, printed in NMI, reaches the console once the CPU takes
# interrupts again: wait for it before the console shows all again.
sleep 2
echo "$old_printk" >$sysk/printk
[ -n "$old_stall" ] && echo "$old_stall" >$stall
if [ -n "$why" ]; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $why"
else
	dmesg | grep -A12 "$report" | tail -n 13 | sed 's/^/# /'
	check $found "a hard lockup of CPU $last is reported"
fi

# 5
echo 0 >$sysk/nmi_watchdog
fit_everywhere 0 "with the detector off again"
check $? "switched off, the detector gives its counters back"

tap_exit
