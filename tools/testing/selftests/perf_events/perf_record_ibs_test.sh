#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# AMD's Instruction-Based Sampling through an unmodified perf (Debian's
# linux-perf), CPU-wide (-a) as IBS samples, on hw_loop_workload's hot
# loop:
#  - perf record -R -e ibs_op//: perf report puts hw_hot first, and perf
#    report -D decodes each sample's raw IBS registers (its ibs_op_ctl
#    line), the op's IbsOpRip being the sample's IP;
#  - perf record -e ibs_fetch//: the same, IbsFetchLinAd being the IP;
#  - perf record -e cycles:pp, AMD's precise cycles, which are ibs_op's:
#    hw_hot first (perf decodes raw samples of events it opened on the
#    IBS PMUs only);
#  - perf mem record -a (ibs_op on AMD): samples of hw_walk (its loads;
#    IBS samples every op) load from the array it walks.
# Skipped where there is no ibs_op PMU or perf is not installed.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"

tap_require perf
[ -e /sys/bus/event_source/devices/ibs_op ] ||
	tap_skip_each 4 "no IBS (no ibs_op PMU)"
perf_scratch perf_record_ibs_test
workload=$dir/hw_loop_workload
tap_plan 4

# Record $1 over the workload into $tmp/$2.data; then perf report's
# first line must be in hw_hot, and (where $3 names the register perf
# report -D prints of the decoded raw sample before its sample's line,
# which it does for the IBS PMUs' own events) every sample's IP that
# register.
ibs_record() {
	hw_unthrottled perf record -q -a -R -e "$1" -c 50021 \
		-o "$tmp/$2.data" "$workload" two 1000 >"$tmp/$2.record" 2>&1
	perf report -i "$tmp/$2.data" --stdio 2>/dev/null |
		grep -v -e '^#' -e '^$' >"$tmp/$2.report"
	perf report -D -i "$tmp/$2.data" >"$tmp/$2.dump" 2>&1
	ok=1
	case "$(head -n 1 "$tmp/$2.report")" in
	*"[.] hw_hot"*) ok=0 ;;
	esac
	awk -v reg="$3:" '
		reg != ":" && $1 == reg {
			v = $2
			sub(/^0+/, "", v)
			pending = "0x" v
		}
		/PERF_RECORD_SAMPLE\(/ {
			n++
			for (i = 1; i < NF; i++)
				if ($i ~ /^[0-9]+\/[0-9]+:$/)
					ip = $(i + 1)
			if (pending != "") {
				decoded++
				bad += pending != ip
			}
			pending = ""
		}
		END {
			printf "# %d samples, %d decoded, %d with another IP\n",
			       n, decoded, bad
			exit !(n > 10 && (reg == ":" || (decoded == n && !bad)))
		}' "$tmp/$2.dump" || ok=1
	grep -m1 -B12 "PERF_RECORD_SAMPLE(" "$tmp/$2.dump" >"$tmp/$2.first"
	check $ok "perf record -a -e $1: hw_hot first${3:+, raw samples decoded}" \
		"$tmp/$2.record" "$tmp/$2.report" "$tmp/$2.first"
}

ibs_record ibs_op// op IbsOpRip
ibs_record ibs_fetch// fetch IbsFetchLinAd
ibs_record cycles:pp cycles ""

# perf mem: hw_walk's loads, by their data addresses (the array's
# address and size printed first by the workload).
hw_unthrottled perf mem record -a -c 20011 -o "$tmp/mem.data" \
	"$workload" walk 100 >"$tmp/mem.record" 2>&1
set -- $(grep '^hw_walk_array ' "$tmp/mem.record")
start=${2:-0} size=${3:-0}
perf script -i "$tmp/mem.data" -F ip,sym,addr 2>/dev/null >"$tmp/mem.script"
samples_in_range "$tmp/mem.script" hw_walk "$start" "$size" hw_walk_array \
	>"$tmp/in"
sed '$d' "$tmp/in"
set -- $(tail -n 1 "$tmp/in")
[ "$2" -gt 20 ]
check $? "perf mem record -a: hw_walk's loads load from hw_walk_array" \
	"$tmp/mem.record" "$tmp/mem.script"
rm -rf "$tmp"
tap_exit
