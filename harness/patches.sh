#!/bin/bash
# make patches: our tree as a kernel patch series against the pristine
# linux-source-6.1, in build/patches/: 0000-cover-letter.patch and one
# patch per stanza of harness/patches/series, for `git am`.
#
# The series is made as commits in a scratch repository whose first
# commit is the unpacked base (build/series/gen, tag "base"), then
# written with git format-patch and checked with the base tree's
# scripts/checkpatch.pl --strict.  Fails, after saying why, if a file of
# our tree has no patch (exit 1), or a patch is not checkpatch-clean
# (exit 2, with the series written).
. "$(dirname "$0")/lib.sh"

dir=$ROOT/harness/patches
out=$BUILD/patches
gen=$BUILD/series/gen

"$ROOT/harness/deps.sh"
"$ROOT/harness/tree.sh" upstream
"$ROOT/harness/pristine.sh" "$gen"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The series file as one line per patch, fields separated by US (\037,
# not a tab: read would merge empty fields):
#   name, subject, changelog, removes, patterns, checkpatch types to ignore
# and the grown Makefiles in $tmp/grow.
awk -v grow="$tmp/grow" '
	function flush() {
		if (name != "")
			printf "%s\037%s\037%s\037%s\037%s\037%s\n", name, subject, changelog, removes, files, ignore
		name = subject = changelog = removes = files = ignore = ""
	}
	function value() { v = $0; sub(/^[^=]*=[ \t]*/, "", v); sub(/[ \t]+$/, "", v); return v }
	/^[ \t]*(#|$)/ { next }
	/^\[.*\]$/ { flush(); name = substr($0, 2, length($0) - 2); next }
	/^grow[ \t]*=/ { print value() > grow; next }
	/^subject[ \t]*=/ { subject = value(); next }
	/^changelog[ \t]*=/ { changelog = value(); next }
	/^removes[ \t]*=/ { removes = value(); next }
	/^files[ \t]*=/ { files = files (files == "" ? "" : " ") value(); next }
	/^checkpatch-ignore[ \t]*=/ { ignore = ignore (ignore == "" ? "" : ",") value(); next }
	{ printf "harness/patches/series:%d: cannot parse: %s\n", NR, $0 > "/dev/stderr"; bad = 1 }
	END { flush(); exit bad }
' "$dir/series" >"$tmp/series"
tr ' ' '\n' <"$tmp/grow" 2>/dev/null | grep . >"$tmp/grow.list" || true

fail=0
while IFS=$'\037' read -r name subject changelog removes files ignore; do
	if [ -z "$subject" ] || [ -z "$changelog" ] || [ -z "$files" ]; then
		echo "series: [$name] needs subject, changelog and files" >&2
		fail=1
	elif [ ! -f "$dir/$changelog" ]; then
		echo "series: [$name] changelog $changelog is missing" >&2
		fail=1
	fi
	case $removes in
	''|upstream) ;;
	*) echo "series: [$name] removes = upstream is the only choice" >&2; fail=1 ;;
	esac
done <"$tmp/series"
[ "$(cut -d$'\037' -f1 "$tmp/series" | sort | uniq -d)" = "" ] ||
	{ echo "series: a patch name is used twice" >&2; fail=1; }
[ "$(cut -d$'\037' -f4 "$tmp/series" | grep -c upstream)" = 1 ] ||
	{ echo "series: exactly one patch must say 'removes = upstream'" >&2; fail=1; }
[ $fail = 0 ] || exit 1

# Which patch each file goes to: the most specific pattern that matches.
overlay_files >"$tmp/ours"
awk -F'\037' '{ n = split($5, p, " "); for (i = 1; i <= n; i++) print NR "\t" p[i] }' \
	"$tmp/series" >"$tmp/patterns"
