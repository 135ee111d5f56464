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

# $1 is "ours" or "upstream".
kernel_check_name() {
	case "$1" in
	ours|upstream) ;;
	*) echo "KERNEL must be 'ours' or 'upstream', not '$1'" >&2; exit 2 ;;
	esac
}

src_dir() { if [ "$1" = upstream ]; then echo "$BASE"; else echo "$BUILD/src/ours"; fi; }
obj_dir() { echo "$BUILD/obj/$1"; }
out_dir() { echo "$BUILD/$1"; }

log() { printf '>>> %s\n' "$*" >&2; }
