#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Branch stacks through an unmodified perf (Debian's linux-perf), on
# hw_loop_workload's loops, where the PMU keeps last branch records:
#  - perf record -b: perf report's branch view gives the hot loop's own
#    branch (hw_hot to hw_hot) the most samples, and nearly every sample
#    in hw_hot (all but those taken early in a round of it) has that
#    branch, back to the loop's top, in every entry of its stack, four
#    cycles apart where the LBR format has cycles (5, 6, 7 and 0x3f, the
#    architectural LBR, whose entries the emulation times; its model
#    retires an instruction a cycle, and the loop is four), 0 where it
#    has none;
#  - perf record --call-graph lbr: hw_hot's samples have main as their
#    caller, taken from the call stack the LBR keeps (skipped where
#    there is no call-stack mode, before Haswell);
#  - perf's own "Check branch stack sampling" test, where this perf has it.
# Each test skips where perf record -b is refused (no LBR: the flavours
# without one, and our kernel until its driver has one) or perf is not
# installed.

dir=$(dirname "$0")
. "$dir/perf_tap.sh"

tap_require perf
hw_require 3

perf_scratch perf_record_lbr_test
workload=$dir/hw_loop_workload
ev=$(hw_event instructions u)

perf_probe 3 "no branch stack on this PMU (perf record -b refused)" \
	hw_pinned perf record -q -b -e "$ev" -o "$tmp/probe.data" true
tap_plan 3

# The cycles an entry of the hot loop has: the LBR format is in
# PERF_CAPABILITIES (0x345) bits 5:0; where it cannot be read, either.
caps=$(dd if=/dev/cpu/0/msr bs=8 count=1 skip=$((0x345)) iflag=skip_bytes \
	2>/dev/null | od -An -tu8 | tr -d ' ')
case "$caps" in
'') cycles='4|0' ;;
*) case $((caps % 64)) in 5|6|7|63) cycles=4 ;; *) cycles=0 ;; esac ;;
esac

# perf record -b: the first line of the branch view, then the stacks
# (a sample every 10007 instructions: hw_unthrottled).
hw_unthrottled perf record -q -b -e "$ev" -c 10007 -o "$tmp/b.data" \
	"$workload" two 100 >"$tmp/record" 2>&1
perf report -i "$tmp/b.data" --stdio 2>/dev/null |
	grep -v -e '^#' -e '^$' >"$tmp/report"
perf script -i "$tmp/b.data" -F ip,sym,brstack >"$tmp/script" 2>&1
first=$(head -n 1 "$tmp/report")
ok=1
case "$first" in
*"[.] hw_hot "*"[.] hw_hot "*) ok=0 ;;
esac
# The samples in hw_hot: nearly all (those not taken in the first of
# its iterations a round) have its branch in every entry, 4 cycles.
awk -v cycles="^($cycles)\$" '$2 == "hw_hot" {
		n++
		split($3, f, "/")
		top = f[1] "/" f[2]
		for (i = 3; i <= NF; i++) {
			split($i, f, "/")
			if (f[1] "/" f[2] != top || f[6] !~ cycles)
				break
		}
		if (i > NF && NF > 3)
			good++
	}
	END {
		printf "# %d samples in hw_hot, %d with its branch in every entry\n",
		       n, good
		exit !(n > 10 && good * 10 >= n * 9)
	}' "$tmp/script" || ok=1
check $ok "perf record -b: the hot loop's branch, $cycles cycles apart" \
	"$tmp/record" "$tmp/report" "$tmp/script"

# --call-graph lbr: hw_hot's chain goes on to main.
if ! hw_pinned perf record -q --call-graph lbr -e "$ev" \
	-o "$tmp/probe.data" true >"$tmp/probe" 2>&1; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP no call-stack mode (--call-graph lbr refused)"
else
	hw_unthrottled perf record -q --call-graph lbr -e "$ev" -c 10007 \
		-o "$tmp/c.data" "$workload" two 100 >"$tmp/record" 2>&1
	perf report -i "$tmp/c.data" --stdio --no-children 2>/dev/null |
		grep -v -e '^#' -e '^$' >"$tmp/report"
	awk '/\[\.\] hw_hot/ { hot = 1; next }
		hot && /---hw_hot/ { chain = 1; next }
		chain { print $NF == "main" ? "main" : "other"; exit }' \
		"$tmp/report" | grep -qx main
	check $? "perf record --call-graph lbr: main calls hw_hot" \
		"$tmp/record" "$tmp/report"
fi

# perf's own test, if this perf has it.
if perf test list 2>&1 | grep -q "Check branch stack sampling"; then
	hw_pinned perf test -v "Check branch stack sampling" >"$tmp/out" 2>&1
	grep -q ": Ok$" "$tmp/out" && ! grep -q -e FAILED -e ": Skip" "$tmp/out"
	check $? "perf test: check branch stack sampling" "$tmp/out"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP this perf has no branch stack sampling test"
fi

rm -rf "$tmp"
tap_exit
