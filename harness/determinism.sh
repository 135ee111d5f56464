#!/bin/bash
# The emulated PMU is deterministic: boot the reference kernel twice
# under -icount shift=0,sleep=off with no randomness
# (HARNESS_DETERMINISTIC) and compare what perf stat counts for the same
# command: user and kernel instructions, cycles and branches of ls on
# PMU (default intel), then the events of the caches' and the branch
# predictor's model over three walks of hw_loop_workload's array (twice
# level 2) on skylake.  Prints each boot's counts and exits 1 if a
# pair differs.
. "$(dirname "$0")/lib.sh"
export HARNESS_ICOUNT=1 HARNESS_DETERMINISTIC=1
arch='perf stat -x, -e instructions:u,branches:u,instructions,cycles,branches -- ls / >/dev/null'
model='perf stat -x, -e cache-misses:u,branch-misses:u,L1-dcache-load-misses:u,dTLB-load-misses:u -- /tests/hw_loop_workload walk 3 >/dev/null;'
# Apart, on the four counters: the off-core response events.
model="$model"' perf stat -x, -e LLC-loads:u,LLC-load-misses:u -- /tests/hw_loop_workload walk 3 >/dev/null'

# Boot twice on flavour $1 running $2 (named $3): are the counts equal?
same_twice() {
	local i

	"$ROOT/harness/initramfs.sh" upstream "$2" >/dev/null
	for i in 1 2; do
		PMU=$1 "$ROOT/harness/boot.sh" upstream run 2>&1 | tr -d '\r' |
			grep -E '^[0-9]+,' | cut -d, -f1,3 | tr '\n' ' ' \
			>"$BUILD/determinism.$3.$i"
		echo "$3 on $1, boot $i: $(cat "$BUILD/determinism.$3.$i")"
	done
	cmp -s "$BUILD/determinism.$3.1" "$BUILD/determinism.$3.2" &&
		[ -s "$BUILD/determinism.$3.1" ]
}

"$ROOT/harness/build.sh" upstream "$arch" >/dev/null
status=0
same_twice "${PMU:-intel}" "$arch" arch || status=1
same_twice skylake "$model" model || status=1
exit $status
