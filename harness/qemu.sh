#!/bin/bash
# Build QEMU with the emulated PMU (issue 10): Debian's own qemu source
# package, our patch series harness/qemu/*.patch applied in order, only
# the x86_64-softmmu target, into build/qemu/bin/qemu-system-x86_64.
#
# The source comes through a deb-src copy of the machine's Debian sources
# in a private apt directory under build/qemu/apt: the machine's apt
# configuration is never touched.  The patched tree is only rewritten
# where a file's content changes, so a changed patch rebuilds
# incrementally (and with ccache).
. "$(dirname "$0")/lib.sh"

dir=$BUILD/qemu
apt=$dir/apt
base=$dir/base
src=$dir/src
obj=$dir/obj
mkdir -p "$dir"

[ -n "${HARNESS_QEMU_BIN:-}" ] && exit 0
sum=$(cat "$ROOT"/harness/qemu/*.patch "$0" | sha1sum | cut -d' ' -f1)
if [ -x "$QEMU_BIN" ] && [ "$(cat "$dir/.built" 2>/dev/null)" = "$sum" ]; then
	exit 0
fi

# Debian's deb-src entries for the archives the machine already uses.
deb_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]\+\(.*debian.*\)$/deb-src \1/p' "$f"
	done >"$apt/etc/sources.list"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -q 'debian' "$f" || continue
		sed 's/^Types:.*/Types: deb-src/' "$f" >"$apt/etc/sources.list.d/${f##*/}"
	done
}

if [ ! -f "$base/.unpacked" ]; then
	log "fetching Debian's qemu source package"
	rm -rf "$apt" "$base" "$dir/dl"
	mkdir -p "$apt/etc/sources.list.d" "$apt/lists/partial" \
		"$apt/cache/archives/partial" "$dir/dl"
	deb_sources
	aptopts=(-q -o "Dir::Etc::SourceList=$apt/etc/sources.list"
		 -o "Dir::Etc::SourceParts=$apt/etc/sources.list.d"
		 -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
		 -o "APT::Sandbox::User=root")
	apt-get "${aptopts[@]}" update >/dev/null
	(cd "$dir/dl" && apt-get "${aptopts[@]}" source --download-only qemu >/dev/null)
	# apt checked the files against the signed archive index.
	dpkg-source -x "$dir"/dl/qemu_*.dsc "$base" 2>&1 >/dev/null |
		grep -v -e 'cannot verify inline signature' -e '^gpgv:' >&2 || true
	[ -f "$base/configure" ] || { echo "qemu: dpkg-source failed" >&2; exit 1; }
	touch "$base/.unpacked"
fi

log "applying harness/qemu/*.patch"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a "$base" "$tmp/src"
for p in "$ROOT"/harness/qemu/*.patch; do
	patch -d "$tmp/src" -p1 -s -N <"$p" || { echo "qemu: $p does not apply" >&2; exit 1; }
done
mkdir -p "$src"
rsync -a --checksum --delete --exclude=/.git "$tmp/src/" "$src/"

# Debian's ccache puts its compiler wrappers here.
export PATH=/usr/lib/ccache:$PATH
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
export CCACHE_BASEDIR=$BUILD
# Compile results do not depend on where the tree is (debug information
# may name another checkout's directory): a second clone reuses them.
export CCACHE_NOHASHDIR=1
if [ ! -f "$obj/build.ninja" ]; then
	log "configuring qemu"
	mkdir -p "$obj"
	qemu_configure "$src" "$obj" "$dir/inst"
fi
log "building qemu"
ninja -C "$obj" qemu-system-x86_64 >"$obj/build.log" 2>&1 ||
	{ grep -B2 -A10 'error' "$obj/build.log" | head -60 >&2; exit 1; }
# QEMU's own test of the model (patch 37): a bare-metal guest whose
# caches', TLBs', off-core and predictor counts follow by hand, a second.
log "testing the PMU model (tests/tcg/x86_64/system/pmu-model.c)"
tcg=$obj/tests/tcg/x86_64-softmmu
make -s -C "$tcg" run-pmu-model \
	QEMU="$obj/qemu-system-x86_64 -L /usr/share/seabios -L /usr/share/qemu -nic none" \
	>"$obj/pmu-model.log" 2>&1 ||
	{ cat "$tcg/pmu-model.out" "$obj/pmu-model.log" >&2; exit 1; }
mkdir -p "$(dirname "$QEMU_BIN")"
# A new file renamed over the old: a running QEMU keeps its own.
cp "$obj/qemu-system-x86_64" "$QEMU_BIN.new"
mv -f "$QEMU_BIN.new" "$QEMU_BIN"
echo "$sum" >"$dir/.built"
