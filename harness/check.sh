#!/bin/bash
# make check: build the kernel ("ours" by default, or "upstream" for the
# reference), boot it on the emulated PMU named by PMU, run the KUnit
# suites built into it and the kselftests, and report.
#
# It then runs the hardware-PMU kselftests on the other
# vendor's flavour and on a CPU without a PMU too (logs:
# build/<kernel>/console-<flavour>.log), the overflow-signal tests on one
# vCPU of each flavour (console-<flavour>-1cpu.log), the hardware tests
# on icelake, and with rr and PAPI on the flavours of a CPU model they
# know (skylake and zen: the model's own events, which rr needs), with
# KVM's virtual PMU in a nested guest on zen (console-icelake.log,
# console-skylake.log, console-zen.log), the power and C-state PMUs
# on goldmontplus, a machine without a hypervisor
# (console-goldmontplus.log), and with Intel's client uncore on kabylake
# (console-kabylake.log); HARNESS_PMU_CHECK=0 leaves all that out.
# The same on KERNEL=upstream is the reference: 6.1's x86 driver is the
# independent judge of the emulation, and 6.1 the judge of the tests,
# which must pass there too (kept out of CI's make check for its time).
# Only ours is checked against Debian's configuration's callers.  The
# last line sums every run.
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
# the C-state residency PMUs, AMD's L3 and data fabric, Intel's client
# uncore): on zen (AMD's RAPL and uncore), and on goldmontplus and
# kabylake, the flavours without the hypervisor bit that 6.1 needs for
# C-states and Intel's uncore.
PACKAGE_PMU_TESTS='power_pmu_test cstate_pmu_test perf_stat_package_test.sh'
PACKAGE_PMU_TESTS="$PACKAGE_PMU_TESTS amd_uncore_test intel_uncore_test"

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
# KVM's virtual PMU in a nested guest too and IBS (hw_ibs_test, perf on
# it, and the refusals' reasons of IBS), and the hardware tests and rr
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
	HARNESS_TESTS="$MODEL_TESTS rr_test.sh papi_test.sh $KVM_TESTS $PACKAGE_PMU_TESTS refusal_reason_test perf_record_ibs_test.sh" \
		"$ROOT/harness/build.sh" "$k"
	log "booting the $k kernel (PMU=zen, hardware tests, IBS, rr, KVM's virtual PMU)"
	PMU=zen "$ROOT/harness/boot.sh" "$k" check
	report "$k" "$k kernel, PMU=zen, hardware tests, rr, KVM's virtual PMU"
	keep_logs "$k" zen
	HARNESS_TESTS=$PACKAGE_PMU_TESTS "$ROOT/harness/build.sh" "$k"
	log "booting the $k kernel (PMU=goldmontplus, bare metal: RAPL and C-states)"
	PMU=goldmontplus "$ROOT/harness/boot.sh" "$k" check
	report "$k" "$k kernel, PMU=goldmontplus, the power and cstate PMUs"
	keep_logs "$k" goldmontplus
	log "booting the $k kernel (PMU=kabylake, bare metal: RAPL, C-states, uncore)"
	PMU=kabylake "$ROOT/harness/boot.sh" "$k" check
	report "$k" "$k kernel, PMU=kabylake, the power, cstate and uncore PMUs"
	keep_logs "$k" kabylake
}

"$ROOT/harness/build.sh" "$kind"
log "booting the $kind kernel (PMU=$PMU)"
"$ROOT/harness/boot.sh" "$kind" check
report "$kind" "$kind kernel, PMU=$PMU"

if [ "${HARNESS_PMU_CHECK:-1}" = 1 ]; then
	# The driver on the other vendor's flavour too (its hardware tests).
	case $PMU in intel) other=amd ;; amd) other=intel ;; *) other= ;; esac
	if [ -n "$other" ]; then
		keep_logs "$kind" "$PMU"
		HARNESS_TESTS=$PMU_TESTS "$ROOT/harness/build.sh" "$kind"
		[ -s "$(out_dir "$kind")/initramfs/tests/list" ] ||
			{ echo "no hardware-PMU kselftest to run" >&2; exit 1; }
		log "booting the $kind kernel (PMU=$other, hardware tests)"
		PMU=$other "$ROOT/harness/boot.sh" "$kind" check
		report "$kind" "$kind kernel, PMU=$other, hardware tests"
		keep_logs "$kind" "$other"
		# ... and with no PMU at all (KUnit, and the tests that skip).
		log "booting the $kind kernel (PMU=none, KUnit and hardware tests)"
		PMU=none "$ROOT/harness/boot.sh" "$kind" check
		report "$kind" "$kind kernel, PMU=none"
		keep_logs "$kind" none
		# The overflow signals on one vCPU, on both flavours.
		signals_one_cpu "$kind" intel amd
		models_and_kvm "$kind"
		for f in console results; do
			mv "$(out_dir "$kind")/$f-$PMU.log" \
				"$(out_dir "$kind")/$f.log"
		done
	fi
fi
report_total
exit $status
