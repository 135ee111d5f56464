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

# The emulated PMU flavours (PMU=<name>): QEMU's -cpu option for each, in
# this one place.  Each flavour stands for a family of CPU models that
# Linux 6.1 tells apart: its vendor, family, model and stepping, and the
# shape of its PMU as that silicon has it (QEMU's pmu-* properties,
# harness/qemu/0006): Intel's perfmon version, general counters (gp),
# fixed counters and their width, full-width writes (fw); AMD's number
# of core counters and PerfMonV2; and for the Atoms (and the Xeon Phi
# built on them) their encoding of the model-specific branch events
# (pmu-atom, harness/qemu/0007).  The emulation counts the same events
# on every one otherwise (harness/qemu/README.md).
#   intel    architectural perfmon v4 (4 gp + 3 fixed, 48 bits, fw) on
#            family 6 model 48, which 6.1 runs as a generic
#            architectural PMU
#   skylake  the same counters on a Skylake client (model 0x5e), with
#            its 32-deep LBR (harness/qemu/0015) and PEBS format 3
#            (harness/qemu/0020, 0021)
#   amd      AMD core counters (6) with PerfMonV2, on QEMU's max model
#   zen      the same counters on an AMD family 17h (Zen 1): 6.1's KVM
#            selftests of the virtual PMU want Zen; make check runs
#            those there.  With IBS (ibs=on, harness/qemu/0041, 0042):
#            CPUID 0x8000001B EAX 0xff (fetch and op sampling), IBSCTL
#            naming extended LVT offset 0; with the L3's and the data
#            fabric's counters (topoext=on,amd-uncore=on, harness/qemu/0043,
#            0044): 6.1's amd_l3 and amd_df
#   none     no PMU, as on Debian's QEMU
# The families of models (make models runs each):
#   core     Core Duo/Solo (Yonah, 0x0e): v1, 2 gp, 40 bits
#   core2    Penryn (0x17): v2, 2 gp, 3 fixed, 40 bits
#   nehalem  Nehalem (0x1a): v3, 4 gp, 3 fixed, 48 bits, no fw
#   westmere Westmere-EP (0x2c): as Nehalem
#   bonnell  Atom Bonnell (0x1c): v3, 2 gp, 3 fixed, 40 bits
#   silvermont Atom Silvermont (0x37): v3, 2 gp, 3 fixed, 40 bits
#   goldmont Atom Goldmont (0x5c): v4, 4 gp, 3 fixed, 48 bits, fw
#   goldmontplus Atom Goldmont Plus (0x7a): as Goldmont, on bare metal
#            (no hypervisor bit: 6.1 offers C-states only there, and
#            has no uncore for this model), with the C-state residency
#            counters of its cores (C1, C3, C6) and package (C2, C3, C6,
#            C10), a halted core in C6 (harness/qemu/0040); without
#            MONITOR/MWAIT, which TCG runs as a pause on a vCPU of
#            several: an off-line CPU would spin in it, never idle
#   kabylake Kaby Lake desktop (0x9e): Skylake's core and PMU on bare
#            metal (no hypervisor bit: 6.1 drives the client uncore and
#            the C-states only there), with RAPL, the C-state residency
#            counters of its cores (C3, C6, C7) and package (C2, C3, C6
#            to C10), a halted core in C6, the client uncore (intel-uncore=on,
#            harness/qemu/0045: C-Boxes, the arbitration box, the uncore
#            clock) and the memory controller's counters in its host
#            bridge's MCHBAR (pmu_devices: intel-client-imc, device
#            0x591f, harness/qemu/0046); without MONITOR/MWAIT, as
#            goldmontplus
#   tremont  Atom Tremont (0x96): v5, 4 gp, 3 fixed, fw
#   gracemont Alder Lake-N (0xbe): v5, 6 gp, 3 fixed, fw
#   sandybridge Sandy Bridge (0x2a): v3, 4 gp, 3 fixed, 48 bits, fw
#   ivybridge Ivy Bridge (0x3a), haswell (0x3c), broadwell (0x3d): as
#            Sandy Bridge
#   knl      Knights Landing (0x57): v3, 2 gp, 3 fixed, 40 bits, fw
#   icelake  Ice Lake client (0x7e): v5, 8 gp, 4 fixed (slots, 5 a
#            cycle), fw, perf metrics (4), adaptive PEBS (format 4,
#            harness/qemu/0022)
#   sapphirerapids Sapphire Rapids (0x8f): v5, 8 gp, 4 fixed (slots, 6
#            a cycle), fw, perf metrics (8, level 2)
#   fam15h   AMD family 15h (Bulldozer): 6 counters, no PerfMonV2;
#            its compute units' power accumulator (amd-power=on,
#            harness/qemu/0048)
#   zen1     AMD family 17h (Zen 1 to 3 are alike to 6.1): 6 counters,
#            no PerfMonV2 (extended leaves up to 0x8000001f, as Zen 1's:
#            the caches' topology leaf 0x8000001d among them); the L3's
#            and the data fabric's counters, as zen
#   zen4     AMD family 19h model 61h: 6 counters with PerfMonV2; the
#            L3's counters with family 19h's filters, and the data
#            fabric's with PerfMonV2's encoding
#   hygon    Hygon Dhyana (family 18h), which 6.1 runs as Zen: 6
#            counters, no PerfMonV2
#   alderlake Alder Lake (0x97), hybrid: vCPU 0 a big core (8 gp, 4
#            fixed, perf metrics, 8 as Golden Cove has them), the last
#            vCPU an Atom core (6 gp, 3 fixed); CPUID 0xA gives 6 and 3
#            on both (QEMU patch 11).  Both kernels register cpu_core
#            and cpu_atom on it in place of cpu.
PMU_MODELS='core core2 nehalem westmere bonnell silvermont goldmont
goldmontplus tremont gracemont sandybridge ivybridge haswell broadwell
knl skylake kabylake icelake sapphirerapids alderlake fam15h zen1 zen4
hygon'
# The model-specific LBR stack of $1 entries in LBR format $2; Core 2's
# and the early Atoms' sit at 0x40 and 0x60 (pmu-lbr-core2-msrs).
pmu_lbr() { echo "pmu-lbr-depth=$1,pmu-lbr-format=$2"; }
pmu_cpu() {
	local i="max,vendor=GenuineIntel,family=6,pmu=on"
	local a="max,vendor=AuthenticAMD,pmu=on"
	local v2="xlevel=0x80000022"
	local old="pmu-perfmon-v2=off"
	local nofw="pmu-full-width=off"
	local atom="pmu-atom=on"
	local td="pmu-fixed-counters=4"
	local lbr_core2="pmu-lbr-core2-msrs=on"
	local arch_lbr="pmu-lbr-arch=on,pmu-lbr-depth=32"
	# RAPL's domains (rapl-domains: 1 package, 2 cores, 4 graphics,
	# 8 DRAM, 16 platform) as each part has them, and their units.
	local rapl_snb="rapl-domains=7" rapl_hsw="rapl-domains=15"
	local rapl_skl="rapl-domains=31" rapl_amd="rapl-domains=3"
	local rapl_knl="rapl-domains=9,rapl-dram-esu=16"
	local rapl_spr="rapl-domains=27,rapl-psys-esu=0"
	# The C-state residency counters (cstate-core, cstate-pkg: masks of
	# BIT(state)) and the state a halted core is in (harness/qemu/0040).
	local cstate_glm="cstate-core=0x4a,cstate-pkg=0x44c,cstate-hlt=6"
	local cstate_skl="cstate-core=0xc8,cstate-pkg=0x7cc,cstate-hlt=6"
	# AMD's L3 and data fabric counters (harness/qemu/0043, 0044).
	local amd_uncore="topoext=on,amd-uncore=on"
	# What Dhyana's model has and TCG does not (QEMU warns of each);
	# and topoext, which TCG has since harness/qemu/0043: off, as before.
	local notcg="-rdseed,-fxsr-opt,-misalignsse,-3dnowprefetch,-osvw"
	notcg="$notcg,-topoext,-ibpb,-nrip-save,-xsavec"
	case "$1" in
	intel) echo "$i,model=48,stepping=1" ;;
	skylake) echo "$i,model=94,stepping=3,$(pmu_lbr 32 5),pmu-pebs=on,$rapl_skl" ;;
	kabylake) echo "$i,model=158,stepping=9,hypervisor=off,monitor=off,$(pmu_lbr 32 5),pmu-pebs=on,$rapl_skl,$cstate_skl,intel-uncore=on" ;;
	amd) echo "$a,$v2" ;;
	zen) echo "$a,family=23,model=1,stepping=1,$v2,$rapl_amd,ibs=on,$amd_uncore" ;;
	none) echo "max,pmu=off" ;;
	core) echo "$i,model=14,stepping=8,pmu-version=1,pmu-gp-counters=2,pmu-width=40,$nofw" ;;
	core2) echo "$i,model=23,stepping=10,pmu-version=2,pmu-gp-counters=2,pmu-width=40,$nofw,$(pmu_lbr 4 1),$lbr_core2,pmu-lbr-select=off" ;;
	nehalem) echo "$i,model=26,stepping=5,pmu-version=3,$nofw,$(pmu_lbr 16 3)" ;;
	westmere) echo "$i,model=44,stepping=2,pmu-version=3,$nofw,$(pmu_lbr 16 3)" ;;
	bonnell) echo "$i,model=28,stepping=10,pmu-version=3,pmu-gp-counters=2,pmu-width=40,$nofw,$(pmu_lbr 8 1),$lbr_core2,pmu-lbr-select=off" ;;
	silvermont) echo "$i,model=55,stepping=8,pmu-version=3,pmu-gp-counters=2,pmu-width=40,$nofw,$atom,$(pmu_lbr 8 3),$lbr_core2" ;;
	goldmont) echo "$i,model=92,stepping=9,pmu-version=4,$atom,$(pmu_lbr 32 5),$rapl_hsw" ;;
	goldmontplus) echo "$i,model=122,stepping=1,hypervisor=off,monitor=off,pmu-version=4,$atom,$(pmu_lbr 32 6),$rapl_hsw,$cstate_glm" ;;
	tremont) echo "$i,model=150,stepping=1,pmu-version=5,$atom,$(pmu_lbr 32 7)" ;;
	gracemont) echo "$i,model=190,stepping=0,pmu-version=5,pmu-gp-counters=6,$atom,$arch_lbr" ;;
	sandybridge) echo "$i,model=42,stepping=7,pmu-version=3,$(pmu_lbr 16 3),$rapl_snb" ;;
	ivybridge) echo "$i,model=58,stepping=9,pmu-version=3,$(pmu_lbr 16 3),$rapl_snb" ;;
	haswell) echo "$i,model=60,stepping=3,pmu-version=3,$(pmu_lbr 16 4),$rapl_hsw" ;;
	broadwell) echo "$i,model=61,stepping=4,pmu-version=3,$(pmu_lbr 16 4),$rapl_hsw" ;;
	knl) echo "$i,model=87,stepping=1,pmu-version=3,pmu-gp-counters=2,pmu-width=40,$atom,$(pmu_lbr 8 3),$rapl_knl" ;;
	icelake) echo "$i,model=126,stepping=5,pmu-version=5,pmu-gp-counters=8,$td,pmu-perf-metrics=4,pmu-slots-width=5,$(pmu_lbr 32 5),pmu-pebs=on,pmu-pebs-format=4,$rapl_skl" ;;
	sapphirerapids) echo "$i,model=143,stepping=8,pmu-version=5,pmu-gp-counters=8,$td,pmu-perf-metrics=8,pmu-slots-width=6,$arch_lbr,$rapl_spr" ;;
	alderlake) echo "$i,model=151,stepping=2,pmu-version=5,pmu-gp-counters=8,$td,pmu-perf-metrics=8,pmu-slots-width=6,pmu-hybrid-atoms=1,$arch_lbr,$rapl_skl" ;;
	fam15h) echo "$a,family=21,model=1,stepping=2,$old,amd-power=on" ;;
	zen1) echo "$a,family=23,model=1,stepping=1,xlevel=0x8000001f,$old,$rapl_amd,$amd_uncore" ;;
	zen4) echo "$a,family=25,model=97,stepping=2,$v2,$rapl_amd,$amd_uncore" ;;
	hygon) echo "Dhyana,pmu=on,$old,$notcg,$rapl_amd" ;;
	*) echo "PMU must be one of intel, skylake, amd, zen, none, $(echo $PMU_MODELS | sed 's/ /, /g'), not '$1'" >&2; exit 2 ;;
	esac
}

