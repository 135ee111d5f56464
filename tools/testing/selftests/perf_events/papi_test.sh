#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PAPI (Debian's papi-tools, with its own libpfm4) finds the CPU's
# counters through perf_event_open(2) and the cpu PMU's sysfs files, and
# offers its presets only where it knows the CPU model and they count:
#
#  1. papi_avail -a lists the instructions preset (PAPI_TOT_INS);
#  2. papi_command_line counts it, a positive count;
#  3. where the model has one, the conditional-branch preset
#     (PAPI_BR_CN, a model-specific event) counts with the branches
#     preset (PAPI_BR_INS) in one event set: both positive, the
#     conditional ones no more than all branches (within the 0.1% two
#     of PAPI's runs of its loop differ by);
#  4. where the model has them, the taken-branch preset (PAPI_BR_TKN)
#     and the not-taken one (PAPI_BR_NTK) count with PAPI_BR_INS: each
#     positive, together no more than all branches (AMD's have no
#     PAPI_BR_NTK: PAPI_BR_TKN alone there);
#  5. where the model has them, the loads and stores presets
#     (PAPI_LD_INS, PAPI_SR_INS) count with PAPI_TOT_INS: each
#     positive, each no more than the instructions;
#  6. where the model has it, the mispredicted-branch preset
#     (PAPI_BR_MSP) counts with PAPI_BR_INS: positive (the emulated
#     predictor mispredicts every loop's exit), no more than the
#     branches.
#
# Skipped where PAPI is not installed, there is no hardware PMU, or PAPI
# does not know the CPU model (it then disables its perf_event component
# and has no counters, as on the harness's PMU=intel, family 6 model 48).

dir=$(dirname "$0")
. "$dir/perf_tap.sh"

tap_require papi_avail
[ -d /sys/bus/event_source/devices/cpu ] ||
	tap_skip_each 5 "no hardware PMU (no /sys/bus/event_source/devices/cpu)"

tmp=/tmp/papi_test.$$
mkdir -p "$tmp"
paranoid=/proc/sys/kernel/perf_event_paranoid
old_paranoid=$(cat $paranoid)
# PAPI counts its own process in user and kernel mode.
echo 1 >$paranoid

papi_avail -a >"$tmp/avail" 2>&1
if grep -q '^Number Hardware Counters *: *0$' "$tmp/avail"; then
	echo "$old_paranoid" >$paranoid
	rm -rf "$tmp"
	tap_skip_each 5 "PAPI does not know this CPU model: no counters"
fi
tap_plan 5

# The count papi_command_line printed for preset $1 in file $2.
papi_count() {
	sed -n "s/^$1 :[[:space:]]*\\([0-9][0-9]*\\).*/\\1/p" "$2" | head -1
}

# Whether papi_avail lists every preset named.
papi_has() {
	for p; do
		grep -q "^$p " "$tmp/avail" || return 1
	done
}

# Whether $1 is a positive count and $1 + $2 at most $3, within the
# 0.1% two of PAPI's runs of its loop differ by.
papi_le() {
	[ -n "$1" ] && [ -n "$2" ] && [ -n "$3" ] && [ "$1" -gt 0 ] &&
		[ "$(($1 + $2))" -le $(($3 + $3 / 1000)) ]
}

tap_skip_next() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

# The next test: presets $3... counted with preset $1 in one event set,
# each positive and, as $2 says, "together" or "each" no more than $1;
# skipped where PAPI lacks one of them.
papi_parts() {
	whole=$1 how=$2
	shift 2
	if ! papi_has "$whole" "$@"; then
		tap_skip_next "PAPI has no $* on this CPU model"
		return
	fi
	out="$tmp/$1"
	papi_command_line "$@" "$whole" >"$out" 2>&1
	total=$(papi_count "$whole" "$out")
	ok=0 sum=0 counts=
	for p; do
		c=$(papi_count "$p" "$out")
		counts="$counts, $p $c"
		papi_le "$c" 0 "$total" || ok=1
		sum=$((sum + ${c:-0}))
	done
	[ "$how" = each ] || papi_le "$sum" 0 "$total" || ok=1
	check $ok "${counts#, } count, $how no more than $whole ($total)" "$out"
}

grep -q '^PAPI_TOT_INS ' "$tmp/avail"
check $? "papi_avail lists PAPI_TOT_INS" "$tmp/avail"

papi_command_line PAPI_TOT_INS >"$tmp/ins" 2>&1
n=$(papi_count PAPI_TOT_INS "$tmp/ins")
[ -n "$n" ] && [ "$n" -gt 0 ]
check $? "papi_command_line counts PAPI_TOT_INS ($n)" "$tmp/ins"

papi_parts PAPI_BR_INS together PAPI_BR_CN
if papi_has PAPI_BR_NTK; then
	papi_parts PAPI_BR_INS together PAPI_BR_TKN PAPI_BR_NTK
else
	papi_parts PAPI_BR_INS together PAPI_BR_TKN
fi
papi_parts PAPI_TOT_INS each PAPI_LD_INS PAPI_SR_INS
papi_parts PAPI_BR_INS each PAPI_BR_MSP

echo "$old_paranoid" >$paranoid
rm -rf "$tmp"
tap_exit
