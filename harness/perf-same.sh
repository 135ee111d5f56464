#!/bin/bash
# make perf-same: Debian's perf, the same commands, on our kernel and on
# the 6.1 reference, both booted on PMU (default skylake) under -icount
# with no randomness (HARNESS_ICOUNT, HARNESS_DETERMINISTIC): the user
# space runs the same instructions at the same addresses on both, so the
# user-only samples of a fixed period fall on the same instructions, and
# what perf prints of them must be the same lines.
#   perf record -b                  (branch stacks of the LBR)
#   perf record --call-graph lbr    (call stacks of the LBR)
#   perf record -e cycles:ppp       (PEBS; cycles is PREC_DIST's alias)
#   perf record -e instructions:pp  (PEBS with each record's registers, --intr-regs)
#   perf mem record, perf mem report
# (perf c2c needs two CPUs, which -icount does not give: its
# perf_c2c_test.sh passes on both kernels.)
# The branch stacks are compared without their predicted and mispredicted
# flags: the emulated predictor (QEMU patch 23) learns from the kernel's
# branches as well as the user's, and the two kernels' differ, so a user
# branch now and then finds it in another state.
# Each command's output lands in build/same/<kind>/<name>.txt, without
# what differs between boots of one kernel too (times, pids, the host's
# and the kernel's names: perf script prints no such field here); build/same/<name>.diff has what differs
# between the kernels.  Exits 1 if anything does.  About 10 minutes.
. "$(dirname "$0")/lib.sh"
export HARNESS_ICOUNT=1 HARNESS_DETERMINISTIC=1
export PMU=${PMU:-skylake}
out=$BUILD/same
rm -rf "$out"
mkdir -p "$out"

# The guest's script: each command between "SAME <name>" and "SAME end"
# lines.  The workloads are hw_loop_workload's (the kselftests'); period
# and sample types fixed, user space only.  The --stdio reports leave out
# their headers (the kernel's and host's names, the sample counts' file
# sizes).
W=/tests/hw_loop_workload
D=/tmp/same.data
same() {
	printf 'echo SAME %s; %s 2>&1; echo SAME end; ' "$1" "$2"
}
rec="perf record -q -o $D"
script="perf script -i $D -F event,ip,sym,period"
report="perf report -i $D --stdio -q"
cmd=$(
	same branch-stack "$rec -b -e instructions:u -c 10007 -- $W two 20 \
		>/dev/null && $script,brstacksym | sed 's,/[MP]/,/./,g'"
	same lbr-call-graph "$rec --call-graph lbr -e instructions:u \
		-c 10007 -- $W two 20 >/dev/null && $script; \
		$report --no-children --sort sym -g caller,0.5,callee,function"
	same cycles-ppp "$rec -e cycles:ppp -c 10007 --all-user -- \
		$W loop 200000 >/dev/null && $script"
	same instructions-pp-regs "$rec -e instructions:pp -c 10007 \
		--all-user --intr-regs=ip,sp,ax,bx -- $W loop 200000 \
		>/dev/null && $script,iregs"
	same mem "perf mem -t load record -q -o $D -c 503 --all-user -- \
		$W walk 1 >/dev/null && perf mem report -i $D --stdio -q \
		--sort mem,sym,dso && $script,addr"
)
status=0
for kind in ours upstream; do
	"$ROOT/harness/build.sh" "$kind" "$cmd" >/dev/null
	mkdir -p "$out/$kind"
	"$ROOT/harness/boot.sh" "$kind" run | tr -d '\r' >"$out/$kind.log"
	awk -v dir="$out/$kind" '
		/^SAME end$/ { file = ""; next }
		/^SAME / { file = dir "/" $2 ".txt"; printf "" >file; next }
		file != "" { print >>file }' "$out/$kind.log"
done
for f in "$out"/ours/*.txt; do
	name=$(basename "$f" .txt)
	if diff -u "$out/upstream/$name.txt" "$f" >"$out/$name.diff"; then
		echo "$name: the same ($(wc -l <"$f") lines)"
		rm "$out/$name.diff"
	else
		echo "$name: $(grep -c '^+[^+]' "$out/$name.diff") lines differ:" \
			"$out/$name.diff"
		status=1
	fi
done
[ -n "$(ls "$out/ours")" ] || { echo "perf-same: no output" >&2; exit 1; }
exit $status
