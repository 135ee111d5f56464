#!/bin/bash
# Configure and build a kernel ("ours" or "upstream") with ccache, and
# export its UAPI headers.  The image ends at build/<kind>/bzImage.
. "$(dirname "$0")/lib.sh"
kind=$1
kernel_check_name "$kind"

src=$(src_dir "$kind")
obj=$(obj_dir "$kind")
out=$(out_dir "$kind")
mkdir -p "$obj" "$out"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
export CCACHE_BASEDIR=$BUILD
export KBUILD_BUILD_TIMESTAMP='Sun Jan  1 00:00:00 UTC 2023'
export KBUILD_BUILD_USER=perf KBUILD_BUILD_HOST=harness
mk() { make -s -C "$src" O="$obj" CC="ccache gcc" -j"$JOBS" "$@"; }

# The configuration: tinyconfig plus our fragments.  The fragments come
# from our repository for both kernels, so the reference is built with
# the same configuration.
frags="perf_guest.config perf_debug.config"
[ -n "${HARNESS_FUZZ:-}" ] && frags="$frags perf_fuzz.config perf_$HARNESS_FUZZ.config"
sum=$(cd "$ROOT/kernel/configs" && cat $frags | sha1sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.config-frags" 2>/dev/null)" != "$sum" ]; then
	log "configuring $kind"
	for f in $frags; do cp "$ROOT/kernel/configs/$f" "$obj/$f"; done
	mk tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m .config $frags >/dev/null)
	mk olddefconfig >/dev/null
	for f in $frags; do
		grep -v '^#' "$obj/$f" | grep . | while read -r line; do
			opt=${line%%=*} want=${line#*=}
			have=$(grep "^$opt=" "$obj/.config" | cut -d= -f2- || true)
			[ "$want" = n ] && [ -z "$have" ] && continue
			[ "$want" = "$have" ] || [ "$kind" = upstream ] || echo "config: $opt=$want did not stick (have '${have:-unset}')" >&2
		done
	done
	echo "$sum" >"$obj/.config-frags"
fi

log "building $kind kernel"
mk bzImage || { echo "kernel build failed" >&2; exit 1; }
cp "$obj/arch/x86/boot/bzImage" "$out/bzImage"
# Its configuration, for the guest's /boot/config-<release> (initramfs.sh).
cp "$obj/.config" "$out/config"
cp "$obj/include/config/kernel.release" "$out/kernel.release"
# The modules (test_lockup, for watchdog_hld_test.sh), which the
# initramfs carries in /lib/modules.
mk modules || { echo "module build failed" >&2; exit 1; }
rm -rf "$out/modules"
mkdir -p "$out/modules"
find "$obj" -name '*.ko' -exec cp {} "$out/modules/" \;
mk headers_install INSTALL_HDR_PATH="$out/hdr" >/dev/null
