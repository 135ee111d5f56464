#!/bin/bash
# harness/fresh.sh: the README's commands on a bare Debian 12, as a new
# user meets them.  Builds a minimal Debian 12 root with debootstrap
# under build/fresh/root (kept for the next run; FRESH_NEW=1 starts from
# a new one), clones this repository's HEAD into it, and runs
# `make check` and then `make run` inside it with chroot.  Whatever the
# harness calls must come from its own install step: the root starts with
# Debian's minimal base and nothing else.
#
#   harness/fresh.sh                 (as root; about 50 minutes cold)
#   FRESH_TARGETS="distro" harness/fresh.sh
#                                    (other make targets, in turn)
#
# The host's compiler cache is shared with the root, to save compile
# time (FRESH_CCACHE=0 gives the root an empty one of its own, for a
# cold build); nothing else of the host is visible in it.  The output of
# each target ends in build/fresh/<target>.log, with the time it took
# in build/fresh/<target>.time (wall and processor time).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "fresh.sh: run it as root (chroot)" >&2; exit 2; }
# The real path: /proc/mounts names mount points by it.
mkdir -p "$BUILD/fresh"
fresh=$(realpath "$BUILD/fresh")
root=$fresh/root
mkdir -p "$fresh"

command -v debootstrap >/dev/null ||
	{ apt-get update -q >/dev/null; apt-get install -y -q debootstrap >/dev/null; }

mounts=()
cleanup() {
	local m i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		m=${mounts[$i]}
		umount -l "$m" 2>/dev/null || true
	done
}
trap cleanup EXIT
bind() {
	mkdir -p "$root$2"
	mount --bind "$1" "$root$2"
	mounts+=("$root$2")
}

# A run that was killed leaves its mounts behind: /dev and the compiler
# cache among them.  Take them down before anything is removed, or rm
# would reach through them into the host's /dev and cache.
stale_mounts() {
	awk -v r="$root" 'index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r
}
for m in $(stale_mounts); do
	umount -l "$m" || { echo "fresh: cannot unmount $m" >&2; exit 1; }
done
[ -z "$(stale_mounts)" ] || { echo "fresh: mounts left under $root" >&2; exit 1; }

if [ "${FRESH_NEW:-0}" = 1 ] || [ ! -f "$root/.debootstrapped" ]; then
	log "debootstrap: a minimal Debian 12 in $root"
	rm -rf --one-file-system "$root"
	debootstrap --variant=minbase bookworm "$root" \
		http://deb.debian.org/debian >"$fresh/debootstrap.log" 2>&1 ||
		{ tail -20 "$fresh/debootstrap.log" >&2; exit 1; }
	# The archives a Debian 12 install uses: main, updates, security.
	cat >"$root/etc/apt/sources.list" <<-EOF
	deb http://deb.debian.org/debian bookworm main
	deb http://deb.debian.org/debian bookworm-updates main
	deb http://deb.debian.org/debian-security bookworm-security main
	EOF
	touch "$root/.debootstrapped"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"

log "cloning $(git -C "$ROOT" rev-parse --short HEAD) into the root"
rm -rf "$root/root/repo"
git clone -q "$ROOT" "$root/root/repo"

mkdir -p "$root/proc" "$root/sys"
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
mount -t sysfs sysfs "$root/sys"; mounts+=("$root/sys")
bind /dev /dev
bind /dev/pts /dev/pts
if [ "${FRESH_CCACHE:-1}" = 1 ]; then
	mkdir -p "${CCACHE_DIR:-$HOME/.ccache}"
	bind "${CCACHE_DIR:-$HOME/.ccache}" /root/.ccache
else
	rm -rf "$root/root/.ccache"
fi

chrooted=(chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	/bin/bash -c)
inside() {
	"${chrooted[@]}" "cd /root/repo && $1"
}

# What the README asks for before its commands: git to clone, make.
inside "apt-get update -q >/dev/null && apt-get install -y -q git make >/dev/null" ||
	{ echo "fresh: could not install git and make" >&2; exit 1; }

status=0
targets=${FRESH_TARGETS:-check run}
for t in $targets; do
	log "make $t (log: $fresh/$t.log)"
	start=$(date +%s)
	rc=0
	/usr/bin/time -o "$fresh/$t.cpu" -f '%U s user, %S s system' \
		"${chrooted[@]}" "cd /root/repo && make $t" \
		>"$fresh/$t.log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || status=1
	echo "make $t: $(($(date +%s) - start)) s ($(tail -1 "$fresh/$t.cpu")), exit status $rc" |
		tee "$fresh/$t.time"
	tail -15 "$fresh/$t.log"
done
if [ "$status" = 0 ]; then
	echo "fresh: make $targets passed on a bare Debian 12"
else
	echo "fresh: FAILED on a bare Debian 12 (see $fresh/*.log)"
fi
exit $status