# The devices beside the CPUs that flavour $1's machine has: the client
# uncore's memory controller counters, which sit in the host bridge's
# MCHBAR (harness/qemu/0046), as a PCI device of their own.
pmu_devices() {
	case "$1" in
	kabylake) echo "-device intel-client-imc,device-id=0x591f" ;;
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
# HARNESS_FUZZ=kasan or kcsan: a fuzzing variant of the kernel (make fuzz,
# with kernel/configs/perf_fuzz.config and that sanitizer's fragment),
# built and booted in directories of its own so that it leaves the normal
# build alone: build/obj/fuzz-<kind> and build/fuzz/<kind> for KASAN,
# build/obj/kcsan-<kind> and build/kcsan/<kind> for KCSAN.
obj_dir() {
	case "${HARNESS_FUZZ:-}" in
	kasan) echo "$BUILD/obj/fuzz-$1" ;;
	kcsan) echo "$BUILD/obj/kcsan-$1" ;;
	*) echo "$BUILD/obj/$1" ;;
	esac
}
# HARNESS_DISTRO=1: the kernel built with Debian's configuration
# (distro.sh boot), its image, tests and logs in build/distro/<kind>.
out_dir() {
	if [ "${HARNESS_FUZZ:-}" = kasan ]; then echo "$BUILD/fuzz/$1"
	elif [ "${HARNESS_FUZZ:-}" = kcsan ]; then echo "$BUILD/kcsan/$1"
	elif [ "${HARNESS_DISTRO:-0}" = 1 ]; then echo "$BUILD/distro/$1"
	else echo "$BUILD/$1"; fi
}

# Each line says when, in minutes and seconds since the first script
# of the command started (HARNESS_T0, passed down to the others).
: "${HARNESS_T0:=$(date +%s)}"
export HARNESS_T0
log() {
	local t=$(($(date +%s) - HARNESS_T0))

	printf '>>> %d:%02d %s\n' $((t / 60)) $((t % 60)) "$*" >&2
}
