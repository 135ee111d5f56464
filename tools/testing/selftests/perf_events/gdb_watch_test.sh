#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gdb's hardware watchpoints, which it sets through ptrace's debug
# registers (PTRACE_POKEUSER of DR0-DR7), backed by breakpoint events:
#
#  1. gdb starts gdb_watch_prog, stops at main, watches the global
#     `counter' and continues: the watchpoint must be a hardware one and
#     stop the program twice, showing the old and new values each time;
#  2. gdb attaches to gdb_watch_prog while it runs, watches `counter'
#     and continues: it stops on the next increment with old and new
#     values.
#
# Skipped where gdb is not installed.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"
prog=$dir/gdb_watch_prog

tap_require gdb
[ -x "$prog" ] || tap_skip_all "$prog is missing"
tap_plan 2

# Count the lines of file $2 that are exactly $1.
lines() {
	grep -cxF "$1" "$2"
}

out=/tmp/gdb_watch_test.$$
export HOME=/tmp

# 1: a program started by gdb.
timeout 120 gdb -nx -batch -ex 'break main' -ex run -ex 'watch counter' \
	-ex continue -ex continue -ex kill "$prog" >"$out" 2>&1
ok=1
grep -q '^Hardware watchpoint [0-9]*: counter$' "$out" &&
	! grep -q 'Could not insert' "$out" &&
	[ "$(lines 'Old value = 0' "$out")" = 1 ] &&
	[ "$(lines 'New value = 1' "$out")" = 1 ] &&
	[ "$(lines 'Old value = 1' "$out")" = 1 ] &&
	[ "$(lines 'New value = 2' "$out")" = 1 ] && ok=0
check $ok "gdb stops on a hardware watchpoint with old and new values" "$out"

# 2: a running program gdb attaches to.
"$prog" 1200 slow &
pid=$!
sleep 1
timeout 120 gdb -nx -batch -p "$pid" -ex 'watch counter' -ex continue \
	-ex detach >"$out" 2>&1
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
ok=1
old=$(sed -n 's/^Old value = \([0-9]*\)$/\1/p' "$out")
new=$(sed -n 's/^New value = \([0-9]*\)$/\1/p' "$out")
grep -q '^Hardware watchpoint [0-9]*: counter$' "$out" &&
	! grep -q 'Could not insert' "$out" &&
	[ -n "$old" ] && [ -n "$new" ] && [ "$new" = $((old + 1)) ] && ok=0
check $ok "gdb attached to a running program stops on a watchpoint" "$out"

rm -f "$out"
tap_exit
