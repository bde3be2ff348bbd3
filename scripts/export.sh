#!/bin/bash
# Write build/src's commits since 'base' to patches/ and rewrite patches/series.
#   scripts/export.sh          export
#   scripts/export.sh --check  exit 1 if build/src has anything patches/ lacks
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=build/src PATCHES=patches

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# --zero-commit keeps the files identical across re-applies (git am makes
# new commit ids)
git -C $SRC format-patch -q --zero-commit --no-numbered \
	-o "$out" base..HEAD
(cd "$out" && ls -1 *.patch 2>/dev/null || true) > "$out/series"

if [ "${1:-}" = --check ]; then
	dirty=$(git -C $SRC status --porcelain --untracked-files=no)
	if [ -n "$dirty" ]; then
		echo "build/src has uncommitted changes:"; echo "$dirty"; exit 1
	fi
	if ! diff -r -q "$out" $PATCHES >/dev/null; then
		echo "build/src commits differ from patches/"; exit 1
	fi
	exit 0
fi

mkdir -p $PATCHES
rm -f $PATCHES/*.patch
cp "$out"/*.patch $PATCHES/ 2>/dev/null || true
cp "$out/series" $PATCHES/series
echo "exported $(grep -c . $PATCHES/series || true) patches to $PATCHES/"
