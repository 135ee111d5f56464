#!/bin/bash
# What the emulated PMU costs TCG: the host CPU time QEMU spends on the
# same guest (the reference kernel running a shell loop of busybox), on
# Debian's QEMU, on ours with pmu=off, with pmu=on and no counter in use,
# with pmu=on while perf stat counts instructions and branches, while
# it counts branch-misses (the branch predictor runs) and
# cache-references (the caches' model sees every access), and on the
# skylake flavour while perf record samples instructions, without and
# with branch stacks (the LBR recording every branch), and while perf
# mem records loads (PEBS, the caches' model giving each its level).
# Each is the fastest of $RUNS (3) boots; host CPU time, not wall time,
# so that a busy host disturbs it less.
#
#   harness/qemu-cost.sh          (after make check or make run)
#
# QEMU_BASE_BIN=path adds a row for Debian's source built without our
# patches the way qemu.sh builds it, which separates what the patches
# cost from what the build configuration does.
. "$(dirname "$0")/lib.sh"

runs=${RUNS:-3}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
loop='i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'
"$ROOT/harness/build.sh" upstream "sh -c '$loop'" >/dev/null

# Host CPU seconds of one boot with QEMU $1 on flavour $2, command $3.
cost() {
	local best= t i
	"$ROOT/harness/initramfs.sh" upstream "$3" >/dev/null
	for ((i = 0; i < runs; i++)); do
		HARNESS_QEMU_BIN=$1 PMU=$2 /usr/bin/time -o "$tmp" -f '%U %S' \
			"$ROOT/harness/boot.sh" upstream run >/dev/null 2>&1
		t=$(tail -1 "$tmp" | awk '{ print $1 + $2 }')
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then
			best=$t
		fi
	done
	echo "$best"
}

deb=$(cost /usr/bin/qemu-system-x86_64 none "sh -c '$loop'")
base=
[ -n "${QEMU_BASE_BIN:-}" ] && base=$(cost "$QEMU_BASE_BIN" none "sh -c '$loop'")
off=$(cost "$QEMU_BIN" none "sh -c '$loop'")
on=$(cost "$QEMU_BIN" intel "sh -c '$loop'")
counting=$(cost "$QEMU_BIN" intel "perf stat -e instructions,branches sh -c '$loop'")
misses=$(cost "$QEMU_BIN" intel "perf stat -e branch-misses sh -c '$loop'")
caches=$(cost "$QEMU_BIN" intel "perf stat -e cache-references sh -c '$loop'")
rec="perf record -q -o /tmp/perf.data -e instructions -c 1000003"
sampling=$(cost "$QEMU_BIN" skylake "$rec sh -c '$loop'")
lbr=$(cost "$QEMU_BIN" skylake "$rec -b sh -c '$loop'")
mem=$(cost "$QEMU_BIN" skylake "perf mem -t load record -q -o /tmp/perf.data sh -c '$loop'")
printf '%-44s %8s %6s\n' "host CPU seconds, fastest of $runs boots" seconds ratio
printf '%-44s %8.2f %6s\n' "Debian's QEMU" "$deb" 1.00
for row in ${base:+"unpatched source, same build:$base"} "ours, pmu=off:$off" "ours, pmu=on, no counter in use:$on" \
	   "ours, pmu=on, perf stat counting:$counting" \
	   "ours, perf stat branch-misses (predictor):$misses" \
	   "ours, perf stat cache-references (caches):$caches" \
	   "ours, skylake, perf record sampling:$sampling" \
	   "ours, skylake, perf record -b (LBR):$lbr" \
	   "ours, skylake, perf mem record (PEBS, caches):$mem"; do
	printf '%-44s %8.2f %6.2f\n' "${row%%:*}" "${row##*:}" \
		"$(awk "BEGIN { print ${row##*:} / $deb }")"
done
