#!/bin/bash
# A distribution's kernel: our tree (or the reference) with Debian's own
# amd64 configuration, as a user building "the kernel" would.
#
#   distro.sh callers [ours|upstream]  the guard make check runs: compile
#       every object outside perf that calls perf (harness/distro-callers
#       .txt) and the perf core and x86 driver, then check that each
#       perf symbol those objects need is defined, and exported where
#       6.1 exports it (modules use it).  A few minutes.
#   distro.sh build [ours|upstream]    make distro: bzImage and every
#       module, ccache'd; modpost must find every symbol, and our files
#       build without a warning at W=1.  Hours cold on two cores.
#   distro.sh boot [ours|upstream]     make distro-check: the same build,
#       booted in the test guest on every PMU flavour (DISTRO_PMUS), with
#       KUnit and the kselftests as make check runs them.
#   distro.sh config [ours|upstream]   only the .config; lists the
#       options of Debian's that it lost.
#   distro.sh ourfiles ours CONFIG     our files alone (kernel/events/,
#       arch/x86/events/) in a configuration, at W=1: an error or a
#       warning in them fails.  Minutes, where the full build takes an
#       hour or more: the randconfig loop (make distro-randconfig).
#   distro.sh scan upstream            the list distro-callers.txt keeps
#   distro.sh symbols upstream         the list distro-symbols.txt keeps
#
# A third argument builds another configuration the way the kernel test
# robot does, in build/obj/<it>-<kernel>: "defconfig", "allmodconfig",
# or "randconfig:SEED" (KCONFIG_SEED=SEED; x86 always selects
# PERF_EVENTS); "debian" is the default.  The same three changes apply,
# and CONFIG_WERROR stays off (6.1 itself warns with gcc 12 outside
# perf; our files are held to W=1 all the same).
#
# The configuration is Debian's config.amd64_none_amd64 from the
# linux-config-6.1 package of the same version as linux-source-6.1,
# fetched from Debian's archive, with olddefconfig.  Three changes,
# none of them near perf: no signing certificates of Debian's (the
# files are not in the source package), and no debug info or BTF (they
# double the build time and change nothing perf's callers see).  With
# Debian's configuration, test code besides (configure() says which),
# so that the same build boots in the test guest.
# Kconfig symbols only 6.1's perf defines disappear in ours (olddefconfig
# drops them); "config" lists them.
. "$(dirname "$0")/lib.sh"
what=${1:?usage: distro.sh callers|build|boot|config|ourfiles|scan|symbols [ours|upstream] [debian|defconfig|allmodconfig|randconfig:SEED]}
kind=${2:-ours}
flavour=${3:-debian}
kernel_check_name "$kind"
case "$flavour" in
debian|defconfig|allmodconfig|randconfig:[0-9]*) ;;
*) echo "distro.sh: unknown configuration '$flavour'" >&2; exit 2 ;;
esac

src=$(src_dir "$kind")
if [ "$flavour" = debian ]; then
	obj=$BUILD/obj/distro-$kind
else
	obj=$BUILD/obj/${flavour/:/-}-$kind
fi
deb=$BUILD/debian
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
export CCACHE_BASEDIR=$BUILD
export KBUILD_BUILD_TIMESTAMP='Sun Jan  1 00:00:00 UTC 2023'
export KBUILD_BUILD_USER=perf KBUILD_BUILD_HOST=harness
mk() { make -s -C "$src" O="$obj" CC="ccache gcc" -j"$JOBS" "$@"; }
# Random configurations of x86_64 only, as the robot's x86_64-randconfig-*
# (randconfig would draw 64BIT too).
if [ "${flavour%%:*}" = randconfig ]; then
	mkdir -p "$obj"
	echo CONFIG_64BIT=y >"$obj/x86_64.allconfig"
	export KCONFIG_ALLCONFIG=$obj/x86_64.allconfig
fi

# Debian's configuration file, from the archive, for linux-source-6.1's
# version.
debian_config() {
	local ver cfg=$deb/config.amd64_none_amd64
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
	if [ ! -f "$cfg" ] || [ "$(cat "$deb/version" 2>/dev/null)" != "$ver" ]; then
		log "fetching Debian's linux-config-6.1 $ver"
		rm -rf "$deb"
		mkdir -p "$deb/pkg"
		if ! (cd "$deb" && apt-get download -q "linux-config-6.1=$ver" >/dev/null 2>&1); then
			[ "$(id -u)" = 0 ] && apt-get update -q >/dev/null
			(cd "$deb" && apt-get download -q "linux-config-6.1=$ver" >/dev/null)
		fi
		dpkg-deb -x "$deb"/linux-config-6.1_*.deb "$deb/pkg"
		xz -dc "$deb/pkg/usr/src/linux-config-6.1/config.amd64_none_amd64.xz" >"$cfg"
		echo "$ver" >"$deb/version"
	fi
	echo "$cfg"
}

