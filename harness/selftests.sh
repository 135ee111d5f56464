#!/bin/bash
# Build our kselftests statically against the UAPI headers exported by
# the kernel under test (build/<kind>/hdr), into build/<kind>/selftests.
# The sources are always ours: the reference kernel runs the same tests.
. "$(dirname "$0")/lib.sh"
kind=$1
kernel_check_name "$kind"

"$ROOT/harness/tree.sh" ours
out=$(out_dir "$kind")
dir=$(src_dir ours)/tools/testing/selftests/perf_events
mkdir -p "$out/selftests"
log "building kselftests against the $kind headers"
make -s -C "$dir" OUTPUT="$out/selftests" CC="gcc -static" \
	KHDR_INCLUDES="-isystem $out/hdr/include" all
print_var() {
	make -s --no-print-directory -C "$dir" OUTPUT="$out/selftests" \
		--eval "print-var: ; @echo \$(notdir \$($1))" print-var
}
# Scripts, and the files they source, run from the source directory's copy.
for t in $(print_var TEST_PROGS) $(print_var TEST_FILES); do
	cp --preserve=mode "$dir/$t" "$out/selftests/$t"
done
echo $(print_var TEST_GEN_PROGS) $(print_var TEST_PROGS) >"$out/selftests/.tests"
# Linux 6.1's own KVM selftests of the virtual PMU, from the base tree,
# against the same headers, for hw_kvm_selftests.sh (it runs them):
# objects go to build/<kind>/kvm-selftests, nothing into the base.
kvm=$BASE/tools/testing/selftests/kvm
kvm_tests="pmu_event_filter_test vmx_pmu_caps_test"
log "building 6.1's KVM PMU selftests against the $kind headers"
make -s -C "$kvm" OUTPUT="$out/kvm-selftests" CC="gcc -static" \
	LINUX_HDR_PATH="$out/hdr/include/" \
	$(for t in $kvm_tests; do echo "$out/kvm-selftests/x86_64/$t"; done) \
	2>"$out/kvm-selftests.log" ||
	{ cat "$out/kvm-selftests.log" >&2; exit 1; }
for t in $kvm_tests; do
	cp "$out/kvm-selftests/x86_64/$t" "$out/selftests/kvm_$t"
done
# Programs and files the tests use but that are not tests themselves.
echo $(print_var TEST_GEN_PROGS_EXTENDED) $(print_var TEST_FILES) \
	$(for t in $kvm_tests; do echo "kvm_$t"; done) >"$out/selftests/.helpers"
