# The perf_event subsystem for Linux 6.1 on x86-64: build, boot and test.
#
#   make run [CMD='...'] [KERNEL=ours|upstream] [PMU=intel|skylake|amd|none]
#                                                 boot, run CMD or the demo
#   make check [KERNEL=ours|upstream] [PMU=...]   boot, run KUnit + kselftests
#                                                 on every flavour (upstream:
#                                                 the reference, not in CI)
#   make check-busy [PMU=...]                     overflow-signal tests, both
#                                                 kernels, on a loaded host
#   make fuzz [KERNEL=...] [FUZZ_MINUTES=10]      KASAN kernel, trinity on perf
#             [FUZZ_SANITIZER=kcsan]              or KCSAN, 4 vCPUs, racing tests beside
#   make soak [SOAK_MINUTES=30]                   make fuzz with KCSAN and KASAN on three
#                                                 flavours, one after another (hours)
#   make qemu                                     QEMU with the emulated PMU
#   make bench                                    perf-bench on both kernels, ratios
#   make perf-same [PMU=skylake]                  Debian's perf under -icount, both
#                                                 kernels: the same samples
#   make bpftrace [KERNEL=...]                    bpftrace_test.sh with Debian's bpftrace
#   make profile [PROFILE_CMD=...]                instructions per function, both kernels
#   make models                                   every CPU model flavour, both
#                                                 kernels: boot lines, event maps
#   make distro [KERNEL=...] [DISTRO_CONFIG=...]  Debian's configuration: bzImage
#                                                 and every module (hours cold);
#                                                 or defconfig, allmodconfig,
#                                                 randconfig:SEED
#   make distro-check [KERNEL=...]                that kernel booted on every PMU
#                                                 flavour: KUnit and kselftests
#   make distro-callers [KERNEL=...]              the callers of perf only, as
#                                                 make check does (minutes)
#   make distro-randconfig [SEEDS=...]            our files alone at W=1 in
#                                                 random configurations (minutes
#                                                 a seed)
#   make patches                                  the patch series, in build/patches/
#   make patches-check                            apply it to the base, build each step
#
# The scripts doing the work live in harness/; see README.md.

KERNEL ?= ours
CMD ?=
# The emulated PMU QEMU gives the guest (harness/lib.sh, pmu_cpu).
PMU ?= intel
export PMU

.PHONY: soak models distro distro-check distro-callers distro-randconfig check check-busy fuzz run bench perf-same bpftrace profile patches patches-check kernel tree qemu clean distclean

check:
	@harness/check.sh $(KERNEL)

check-busy:
	@harness/busy.sh

fuzz:
	@harness/fuzz.sh $(KERNEL)

soak:
	@harness/soak.sh $(KERNEL)

run:
	@harness/run.sh $(KERNEL) "$(CMD)"

bench:
	@harness/bench.sh

perf-same:
	@PMU=$(if $(filter command line environment,$(origin PMU)),$(PMU),skylake) harness/perf-same.sh

# Debian's bpftrace in the guest, and bpftrace_test.sh alone (one boot).
bpftrace:
	@HARNESS_BPFTRACE=1 HARNESS_TESTS="$${HARNESS_TESTS:-bpftrace_test.sh}" \
		HARNESS_PMU_CHECK=0 harness/check.sh $(KERNEL)

profile:
	@harness/profile.sh

DISTRO_CONFIG ?= debian

distro:
	@harness/deps.sh && harness/tree.sh $(KERNEL) && \
		harness/distro.sh build $(KERNEL) $(DISTRO_CONFIG)

models:
	@harness/models.sh

distro-check:
	@harness/deps.sh && harness/tree.sh $(KERNEL) && harness/distro.sh boot $(KERNEL)

distro-callers:
	@harness/deps.sh && harness/tree.sh $(KERNEL) && harness/distro.sh callers $(KERNEL)

SEEDS ?= 1 2 3 4 5 6 7 8
distro-randconfig:
	@harness/deps.sh && harness/tree.sh ours && \
		for s in $(SEEDS); do \
			harness/distro.sh ourfiles ours randconfig:$$s || exit 1; \
		done

patches:
	@harness/patches.sh

patches-check:
	@harness/patches-check.sh

kernel:
	@harness/deps.sh && harness/tree.sh $(KERNEL) && harness/kernel.sh $(KERNEL)

tree:
	@harness/tree.sh $(KERNEL)

qemu:
	@harness/deps.sh && harness/qemu.sh

# Remove the builds but keep the unpacked base and the compiler cache.
clean:
	rm -rf build/obj build/src build/ours build/upstream build/patches build/series/src build/series/obj

distclean:
	rm -rf build