configure() {
	local cfg='' sum
	[ "$flavour" = debian ] && cfg=$(debian_config)
	mkdir -p "$obj"
	# Configured again when Debian's file or the changes below change.
	sum=$( (echo "$flavour"; [ -z "$cfg" ] || sha1sum <"$cfg";
		sed -n '/^configure()/,/^}/p' "$0") | sha1sum | cut -d' ' -f1)
	[ -f "$obj/.config" ] && [ "$(cat "$obj/.config-debian" 2>/dev/null)" = "$sum" ] && return
	log "configuring $kind with the $flavour configuration"
	case "$flavour" in
	debian) cp "$cfg" "$obj/.config" ;;
	randconfig:*) KCONFIG_SEED=${flavour#randconfig:} mk randconfig >/dev/null ;;
	*) mk "$flavour" >/dev/null ;;
	esac
	"$src/scripts/config" --file "$obj/.config" \
		--set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" \
		--set-str MODULE_SIG_KEY certs/signing_key.pem \
		-d DEBUG_INFO_BTF -d DEBUG_INFO_DWARF5 -d DEBUG_INFO_DWARF4 \
		-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -e DEBUG_INFO_NONE \
		-d WERROR
	# Debian's own configuration also boots in the test guest (distro.sh
	# boot): KUnit with our suites and test PMU built in, and the
	# test_lockup module watchdog_hld_test.sh loads.  Only test code:
	# nothing else in the kernel changes with them.
	[ "$flavour" = debian ] && "$src/scripts/config" --file "$obj/.config" \
		-e KUNIT -d KUNIT_ALL_TESTS -e PERF_EVENTS_KUNIT_TEST \
		-e PERF_EVENTS_TEST_PMU -m TEST_LOCKUP
	mk olddefconfig >/dev/null
	echo "$sum" >"$obj/.config-debian"
}

# Debian's options that the configuration lost (perf drivers of 6.1's we
# have not written: the README says which issue brings each).
dropped() {
	comm -23 <(grep '^CONFIG_.*=[ym]' "$(debian_config)" | cut -d= -f1 | sort) \
		 <(grep '^CONFIG_.*=[ym]' "$obj/.config" | cut -d= -f1 | sort) |
		grep -v -e '^CONFIG_DEBUG_INFO' -e '^CONFIG_PAHOLE' \
			-e '^CONFIG_MODULE_ALLOW_BTF_MISMATCH'
}

# The perf symbols a list of objects needs: undefined in them, and among
# the symbols 6.1's perf defines (harness/distro-symbols.txt).
needed_symbols() {
	(cd "$obj" && nm -u "$@" 2>/dev/null) | awk '$1 == "U" { print $2 }' |
		sort -u | join - <(cut -d' ' -f1 "$ROOT/harness/distro-symbols.txt" | sort -u)
}

callers() {
	local list objs perf_objs defined exported missing=0 s
	# A directory of its own, so that the guard may run while a full
	# build of the same configuration does.
	obj=$BUILD/obj/callers-$kind
	list=$(grep -v '^[[:space:]]*\(#\|-\|$\)' "$ROOT/harness/distro-callers.txt")
	configure
	log "compiling the callers of perf with Debian's configuration ($kind)"
	mk prepare >/dev/null
	# shellcheck disable=SC2086
	if ! mk -k kernel/events/ arch/x86/events/ $list >"$obj/callers.log" 2>&1; then
		grep -E 'error:|Error [0-9]|undefined' "$obj/callers.log" | head -40 >&2
		echo "distro callers: the objects above do not compile ($obj/callers.log)" >&2
		exit 1
	fi
	objs=$(for o in $list; do [ -f "$obj/$o" ] && echo "$o"; done)
	perf_objs=$(cd "$obj" && find kernel/events arch/x86/events -name '*.o' \
		! -name '*.mod.o' ! -name 'built-in.a' ! -name '*_test.o')
	# shellcheck disable=SC2086
	defined=$( (cd "$obj" && nm --defined-only $perf_objs 2>/dev/null) |
		awk '$2 ~ /^[TDRBWr]$/ { print $3 }' | sort -u)
	exported=$(echo "$defined" | sed -n 's/^__ksymtab_//p' | sort -u)
	# shellcheck disable=SC2086
	for s in $(needed_symbols $objs); do
		if ! grep -qxF "$s" <<<"$defined"; then
			echo "distro callers: $s is used outside perf and not defined" >&2
			missing=1
		elif grep -qx "$s exported" "$ROOT/harness/distro-symbols.txt" &&
		     ! grep -qxF "$s" <<<"$exported"; then
			echo "distro callers: $s is used by modules and not exported" >&2
			missing=1
		fi
	done
	[ "$missing" = 0 ] || exit 1
	echo "distro callers: OK: $(echo "$objs" | wc -w) objects that call perf compile with Debian's configuration ($kind), and every perf symbol they use is there"
}

