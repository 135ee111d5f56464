#!/bin/bash
# Boot build/<kind>/bzImage with its initramfs in QEMU.
#   boot.sh <kind> check   console to build/<kind>/console.log, test output
#                          to build/<kind>/results.log
#   boot.sh <kind> fuzz    the same, then the fuzzer (harness/fuzz.sh)
#   boot.sh <kind> run     console on standard output
# TCG by default; HARNESS_KVM=1 uses KVM where /dev/kvm really works.
# HARNESS_TCG_THREAD=single runs every vCPU in one host thread, in turns
# (QEMU's -accel tcg,thread=single; distro.sh boot does, see there).
# HARNESS_ICOUNT=1 makes the guest clock follow executed instructions,
# for benchmarks whose ratio between kernels host noise does not move;
# the guest then has one vCPU.  HARNESS_SMP=N gives it N vCPUs otherwise.
. "$(dirname "$0")/lib.sh"
kind=$1
mode=$2
kernel_check_name "$kind"

out=$(out_dir "$kind")
accel=tcg
[ -n "${HARNESS_TCG_THREAD:-}" ] && accel=tcg,thread=$HARNESS_TCG_THREAD
[ "${HARNESS_KVM:-0}" = 1 ] && [ -w /dev/kvm ] && accel=kvm
pmu=${PMU:-none}
cpu=$(pmu_cpu "$pmu")
# HARNESS_DETERMINISTIC=1 (with HARNESS_ICOUNT=1): no randomness from the
# host or the guest (below: nor KASLR), so two boots run the same
# instructions.
[ "${HARNESS_DETERMINISTIC:-0}" = 1 ] && cpu="$cpu,-rdrand,-rdseed"
# Two vCPUs (HARNESS_SMP of them); one under -icount: there a 6.1 guest
# hangs bringing up its second (QEMU 7.2 runs the vCPUs in turns then).
smp=2,maxcpus=4
[ -n "${HARNESS_SMP:-}" ] && smp=$HARNESS_SMP
[ "${HARNESS_ICOUNT:-0}" = 1 ] && smp=1
qemu=("$QEMU_BIN" -L /usr/share/qemu -L /usr/share/seabios
      -machine q35 -accel "$accel" -cpu "$cpu" -smp "$smp" -m 2G
      -nodefaults -display none -no-reboot
      -kernel "$out/bzImage" -initrd "$out/initramfs.cpio.gz")
[ "${HARNESS_ICOUNT:-0}" = 1 ] && qemu+=(-icount shift=0,sleep=off)
# The flavour's devices (lib.sh's pmu_devices), word-split.
# shellcheck disable=SC2207
qemu+=($(pmu_devices "$pmu"))
# HARNESS_QEMU_ARGS: more options, word-split (harness/profile.sh's plugin).
# shellcheck disable=SC2206
[ -n "${HARNESS_QEMU_ARGS:-}" ] && qemu+=($HARNESS_QEMU_ARGS)
# QEMU derives every vCPU's TSC from the host clock: they agree, even when a
# loaded host makes the boot-time check think otherwise.  With an unstable
# TSC, sched_clock (the perf clock) stalls within a tick.
# nmi_watchdog=0: the hard lockup detector would hold a counter on every
# CPU; watchdog_hld_test.sh switches it on for itself.
cmdline="console=ttyS0 panic=-1 tsc=reliable nmi_watchdog=0 harness.mode=$mode"
[ "${HARNESS_DETERMINISTIC:-0}" = 1 ] && cmdline="$cmdline nokaslr norandmaps"
# HARNESS_CMDLINE: more words for the guest (make bench's harness.cpus).
[ -n "${HARNESS_CMDLINE:-}" ] && cmdline="$cmdline $HARNESS_CMDLINE"

if [ "$mode" = check ] || [ "$mode" = fuzz ]; then
	rm -f "$out/console.log" "$out/results.log"
	timeout --foreground "${HARNESS_TIMEOUT:-2400}" "${qemu[@]}" \
		-serial "file:$out/console.log" -serial "file:$out/results.log" \
		-append "$cmdline" </dev/null || true
else
	timeout --foreground "${HARNESS_TIMEOUT:-1200}" "${qemu[@]}" \
		-serial stdio -serial null -append "$cmdline loglevel=4" </dev/null
fi
