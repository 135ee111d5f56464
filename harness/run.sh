#!/bin/bash
# make run: build and boot a kernel and run a command in the guest (by
# default the perf_event demonstration) with its console on our terminal.
. "$(dirname "$0")/lib.sh"
kind=${1:-ours}

"$ROOT/harness/build.sh" "$kind" "${2:-}"
"$ROOT/harness/boot.sh" "$kind" run
