#!/bin/bash
# make bench: run perf-bench on our kernel and on the upstream reference,
# both under QEMU -icount (the guest clock counts executed instructions,
# so host load does not move the numbers), and print each measurement
# side by side with the ratio ours/upstream (below 1: we are faster;
# for samples/s above 1 is better).
. "$(dirname "$0")/lib.sh"

for kind in ours upstream; do
	"$ROOT/harness/build.sh" "$kind" perf-bench >/dev/null
	HARNESS_ICOUNT=1 "$ROOT/harness/boot.sh" "$kind" run |
		tr -d '\r' | grep -E ' (ns/op|records|samples/s)$' \
		>"$ROOT/build/bench-$kind.txt"
done

printf '%-36s %12s %12s %7s\n' measurement ours upstream ratio
paste -d'|' "$ROOT/build/bench-ours.txt" "$ROOT/build/bench-upstream.txt" |
awk -F'|' '{
	n = split($1, o, " "); split($2, u, " ");
	name = o[1]; for (i = 2; i < n - 1; i++) name = name " " o[i];
	ratio = u[n - 1] ? sprintf("%.2f", o[n - 1] / u[n - 1]) : "-";
	printf "%-36s %12s %12s %7s  %s\n", name, o[n - 1], u[n - 1], ratio, o[n];
}'
