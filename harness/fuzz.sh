#!/bin/bash
# make fuzz: build the fuzzing variant of a kernel ("ours" by default, or
# "upstream"), the guest configuration plus kernel/configs/perf_fuzz.config
# (SLUB, KASAN, kmemleak, fault injection, over the debug fragment's
# lockdep, UBSAN and debug objects), in build/obj/fuzz-<kind> and
# build/fuzz/<kind>; boot it on 2 vCPUs (4 possible), run the
# allocation-failure and hostile-input kselftests, then trinity aimed at
# the perf surface for FUZZ_MINUTES (10) with CPU 1 going off and on line
# underneath, and a kmemleak scan at the end (harness/guest/fuzz).
#
# FUZZ_SANITIZER picks the detector: kasan (the default: KASAN, 2 vCPUs)
# or kcsan (KCSAN in its strict mode with the weak memory model, 4 vCPUs
# as two cores of two threads, and the kselftests that race, FUZZ_BESIDE,
# run beside trinity; a data race reported in perf code is a report, one
# elsewhere in the kernel is listed apart).
# FUZZ_SEED sets trinity's seed (random by default, printed either way),
# FUZZ_TESTS the kselftests that run before it (globs; empty: none).
# The console, the guest's output and the reports are kept in
# build/fuzz/<kind>/: console.log, results.log, reports.txt.  It ends
# with one line, "fuzz: N minutes, N syscalls, N reports", and exits
# non-zero on any report (a WARNING, BUG, Oops, KASAN, UBSAN, lockdep,
# hung-task or RCU-stall splat, a kmemleak object allocated by perf code),
# a failed kselftest or a guest that did not finish.
. "$(dirname "$0")/lib.sh"
kind=${1:-ours}
kernel_check_name "$kind"
FUZZ_SANITIZER=${FUZZ_SANITIZER:-kasan}
case "$FUZZ_SANITIZER" in
kasan) ;;
kcsan)
	# Two cores of two threads: a core's CPU-wide readers (cstate_core)
	# move to the sibling when theirs goes off line.
	export HARNESS_SMP=${HARNESS_SMP:-4,sockets=1,cores=2,threads=2}
	FUZZ_BESIDE=${FUZZ_BESIDE-race_test inherit_test inherit_switch_test exit_test ring_test output_test mmap_test}
	;;
*) echo "FUZZ_SANITIZER must be kasan or kcsan" >&2; exit 2 ;;
esac
export HARNESS_FUZZ=$FUZZ_SANITIZER FUZZ_BESIDE

FUZZ_MINUTES=${FUZZ_MINUTES:-10}
FUZZ_SEED=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
FUZZ_TESTS=${FUZZ_TESTS-alloc_fail_test attr_bounds_test ioctl_errors_test read_size_test mmap_errors_test hostile_user_test race_test throttle_test fuzz_lite_test}
case "$FUZZ_MINUTES$FUZZ_SEED" in
*[!0-9]*) echo "FUZZ_MINUTES and FUZZ_SEED must be numbers" >&2; exit 2 ;;
esac
export FUZZ_MINUTES FUZZ_SEED

out=$(out_dir "$kind")
# The kselftests that run before trinity and those that run beside it.
HARNESS_TESTS=${FUZZ_TESTS:-none}
for t in ${FUZZ_BESIDE:-}; do
	case " $HARNESS_TESTS " in *" $t "*) ;; *) HARNESS_TESTS="$HARNESS_TESTS $t" ;; esac
done
HARNESS_TESTS=$HARNESS_TESTS "$ROOT/harness/build.sh" "$kind"
log "fuzzing the $kind kernel ($FUZZ_SANITIZER, PMU=$PMU) for $FUZZ_MINUTES minutes, seed $FUZZ_SEED"
# Booting a KASAN kernel under TCG and the kselftests take a while; the
# fuzzer stops itself after FUZZ_MINUTES.
HARNESS_TIMEOUT=$((FUZZ_MINUTES * 60 + 2400)) "$ROOT/harness/boot.sh" "$kind" fuzz

# Which functions are perf code: a kmemleak object whose allocation
# backtrace passes through one of them is a perf leak.
obj=$(obj_dir "$kind")
find "$obj/kernel/events" "$obj/arch/x86/events" -name '*.o' ! -name '*.mod.o' \
	-exec nm --defined-only {} + 2>/dev/null |
	awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$out/perf-functions.txt"

touch "$out/console.log" "$out/results.log"
rc=0
awk -f "$ROOT/harness/fuzz-report.awk" -v sanitizer="$FUZZ_SANITIZER" \
	"$out/perf-functions.txt" \
	"$out/console.log" "$out/results.log" >"$out/reports.txt" || rc=1
cat "$out/reports.txt"
exit $rc
