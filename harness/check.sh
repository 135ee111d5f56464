#!/bin/bash
# make check: build the kernel ("ours" by default, or "upstream" for the
# reference), the kselftests and the initramfs, boot it, run the KUnit
# suites built into the kernel and the kselftests, and report.
. "$(dirname "$0")/lib.sh"
kind=${1:-ours}
kernel_check_name "$kind"

"$ROOT/harness/deps.sh"
"$ROOT/harness/tree.sh" "$kind"
"$ROOT/harness/kernel.sh" "$kind"
"$ROOT/harness/selftests.sh" "$kind"
"$ROOT/harness/initramfs.sh" "$kind"
log "booting the $kind kernel"
"$ROOT/harness/boot.sh" "$kind" check
out=$(out_dir "$kind")
touch "$out/console.log" "$out/results.log"
awk -f "$ROOT/harness/report.awk" "$out/console.log" "$out/results.log"
