#!/bin/bash
# Install what the harness needs from Debian's archive, if it is missing.
. "$(dirname "$0")/lib.sh"

pkgs="linux-source-6.1 qemu-system-x86 busybox-static ccache build-essential
      bc bison flex libelf-dev libssl-dev cpio kmod xz-utils gawk perl
      linux-perf gcc-multilib libc6-dev-i386"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
log "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
