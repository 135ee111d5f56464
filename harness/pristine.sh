#!/bin/bash
# A git repository at $1 whose first commit, tagged "base", is the
# pristine base: linux-source-6.1 unpacked from its tarball, every file
# of it (the kernel's .gitignore rules are not applied).  Made once; kept
# while the tarball stays the same.
. "$(dirname "$0")/lib.sh"
repo=$1

stamp=$(stat -c '%s %Y' "$TARBALL")
if [ -d "$repo/.git" ] && [ "$(cat "$repo/.git/pristine-tarball" 2>/dev/null)" = "$stamp" ] &&
   git -C "$repo" rev-parse -q --verify base >/dev/null; then
	exit 0
fi

log "making $repo: the pristine base as a git commit"
rm -rf "$repo"
mkdir -p "$repo"
tar -C "$repo" --strip-components=1 -xf "$TARBALL"
cd "$repo"
git init -q
git config core.autocrlf false
git config gc.auto 0
git add -A -f .
GIT_AUTHOR_NAME=linux-source GIT_AUTHOR_EMAIL=linux-source@localhost \
GIT_COMMITTER_NAME=linux-source GIT_COMMITTER_EMAIL=linux-source@localhost \
GIT_AUTHOR_DATE=2023-01-01T00:00:00Z GIT_COMMITTER_DATE=2023-01-01T00:00:00Z \
	git commit -q --no-verify -m "Linux 6.1 as Debian's linux-source-6.1 ships it"
git tag -f base >/dev/null
echo "$stamp" >.git/pristine-tarball
