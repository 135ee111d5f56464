#!/bin/bash
# Everything before booting: the packages, the tree, the kernel, the
# kselftests and the initramfs.  $2 is the command `make run` runs.
. "$(dirname "$0")/lib.sh"
kind=${1:-ours}
kernel_check_name "$kind"

"$ROOT/harness/deps.sh"
"$ROOT/harness/qemu.sh"
"$ROOT/harness/tree.sh" "$kind"
"$ROOT/harness/kernel.sh" "$kind"
"$ROOT/harness/selftests.sh" "$kind"
"$ROOT/harness/initramfs.sh" "$kind" "${2:-}"