build() {
	local start=$SECONDS
	configure
	log "building $kind with the $flavour configuration: bzImage and modules"
	mk bzImage modules >"$obj/build.log" 2>&1 || {
		grep -E 'error:|ERROR|undefined' "$obj/build.log" | head -40 >&2
		echo "distro: the build failed ($obj/build.log)" >&2
		exit 1
	}
	if grep -q 'undefined!' "$obj/build.log"; then
		grep 'undefined!' "$obj/build.log" >&2
		exit 1
	fi
	if [ "$kind" = ours ]; then
		# Our files again at W=1 (the changed command line rebuilds
		# them): not a warning.
		mk W=1 kernel/events/ arch/x86/events/ >"$obj/w1.log" 2>&1 || true
		if grep -E '(kernel/events|arch/x86/events)/.*warning:' "$obj/w1.log" >&2; then
			echo "distro: warnings at W=1 in our files ($obj/w1.log)" >&2
			exit 1
		fi
	fi
	echo "distro: OK: $kind with the $flavour configuration: bzImage and $(find "$obj" -name '*.ko' | wc -l) modules, no undefined symbol ($((SECONDS - start)) s)"
}

# The modules the tests load (kvm_* and watchdog_hld_test.sh), with what
# they depend on under Debian's configuration (kvm-amd needs ccp, the
# AMD Secure Processor's driver, for SEV), and msr, which the guest's
# init loads (/dev/cpu/N/msr).
DISTRO_MODULES="irqbypass kvm ccp kvm-amd kvm-intel test_lockup msr"

