#!/bin/bash
# make check: build the kernel ("ours" by default, or "upstream" for the
# reference), boot it, run the KUnit suites built into it and the
# kselftests, and report.
. "$(dirname "$0")/lib.sh"
kind=${1:-ours}

"$ROOT/harness/build.sh" "$kind"
log "booting the $kind kernel"
"$ROOT/harness/boot.sh" "$kind" check
out=$(out_dir "$kind")
touch "$out/console.log" "$out/results.log"
awk -f "$ROOT/harness/report.awk" "$out/console.log" "$out/results.log"
