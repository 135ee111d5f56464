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
# counts add up to the slots.  On a hybrid CPU, with the big cores'
# events (cpu_core/.../) and the workload on them; and there, perf stat
# of instructions:u as it is, which counts on both kinds of core and
# prints each one's count.  Skipped where there is no hardware PMU or
# perf is not installed.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"
workload=$dir/hw_loop_workload

tap_require perf
hw_require 6
tap_plan 6

perf_scratch perf_stat_hw_test

# perf stat -x, of events $1 on the workload's arguments $2...: the
# values into $tmp/stat.
stat_run() {
	ev=$1
	shift
	hw_pinned perf stat -x, -e "$ev" -- "$workload" "$@" \
		2>"$tmp/stat" >/dev/null
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
insns=$(hw_event instructions u)
branches=$(hw_event branches u)
stat_run "$insns,$branches" loop $n1
cp "$tmp/stat" "$tmp/stat1"
stat_run "$insns,$branches" loop $n2
cp "$tmp/stat" "$tmp/stat2"
[ -n "$old_aslr" ] && echo "$old_aslr" 2>/dev/null >$aslr
for ev in instructions branches; do
	per=1
	[ $ev = instructions ] && per=4
	c1=$(hw_stat_value $ev u "$tmp/stat1")
	c2=$(hw_stat_value $ev u "$tmp/stat2")
	ok=1
	if is_count "$c1" && is_count "$c2" &&
	   [ $((c2 - c1)) -eq $(((n2 - n1) * per)) ]; then
		ok=0
	fi
	echo "# $ev:u: $c1 for $n1 iterations, $c2 for $n2"
	check $ok "perf stat counts $ev:u of a loop exactly" \
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
ev=$insns
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	ev=$ev,$insns
done
for run in 1 2 3; do
	stat_run "$ev" loop $n
	# Fields: count, unit, event, run time, percentage running, ...
	awk -F, -v insns=$((n * 4)) -v run=$run -v ev="$insns" '$3 == ev {
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
# a quarter (a sample every 10007 instructions: hw_unthrottled).
ok=1
if hw_unthrottled perf record -q -N -e "$insns" -c 10007 -g \
	-o "$tmp/perf.data" -- "$workload" two 2000 >"$tmp/rec.out" 2>&1; then
	perf report -i "$tmp/perf.data" --stdio --no-children --sort sym \
		>"$tmp/report" 2>"$tmp/report.err"
	awk '$2 == "[.]" && $3 == "hw_hot" { sub("%", "", $1); hot = $1 }
	     $2 == "[.]" && $3 == "hw_cold" { sub("%", "", $1); cold = $1 }
	     END { printf "# hw_hot %.2f%%, hw_cold %.2f%%\n", hot, cold
		   exit !(hot >= 70 && hot <= 80 && cold >= 20 && cold <= 30) }' \
		"$tmp/report" && ok=0
fi
check $ok "perf report names the hot function of a profile" \
	"$tmp/rec.out" "$tmp/report" "$tmp/report.err"

# 5: the topdown group, as perf stat --topdown opens it: the slots lead,
# and each metric counts its share of them, rounded down at every read
# and every context switch (so within a percent of them).
if [ ! -f "/sys/bus/event_source/devices/$hw_pmu/events/slots" ]; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP no topdown metrics (no $hw_pmu/events/slots)"
else
	slots=$(hw_event slots)
	td=
	for m in retiring bad-spec fe-bound be-bound; do
		td=$td,$(hw_event topdown-$m)
	done
	stat_run "{$slots$td}" loop $n2
	awk -F, -v s="$slots" -v r="$(hw_event topdown-retiring)" '
		 $3 == s { slots = $1 }
		 $3 ~ /topdown-/ { n++; sum += $1; if ($1 !~ /^[0-9]+$/) bad++ }
		 $3 == r { ret = $1 }
		 END { printf "# slots %d, metrics %d, retiring %d\n", slots, sum, ret
		       exit !(n == 4 && !bad && ret > 0 && sum <= slots &&
			      sum >= slots * 0.99) }' "$tmp/stat"
	check $? "perf stat counts topdown metrics that add up to the slots" \
		"$tmp/stat"
fi

# 6: on a hybrid, instructions:u with no PMU named is one event on each
# kind of core, and perf stat prints both: a loop on a big core and
# three times the loop on an Atom core, each counted by its own PMU
# (within 2%: the shell, taskset and the loader count too).  Unscaled:
# each event runs only while the task is on its kind of core, and perf
# would scale its count up by the time it was enabled.
atom=/sys/bus/event_source/devices/cpu_atom/cpus
if [ "$hw_pmu" != cpu_core ] || [ ! -f $atom ]; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP not a hybrid CPU (no cpu_core and cpu_atom)"
else
	n=10000000
	taskset -c "$hw_cpus" perf stat --no-scale -x, -e instructions:u -- \
		sh -c \
		"$workload loop $n && taskset -c $(cat $atom) $workload loop $((n * 3))" \
		2>"$tmp/stat" >/dev/null
	awk -F, -v big=$((n * 4)) -v small=$((n * 12)) '
		 $3 == "cpu_core/instructions:u/" { core = $1 }
		 $3 == "cpu_atom/instructions:u/" { atom = $1 }
		 END { printf "# cpu_core %s, cpu_atom %s\n", core, atom
		       exit !(core >= big && core <= big * 1.02 &&
			      atom >= small && atom <= small * 1.02) }' "$tmp/stat"
	check $? "perf stat counts instructions on both kinds of a hybrid" \
		"$tmp/stat"
fi

rm -rf "$tmp"
tap_exit
