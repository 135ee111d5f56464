#!/bin/bash
# make check: build the kernel ("ours" by default, or "upstream" for the
# reference), boot it on the emulated PMU named by PMU, run the KUnit
# suites built into it and the kselftests, and report.
#
# For KERNEL=ours it then runs the hardware-PMU kselftests on the other
# vendor's flavour and on a CPU without a PMU too (logs:
# build/ours/console-<flavour>.log), and
# checks the emulated PMU itself: the reference kernel, whose x86 driver
# is the independent judge of the emulation, runs them on each flavour
# (HARNESS_PMU_CHECK=0 leaves both out).  The last line sums every run.
. "$(dirname "$0")/lib.sh"
kind=${1:-ours}
# The hardware-PMU kselftests.
PMU_TESTS='hw_* perf_stat_hw_test.sh perf_test_hw_test.sh watchdog_hld_test.sh'

total_pass=0 total_fail=0 total_skip=0 status=0
# Report the run whose logs are in build/$1, named $2.
report() {
	local out line name=$2 rc=0
	out=$(out_dir "$1")
	touch "$out/console.log" "$out/results.log"
	line=$(awk -f "$ROOT/harness/report.awk" "$out/console.log" "$out/results.log") || rc=1
	printf '%s\n' "$line" | sed '$d'
	# shellcheck disable=SC2046
	set -- $(printf '%s\n' "$line" | tail -1)
	echo "$name: $1 passed, $3 failed, $5 skipped"
	total_pass=$((total_pass + $1)) total_fail=$((total_fail + $3))
	total_skip=$((total_skip + $5))
	[ "$rc" = 0 ] || status=1
}

"$ROOT/harness/build.sh" "$kind"
log "booting the $kind kernel (PMU=$PMU)"
"$ROOT/harness/boot.sh" "$kind" check
report "$kind" "$kind kernel, PMU=$PMU"

# Keep build/$1's logs of the last run as console-$2.log, results-$2.log.
keep_logs() {
	for f in console results; do
		mv "$(out_dir "$1")/$f.log" "$(out_dir "$1")/$f-$2.log"
	done
}

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
fi
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
exit $status
