#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf's own tests that need a hardware PMU pass on it, run by an
# unmodified perf (Debian's linux-perf): reading cycles from user space
# with rdpmc through the mmapped page, the times of events, and parsing
# every event the cpu PMU lists in sysfs.  ("Convert perf time to TSC"
# gives no verdict at all in the test guest, with or without a PMU, so it
# is not among them.)  On a hybrid CPU perf runs on the big cores, whose
# PMU its hardware events open on; its parsing test looks for a PMU
# named cpu only, and skips there.  Skipped where there is no hardware
# PMU or perf is not installed.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"

tap_require perf
hw_require 3
tap_plan 3

perf_scratch perf_test_hw_test

# perf test "$1": passed if perf says Ok (not Skip, not FAILED).
perf_test() {
	hw_pinned perf test -v "$1" >"$tmp/out" 2>&1
	grep -q ": Ok$" "$tmp/out" && ! grep -q -e "FAILED" -e ": Skip" "$tmp/out"
}

perf_test "User space counter reading of cycles"
check $? "perf test: user space counter reading of cycles (rdpmc)" "$tmp/out"
perf_test "Event times"
check $? "perf test: event times" "$tmp/out"
if [ "$hw_pmu" = cpu ]; then
	perf_test "Parsing of all PMU events from sysfs"
	check $? "perf test: parsing of all PMU events from sysfs" "$tmp/out"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP perf's parsing test reads a cpu PMU only"
fi

rm -rf "$tmp"
tap_exit
