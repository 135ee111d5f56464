#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf mem through an unmodified perf (Debian's linux-perf), on
# hw_loop_workload's walk of hw_walk_array, twice the L2 cache's size
# a line at a time, whose every load after the first walk finds its
# line in L3 on the emulated caches (harness/qemu, patches "data caches"
# and "load latency"; 40 cycles, above perf mem's default ldlat of 30):
#  - perf mem record samples the user loads (mem-loads, precise, a
#    sample every 1009);
#  - perf mem report puts nearly all of them (95%) in L3 (not on
#    hw_walk_array's symbol: perf resolves no data symbol in an anonymous
#    mapping, where the array's 8 MiB of .bss lie);
#  - every sample in hw_walk (perf script's addr field) loaded from the
#    array.
# Skipped where perf mem record is refused (no PEBS: the flavours
# without it, and our kernel until its driver has it), but on the
# emulated PMU (the levels are its caches'), or where perf is not
# installed.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"

tap_require perf
hw_require 3

perf_scratch perf_mem_test
workload=$dir/hw_loop_workload
perf_probe 3 "the levels are the emulated caches'" "$workload" emulated
perf_probe 3 "perf mem record refused (no PEBS on this PMU)" \
	hw_unthrottled perf mem -t load record -o "$tmp/probe.data" true
tap_plan 3

# 1: three walks of 8 MiB, 131072 loads each: about 390 samples (perf
# mem record passes the options it does not know to perf record).
ok=1
hw_unthrottled perf mem -t load record -c 1009 --all-user \
	-o "$tmp/mem.data" -- "$workload" walk 3 >"$tmp/record" 2>&1 && ok=0
check $ok "perf mem record runs" "$tmp/record"

# 2: perf mem report by level: L3 hits, nearly all of them.
perf mem report -i "$tmp/mem.data" --stdio --sort=mem \
	2>"$tmp/report.err" | grep -v -e '^#' -e '^$' >"$tmp/report"
head -n 3 "$tmp/report" | sed 's/^/# /'
awk 'NR == 1 && /L3.*hit/ { sub("%", "", $1); exit !($1 + 0 >= 95) }
     NR == 1 { exit 1 }' "$tmp/report"
check $? "perf mem report: the loads hit L3" "$tmp/report" "$tmp/report.err"

# 3: the samples in hw_walk loaded from the array the workload walked
# (its address and size printed first: the data address is one of the
# hexadecimal fields of perf script's line, whatever their order).
set -- $(grep '^hw_walk_array ' "$tmp/record")
start=${2:-0} size=${3:-0}
perf script -i "$tmp/mem.data" -F ip,sym,addr 2>/dev/null >"$tmp/script"
samples_in_range "$tmp/script" hw_walk "$start" "$size" hw_walk_array >"$tmp/in"
sed '$d' "$tmp/in"
set -- $(tail -n 1 "$tmp/in")
[ "$1" -gt 100 ] && [ $(($2 * 100)) -ge $(($1 * 95)) ]
check $? "perf script: hw_walk's samples load from hw_walk_array" \
	"$tmp/script"

rm -rf "$tmp"
tap_exit
