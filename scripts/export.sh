#!/bin/bash
# Write build/src's postings to patches/: one directory per posting, each as
# it is mailed (git format-patch, numbered, with its cover letter), and
# patches/series, the order in which they apply.
#
# A posting is a branch of build/src named NN-topic (01-fixes, ...): its
# patches are the commits after the branch before it, its cover letter the
# branch's description (first line the subject), RFC if the branch has
# 'rfc = true' in its git config.  The branches stack linearly and the last
# one is HEAD; 'git rebase -i base' moves them along (rebase.updateRefs).
#
#   scripts/export.sh                  export
#   scripts/export.sh --check          exit 1 if build/src has anything patches/ lacks
# (scripts/postings.sh writes them as a person mails them)
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=build/src PATCHES=patches
mode=${1:-}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

postings=$(git -C $SRC for-each-ref --format='%(refname:short)' 'refs/heads/[0-9][0-9]-*' | sort)
[ -n "$postings" ] || { echo "build/src has no posting branches (NN-topic)" >&2; exit 1; }
last=$(echo "$postings" | tail -1)
if [ "$(git -C $SRC rev-parse "$last")" != "$(git -C $SRC rev-parse HEAD)" ]; then
	echo "HEAD is not the last posting ($last): add the new commits to a posting" >&2
	echo "(git branch -f $last HEAD, or move them with git rebase -i base)" >&2
	exit 1
fi

prev=base
: > "$out/series"
for p in $postings; do
	if ! git -C $SRC merge-base --is-ancestor "$prev" "$p"; then
		echo "posting $p does not follow $prev" >&2
		exit 1
	fi
	if [ -z "$(git -C $SRC config "branch.$p.description" || true)" ]; then
		echo "posting $p has no cover letter: git branch --edit-description $p" >&2
		exit 1
	fi
	# as prepare-src.sh sets it back from the cover letter: without
	# trailing blank lines (else a clean clone's export differs)
	git -C $SRC config "branch.$p.description" "$(git -C $SRC config "branch.$p.description")"
	prefix=PATCH
	[ "$(git -C $SRC config --bool "branch.$p.rfc" || true)" = true ] && prefix="RFC PATCH"
	# --zero-commit keeps the files identical across re-applies (git am
	# makes new commit ids); a fixed abbreviation, as the kernel's
	# submitting-patches.rst asks, keeps them identical across clones (git
	# abbreviates by the number of objects, which rebases grow)
	git -C $SRC -c core.abbrev=12 format-patch -q --zero-commit --numbered --cover-letter \
		--cover-from-description=subject --subject-prefix="$prefix" \
		-o "$out/$p" "$prev..$p"
	# the cover letter is dated as the posting's last patch, not as now
	last_patch=$(ls "$out/$p"/*.patch | tail -1)
	date=$(grep -m1 '^Date: ' "$last_patch")
	sed -i "s/^Date: .*/$date/" "$out/$p/0000-cover-letter.patch"
	(cd "$out" && ls -1 "$p"/*.patch | grep -v '/0000-cover-letter.patch$') >> "$out/series"
	prev=$p
done

case "$mode" in
--check)
	dirty=$(git -C $SRC status --porcelain --untracked-files=no)
	if [ -n "$dirty" ]; then
		echo "build/src has uncommitted changes:"; echo "$dirty"; exit 1
	fi
	if ! diff -r -q "$out" $PATCHES >/dev/null; then
		echo "build/src commits differ from patches/"; exit 1
	fi
	exit 0
	;;
esac

rm -rf $PATCHES && mkdir -p $PATCHES
cp -r "$out"/[0-9][0-9]-* $PATCHES/
cp "$out/series" $PATCHES/series
echo "exported $(echo "$postings" | wc -l) postings, $(grep -c . $PATCHES/series) patches, to $PATCHES/"
