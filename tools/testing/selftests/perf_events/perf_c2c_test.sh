#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf c2c through an unmodified perf (Debian's linux-perf), on
# hw_loop_workload's false sharing: two threads, on CPUs 0 and 1, take
# turns to write each its own word of one line after reading the
# other's, so that each read finds the line modified in the other CPU's
# cache (a HITM: 60 cycles on the emulated caches, harness/qemu patch
# "coherence", above perf c2c's default ldlat of 30):
#  - perf c2c record samples the user loads and stores;
#  - perf c2c report's shared cache lines put hw_shared_line first, with
#    most (over half) of the HITMs;
#  - its distribution shows hw_share's accesses at both words' offsets,
#    0x0 and 0x8: false sharing, not a shared word.
# Skipped where perf c2c record is refused (no PEBS: the flavours
# without it, and our kernel until its driver has it), but on the
# emulated PMU (the HITMs are its caches'), with one CPU, or where perf
# is not installed.  perf c2c needs NUMA's sysfs (kernel/configs).

dir=$(dirname "$0")
. "$dir/perf_tap.sh"

tap_require perf
hw_require 3

perf_scratch perf_c2c_test
workload=$dir/hw_loop_workload
perf_probe 3 "the HITMs are the emulated caches'" "$workload" emulated
perf_probe 3 "one CPU" test "$(grep -c '^processor' /proc/cpuinfo)" -ge 2
perf_probe 3 "perf c2c record refused (no PEBS on this PMU)" \
	hw_unthrottled perf c2c record -u -o "$tmp/probe.data" true
tap_plan 3

# 1: 5000 turns, two HITMs a turn (perf c2c record passes -u, all-user,
# to perf record).
ok=1
hw_unthrottled perf c2c record -u -o "$tmp/c2c.data" -- \
	"$workload" share 5000 >"$tmp/record" 2>&1 && ok=0
check $ok "perf c2c record runs" "$tmp/record"

# 2: the first shared line is hw_shared_line, with most of the HITMs
# (--no-source: no addr2line in the guest, which perf would need for
# the source lines).
set -- $(grep '^hw_shared_line ' "$tmp/record")
line=${2:-none}
perf c2c report -i "$tmp/c2c.data" --stdio -N --no-source \
	>"$tmp/report" 2>"$tmp/report.err"
sed -n '/Shared Data Cache Line Table/,/Distribution Pareto/p' \
	"$tmp/report" | grep -v -e '^#' -e '^=' -e '^ *$' >"$tmp/lines"
head -n 3 "$tmp/lines" | sed 's/^/# /'
awk -v line="$line" '$1 == 0 {
		sub("%", "", $5)
		found = $2 == line && $5 + 0 > 50 && $6 >= 10
		exit
	}
	END { exit !found }' "$tmp/lines"
check $? "perf c2c report: hw_shared_line ($line) first, most HITMs" \
	"$tmp/lines" "$tmp/report.err"

# 3: the first line's distribution: hw_share at offsets 0x0 and 0x8.
sed -n '/Distribution Pareto/,$p' "$tmp/report" >"$tmp/pareto"
awk '/^ *-+$/ { dashes++ }
	dashes == 2 && / hw_share / { seen[$6] = 1 }
	END { exit !(seen["0x0"] && seen["0x8"]) }' "$tmp/pareto"
check $? "perf c2c report: hw_share's accesses at offsets 0x0 and 0x8" \
	"$tmp/pareto"

rm -rf "$tmp"
tap_exit
