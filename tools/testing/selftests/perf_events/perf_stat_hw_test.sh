#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) counts and samples with the
# hardware PMU: perf stat of instructions:u and branches:u of a program
# whose loop has a known number of both (hw_loop_workload: four
# instructions and one branch an iteration) run for two iteration
# counts, whose counts differ by exactly the loop's; perf stat of more
# events than there are counters, whose counts it scales by the share
# of the time each was on a counter; perf record of instructions:u
# every 10007 and perf report, which names the function of three
# quarters of the work; where the CPU has topdown metrics (Ice Lake on),
# perf stat of a group of the slots and the four level-1 metrics, whose
# counts add up to the slots.  Skipped where there is no hardware PMU or
# perf is not installed.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"
workload=$dir/hw_loop_workload

tap_require perf
[ -d /sys/bus/event_source/devices/cpu ] ||
	tap_skip_each 5 "no hardware PMU (no /sys/bus/event_source/devices/cpu)"
tap_plan 5

tmp=/tmp/perf_stat_hw_test.$$
mkdir -p "$tmp"
export HOME=$tmp

# perf stat -x, of events $1 on the workload's arguments $2...: the
# values into $tmp/stat.
stat_run() {
	ev=$1
	shift
	perf stat -x, -e "$ev" -- "$workload" "$@" 2>"$tmp/stat" >/dev/null
}

# 1, 2: 100000 and 900000 iterations (the same number of digits, so
# that parsing them costs the same): the counts differ by the loop's.
# With the address space randomized, the stack starts at a different
# offset in its page at every exec, and the dynamic loader's string
# functions take their longer page-crossing path when a buffer on it
# lies near a page's end: a run in a hundred or so counts a couple of
# instructions more.  Randomization is off for these two runs.
n1=100000
n2=900000
aslr=/proc/sys/kernel/randomize_va_space
old_aslr=$(cat $aslr 2>/dev/null)
echo 0 2>/dev/null >$aslr
stat_run instructions:u,branches:u loop $n1
cp "$tmp/stat" "$tmp/stat1"
stat_run instructions:u,branches:u loop $n2
cp "$tmp/stat" "$tmp/stat2"
[ -n "$old_aslr" ] && echo "$old_aslr" 2>/dev/null >$aslr
for ev in instructions:u branches:u; do
	case $ev in
	instructions:u) per=4 ;;
	branches:u) per=1 ;;
	esac
	c1=$(stat_value $ev "$tmp/stat1")
	c2=$(stat_value $ev "$tmp/stat2")
	ok=1
	if is_count "$c1" && is_count "$c2" &&
	   [ $((c2 - c1)) -eq $(((n2 - n1) * per)) ]; then
		ok=0
	fi
	echo "# $ev: $c1 for $n1 iterations, $c2 for $n2"
	check $ok "perf stat counts $ev of a loop exactly" \
		"$tmp/stat1" "$tmp/stat2"
done

# 3: twelve instructions:u events, more than most CPUs have counters
# for: perf stat reports each count scaled, with the percentage of the
# time it ran below 100 for some, and each estimate is within 20% of
# the loop's instructions.  (An event runs a stretch in every twelve
# rotations of the events, one each perf_event_mux_interval_ms: the
# loop takes hundreds of them, so that the estimates are off by a few
# percent.)  An emulated CPU on a host loaded past its cores now and
# then loses stretches of guest time with nothing executed, charged to
# the events on the counters then, and one run spreads further (22%
# seen): up to three runs are made, and the first that agrees passes.
n=500000000
ev=instructions:u
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	ev=$ev,instructions:u
done
for run in 1 2 3; do
	stat_run $ev loop $n
	# Fields: count, unit, event, run time, percentage running, ...
	awk -F, -v insns=$((n * 4)) -v run=$run '$3 == "instructions:u" {
			n++
			if ($1 !~ /^[0-9]+$/) bad++
			else if ($1 < insns * 0.8 || $1 > insns * 1.2) off++
			if ($5 + 0 < 100) scaled++
		}
		END {
			printf "# run %d: %d counts, %d scaled, %d off\n",
			       run, n, scaled, off
			exit !(n == 12 && !bad && !off && scaled > 0)
		}' "$tmp/stat"
	ok=$?
	[ $ok = 0 ] && break
done
check $ok "perf stat scales the counts of multiplexed events" "$tmp/stat"

# 4: the hot function does three times the cold one's loop: perf report
# gives it about three quarters of the samples, and the cold one about
# a quarter.  A sample every 10007 instructions is more than the kernel
# lets through by default where its NMIs are slow (as under emulation):
# the limit is raised, and the dynamic one off (percentage 0; the rate
# can only be written while it is on), while perf records.
pct=/proc/sys/kernel/perf_cpu_time_max_percent
rate=/proc/sys/kernel/perf_event_max_sample_rate
old_pct=$(cat $pct)
old_rate=$(cat $rate)
echo 25 >$pct && echo 1000000 >$rate && echo 0 >$pct
ok=1
if perf record -q -N -e instructions:u -c 10007 -g -o "$tmp/perf.data" -- \
	"$workload" two 2000 >"$tmp/rec.out" 2>&1; then
	perf report -i "$tmp/perf.data" --stdio --no-children --sort sym \
		>"$tmp/report" 2>"$tmp/report.err"
	awk '$2 == "[.]" && $3 == "hw_hot" { sub("%", "", $1); hot = $1 }
	     $2 == "[.]" && $3 == "hw_cold" { sub("%", "", $1); cold = $1 }
	     END { printf "# hw_hot %.2f%%, hw_cold %.2f%%\n", hot, cold
		   exit !(hot >= 70 && hot <= 80 && cold >= 20 && cold <= 30) }' \
		"$tmp/report" && ok=0
fi
echo 25 >$pct && echo "$old_rate" >$rate && echo "$old_pct" >$pct
check $ok "perf report names the hot function of a profile" \
	"$tmp/rec.out" "$tmp/report" "$tmp/report.err"

# 5: the topdown group, as perf stat --topdown opens it: the slots lead,
# and each metric counts its share of them, rounded down at every read
# and every context switch (so within a percent of them).
if [ ! -f /sys/bus/event_source/devices/cpu/events/slots ]; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP no topdown metrics (no cpu/events/slots)"
else
	td=topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound
	stat_run "{slots,$td}" loop $n2
	awk -F, '$3 == "slots" { slots = $1 }
		 $3 ~ /^topdown-/ { n++; sum += $1; if ($1 !~ /^[0-9]+$/) bad++ }
		 $3 == "topdown-retiring" { ret = $1 }
		 END { printf "# slots %d, metrics %d, retiring %d\n", slots, sum, ret
		       exit !(n == 4 && !bad && ret > 0 && sum <= slots &&
			      sum >= slots * 0.99) }' "$tmp/stat"
	check $? "perf stat counts topdown metrics that add up to the slots" \
		"$tmp/stat"
fi

rm -rf "$tmp"
tap_exit
