#!/bin/bash
# The emulated PMU is deterministic: boot the reference kernel twice on
# PMU (default intel) under -icount shift=0,sleep=off with no randomness
# (HARNESS_DETERMINISTIC) and compare what perf stat counts, user and
# kernel, for the same command.  Prints both and exits 1 if they differ.
. "$(dirname "$0")/lib.sh"
export PMU=${PMU:-intel} HARNESS_ICOUNT=1 HARNESS_DETERMINISTIC=1
cmd='perf stat -x, -e instructions:u,branches:u,instructions,cycles,branches -- ls / >/dev/null'
"$ROOT/harness/build.sh" upstream "$cmd" >/dev/null
for i in 1 2; do
	"$ROOT/harness/boot.sh" upstream run 2>&1 | tr -d '\r' |
		grep -E '^[0-9]+,' | cut -d, -f1,3 | tr '\n' ' ' >"$BUILD/determinism.$i"
	echo "boot $i: $(cat "$BUILD/determinism.$i")"
done
cmp -s "$BUILD/determinism.1" "$BUILD/determinism.2" && [ -s "$BUILD/determinism.1" ]