# Boot the kernel built with Debian's configuration in the test guest,
# with the initramfs of make check, on each PMU flavour of
# $DISTRO_PMUS (all of them by default): KUnit and every kselftest.
# Logs: build/distro/<kind>/console-<flavour>.log, results-<flavour>.log.
boot() {
	local out f m
	[ "$flavour" = debian ] ||
		{ echo "distro.sh boot: Debian's configuration only" >&2; exit 2; }
	build
	export HARNESS_DISTRO=1
	# The vCPUs in turns, in one host thread: with one thread each, QEMU
	# (Debian's 7.2 as well as ours) can keep a block translated from a
	# page another vCPU is writing at that moment, never to drop it.
	# Debian's kernel patches its jump labels while other CPUs run the
	# code (toggling any trace event does), and a CPU that translated
	# text_poke_bp()'s int3 just before it was replaced keeps trapping
	# on it: kprobes sees no int3 in memory and returns to it, forever
	# (within seconds of a loop of echo 1, echo 0 into a sched event's
	# enable with a context-switching task on the other CPU; not with
	# thread=single).  Our guest configuration has no jump labels.
	export HARNESS_TCG_THREAD=${HARNESS_TCG_THREAD:-single}
	out=$(out_dir "$kind")
	mkdir -p "$out/modules"
	cp "$obj/arch/x86/boot/bzImage" "$out/bzImage"
	cp "$obj/.config" "$out/config"
	cp "$obj/include/config/kernel.release" "$out/kernel.release"
	rm -f "$out"/modules/*.ko
	for m in $DISTRO_MODULES; do
		find "$obj" -name "$m.ko" -exec cp {} "$out/modules/" \;
	done
	mk headers_install INSTALL_HDR_PATH="$out/hdr" >/dev/null
	"$ROOT/harness/qemu.sh"
	"$ROOT/harness/selftests.sh" "$kind"
	"$ROOT/harness/initramfs.sh" "$kind"
	. "$ROOT/harness/report.sh"
	for f in ${DISTRO_PMUS:-intel skylake amd zen none}; do
		log "booting $kind with Debian's configuration (PMU=$f)"
		PMU=$f "$ROOT/harness/boot.sh" "$kind" check
		report "$kind" "$kind kernel, Debian's configuration, PMU=$f"
		keep_logs "$kind" "$f"
	done
	report_total
	exit "$status"
}

# The objects outside perf whose source names perf's interfaces, and that
# compile on the reference tree with Debian's configuration: the list
# harness/distro-callers.txt keeps (run on "upstream", then review).
scan() {
	local cand
	configure
	mk prepare >/dev/null
	cand=$(cd "$src" && grep -rlE --include='*.c' \
		-e '\<perf_[a-z0-9_]+\(|struct (perf_[a-z_]+|hw_perf_event|pmu) ' \
		-e 'PERF_(TYPE|COUNT|SAMPLE|FORMAT|PMU_CAP|EF_|HES_|GUEST|EV_CAP|ATTACH|RECORD)' \
		-e 'x86_perf_|intel_pt_|amd_pmu_|events/perf_event\.h|hw_breakpoint|perf_event' \
		. | sed 's|^\./||' |
		grep -vE '^(tools|samples|Documentation|scripts|kernel/events|arch/x86/events)/' |
		grep -vE '^arch/' ; cd "$src" && grep -rlE --include='*.c' \
		-e 'perf_|PERF_|x86_perf_|intel_pt_|amd_pmu_|hw_breakpoint' arch/x86 |
		grep -v '^arch/x86/events/')
	# shellcheck disable=SC2046
	mk -k $(echo "$cand" | sed 's/\.c$/.o/') >"$obj/scan.log" 2>&1 || true
	for f in $cand; do [ -f "$obj/${f%.c}.o" ] && echo "${f%.c}.o"; done | sort -u
}

# The global symbols 6.1's perf defines with Debian's configuration, each
# with "exported" if 6.1 exports it: harness/distro-symbols.txt.
symbols() {
	local objs
	[ "$kind" = upstream ] || { echo "distro.sh symbols: upstream only" >&2; exit 2; }
	configure
	mk prepare >/dev/null
	mk kernel/events/ arch/x86/events/ >/dev/null
	objs=$(cd "$obj" && find kernel/events arch/x86/events -name '*.o' \
		! -name '*.mod.o')
	# shellcheck disable=SC2086
	(cd "$obj" && nm --defined-only $objs 2>/dev/null) |
		awk '$2 ~ /^[TDRBWr]$/ { print $3 }' | sort -u >"$obj/symbols.all"
	sed -n 's/^__ksymtab_//p' "$obj/symbols.all" >"$obj/symbols.exported"
	# shellcheck disable=SC2086
	(cd "$obj" && nm --defined-only $objs 2>/dev/null) |
		awk '$2 ~ /^[TDBW]$/ { print $3 }' | sort -u |
		grep -v -e '^__' -e '^\.' | while read -r s; do
		if grep -qxF "$s" "$obj/symbols.exported"; then
			echo "$s exported"
		else
			echo "$s"
		fi
	done
}

# Our files alone, at W=1, in the configuration: what a randconfig seed
# can break in them shows in minutes.  The kernel around them is not
# built (a link error needs the full build: "build").
ourfiles() {
	local start=$SECONDS rc=0
	[ "$kind" = ours ] || { echo "distro.sh ourfiles: ours only" >&2; exit 2; }
	configure
	mk prepare >"$obj/prepare.log" 2>&1 ||
		{ tail -20 "$obj/prepare.log" >&2; exit 1; }
	mk W=1 kernel/events/ arch/x86/events/ >"$obj/ourfiles.log" 2>&1 || rc=$?
	if [ $rc != 0 ] ||
	   grep -E '(kernel/events|arch/x86/events)/.*(warning|error):' \
		"$obj/ourfiles.log" >&2; then
		echo "distro: our files do not build cleanly with the $flavour configuration ($obj/ourfiles.log)" >&2
		exit 1
	fi
	echo "distro: OK: our files with the $flavour configuration, no warning at W=1 ($((SECONDS - start)) s)"
}

case "$what" in
config) configure; dropped ;;
ourfiles) ourfiles ;;
callers) callers ;;
build) build ;;
boot) boot ;;
scan) scan ;;
symbols) symbols ;;
*) echo "distro.sh: unknown command '$what'" >&2; exit 2 ;;
esac
