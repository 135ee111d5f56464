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
cp "$ROOT/harness/guest/init" "$root/init"
chmod +x "$root/init"
for prog in perf-demo perf-bench; do
	gcc -static -O2 -Wall -isystem "$out/hdr/include" \
		-o "$root/bin/$prog" "$ROOT/harness/guest/$prog.c"
done
# Debian's perf and the libraries it needs, for the tests that drive it.
if perf=$(command -v perf) && perf=$(readlink -f "$perf") && [ -x "$perf" ]; then
	mkdir -p "$root/usr/bin"
	cp "$perf" "$root/usr/bin/perf"
	ldd "$perf" | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
fi
for t in $(cat "$out/selftests/.tests"); do
	cp "$out/selftests/$t" "$root/tests/$t"
done
cp "$out/selftests/.tests" "$root/tests/list"
printf '%s\n' "$cmd" >"$root/etc/run-command"
echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.cpio.gz"
