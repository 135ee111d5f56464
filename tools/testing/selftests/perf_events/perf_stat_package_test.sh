#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) reads the PMUs of a package:
# perf stat -a of power/energy-pkg/ over a sleep prints a count of
# Joules above zero; on the emulated silicon, whose energy model is
# documented (harness/qemu/0039: a package draws 2 W of uncore beside
# its cores, and 0.5 W more of graphics where it has them), the package
# minus its cores over one second of sleep is what the model gives;
# perf stat -a of the C-state residency of the cores and of the package
# over a sleep counts above zero; perf stat -a of the memory
# controller's reads and writes (Intel's client uncore) prints MiB, and
# the uncore clock counts.  Each is skipped where its PMU or its event is
# not there (C-states and Intel's uncore: bare metal only).

dir=$(dirname "$0")
. "$dir/perf_tap.sh"
pmus=/sys/bus/event_source/devices

tap_require perf
tap_plan 4

perf_scratch perf_stat_package_test

# perf stat -a -x, of events $1 over "sleep $2": the values into
# $tmp/stat; fails if perf did.
stat_sleep() {
	perf stat -a -x, -e "$1" -- sleep "$2" 2>"$tmp/stat" >/dev/null
}

# The value of event $1 in $tmp/stat (perf's -x, lines: value,unit,event).
value_of() {
	stat_value "$1" "$tmp/stat"
}

# The seconds event $1 counted for in $tmp/stat (the fourth field, in ns).
seconds_of() {
	awk -F, -v e="$1" '$3 == e { print $4 / 1e9; exit }' "$tmp/stat"
}

# 1: the package's energy grows, in Joules.
if [ ! -e "$pmus/power/events/energy-pkg" ]; then
	echo "ok 1 # SKIP no power/energy-pkg/"
else
	stat_sleep power/energy-pkg/ 0.2
	j=$(value_of power/energy-pkg/)
	ok=1
	grep -q ',Joules,power/energy-pkg/' "$tmp/stat" &&
		awk -v j="$j" 'BEGIN { exit !(j > 0) }' && ok=0
	check $ok "perf stat -a -e power/energy-pkg/: $j J over 0.2 s" "$tmp/stat"
fi

# 2: on the emulated silicon, the package minus its cores over a second
# of sleep is its uncore's 2 W and its graphics' 0.5 W where it has a
# graphics domain: within 15% of that over the time the package's event
# counted (on a loaded host the second's sleep took 1.4 s).
if [ ! -e "$pmus/power/events/energy-cores" ] ||
   ! "$dir/hw_loop_workload" emulated; then
	echo "ok 2 # SKIP not the emulated silicon's cores and package"
else
	w=2
	[ -e "$pmus/power/events/energy-gpu" ] && w=2.5
	stat_sleep power/energy-pkg/,power/energy-cores/ 1
	pkg=$(value_of power/energy-pkg/)
	cores=$(value_of power/energy-cores/)
	secs=$(seconds_of power/energy-pkg/)
	ok=1
	awk -v p="$pkg" -v c="$cores" -v w="$w" -v t="${secs:-0}" \
		'BEGIN { d = p - c; exit !(t > 0 && d >= 0.85 * w * t &&
					    d <= 1.15 * w * t) }' &&
		ok=0
	check $ok "package $pkg J, cores $cores J over $secs s: the model's $w W apart" \
		"$tmp/stat"
fi

# 3: the cores' and the package's C-state residency grow while the CPUs
# sleep (in whichever state the part and the idle CPUs are in).
if [ ! -d "$pmus/cstate_core/events" ] || [ ! -d "$pmus/cstate_pkg/events" ]; then
	echo "ok 3 # SKIP no cstate_core and cstate_pkg PMUs"
else
	evs=
	for f in "$pmus"/cstate_core/events/* "$pmus"/cstate_pkg/events/*; do
		p=${f%/events/*}
		evs="$evs${evs:+,}${p##*/}/${f##*/}/"
	done
	ok=1
	stat_sleep "$evs" 0.5 &&
		awk -F, '$3 ~ /^cstate_core/ && $1 > 0 { core = 1 }
			 $3 ~ /^cstate_pkg/ && $1 > 0 { pkg = 1 }
			 END { exit !(core && pkg) }' "$tmp/stat" && ok=0
	check $ok "perf stat -a of $evs over 0.5 s of sleep" "$tmp/stat"
fi

# 4: the memory controller's traffic in MiB (data_reads and data_writes
# carry a scale and a unit), and the uncore's clock, over a sleep.
if [ ! -e "$pmus/uncore_imc/events/data_reads" ]; then
	echo "ok 4 # SKIP no uncore_imc PMU"
else
	clock=uncore_cbox_0
	[ -d "$pmus/$clock" ] || clock=uncore_cbox
	evs=uncore_imc/data_reads/,uncore_imc/data_writes/,$clock/clockticks/
	ok=1
	stat_sleep "$evs" 0.2 &&
		grep -q ',MiB,uncore_imc/data_reads/' "$tmp/stat" &&
		grep -q ',MiB,uncore_imc/data_writes/' "$tmp/stat" &&
		awk -v c="$(value_of $clock/clockticks/)" \
			'BEGIN { exit !(c > 0) }' && ok=0
	check $ok "perf stat -a -e $evs over 0.2 s" "$tmp/stat"
fi

rm -rf "$tmp"
tap_exit
