#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unmodified perf (Debian's linux-perf) counts software events through
# perf_event_open(2): perf stat on a command, on a command that forks
# (inheritance), with enable_on_exec (perf stat opens its counters
# disabled on the forked command and lets exec enable them), and per
# cgroup (perf stat -a -G, where perf opens one event per CPU with
# PERF_FLAG_PID_CGROUP).  Skipped where perf is not installed.

ksft_skip=4
n=0
failed=0

if ! command -v perf >/dev/null 2>&1; then
	echo "1..0 # SKIP perf is not installed"
	exit $ksft_skip
fi

echo "TAP version 13"
echo "1..4"

# Print the value perf stat -x, reports for event $1 in file $2.
value() {
	awk -F, -v ev="$1" '$3 == ev { print $1 }' "$2"
}

check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=1
	fi
}

out=/tmp/perf_stat_test.$$

# 1: a simple command gets counts for every software event asked for.
perf stat -x, -e task-clock,page-faults,context-switches -- /bin/true \
	2>"$out" >/dev/null
tc=$(value task-clock "$out")
pf=$(value page-faults "$out")
ok=1
case "$tc$pf" in
*[!0-9.]* | "") ;;
*) [ "${pf%.*}" -gt 0 ] && ok=0 ;;
esac
[ $ok = 0 ] || cat "$out"
check $ok "perf stat counts a command"

# 2: children of the command are counted (inheritance): 20 short-lived
# processes fault far more than one.
perf stat -x, -e page-faults -- /bin/true 2>"$out" >/dev/null
one=$(value page-faults "$out")
perf stat -x, -e page-faults -- /bin/sh -c \
	'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do /bin/true; done' \
	2>"$out" >/dev/null
many=$(value page-faults "$out")
ok=1
[ -n "$one" ] && [ -n "$many" ] && [ "$many" -gt $((one * 5)) ] && ok=0
[ $ok = 0 ] || { echo "# one=$one many=$many"; cat "$out"; }
check $ok "perf stat counts the children of a command"

# 3: nothing is counted before exec: perf's own work between fork and
# exec stays out, so the count of a tiny static command is small.
perf stat -x, -e context-switches -- /bin/true 2>"$out" >/dev/null
cs=$(value context-switches "$out")
ok=1
[ -n "$cs" ] && [ "$cs" -lt 50 ] && ok=0
[ $ok = 0 ] || cat "$out"
check $ok "perf stat starts counting at exec"

# 4: perf stat -a -G counts the tasks of a cgroup only: a command that
# moves into the cgroup and spins there, not one that spins outside.  The
# pids controller is enabled at the root for a moment so that new cgroups
# have the implicit perf_event controller (see cgroup_test.c).
cg=/tmp/perf_stat_cgroup.$$
spin='i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'
ok=1
inside=
outside=
if mkdir -p $cg && mount -t cgroup2 none $cg 2>/dev/null; then
	echo +pids >$cg/cgroup.subtree_control 2>/dev/null
	echo -pids >$cg/cgroup.subtree_control 2>/dev/null
	mkdir $cg/pst
	perf stat -x, -a -e task-clock -G pst -- /bin/sh -c \
		"echo \$\$ >$cg/pst/cgroup.procs && $spin" 2>"$out" >/dev/null
	inside=$(value task-clock "$out")
	perf stat -x, -a -e task-clock -G pst -- /bin/sh -c "$spin" \
		2>"$out" >/dev/null
	outside=$(value task-clock "$out")
	# In ms: the spin takes tens of them, nothing else runs there.
	case "$inside" in
	*[!0-9.]* | "") ;;
	*) [ "${inside%.*}" -ge 5 ] && ok=0 ;;
	esac
	case "$outside" in
	0 | 0.* | "<not counted>") ;;
	*) ok=1 ;;
	esac
	rmdir $cg/pst
	umount $cg
fi
rmdir $cg 2>/dev/null
echo "# task-clock in the cgroup: inside=$inside outside=$outside"
[ $ok = 0 ] || cat "$out"
check $ok "perf stat -a -G counts a cgroup"

rm -f "$out"
exit $failed
