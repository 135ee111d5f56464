#!/bin/bash
# Run harness/guest/perf-abi-diff on our kernel and on the 6.1 reference
# and diff what they answer: build/abi-<kind>.txt, build/abi.diff.
#   harness/abi-diff.sh [ARGS]    ARGS go to perf-abi-diff (-s, -c, -v)
# Not part of `make check`: a tool for finding where our ABI differs.
. "$(dirname "$0")/lib.sh"

for kind in ours upstream; do
	"$ROOT/harness/build.sh" "$kind" "perf-abi-diff $*" >/dev/null
	"$ROOT/harness/boot.sh" "$kind" run | tr -d '\r' >"$BUILD/abi-$kind.log"
	grep -a '^ABI' "$BUILD/abi-$kind.log" >"$BUILD/abi-$kind.txt" || true
done

if diff -u "$BUILD/abi-upstream.txt" "$BUILD/abi-ours.txt" >"$BUILD/abi.diff"; then
	echo "no differences ($(grep -c '^ABI ' "$BUILD/abi-ours.txt") lines)"
else
	echo "$(grep -c '^+ABI ' "$BUILD/abi.diff") lines differ: $BUILD/abi.diff"
	exit 1
fi
