#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Linux 6.1's own KVM selftests of the virtual PMU, which runs on perf
# events (perf_event_create_kernel_counter() with exclude_host, paused,
# reloaded and read back by KVM), run on the kernel under test:
#
#   kvm_pmu_event_filter_test  a guest counts its branches through the
#                              vPMU, with and without KVM's event filter
#   kvm_vmx_pmu_caps_test      the PERF_CAPABILITIES a guest may be given
#                              (Intel's VMX only: TCG does not emulate it)
#
# The harness builds them from the base tree (harness/selftests.sh) and
# copies them beside this script; kvm.ko and kvm-amd.ko (or kvm-intel.ko)
# are loaded from /lib/modules first (with ccp.ko where it is there: under
# Debian's configuration kvm-amd needs it for SEV).  A test that finds no KVM, or a CPU
# it does not know (pmu_event_filter_test wants AMD Zen 1 to 3 or Intel),
# skips: the harness runs this on the "zen" flavour, an AMD family 17h.
. "$(dirname "$0")/perf_tap.sh"

tests="kvm_pmu_event_filter_test kvm_vmx_pmu_caps_test"
dir=$(dirname "$0")
out=/tmp/hw_kvm_selftests.out

if [ ! -e /dev/kvm ]; then
	for m in irqbypass kvm ccp kvm-amd kvm-intel; do
		[ -f "/lib/modules/$m.ko" ] && insmod "/lib/modules/$m.ko" 2>/dev/null
	done
fi

tap_plan 2
for t in $tests; do
	if [ ! -x "$dir/$t" ]; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n $t # SKIP not built"
		continue
	fi
	"$dir/$t" >"$out" 2>&1
	status=$?
	if [ "$status" = "$ksft_skip" ]; then
		tap_n=$((tap_n + 1))
		show "$out" 5
		echo "ok $tap_n $t # SKIP $(tail -n 1 "$out" | sed 's/^1\.\.0 # SKIP - //')"
		continue
	fi
	check "$status" "$t" "$out"
done
rm -f "$out"
tap_exit
