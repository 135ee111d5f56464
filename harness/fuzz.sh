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
export HARNESS_FUZZ=1

FUZZ_MINUTES=${FUZZ_MINUTES:-10}
FUZZ_SEED=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
FUZZ_TESTS=${FUZZ_TESTS-alloc_fail_test attr_bounds_test ioctl_errors_test read_size_test mmap_errors_test hostile_user_test race_test throttle_test fuzz_lite_test}
case "$FUZZ_MINUTES$FUZZ_SEED" in
*[!0-9]*) echo "FUZZ_MINUTES and FUZZ_SEED must be numbers" >&2; exit 2 ;;
esac
export FUZZ_MINUTES FUZZ_SEED

out=$(out_dir "$kind")
HARNESS_TESTS=${FUZZ_TESTS:-none} "$ROOT/harness/build.sh" "$kind"
log "fuzzing the $kind kernel (PMU=$PMU) for $FUZZ_MINUTES minutes, seed $FUZZ_SEED"
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
awk -f "$ROOT/harness/fuzz-report.awk" "$out/perf-functions.txt" \
	"$out/console.log" "$out/results.log" >"$out/reports.txt" || rc=1
cat "$out/reports.txt"
exit $rc
