#!/bin/bash
# Run harness/guest/perf-abi-diff on our kernel and on the 6.1 reference
# and diff what they answer: build/abi-<kind>.txt, build/abi.diff; with
# PMU=intel or PMU=amd (the emulated PMU the guests get),
# build/abi-<kind>-<pmu>.txt and build/abi-<pmu>.diff.
#   harness/abi-diff.sh [ARGS]    ARGS go to perf-abi-diff (-s, -c, -v, -f hw)
#   PMU=amd harness/abi-diff.sh -f hw   only the hardware events, on AMD
# Not part of `make check`: a tool for finding where our ABI differs.
. "$(dirname "$0")/lib.sh"

sfx=
[ -n "${PMU:-}" ] && sfx=-$PMU && pmu_cpu "$PMU" >/dev/null
for kind in ours upstream; do
	"$ROOT/harness/build.sh" "$kind" "perf-abi-diff $*" >/dev/null
	"$ROOT/harness/boot.sh" "$kind" run | tr -d '\r' >"$BUILD/abi-$kind$sfx.log"
	grep -a '^ABI' "$BUILD/abi-$kind$sfx.log" >"$BUILD/abi-$kind$sfx.txt" || true
done

out=$BUILD/abi$sfx.diff
if diff -u "$BUILD/abi-upstream$sfx.txt" "$BUILD/abi-ours$sfx.txt" >"$out"; then
	echo "no differences ($(grep -c '^ABI ' "$BUILD/abi-ours$sfx.txt") lines)"
else
	echo "$(grep -c '^+ABI ' "$out") lines differ: $out"
	exit 1
fi
