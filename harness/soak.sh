#!/bin/bash
# make soak: the long runs that prove the concurrency of the core (not in
# CI): make fuzz, one run after another, with every sanitizer of
# SOAK_SANITIZERS (kcsan kasan) on every flavour of SOAK_FLAVOURS
# (kabylake zen icelake), SOAK_MINUTES (30) of trinity and the racing
# kselftests each, trinity's seed counting up from SOAK_SEED (100).
#
# Each run's console, results and reports are kept in
# build/soak/<n>-<sanitizer>-<flavour>/, and one line per run is added to
# build/soak/runs.txt: the date, the commit, the sanitizer, the flavour,
# the minutes, the seed and fuzz's summary (the kselftests beside
# trinity, KCSAN's data races, the reports).  The exit status is non-zero
# if any run had a report or did not finish.
#
# The defaults are 3 hours of fuzzing and about 4 with the boots and the
# kselftests that run first; the two fuzzing kernels' cold builds add
# about an hour.  SOAK_FLAVOURS=kabylake SOAK_SANITIZERS=kcsan
# SOAK_MINUTES=60 is one hour of one run.
. "$(dirname "$0")/lib.sh"
kind=${1:-ours}
kernel_check_name "$kind"
SOAK_SANITIZERS=${SOAK_SANITIZERS:-kcsan kasan}
SOAK_FLAVOURS=${SOAK_FLAVOURS:-kabylake zen icelake}
SOAK_MINUTES=${SOAK_MINUTES:-30}
seed=${SOAK_SEED:-100}
case "$SOAK_MINUTES$seed" in
*[!0-9]*) echo "SOAK_MINUTES and SOAK_SEED must be numbers" >&2; exit 2 ;;
esac
for f in $SOAK_FLAVOURS; do pmu_cpu "$f" >/dev/null; done

out=$BUILD/soak
mkdir -p "$out"
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$ROOT" diff --quiet HEAD 2>/dev/null || commit="$commit+"
n=$(find "$out" -mindepth 1 -maxdepth 1 -type d | wc -l)
rc=0
runs=0
for s in $SOAK_SANITIZERS; do
	for f in $SOAK_FLAVOURS; do
		n=$((n + 1))
		runs=$((runs + 1))
		log "soak run $n: $s on $f, $SOAK_MINUTES minutes, seed $seed"
		run_rc=0
		PMU=$f FUZZ_SANITIZER=$s FUZZ_MINUTES=$SOAK_MINUTES \
			FUZZ_SEED=$seed "$ROOT/harness/fuzz.sh" "$kind" ||
			run_rc=$?
		[ "$run_rc" = 0 ] || rc=1
		src=$BUILD/fuzz/$kind
		[ "$s" = kcsan ] && src=$BUILD/kcsan/$kind
		dst=$out/$n-$s-$f
		mkdir -p "$dst"
		for file in console.log results.log reports.txt; do
			[ -f "$src/$file" ] && cp "$src/$file" "$dst/"
		done
		summary=$(sed -n 's/^fuzz: //p' "$dst/reports.txt" 2>/dev/null |
			  paste -sd ';' -)
		printf '%s %s %s %s %s min seed %s exit %s: %s\n' \
			"$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$s" "$f" \
			"$SOAK_MINUTES" "$seed" "$run_rc" "$summary" \
			>>"$out/runs.txt"
		seed=$((seed + 1))
	done
done
log "soak: the runs are in $out/runs.txt"
tail -n "$runs" "$out/runs.txt"
exit $rc
