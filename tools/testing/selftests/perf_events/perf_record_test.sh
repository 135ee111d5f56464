#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) profiles a program through the
# ring buffer: perf record needs the samples and the side-band records
# (COMM at exec, MMAP2 of the program) to name the program's functions,
# and frame pointers to walk their callers.  Then page-fault samples
# with -d carry the faulting data addresses, and with --all-cgroups the
# cgroup of the task (PERF_SAMPLE_CGROUP), which perf names from the
# cgroups it finds at start and from the PERF_RECORD_CGROUP of those made
# while it records.  Skipped where perf is not installed.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"
workload=$dir/perf_record_workload

tap_require perf
tap_plan 5

perf_scratch perf_record_test

# 1, 2: cpu-clock samples with call chains name the workload's functions.
ok=1
if perf record -q -N -e cpu-clock -g -o "$tmp/spin.data" -- \
	"$workload" spin >"$tmp/rec.out" 2>&1; then
	perf report -i "$tmp/spin.data" --stdio --no-children \
		--sort comm,dso,sym >"$tmp/report" 2>"$tmp/report.err"
	# The top entry: most of the time, in the workload's inner loop.
	awk '$2 == "perf_record_wor" && $3 == "perf_record_workload" &&
	     $5 == "rec_spin_inner" { sub("%", "", $1); if ($1 + 0 > 50) ok = 1 }
	     END { exit !ok }' "$tmp/report" && ok=0
fi
check $ok "perf report names the functions of the profiled program" \
	"$tmp/rec.out" "$tmp/report" "$tmp/report.err"

# The call chains of the inner loop's samples go through its caller.
ok=1
if [ -f "$tmp/spin.data" ]; then
	perf script -i "$tmp/spin.data" -F comm,ip,sym >"$tmp/script" 2>&1
	awk 'prev == "rec_spin_inner" && $2 == "rec_spin_outer" { n++ }
	     { prev = $2 }
	     END { exit !(n > 10) }' "$tmp/script" && ok=0
fi
check $ok "call chains lead from the inner loop to its caller" "$tmp/script"

# 3, 4: page faults sampled with -d carry the faulting address, which
# lies in the range the workload touches.
ok=1
if perf record -q -N -e page-faults -c 1 -d -o "$tmp/pf.data" -- \
	"$workload" faults >"$tmp/pf.out" 2>"$tmp/pf.err"; then
	# Lines: the data address, its symbol, the ip, the ip's symbol.
	perf script -i "$tmp/pf.data" -F addr,ip,sym >"$tmp/pf.script" \
		2>"$tmp/pf.script.err"
	set -- $(grep '^range ' "$tmp/pf.out")
	start=$((0x$2))
	end=$((0x$3))
	inside=0
	while read -r addr rest; do
		sym=${rest##* }
		a=$((0x$addr))
		if [ "$a" -ge "$start" ] && [ "$a" -lt "$end" ] &&
		   [ "$sym" = rec_touch_pages ]; then
			inside=$((inside + 1))
		fi
	done <"$tmp/pf.script"
	# 256 pages touched: each faults once.
	[ "$inside" -ge 200 ] && ok=0
	echo "# $inside faults in the touched range"
fi
check $ok "page-fault samples carry the data address" \
	"$tmp/pf.out" "$tmp/pf.err" "$tmp/pf.script"

# The same samples, sorted by data address as perf mem does: one line
# per touched page.
ok=1
if [ -f "$tmp/pf.data" ] && [ -n "${start:-}" ]; then
	perf report -i "$tmp/pf.data" --stdio --mem-mode --sort symbol_daddr \
		>"$tmp/pf.report" 2>&1
	inside=0
	for a in $(awk '$2 == "[.]" && $3 ~ /^0x/ { print $3 }' "$tmp/pf.report"); do
		a=$((a))
		[ "$a" -ge "$start" ] && [ "$a" -lt "$end" ] &&
			inside=$((inside + 1))
	done
	[ "$inside" -ge 200 ] && ok=0
	echo "# $inside data addresses in the touched range"
fi
check $ok "perf report sorts the samples by data address" "$tmp/pf.report"

# 5: perf record --all-cgroups attributes page faults to the cgroups of
# cgroup2 (mounted for the test): half of them to one that exists when
# perf starts, half to one made while it records.
cg=/tmp/perf_record_cgroup.$$
ok=1
if cgroup2_mount $cg; then
	mkdir $cg/prc_old
	if perf record -q -N --all-cgroups -e page-faults -c 1 \
		-o "$tmp/cg.data" -- /bin/sh -c \
		"echo \$\$ >$cg/prc_old/cgroup.procs && $workload faults &&
		 mkdir $cg/prc_new && echo \$\$ >$cg/prc_new/cgroup.procs &&
		 $workload faults" >"$tmp/cg.out" 2>&1; then
		perf report -i "$tmp/cg.data" --stdio --sort cgroup \
			>"$tmp/cg.report" 2>&1
		# Each workload faults 256 pages, the shell a few.
		awk '$2 == "/prc_old" { sub("%", "", $1); old += $1 }
		     $2 == "/prc_new" { sub("%", "", $1); new += $1 }
		     END { printf "# /prc_old %.1f%%, /prc_new %.1f%%\n", old, new
			   exit !(old > 30 && new > 30) }' "$tmp/cg.report" && ok=0
	fi
	rmdir $cg/prc_new $cg/prc_old 2>/dev/null
fi
cgroup2_umount $cg
check $ok "perf record --all-cgroups names the cgroups of the samples" \
	"$tmp/cg.out" "$tmp/cg.report"

rm -rf "$tmp"
tap_exit
