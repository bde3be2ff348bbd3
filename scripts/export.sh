#!/bin/bash
# Write build/src's commits since 'base' to patches/ and rewrite patches/series.
#   scripts/export.sh          export
#   scripts/export.sh --check  exit 1 if build/src has anything patches/ lacks
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=build/src

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
	if ! diff -r -q "$out" patches >/dev/null; then
		echo "build/src commits differ from patches/"; exit 1
	fi
	exit 0
fi

rm -f patches/*.patch
cp "$out"/*.patch patches/ 2>/dev/null || true
cp "$out/series" patches/series
echo "exported $(grep -c . patches/series || true) patches to patches/"
