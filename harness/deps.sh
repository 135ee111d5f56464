#!/bin/bash
# Install what the harness needs from Debian's archive, if it is missing.
. "$(dirname "$0")/lib.sh"

# Line 4: what gdb-minimal (below) needs to run.  Lines 5-7: what
# qemu.sh needs to fetch and build QEMU, and the firmware it boots with
# (Debian's qemu-system-x86 stays for comparing speed with it).  Line 8:
# what checkpatch.pl's SPDX check (scripts/spdxcheck.py) imports, for
# make patches.  Line 9: make bench's curves, the fuzzer make fuzz runs
# in the guest, pahole, which makes the kernel's BTF
# (CONFIG_DEBUG_INFO_BTF), the BPF tools libbpf_tools_test.sh runs, and
# rr and PAPI for rr_test.sh and papi_test.sh.
pkgs="linux-source-6.1 qemu-system-x86 busybox-static ccache build-essential
      bc bison flex libelf-dev libssl-dev cpio kmod xz-utils gawk perl rsync
      linux-perf gcc-multilib libc6-dev-i386 git time
      libdebuginfod1 libexpat1 libgmp10 libipt2 libreadline8 libxxhash0
      dpkg-dev patch ninja-build meson pkg-config python3-venv
      libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev
      qemu-system-data seabios
      python3-ply python3-git
      gnuplot-nox trinity dwarves libbpf-tools rr papi-tools"
# make bpftrace: Debian's bpftrace for the guest (with LLVM, ~200 MiB).
[ "${HARNESS_BPFTRACE:-0}" = 1 ] && pkgs="$pkgs bpftrace"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
updated=
if [ -n "$missing" ]; then
	log "installing:$missing"
	$sudo apt-get update -q >/dev/null
	updated=1
	# shellcheck disable=SC2086
	$sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

# gdb for the guest, which has no Python for Debian's full gdb: the
# gdb-minimal package, unpacked under build/ since it conflicts with gdb.
if [ ! -x "$GDB_DIR/usr/bin/gdb" ]; then
	log "unpacking gdb-minimal"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	if ! (cd "$tmp" && apt-get download -q gdb-minimal >/dev/null 2>&1); then
		[ -n "$updated" ] || $sudo apt-get update -q >/dev/null
		(cd "$tmp" && apt-get download -q gdb-minimal >/dev/null)
	fi
	rm -rf "$GDB_DIR"
	mkdir -p "$GDB_DIR"
	dpkg-deb -x "$tmp"/gdb-minimal_*.deb "$GDB_DIR"
fi
