#!/bin/bash
# make run: build and boot a kernel and run a command in the guest (by
# default the perf_event demonstration).
. "$(dirname "$0")/lib.sh"
kind=${1:-ours}
kernel_check_name "$kind"

"$ROOT/harness/deps.sh"
"$ROOT/harness/tree.sh" "$kind"
"$ROOT/harness/kernel.sh" "$kind"
"$ROOT/harness/selftests.sh" "$kind"
"$ROOT/harness/initramfs.sh" "$kind" "${2:-}"
"$ROOT/harness/boot.sh" "$kind" run
