#!/bin/bash
# make profile: where the guest's instructions go, function by function,
# our kernel beside the upstream reference, for each window the guest
# program marks (perf-bench marks its hardware paths; PROFILE_CMD runs
# another program).
#
# Both kernels boot under -icount with nothing random (as make bench),
# in a second build of our QEMU with TCG plugins enabled
# (build/qemu-prof, built on first use, about as long as make qemu).
# The plugin harness/prof/insnprof.c counts every instruction the marking
# vCPU executes between two "xchg %bx,%bx"; harness/prof/symdiff.py
# charges them to the functions of each kernel's vmlinux and prints, per
# window, the functions whose instructions per operation differ most.
# The guest names a window and its number of operations with a line
# "prof window N: OPS ops: NAME".  Everything lands in build/prof/.
. "$(dirname "$0")/lib.sh"

cmd=${PROFILE_CMD:-perf-bench}
top=${PROFILE_TOP:-25}
dir=$BUILD/qemu-prof
obj=$dir/obj
src=$BUILD/qemu/src
out=$BUILD/prof

"$ROOT/harness/deps.sh"
# The patched source (and the plain build, which make check uses).
"$ROOT/harness/qemu.sh"

# PROFILE_QEMU_BIN=path uses an already built one, for a second work tree.
qemu_bin=${PROFILE_QEMU_BIN:-$obj/qemu-system-x86_64}
mkdir -p "$dir" "$out"
if [ -z "${PROFILE_QEMU_BIN:-}" ]; then
	export PATH=/usr/lib/ccache:$PATH
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache} CCACHE_NOHASHDIR=1
	mkdir -p "$obj"
	if [ ! -f "$obj/build.ninja" ]; then
		log "configuring qemu with plugins"
		qemu_configure "$src" "$obj" "$dir/inst" --enable-plugins
	fi
	log "building qemu with plugins"
	ninja -C "$obj" qemu-system-x86_64 >"$obj/build.log" 2>&1 ||
		{ grep -B2 -A10 'error' "$obj/build.log" | head -60 >&2; exit 1; }
fi
# shellcheck disable=SC2046
gcc -shared -fPIC -O2 -Wall -I"$src/include/qemu" \
	$(pkg-config --cflags glib-2.0) \
	-o "$dir/insnprof.so" "$ROOT/harness/prof/insnprof.c"

for kind in ours upstream; do
	"$ROOT/harness/build.sh" "$kind" "$cmd" >/dev/null
	log "profiling '$cmd' on $kind"
	rm -f "$out/$kind".*
	HARNESS_QEMU_BIN=$qemu_bin \
	HARNESS_QEMU_ARGS="-plugin $dir/insnprof.so,out=$out/$kind" \
	HARNESS_ICOUNT=1 HARNESS_DETERMINISTIC=1 \
		"$ROOT/harness/boot.sh" "$kind" run | tr -d '\r' \
		>"$out/$kind.console"
done

grep '^prof window ' "$out/ours.console" |
while IFS=: read -r win ops name; do
	n=${win#prof window }
	ops=${ops% ops}
	ops=${ops# }
	name=${name# }
	[ -f "$out/ours.$n" ] && [ -f "$out/upstream.$n" ] || continue
	{
		echo "window $n: $name (per operation, $ops operations)"
		python3 "$ROOT/harness/prof/symdiff.py" \
			"$out/ours.$n" "$BUILD/obj/ours/vmlinux" \
			"$out/upstream.$n" "$BUILD/obj/upstream/vmlinux" \
			"$ops" "$top"
		echo
	} | tee "$out/window-$n.txt"
done
