#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) counts software events through
# perf_event_open(2): perf stat on a command, on a command that forks
# (inheritance), with enable_on_exec (perf stat opens its counters
# disabled on the forked command and lets exec enable them), and per
# cgroup (perf stat -a -G, where perf opens one event per CPU with
# PERF_FLAG_PID_CGROUP).  Skipped where perf is not installed.

. "$(dirname "$0")/perf_tap.sh"

tap_require perf
tap_plan 4

out=/tmp/perf_stat_test.$$

# 1: a simple command gets counts for every software event asked for.
perf stat -x, -e task-clock,page-faults,context-switches -- /bin/true \
	2>"$out" >/dev/null
tc=$(stat_value task-clock "$out")
pf=$(stat_value page-faults "$out")
ok=1
is_number "$tc" && is_number "$pf" && [ "${pf%.*}" -gt 0 ] && ok=0
check $ok "perf stat counts a command" "$out"

# 2: children of the command are counted (inheritance): 20 short-lived
# processes fault far more than one.
perf stat -x, -e page-faults -- /bin/true 2>"$out" >/dev/null
one=$(stat_value page-faults "$out")
perf stat -x, -e page-faults -- /bin/sh -c \
	'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do /bin/true; done' \
	2>"$out" >/dev/null
many=$(stat_value page-faults "$out")
ok=1
[ -n "$one" ] && [ -n "$many" ] && [ "$many" -gt $((one * 5)) ] && ok=0
echo "# one=$one many=$many"
check $ok "perf stat counts the children of a command" "$out"

# 3: nothing is counted before exec: perf's own work between fork and
# exec stays out, so the count of a tiny static command is small.
perf stat -x, -e context-switches -- /bin/true 2>"$out" >/dev/null
cs=$(stat_value context-switches "$out")
ok=1
[ -n "$cs" ] && [ "$cs" -lt 50 ] && ok=0
check $ok "perf stat starts counting at exec" "$out"

# 4: perf stat -a -G counts the tasks of a cgroup only: a command that
# moves into the cgroup and spins there, not one that spins outside.
cg=/tmp/perf_stat_cgroup.$$
spin='i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'
ok=1
inside=
outside=
if cgroup2_mount $cg; then
	mkdir $cg/pst
	perf stat -x, -a -e task-clock -G pst -- /bin/sh -c \
		"echo \$\$ >$cg/pst/cgroup.procs && $spin" 2>"$out" >/dev/null
	inside=$(stat_value task-clock "$out")
	perf stat -x, -a -e task-clock -G pst -- /bin/sh -c "$spin" \
		2>"$out" >/dev/null
	outside=$(stat_value task-clock "$out")
	# In ms: the spin takes tens of them, nothing else runs there.
	is_number "$inside" && [ "${inside%.*}" -ge 5 ] && ok=0
	case "$outside" in
	0 | 0.* | "<not counted>") ;;
	*) ok=1 ;;
	esac
	rmdir $cg/pst
fi
cgroup2_umount $cg
echo "# task-clock in the cgroup: inside=$inside outside=$outside"
check $ok "perf stat -a -G counts a cgroup" "$out"

rm -f "$out"
tap_exit
