#!/bin/bash
# make patches-check: apply build/patches/ (make patches, run first) with
# git am to a clean checkout of the pristine base, build the kernel after
# every patch with the guest configuration (as harness/kernel.sh makes
# it, with ccache), and confirm that the last step is byte for byte the
# tree harness/tree.sh lays out for `make check`.  Ends with one line
# saying whether all of that held.
#
# The checkout and its objects are build/series/src/ours and
# build/series/obj/ours, so that ccache sees the same relative paths as
# for build/src/ours (CCACHE_BASEDIR) and the build is incremental from
# one patch to the next.  The full build output is in build/series/check.log.
. "$(dirname "$0")/lib.sh"

# Exit 2: the series is there but not checkpatch-clean; check the rest
# and say so at the end.
checkpatch=clean
"$ROOT/harness/patches.sh" || { [ $? = 2 ] && checkpatch="NOT clean (see make patches)"; } ||
	{ echo "patches-check: FAILED: make patches failed"; exit 1; }

series=$BUILD/series
gen=$series/gen
src=$series/src/ours
obj=$series/obj/ours
logf=$series/check.log
patches=$BUILD/patches
start=$(date +%s)

fail() {
	echo "patches-check: FAILED: $* ($(($(date +%s) - start)) s; log: ${logf#"$ROOT"/})"
	exit 1
}

"$ROOT/harness/tree.sh" ours
ours=$(src_dir ours)

# A clean checkout of the base: a clone of the generator's repository,
# reset to its "base" tag.
if [ ! -d "$src/.git" ]; then
	log "cloning the pristine base into $src"
	rm -rf "$src"
	mkdir -p "$(dirname "$src")"
	git clone -q --shared --no-checkout "$gen" "$src"
	git -C "$src" config gc.auto 0
fi
git -C "$src" fetch -q -f "$gen" 'refs/tags/base:refs/tags/base'
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" checkout -q -f --detach base
git -C "$src" clean -fdxq

export GIT_COMMITTER_NAME=patches-check GIT_COMMITTER_EMAIL=patches-check@localhost
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
export CCACHE_BASEDIR=$series
export KBUILD_BUILD_TIMESTAMP='Sun Jan  1 00:00:00 UTC 2023'
export KBUILD_BUILD_USER=perf KBUILD_BUILD_HOST=harness
mk() { nice -n 10 make -s -C "$src" O="$obj" CC="ccache gcc" -j"$JOBS" "$@"; }

# The configuration of harness/kernel.sh: tinyconfig and our fragments
# (from this repository, for every step), made again whenever a patch
# touches a Kconfig file.
frags="perf_guest.config perf_debug.config"
configure() {
	mkdir -p "$obj"
	for f in $frags; do cp "$ROOT/kernel/configs/$f" "$obj/$f"; done
	mk tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m .config $frags >/dev/null)
	mk olddefconfig >/dev/null
}

mapfile -t list < <(ls "$patches"/0*.patch | grep -v '/0000-cover-letter.patch$')
n=${#list[@]}
[ "$n" -gt 0 ] || fail "no patches in build/patches"
: >"$logf"
k=0
for p in "${list[@]}"; do
	k=$((k + 1))
	subject=$(awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^[ \t]/) s = s l; print s; exit }' "$p" |
		sed 's/^Subject: \[PATCH[^]]*\] //; s/[ \t][ \t]*/ /g')
	t0=$(date +%s)
	echo "=== [$k/$n] $(basename "$p")" >>"$logf"
	git -C "$src" am -q "$p" >>"$logf" 2>&1 ||
		fail "patch $k/$n does not apply: $subject"
	changed=$(git -C "$src" diff --name-only HEAD~1 HEAD)
	if [ $k = 1 ] || [ ! -f "$obj/.config" ] || grep -q Kconfig <<<"$changed"; then
		configure >>"$logf" 2>&1 || fail "configuring after patch $k/$n: $subject"
	fi
	mk bzImage >>"$logf" 2>&1 || {
		tail -n 30 "$logf" | sed 's/^/    /'
		fail "patch $k/$n does not build: $subject"
	}
	printf '  [%2d/%d] %4ds  %s\n' "$k" "$n" $(($(date +%s) - t0)) "$subject"
done

# The last step's configuration is the one make check builds with.
for f in $frags; do
	grep -v '^#' "$ROOT/kernel/configs/$f" | grep . | while read -r line; do
		opt=${line%%=*} want=${line#*=}
		have=$(grep "^$opt=" "$obj/.config" | cut -d= -f2- || true)
		[ "$want" = n ] && [ -z "$have" ] && continue
		[ "$want" = "$have" ] || echo "config: $opt=$want did not stick (have '${have:-unset}')"
	done
done >"$series/config-stick"
[ -s "$series/config-stick" ] && { cat "$series/config-stick"; fail "the guest configuration did not stick"; }

# The last step against the tree make check tests: the same files, the
# same bytes, the same executable bits.  (git keeps no empty directory.)
log "comparing the series' tree with $ours"
diff -rq --no-dereference -x .git -x .copied -x .overlay-files "$ours" "$src" >"$series/tree.diff" 2>&1 || true
while IFS= read -r line; do
	case $line in
	"Only in "*)
		d=${line#Only in }
		d="${d%%: *}/${d#*: }"
		[ -d "$d" ] && [ -z "$(find "$d" ! -type d -print -quit)" ] && continue
		;;
	esac
	echo "$line"
done <"$series/tree.diff" >"$series/tree.diff.real"
xbits() { (cd "$1" && find . -path ./.git -prune -o -type f -perm /111 -print | sort); }
diff <(xbits "$ours") <(xbits "$src") >>"$series/tree.diff.real" || true
if [ -s "$series/tree.diff.real" ]; then
	head -n 20 "$series/tree.diff.real" | sed 's/^/    /'
	fail "the series' tree differs from the tree make check tests (build/series/tree.diff.real)"
fi

if [ "$checkpatch" != clean ]; then
	fail "each of the $n patches applies and builds and the result is the tree make check tests, but checkpatch --strict is $checkpatch"
fi
echo "patches-check: OK: $n patches apply with git am to linux-source-6.1, each step builds, the result is the tree make check tests, checkpatch --strict clean ($(($(date +%s) - start)) s)"