: >"$tmp/assign"
while read -r f; do
	best= bestlen=-1 bestexact=0 tie=
	while IFS=$'\t' read -r idx pat; do
		# shellcheck disable=SC2053
		[[ $f == $pat ]] || continue
		exact=0
		[ "$f" = "$pat" ] && exact=1
		if [ $exact -gt $bestexact ] ||
		   { [ $exact = $bestexact ] && [ ${#pat} -gt $bestlen ]; }; then
			best=$idx bestlen=${#pat} bestexact=$exact tie=
		elif [ $exact = $bestexact ] && [ ${#pat} = $bestlen ] && [ "$idx" != "$best" ]; then
			tie=$idx
		fi
	done <"$tmp/patterns"
	if [ -z "$best" ]; then
		echo "make patches: $f is in no patch: add it to harness/patches/series" >&2
		fail=1
	elif [ -n "$tie" ]; then
		echo "make patches: $f matches patches $best and $tie equally: make one pattern more specific" >&2
		fail=1
	else
		printf '%s\t%s\n' "$best" "$f" >>"$tmp/assign"
	fi
done <"$tmp/ours"
while IFS=$'\t' read -r idx pat; do
	case $pat in *[*?[]*) continue ;; esac
	grep -qxF "$pat" "$tmp/ours" ||
		{ echo "series: $pat names no file of our tree" >&2; fail=1; }
done <"$tmp/patterns"
while read -r g; do
	grep -qP "\t\Q$g\E$" "$tmp/assign" ||
		{ echo "series: grown $g is in no patch" >&2; fail=1; }
done <"$tmp/grow.list"
[ $fail = 0 ] || { echo "make patches: FAILED (the series does not cover our tree)" >&2; exit 1; }

# Who signs the series, and a date per HEAD so the output is reproducible.
ident_name=${PATCHES_NAME:-$(git -C "$ROOT" config user.name || echo "perf_event developers")}
ident_email=${PATCHES_EMAIL:-$(git -C "$ROOT" config user.email || echo "perf@localhost")}
date=$(git -C "$ROOT" log -1 --format=%cI 2>/dev/null || date -u +%FT%TZ)
export GIT_AUTHOR_NAME=$ident_name GIT_COMMITTER_NAME=$ident_name
export GIT_AUTHOR_EMAIL=$ident_email GIT_COMMITTER_EMAIL=$ident_email
export GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date
g() { git -C "$gen" "$@"; }

log "committing the series in $gen"
g checkout -q -f -B series base
g clean -fdxq
idx=0
grown_in=
: >"$tmp/ignores"
while IFS=$'\037' read -r name subject changelog removes files ignore; do
	idx=$((idx + 1))
	# Upstream's files go, except ours that an earlier patch put at the
	# same path (the UAPI header).
	if [ "$removes" = upstream ]; then
		grep -v '^[[:space:]]*\(#\|$\)' "$MANIFEST" | while read -r p; do
			g ls-files -- "${p%/}"
		done | sort -u >"$tmp/removed"
		awk -F'\t' -v i=$idx '$1 < i { print $2 }' "$tmp/assign" | sort >"$tmp/earlier"
		comm -23 "$tmp/removed" "$tmp/earlier" >"$tmp/remove"
		[ -s "$tmp/remove" ] && (cd "$gen" && xargs -d '\n' git rm -q -- <"$tmp/remove")
	fi
	awk -F'\t' -v i=$idx '$1 == i { print $2 }' "$tmp/assign" >"$tmp/files"
	while read -r f; do
		mkdir -p "$(dirname "$gen/$f")"
		cp "$ROOT/$f" "$gen/$f"
		[ -x "$ROOT/$f" ] && chmod +x "$gen/$f" || chmod -x "$gen/$f"
		grep -qxF "$f" "$tmp/grow.list" && grown_in="$grown_in $f"
	done <"$tmp/files"
	[ -s "$tmp/files" ] && (cd "$gen" && xargs -d '\n' git add -f -- <"$tmp/files")
	for m in $grown_in; do
		d=$(dirname "$m")
		g ls-files -- "$d/" >"$tmp/state"
		awk -v dir="$d" -f "$dir/grow.awk" "$tmp/state" "$ROOT/$m" >"$gen/$m"
		g add -f -- "$m"
	done
	if g diff --cached --quiet; then
		echo "  [$name] left out: none of its files is in our tree yet" >&2
		continue
	fi
	{
		echo "$subject"
		echo
		cat "$dir/$changelog"
		echo
		echo "Signed-off-by: $ident_name <$ident_email>"
	} >"$tmp/msg"
	g commit -q --no-verify -F "$tmp/msg"
	echo "$ignore" >>"$tmp/ignores"
done <"$tmp/series"

log "writing $out"
rm -rf "$out"
mkdir -p "$out"
g format-patch -q -B --no-renames --cover-letter -o "$out" base..series

# The cover letter: ours in place of git's placeholders, with the
# benchmark table from the README.
n=$(g rev-list --count base..series)
version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
awk '/<!-- benchmark table -->/ { on = 1; next } /<!-- end of benchmark table -->/ { on = 0 } on' \
	"$ROOT/README.md" >"$tmp/bench"
[ -s "$tmp/bench" ] || echo "(README.md has no benchmark table yet: run make bench.)" >"$tmp/bench"
g log --reverse --format='%s' base..series | awk '{ printf "  %2d. %s\n", NR, $0 }' >"$tmp/list"
sed -e "s/@VERSION@/$version/" -e "s/@N@/$n/" "$dir/cover-letter.txt" |
	awk -v bench="$tmp/bench" -v list="$tmp/list" '
		/^@BENCHMARK@$/ { while ((getline l < bench) > 0) print l; next }
		/^@PATCHES@$/ { while ((getline l < list) > 0) print l; next }
		{ print }' >"$tmp/blurb"
cover=$out/0000-cover-letter.patch
subject=$(head -n1 "$tmp/blurb")
tail -n +3 "$tmp/blurb" >"$tmp/body"
awk -v subject="$subject" -v body="$tmp/body" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < body) > 0) print l; next }
	{ print }' "$cover" >"$tmp/cover"
mv "$tmp/cover" "$cover"

# checkpatch --strict on every patch, with the base tree's script.  The
# reminder to update MAINTAINERS on added files is left out: every file
# the series adds is under an existing MAINTAINERS entry (PERFORMANCE
# EVENTS SUBSYSTEM) or beside files that are.
log "checkpatch --strict"
# A stanza's checkpatch-ignore adds the types it names, for that patch.
bad=0
k=0
for p in "$out"/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	k=$((k + 1))
	ignore=FILE_PATH_CHANGES$(sed -n "${k}s/^./,&/p" "$tmp/ignores" | tr -d ' ')
	# /usr/bin first: spdxcheck.py's python3 is Debian's, with deps.sh's modules.
	if ! (cd "$gen" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --quiet --no-summary \
			--ignore "$ignore" "$p") >"$tmp/cp" 2>&1; then
		echo "checkpatch: $(basename "$p"):" >&2
		sed 's/^/    /' "$tmp/cp" >&2
		bad=$((bad + 1))
	fi
done
if [ $bad != 0 ]; then
	echo "make patches: $n patches in build/patches/, $bad of them not checkpatch --strict clean" >&2
	exit 2
fi
echo "make patches: $n patches and a cover letter in build/patches/, checkpatch --strict clean"
