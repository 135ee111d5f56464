#!/bin/bash
# make models: every family of CPU models that Linux 6.1 tells apart, each
# an emulated flavour (PMU_MODELS in harness/lib.sh), booted with our
# kernel and with 6.1's.  On each: the driver's boot line,
# perf-hw-map's table of what it programs for every generic and cache
# event and which raw events it constrains (-r 0), and what
# perf-abi-diff's hardware families answer (-f hw).  Then a table:
# flavour, 6.1's boot line, ours, and how many lines of the two maps
# and of the two ABI answers differ (both in
# build/models/<kernel>-<flavour>.txt).
#
#   harness/models.sh [flavour...]       all of PMU_MODELS by default
#   MODELS_KERNELS=upstream              one kernel only (default: both)
#   MODELS_RAW=0                         no raw scan (a minute less a boot)
#   MODELS_ABI=0                         no perf-abi-diff -f hw
#   MODELS_TESTS=1                       also the hardware kselftests of
#                                        make check on each flavour
#
# The exit status is 0 when every flavour's maps and ABI answers are
# identical (but for the known differences) and, with MODELS_TESTS=1,
# every test passed.
. "$(dirname "$0")/lib.sh"
. "$ROOT/harness/report.sh"
flavours=${*:-$PMU_MODELS}
kernels=${MODELS_KERNELS:-upstream ours}
out=$BUILD/models
mkdir -p "$out"
for f in $flavours; do pmu_cpu "$f" >/dev/null; done

raw="-r 0"
[ "${MODELS_RAW:-1}" = 0 ] && raw=
# The boot line (6.1 prints it in pieces, which another CPU's message
# may split into two records: the piece that ends it is kept too), the
# cpu PMU's sysfs files (but caps/gp_counters and
# caps/fixed_counters, our documented extension), then the map; on a
# hybrid, the files and map of each kind's PMU, cpu_core and cpu_atom
# (their lines name them).
# shellcheck disable=SC2016
cmd='dmesg | sed -n "s/^\[[^]]*\] \(Performance Events: \|.*PMU driver\.$\)/BOOT &/p"; '
# shellcheck disable=SC2016
cmd="$cmd"'for p in cpu cpu_core cpu_atom; do '
# shellcheck disable=SC2016
cmd="$cmd"'cd /sys/bus/event_source/devices/$p 2>/dev/null || continue; '
# shellcheck disable=SC2016
cmd="$cmd"'pre=$p/; [ $p = cpu ] && pre=; '
# shellcheck disable=SC2016
cmd="$cmd"'for f in format/* events/* caps/* type rdpmc freeze_on_smi cpus; do '
# shellcheck disable=SC2016
cmd="$cmd"'case $f in caps/*_counters) continue ;; esac; '
# shellcheck disable=SC2016
cmd="$cmd"'[ -f "$f" ] && echo "MAP sysfs $pre$f: $(cat "$f")"; done; cd /; '
# shellcheck disable=SC2016
cmd="$cmd"'if [ $p = cpu ]; then perf-hw-map '"$raw"'; '
# shellcheck disable=SC2016
cmd="$cmd"'else perf-hw-map -p $p '"$raw"'; fi; done'
# On a hybrid, on the big cores (the event's user page shows its counter
# only on a CPU of its PMU).
if [ "${MODELS_ABI:-1}" != 0 ]; then
	# shellcheck disable=SC2016
	cmd="$cmd"'; c=/sys/bus/event_source/devices/cpu_core/cpus; pin=; '
	# shellcheck disable=SC2016
	cmd="$cmd"'[ -f $c ] && pin="taskset -c $(cat $c)"; '
	cmd="$cmd"'$pin perf-abi-diff -f hw'
fi
# One BOOT line: "Performance Events: " and what follows, up to the
# record that ends in "driver.".
boot_join() {
	awk '/^BOOT / {
		sub(/^BOOT \[[^]]*\] /, "")
		if (!boot && sub(/^Performance Events: /, "")) {
			boot = $0
		} else if (boot && boot !~ /driver\.$/) {
			boot = boot $0
		}
		next
	}
	boot != "" && !done { print "BOOT " boot; done = 1 }
	{ print }
	END { if (boot != "" && !done) print "BOOT " boot }'
}

for k in $kernels; do
	"$ROOT/harness/build.sh" "$k" "$cmd"
	for f in $flavours; do
		log "the $k kernel on the $f flavour: its map"
		PMU=$f "$ROOT/harness/boot.sh" "$k" run >"$out/$k-$f.log" 2>&1 || true
		tr -d '\r' <"$out/$k-$f.log" | grep -aE '^(BOOT|MAP|ABI) ' |
			boot_join >"$out/$k-$f.txt" || true
	done
done

if [ "${MODELS_TESTS:-0}" = 1 ]; then
	for k in $kernels; do
		HARNESS_TESTS='hw_* perf_stat_hw_test.sh perf_test_hw_test.sh perf_record_lbr_test.sh' \
			"$ROOT/harness/build.sh" "$k"
		for f in $flavours; do
			log "the $k kernel on the $f flavour: hardware tests"
			PMU=$f "$ROOT/harness/boot.sh" "$k" check
			report "$k" "$k kernel, PMU=$f, hardware tests"
			keep_logs "$k" "model-$f"
		done
	done
fi

# The table.  A difference harness/models-known.txt lists is counted
# apart and does not fail the run.
known_for() {
	local glob re
	shopt -s extglob
	while IFS=$'\t' read -r glob re; do
		case "$glob" in '#'*|'') continue ;; esac
		# shellcheck disable=SC2254
		case "$1" in $glob) printf '%s|' "$re" ;; esac
	done <"$ROOT/harness/models-known.txt" | sed 's/|$//'
}
boot_line() { sed -n 's/^BOOT //p' "$out/$1-$2.txt" 2>/dev/null | head -1; }
differ=0
printf '%-15s | %-45s | %-45s | %s\n' flavour "6.1" ours "lines differing"
for f in $flavours; do
	# A kernel whose map or ABI answers did not come out (the guest
	# failed) is a difference too.
	n="no map"
	abi='^MAP '
	[ "${MODELS_ABI:-1}" = 0 ] || abi='^ABI [0-9]+ '
	if grep -q '^MAP .*general counters' "$out/upstream-$f.txt" 2>/dev/null &&
	   grep -q '^MAP .*general counters' "$out/ours-$f.txt" 2>/dev/null &&
	   grep -qE "$abi" "$out/upstream-$f.txt" &&
	   grep -qE "$abi" "$out/ours-$f.txt"; then
		diff <(grep -E '^(MAP|ABI) ' "$out/upstream-$f.txt") \
		     <(grep -E '^(MAP|ABI) ' "$out/ours-$f.txt") |
			sed -n 's/^[<>] //p' >"$out/diff-$f.txt" || true
		known=$(known_for "$f")
		n=$(grep -cvE "${known:-^$}" "$out/diff-$f.txt" || true)
		k=$(($(wc -l <"$out/diff-$f.txt") - n))
		[ "$k" = 0 ] || n="$n (and $k known)"
	fi
	[ "${n%% *}" = 0 ] || differ=1
	printf '%-15s | %-45s | %-45s | %s\n' "$f" "$(boot_line upstream "$f")" \
		"$(boot_line ours "$f")" "$n"
done
[ "${MODELS_TESTS:-0}" = 1 ] && report_total
[ "$differ" = 0 ] && [ "$status" = 0 ]
