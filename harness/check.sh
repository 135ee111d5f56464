#!/bin/bash
# make check: build the kernel ("ours" by default, or "upstream" for the
# reference), boot it on the emulated PMU named by PMU, run the KUnit
# suites built into it and the kselftests, and report.
#
# For KERNEL=ours it then runs the hardware-PMU kselftests on the other
# vendor's flavour and on a CPU without a PMU too (logs:
# build/ours/console-<flavour>.log), the overflow-signal tests on one
# vCPU of each flavour (console-<flavour>-1cpu.log), the hardware tests
# on icelake, and with rr and PAPI on the flavours of a CPU model they
# know (skylake and zen: the model's own events, which rr needs), with
# KVM's virtual PMU in a nested guest on zen (console-icelake.log,
# console-skylake.log, console-zen.log), the power and C-state PMUs
# on goldmontplus, a machine without a hypervisor
# (console-goldmontplus.log), and
# checks the emulated PMU itself: the reference kernel, whose x86 driver
# is the independent judge of the emulation, runs them on each flavour,
# and the overflow-signal tests on one vCPU (HARNESS_PMU_CHECK=0 leaves
# all that out).  The last line sums every run.
. "$(dirname "$0")/lib.sh"
. "$ROOT/harness/report.sh"
kind=${1:-ours}
# The hardware-PMU kselftests (MODEL_TESTS), and with the overflow-signal
# tests (PMU_TESTS).  On the CPU models, the signal tests (a minute a
# boot) run on skylake, the one whose PMI is perfmon v4's that rr and
# PAPI are checked on, and the hard lockup detector's test, which locks
# a CPU up for half a minute or more, on the hybrid, whose kinds of
# core give it different counters (and in the first boot, with all the
# tests).
MODEL_TESTS='hw_* perf_stat_hw_test.sh perf_test_hw_test.sh perf_record_lbr_test.sh'
MODEL_TESTS="$MODEL_TESTS perf_mem_test.sh perf_c2c_test.sh"
PMU_TESTS="$MODEL_TESTS $SIGNAL_TESTS"
HLD_TEST=watchdog_hld_test.sh
# The PMUs of a package, not of the core's counters (RAPL's power PMU,
# the C-state residency PMUs): on zen (AMD's RAPL) and on goldmontplus,
# the flavour without the hypervisor bit that 6.1 needs for C-states.
PACKAGE_PMU_TESTS='power_pmu_test cstate_pmu_test perf_stat_package_test.sh'

# Boot kernel $1 on one vCPU with the overflow-signal tests, on each
# flavour after it (logs: build/$1/console-<flavour>-1cpu.log).
signals_one_cpu() {
	local k=$1 flavour
	shift
	HARNESS_TESTS=$SIGNAL_TESTS "$ROOT/harness/build.sh" "$k"
	for flavour in "$@"; do
		log "booting the $k kernel (PMU=$flavour, 1 vCPU, overflow signals)"
		HARNESS_SMP=1 PMU=$flavour "$ROOT/harness/boot.sh" "$k" check
		report "$k" "$k kernel, PMU=$flavour, 1 vCPU, overflow signals"
		keep_logs "$k" "$flavour-1cpu"
	done
}

# The guard of the distribution's kernel: every caller of perf still
# compiles with Debian's configuration, and finds what it calls.
if [ "$kind" = ours ] && [ "${HARNESS_DISTRO_CHECK:-1}" = 1 ]; then
	"$ROOT/harness/deps.sh"
	"$ROOT/harness/tree.sh" ours
	"$ROOT/harness/distro.sh" callers ours
fi

