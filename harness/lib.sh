# Shared settings for the harness scripts; sourced, not run.
# Every path below is relative to the repository root.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build
TARBALL=/usr/src/linux-source-6.1.tar.xz
BASE=$BUILD/base/linux-source-6.1
MANIFEST=$ROOT/harness/removed-upstream.txt
# Debian's gdb-minimal, unpacked here by deps.sh for the guest.
GDB_DIR=$BUILD/gdb-minimal
JOBS=$(($(nproc) + 1))
ARCH=x86_64
export ARCH

# The directories of the repository that are laid over the kernel tree.
OVERLAY_DIRS="arch block Documentation drivers fs include init kernel lib mm scripts tools"

# Our files that go into the kernel tree, one path a line, sorted.
overlay_files() {
	(cd "$ROOT" && git ls-files -co --exclude-standard -- $OVERLAY_DIRS |
		while read -r f; do [ -f "$f" ] && echo "$f"; done) | sort -u
}

# QEMU with the emulated PMU, built by qemu.sh (HARNESS_QEMU_BIN=path
# uses an already built one instead, for a second work tree).
QEMU_BIN=${HARNESS_QEMU_BIN:-$BUILD/qemu/bin/qemu-system-x86_64}

# Configure QEMU's source $1 to build in $2 (prefix $3), with more
# configure options after them: x86_64-softmmu only, TCG, no tools or docs.
qemu_configure() {
	local src=$1 obj=$2 prefix=$3
	shift 3
	(cd "$obj" && "$src/configure" --target-list=x86_64-softmmu \
		--without-default-features --disable-docs --disable-user \
		--disable-tools --enable-tcg --enable-fdt=system \
		--prefix="$prefix" "$@" >"$obj/configure.log" 2>&1) ||
		{ tail -20 "$obj/configure.log" >&2; exit 1; }
}

# The emulated PMU flavours (PMU=intel|skylake|amd|none): QEMU's -cpu option for
# each, in this one place.
#   intel  Intel architectural perfmon v4 (4 general + 3 fixed counters),
#          on a family 6 model 48 that Linux 6.1 runs as a generic
#          architectural PMU
#   skylake  the same counters on a Skylake client (family 6 model 0x5e),
#          a model 6.1 has tables for
#   amd    AMD core counters (6) with PerfMonV2, on QEMU's max model
#   zen    the same counters on an AMD family 17h (Zen 1): 6.1's KVM
#          selftests of the virtual PMU want Zen; make check runs only
#          those there (6.1 has Zen tables our driver does not yet:
#          issue 26)
#   none   no PMU, as on Debian's QEMU
pmu_cpu() {
	case "$1" in
	intel) echo "max,vendor=GenuineIntel,family=6,model=48,stepping=1,pmu=on" ;;
	skylake) echo "max,vendor=GenuineIntel,family=6,model=94,stepping=3,pmu=on" ;;
	amd) echo "max,vendor=AuthenticAMD,xlevel=0x80000022,pmu=on" ;;
	zen) echo "max,vendor=AuthenticAMD,family=23,model=1,stepping=1,xlevel=0x80000022,pmu=on" ;;
	none) echo "max,pmu=off" ;;
	*) echo "PMU must be 'intel', 'skylake', 'amd', 'zen' or 'none', not '$1'" >&2; exit 2 ;;
	esac
}

# The kselftests of overflow notification (signals, refresh, throttling):
# make check runs them with the hardware tests, and on one vCPU too;
# make check-busy runs them while the host is loaded.
SIGNAL_TESTS='overflow_signal_test throttle_test'

# KVM on our perf: make check runs them on the zen flavour, both kernels
# (a nested guest: TCG emulates SVM).
KVM_TESTS='hw_kvm_vpmu_test hw_kvm_selftests.sh'

# $1 is "ours" or "upstream".
kernel_check_name() {
	case "$1" in
	ours|upstream) ;;
	*) echo "KERNEL must be 'ours' or 'upstream', not '$1'" >&2; exit 2 ;;
	esac
}

src_dir() { if [ "$1" = upstream ]; then echo "$BASE"; else echo "$BUILD/src/ours"; fi; }
# HARNESS_FUZZ=1: the fuzzing variant of the kernel (make fuzz, with
# kernel/configs/perf_fuzz.config), built and booted in directories of
# its own so that it leaves the normal build alone.
obj_dir() {
	if [ "${HARNESS_FUZZ:-0}" = 1 ]; then echo "$BUILD/obj/fuzz-$1"; else echo "$BUILD/obj/$1"; fi
}
out_dir() {
	if [ "${HARNESS_FUZZ:-0}" = 1 ]; then echo "$BUILD/fuzz/$1"; else echo "$BUILD/$1"; fi
}

log() { printf '>>> %s\n' "$*" >&2; }
