#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Debian's libbpf-tools, unchanged, on our perf events.  They are CO-RE
# programs: they load against the kernel's BTF, attach through libbpf
# (BPF links where the kernel has them) and stream their events back
# through perf ring buffers (bpf_perf_event_output() into a perf event
# array).  Three of them, each on a workload whose answer is known:
#
#	opensnoop	a syscall tracepoint, its records through perf buffers
#	execsnoop	the same, with the argument strings of an exec
#	runqlen		a BPF_PROG_TYPE_PERF_EVENT program on a cpu-clock
#			event of every CPU, sampling at 99 Hz
#
# (Debian's package has no `profile`; runqlen samples the same way.)
# Skipped where the tools or the kernel's BTF are missing.

. "$(dirname "$0")/perf_tap.sh"

for t in opensnoop execsnoop runqlen; do
	command -v $t >/dev/null 2>&1 ||
		tap_skip_each 3 "$t (Debian's libbpf-tools) is not in the guest"
done
[ -e /sys/kernel/btf/vmlinux ] ||
	tap_skip_each 3 "the kernel has no BTF (CONFIG_DEBUG_INFO_BTF)"
mount_tracefs
tap_plan 3

out=/tmp/libbpf_tools_test.$$
ncpu=$(grep -c '^processor' /proc/cpuinfo)
log=/tmp/libbpf_tools_test.$$.err

# Start tool $1 (with its arguments) in the background, output in $out,
# and wait until it has its perf buffer, one BPF output event per CPU,
# which it opens once its programs are attached (its header line would
# tell too, but stdio holds it back when the output is a file): 0 if
# that came within 60 seconds.  $tool_pid is its pid.
tool_start() {
	: >"$out"
	$1 >"$out" 2>"$log" &
	tool_pid=$!
	i=0
	while [ $i -lt 600 ]; do
		n=0
		for fd in /proc/$tool_pid/fd/*; do
			case "$(readlink "$fd")" in
			*perf_event*) n=$((n + 1)) ;;
			esac
		done
		[ $n -ge "$ncpu" ] && return 0
		kill -0 $tool_pid 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Stop the tool with SIGINT, as a user's ^C, and wait for it.
tool_stop() {
	kill -INT $tool_pid 2>/dev/null
	wait $tool_pid 2>/dev/null
}

# 1: opensnoop sees cat open a file, with the descriptor it got.
ok=1
if tool_start opensnoop; then
	cat /etc/harness-kernel >/dev/null
	sleep 1
	tool_stop
	# PID COMM FD ERR PATH
	awk '$2 == "cat" && $3 >= 3 && $4 == 0 &&
		$5 == "/etc/harness-kernel" { found = 1 }
		END { exit !found }' "$out" && ok=0
else
	tool_stop
fi
check $ok "opensnoop reports cat's open of /etc/harness-kernel" "$out" "$log"

# 2: execsnoop sees an exec with its arguments and return value.
ok=1
marker=lbt-$$-marker
if tool_start execsnoop; then
	sh -c "exec /bin/busybox echo $marker" >/dev/null
	sleep 1
	tool_stop
	# PCOMM PID PPID RET ARGS
	awk -v m="$marker" '$4 == 0 && $NF == m && $(NF - 1) == "echo" {
		found = 1 } END { exit !found }' "$out" && ok=0
else
	tool_stop
fi
check $ok "execsnoop reports an exec with its arguments" "$out" "$log"

# 3: runqlen for 4 seconds, with one more spinning task than CPUs: about
# 99 samples a second on each CPU, and on at least a quarter of them a
# task waiting (runqlen counts the tasks queued besides the running one).
spinners=
i=0
while [ $i -le "$ncpu" ]; do
	sh -c 'while :; do :; done' &
	spinners="$spinners $!"
	i=$((i + 1))
done
: >"$out"
timeout 60 runqlen 4 1 >"$out" 2>"$log"
# shellcheck disable=SC2086
kill $spinners 2>/dev/null
wait 2>/dev/null
# "     runqlen  : count  distribution" then "  0  : 123  |***|" lines.
ok=1
awk -v want=$((99 * 4 * ncpu)) '
	$1 ~ /^[0-9]+$/ && $2 == ":" && $3 ~ /^[0-9]+$/ {
		total += $3
		if ($1 > 0)
			queued += $3
	}
	END {
		printf "# %d samples (%d expected), %d with a task queued\n",
			total, want, queued
		exit !(total >= want / 2 && total <= want * 3 / 2 &&
			queued * 4 >= total)
	}' "$out" && ok=0
check $ok "runqlen samples every CPU at 99 Hz and sees the queue" "$out" "$log"

rm -f "$out" "$log"
tap_exit