# A CPU model's own events (hw_branch_kind_test, hw_amd_pair_test,
# hw_model_test, ...) and rr and PAPI, which know the model, with the other
# hardware tests: kernel $1 on a hybrid, alderlake (its cpu_core and
# cpu_atom PMUs: hw_hybrid_test; the tests of the cpu PMU skip), on the
# skylake flavour, then on zen with
# KVM's virtual PMU in a nested guest too, and the hardware tests and rr
# on a modern Intel model, icelake (eight counters, topdown; PAPI's
# library does not take it for an Ice Lake, on either kernel) (logs:
# build/$1/console-skylake.log, console-zen.log, console-icelake.log,
# console-alderlake.log).
models_and_kvm() {
	local k=$1
	HARNESS_TESTS="$MODEL_TESTS $HLD_TEST" "$ROOT/harness/build.sh" "$k"
	log "booting the $k kernel (PMU=alderlake, a hybrid, hardware tests)"
	PMU=alderlake "$ROOT/harness/boot.sh" "$k" check
	report "$k" "$k kernel, PMU=alderlake (hybrid), hardware tests"
	keep_logs "$k" alderlake
	HARNESS_TESTS="$MODEL_TESTS rr_test.sh" "$ROOT/harness/build.sh" "$k"
	log "booting the $k kernel (PMU=icelake, hardware tests and rr)"
	PMU=icelake "$ROOT/harness/boot.sh" "$k" check
	report "$k" "$k kernel, PMU=icelake, hardware tests and rr"
	keep_logs "$k" icelake
	HARNESS_TESTS="$PMU_TESTS rr_test.sh papi_test.sh" \
		"$ROOT/harness/build.sh" "$k"
	log "booting the $k kernel (PMU=skylake, hardware tests and rr)"
	PMU=skylake "$ROOT/harness/boot.sh" "$k" check
	report "$k" "$k kernel, PMU=skylake, hardware tests and rr"
	keep_logs "$k" skylake
	HARNESS_TESTS="$MODEL_TESTS rr_test.sh papi_test.sh $KVM_TESTS $PACKAGE_PMU_TESTS" \
		"$ROOT/harness/build.sh" "$k"
	log "booting the $k kernel (PMU=zen, hardware tests, rr, KVM's virtual PMU)"
	PMU=zen "$ROOT/harness/boot.sh" "$k" check
	report "$k" "$k kernel, PMU=zen, hardware tests, rr, KVM's virtual PMU"
	keep_logs "$k" zen
	HARNESS_TESTS=$PACKAGE_PMU_TESTS "$ROOT/harness/build.sh" "$k"
	log "booting the $k kernel (PMU=goldmontplus, bare metal: RAPL and C-states)"
	PMU=goldmontplus "$ROOT/harness/boot.sh" "$k" check
	report "$k" "$k kernel, PMU=goldmontplus, the power and cstate PMUs"
	keep_logs "$k" goldmontplus
}

"$ROOT/harness/build.sh" "$kind"
log "booting the $kind kernel (PMU=$PMU)"
"$ROOT/harness/boot.sh" "$kind" check
report "$kind" "$kind kernel, PMU=$PMU"

if [ "$kind" = ours ] && [ "${HARNESS_PMU_CHECK:-1}" = 1 ]; then
	# Our driver on the other vendor's flavour too (its hardware tests).
	case $PMU in intel) other=amd ;; amd) other=intel ;; *) other= ;; esac
	if [ -n "$other" ]; then
		keep_logs ours "$PMU"
		HARNESS_TESTS=$PMU_TESTS "$ROOT/harness/build.sh" ours
		log "booting the ours kernel (PMU=$other, hardware tests)"
		PMU=$other "$ROOT/harness/boot.sh" ours check
		report ours "ours kernel, PMU=$other, hardware tests"
		keep_logs ours "$other"
		# ... and with no PMU at all (KUnit, and the tests that skip).
		log "booting the ours kernel (PMU=none, KUnit and hardware tests)"
		PMU=none "$ROOT/harness/boot.sh" ours check
		report ours "ours kernel, PMU=none"
		keep_logs ours none
		# The overflow signals on one vCPU, on both flavours.
		signals_one_cpu ours intel amd
		models_and_kvm ours
		for f in console results; do
			mv "$(out_dir ours)/$f-$PMU.log" "$(out_dir ours)/$f.log"
		done
	fi

	HARNESS_TESTS=$PMU_TESTS "$ROOT/harness/build.sh" upstream
	[ -s "$(out_dir upstream)/initramfs/tests/list" ] ||
		{ echo "no hardware-PMU kselftest to run" >&2; exit 1; }
	for flavour in intel amd; do
		log "checking the emulated $flavour PMU with the upstream kernel"
		PMU=$flavour "$ROOT/harness/boot.sh" upstream check
		report upstream "emulated $flavour PMU under upstream's driver"
		keep_logs upstream "$flavour"
	done
	# As ours above: on the Intel and AMD flavours' runs.
	[ -z "$other" ] || signals_one_cpu upstream intel amd
	[ -z "$other" ] || models_and_kvm upstream
fi
report_total
exit $status
