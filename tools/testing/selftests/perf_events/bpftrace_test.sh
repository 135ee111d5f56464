#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Debian's bpftrace, unchanged, on our perf events: each probe kind it
# builds on perf_event_open(2) (timers, software and hardware counters,
# tracepoints, kprobes, uprobes), with printf (which comes back through
# BPF output events and perf ring buffers) and kernel and user stacks,
# each on a workload whose answer is known.  bpftrace and the LLVM it
# compiles with are large (about 200 MiB), so only `make bpftrace` puts
# them in the guest; elsewhere this is skipped.

. "$(dirname "$0")/perf_tap.sh"
dir=$(cd "$(dirname "$0")" && pwd)
loops=1000

command -v bpftrace >/dev/null 2>&1 ||
	tap_skip_each 9 "bpftrace is not in the guest (make bpftrace)"
mount_tracefs
tap_plan 9

out=/tmp/bpftrace_test.$$
# bpftrace -e $1 -c $2, its output in $out; its exit status.
bt() {
	: >"$out"
	# Appending: bpftrace and the command write to it at once.
	timeout 120 bpftrace -e "$1" -c "$2" >>"$out" 2>&1
}

# 1: interval: three ticks, then exit.
timeout 120 bpftrace -e 'interval:ms:100 { @n++; printf("tick %d\n", @n);
	if (@n == 3) { exit(); } } END { clear(@n); }' >"$out" 2>&1
ok=1
[ "$(grep -c '^tick [123]$' "$out")" = 3 ] && ok=0
check $ok "interval:ms:100 ticks three times" "$out"

# 2: a syscall tracepoint with printf, through perf buffers.
bt 'tracepoint:syscalls:sys_enter_openat /pid == cpid/ {
	printf("open %s\n", str(args->filename)); }' \
	"cmp /etc/harness-kernel /etc/harness-kernel"
ok=1
grep -q '^open /etc/harness-kernel$' "$out" && ok=0
check $ok "tracepoint:syscalls:sys_enter_openat prints the file opened" "$out"

# 3: kprobe and kretprobe on the getppid system call, perf's benchmark
# making exactly $loops of them.
bt "kprobe:__x64_sys_getppid /pid == cpid/ { @k = count(); }
	kretprobe:__x64_sys_getppid /pid == cpid/ { @r = count(); }" \
	"perf bench syscall basic --loop $loops"
ok=1
grep -q "^@k: $loops\$" "$out" && grep -q "^@r: $loops\$" "$out" && ok=0
check $ok "kprobe and kretprobe count each getppid()" "$out"

# 4: a uprobe on a function the workload calls exactly 100 times.
bt "uprobe:$dir/hw_loop_workload:hw_cold { @u = count(); }" \
	"$dir/hw_loop_workload two 100"
ok=1
grep -q '^@u: 100$' "$out" && ok=0
check $ok "uprobe counts each call of hw_cold()" "$out"

# 5: software:page-faults:1 sees the workload's 256 fresh pages.
bt 'software:page-faults:1 /pid == cpid/ { @f = count(); }' \
	"$dir/perf_record_workload faults"
ok=1
f=$(sed -n 's/^@f: //p' "$out")
is_count "$f" && [ "$f" -ge 256 ] && ok=0
check $ok "software:page-faults:1 counts the faults" "$out"

# 6: profile:hz:99 with user stacks, and kernel stacks everywhere.  The
# workload is a static program at 0x400000: its spinning stack,
# rec_spin_inner() in rec_spin_outer() in main() in the C library's
# start, is four frames of it or more.  (bpftrace prints them as
# addresses, on 6.1 too: it does not find the symbols of a static
# program here.)
bt 'profile:hz:99 /pid == cpid/ { @u[ustack] = count(); }
	profile:hz:99 { @ks[kstack] = count(); } END { clear(@ks); }' \
	"$dir/perf_record_workload spin"
ok=1
awk '/^@u\[/ { n = 0; next }
	/^ *0x4[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/ { n++; next }
	/^\]: / { if (n >= 4) { split($0, c, ": "); s += c[2] } }
	END { exit !(s >= 10) }' "$out" && ok=0
check $ok "profile:hz:99 samples the workload's user stacks" "$out"

# 7: kernel stacks, at a kprobe: the probed function's callers.
bt 'kprobe:__x64_sys_getppid /pid == cpid/ { @[kstack] = count(); }' \
	"perf bench syscall basic --loop 10"
ok=1
grep -q '__x64_sys_getppid' "$out" && grep -q 'do_syscall_64' "$out" && ok=0
check $ok "kstack at a kprobe names its callers" "$out"

# 8: hardware:instructions: a sample each million user instructions of a
# 100-million instruction loop, where the CPU has a PMU.
if [ -e /sys/bus/event_source/devices/cpu/type ]; then
	bt 'hardware:instructions:1000000 /pid == cpid/ { @h = count(); }' \
		"$dir/hw_loop_workload loop 25000000"
	ok=1
	h=$(sed -n 's/^@h: //p' "$out")
	is_count "$h" && [ "$h" -ge 100 ] && [ "$h" -le 130 ] && ok=0
	check $ok "hardware:instructions:1000000 samples the loop" "$out"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP no hardware PMU"
fi

# 9: perf record -a while bpftrace loads, runs and unloads a program:
# the program's KSYMBOL record lets perf report name the samples in its
# JIT code, bpf_prog_<tag>_<name>.  The program squares a number a
# hundred times (no compiler folds that), so that its instructions get
# samples: instructions with a fixed period where there is a PMU.
ev="-e cpu-clock -c 50000"
[ -e /sys/bus/event_source/devices/cpu/type ] && ev="-e instructions -c 100000"
: >"$out"
# shellcheck disable=SC2086
timeout 180 perf record -q -a $ev -o "$out.data" -- \
	bpftrace -e 'kprobe:__x64_sys_getppid { $x = nsecs;
		unroll(100) { $x = $x * $x + 1; } @k = sum($x); }' \
	-c "perf bench syscall basic --loop 50000" >"$out" 2>&1
perf report -i "$out.data" --stdio --sort sym >"$out.report" 2>>"$out"
ok=1
grep -q '\[k\] bpf_prog_[0-9a-f]*___x64_sys_getpp' "$out.report" && ok=0
check $ok "perf record -a names a bpftrace program's samples" "$out" \
	"$out.report"
rm -f "$out.data" "$out.data.old" "$out.report"

rm -f "$out"
tap_exit
