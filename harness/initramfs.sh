#!/bin/bash
# Pack a busybox initramfs with our guest init, the kselftests and the
# demonstration program: build/<kind>/initramfs.cpio.gz.
# $2 is the command `make run` runs (empty: the demonstration).
. "$(dirname "$0")/lib.sh"
kind=$1
cmd=${2:-}
kernel_check_name "$kind"

out=$(out_dir "$kind")
root=$out/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,root,etc,tests}
cp /bin/busybox "$root/bin/busybox"
# The kernel's configuration where Debian keeps it, for the tests whose
# expectations depend on it (perf_test_util.h: kernel_config_has()).
if [ -f "$out/config" ] && [ -f "$out/kernel.release" ]; then
	mkdir -p "$root/boot"
	cp "$out/config" "$root/boot/config-$(cat "$out/kernel.release")"
fi
cp "$ROOT/harness/guest/init" "$root/init"
chmod +x "$root/init"
for prog in perf-demo perf-bench perf-abi-diff perf-hw-map; do
	gcc -static -O2 -Wall -isystem "$out/hdr/include" \
		-o "$root/bin/$prog" "$ROOT/harness/guest/$prog.c"
done
# Copy program $1 to /usr/bin/$2 in the guest, with the libraries it needs.
copy_program() {
	mkdir -p "$root/usr/bin"
	cp "$1" "$root/usr/bin/$2"
	ldd "$1" | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
# Debian's perf and gdb, for the tests that drive them.
if perf=$(command -v perf) && perf=$(readlink -f "$perf") && [ -x "$perf" ]; then
	copy_program "$perf" perf
fi
if [ -x "$GDB_DIR/usr/bin/gdb" ]; then
	copy_program "$GDB_DIR/usr/bin/gdb" gdb
fi
# Debian's rr, for rr_test.sh: its recordings replay only if the
# conditional branches it counts are exact and its overflow signals come.
if rr=$(command -v rr) && [ -d /usr/lib/rr ]; then
	copy_program "$rr" rr
	mkdir -p "$root/usr/lib/rr"
	cp /usr/lib/rr/librrpreload.so /usr/lib/rr/librrpage.so \
	   /usr/lib/rr/librraudit.so /usr/lib/rr/rr_exec_stub "$root/usr/lib/rr/"
fi
# Debian's PAPI tools, for papi_test.sh: PAPI's presets (its event
# table) come from a file beside them.
if [ -x /usr/bin/papi_avail ] && [ -d /usr/share/papi ]; then
	for t in papi_avail papi_command_line papi_native_avail; do
		copy_program "/usr/bin/$t" "$t"
	done
	mkdir -p "$root/usr/share"
	cp -a /usr/share/papi "$root/usr/share/"
fi
# Three of Debian's libbpf-tools (about 1 MiB), for libbpf_tools_test.sh.
for t in opensnoop execsnoop runqlen; do
	[ -x "/usr/sbin/$t" ] && copy_program "/usr/sbin/$t" "$t"
done
# make fuzz (HARNESS_FUZZ set): trinity and the guest's fuzz script, with
# the run's length and seed, and the kselftests to run beside trinity.
if [ -n "${HARNESS_FUZZ:-}" ]; then
	copy_program "$(command -v trinity)" trinity
	cp "$ROOT/harness/guest/fuzz" "$root/bin/fuzz"
	chmod +x "$root/bin/fuzz"
	printf 'FUZZ_MINUTES=%s\nFUZZ_SEED=%s\nFUZZ_BESIDE="%s"\n' \
		"${FUZZ_MINUTES:-10}" "${FUZZ_SEED:-0}" "${FUZZ_BESIDE:-}" \
		>"$root/etc/fuzz-settings"
fi
# Debian's bpftrace, for make bpftrace only: it and its LLVM are about
# 200 MiB, which would slow every boot (bpftrace_test.sh skips without).
if [ "${HARNESS_BPFTRACE:-0}" = 1 ]; then
	copy_program "$(readlink -f "$(command -v bpftrace)")" bpftrace
fi
# HARNESS_TESTS='glob ...' runs only the tests matching one of the globs.
tests=
for t in $(cat "$out/selftests/.tests"); do
	keep=${HARNESS_TESTS:+no}
	for g in ${HARNESS_TESTS:-}; do
		# shellcheck disable=SC2254
		case "$t" in $g) keep= ;; esac
	done
	[ -z "$keep" ] && tests="$tests $t"
done
for t in $tests $(cat "$out/selftests/.helpers"); do
	cp "$out/selftests/$t" "$root/tests/$t"
done
echo $tests >"$root/tests/list"
mkdir -p "$root/lib/modules"
cp "$out"/modules/*.ko "$root/lib/modules/" 2>/dev/null || true
printf '%s\n' "$cmd" >"$root/etc/run-command"
echo "$kind" >"$root/etc/harness-kernel"
echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.cpio.gz"
