#!/bin/bash
# make check-busy: the overflow-signal kselftests (and the hardware
# sampling tests) on both kernels, on two vCPUs and on one, while the
# host is busy: two CPU-bound loops per host CPU run beside QEMU, so
# that the guest's vCPUs get a share of the CPU that comes and goes, as
# beside another guest or a build.  Its NMIs then take long enough for
# either kernel to lower perf_event_max_sample_rate and throttle, and
# ticks come late: what delivering every overflow must survive.
# Logs: build/<kernel>/console-busy-<n>cpu.log, results-busy-<n>cpu.log.
. "$(dirname "$0")/lib.sh"
. "$ROOT/harness/report.sh"
tests="$SIGNAL_TESTS hw_sample_test"

for k in ours upstream; do
	HARNESS_TESTS=$tests "$ROOT/harness/build.sh" "$k"
done

hogs=()
stop_hogs() {
	[ "${#hogs[@]}" = 0 ] && return
	kill "${hogs[@]}" 2>/dev/null || true
	wait "${hogs[@]}" 2>/dev/null || true
	hogs=()
}
trap stop_hogs EXIT
for _ in $(seq $((2 * $(nproc)))); do
	sh -c 'while :; do :; done' &
	hogs+=($!)
done

for smp in 2 1; do
	for k in ours upstream; do
		log "booting the $k kernel (PMU=$PMU, $smp vCPU, busy host)"
		HARNESS_SMP=$smp "$ROOT/harness/boot.sh" "$k" check
		report "$k" "$k kernel, PMU=$PMU, $smp vCPU, busy host"
		keep_logs "$k" "busy-${smp}cpu"
	done
done
stop_hogs
report_total
exit $status
