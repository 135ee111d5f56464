#!/bin/bash
# Prepare the source tree of a kernel: "upstream" is the unpacked base,
# "ours" is a copy of it with the manifest's files removed and the
# repository laid over it.  Files are only rewritten when their content
# changes, so make rebuilds incrementally.
. "$(dirname "$0")/lib.sh"
kind=$1
kernel_check_name "$kind"

if [ ! -f "$BASE/.unpacked" ]; then
	log "unpacking $TARBALL"
	rm -rf "$BUILD/base"
	mkdir -p "$BUILD/base"
	tar -C "$BUILD/base" -xf "$TARBALL"
	touch "$BASE/.unpacked"
fi
[ "$kind" = upstream ] && exit 0

src=$(src_dir ours)
if [ ! -f "$src/.copied" ]; then
	log "copying the base to $src"
	rm -rf "$src"
	mkdir -p "$(dirname "$src")"
	cp -a "$BASE" "$src"
	rm -f "$src/.unpacked"
	touch "$src/.copied"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Files of ours that go into the tree.
overlay_files >"$tmp/ours"

# Upstream files the manifest removes.
grep -v '^[[:space:]]*\(#\|$\)' "$MANIFEST" | while read -r p; do
	if [ "${p%/}" != "$p" ]; then
		(cd "$BASE" && find "$p" -type f 2>/dev/null)
	elif [ -e "$BASE/$p" ]; then
		echo "$p"
	else
		echo "manifest names a missing file: $p" >&2
		exit 1
	fi
done | sort -u >"$tmp/removed"

comm -23 "$tmp/removed" "$tmp/ours" | while read -r f; do
	rm -f "$src/$f"
done

# Lay ours over the tree, executable bits too (a script made executable
# after it was laid is the same content).
while read -r f; do
	if ! cmp -s "$ROOT/$f" "$src/$f"; then
		mkdir -p "$(dirname "$src/$f")"
		cp "$ROOT/$f" "$src/$f"
	fi
	if [ -x "$ROOT/$f" ] && [ ! -x "$src/$f" ]; then
		chmod +x "$src/$f"
	elif [ ! -x "$ROOT/$f" ] && [ -x "$src/$f" ]; then
		chmod -x "$src/$f"
	fi
done <"$tmp/ours"

# Files we laid over the tree last time and no longer have: put the base
# back, or remove them if the base never had them or the manifest says so.
prev=$src/.overlay-files
touch "$prev"
comm -23 "$prev" "$tmp/ours" | while read -r f; do
	if [ -f "$BASE/$f" ] && ! grep -qxF "$f" "$tmp/removed"; then
		cp -p "$BASE/$f" "$src/$f"
	else
		rm -f "$src/$f"
	fi
done
cp "$tmp/ours" "$prev"
