#!/bin/bash
# Write build/src's postings as a person mails them: DIR/NN-topic/, the
# cover letter and the numbered patches, one file per message, for
# git send-email DIR/NN-topic/; DIR/NN-topic.mbox, the same in one mbox (for
# git am, b4 or a mail client: git send-email would send it as one message).
#
#   scripts/postings.sh "Name <email>" [DIR]     (DIR: build/postings)
#
# The commits of build/src are made under build/src's own identity (its git
# config user.name and user.email, that prepare-src.sh takes from the
# project's), a placeholder that cannot certify the DCO.  In a scratch
# repository that shares build/src's objects (build/src is only read), each
# commit is made again with the same tree: authored by "Name <email>" where
# the placeholder authored it, its Signed-off-by by the placeholder replaced
# by that person's (other tags kept, theirs added last if missing).  Then
# per posting (the branches NN-topic, as export.sh reads them):
#
#  - git format-patch -v$REROLL (default 2: the cover letters' "Changes
#    since the 113-patch version" become "Changes since v1 (113 patches)";
#    a letter that has no "Changes since" is named on stderr), --from the
#    person, --base=base: base-commit is build/src's base commit and the
#    prerequisite-patch-ids are the patches of the postings before;
#  - To: the maintainers (and their list, not LKML) of the sections whose
#    files the posting changes; Cc: the rest of what get_maintainer.pl says
#    for its patches (reviewers, other lists, keyword matches) and the Cc:
#    lines of the cover letter (the branch description: they are taken out
#    of its text); on every message of the posting.  get_maintainer.pl and
#    MAINTAINERS are those of the base, from Debian's linux-source tarball
#    (build/src has neither), extracted into build/maintainers/;
#    GET_MAINTAINER_OPTS adds options (--no-keywords, ...);
#  - the cover letter says the base: Debian's linux-source version, and
#    that the rebase onto perf-tools-next, not fetched here, comes first.
set -euo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD
SRC=$TOP/build/src
VER=7.3
AUTHOR=${1:-}
DIR=${2:-build/postings}
VERSION=${REROLL:-2}

usage() { echo "usage: scripts/postings.sh \"Name <email>\" [DIR]" >&2; exit 1; }
[[ $AUTHOR =~ ^([^<>]*[^<> ])\ +\<([^<> @]+@[^<> ]+)\>$ ]] || usage
AUTHOR_NAME=${BASH_REMATCH[1]} AUTHOR_EMAIL=${BASH_REMATCH[2]}
AUTHOR="$AUTHOR_NAME <$AUTHOR_EMAIL>"
[[ $VERSION =~ ^[1-9][0-9]*$ ]] || { echo "REROLL must be a number" >&2; exit 1; }

PH_NAME=$(git -C "$SRC" config user.name || true)
PH_EMAIL=$(git -C "$SRC" config user.email || true)
PLACEHOLDER="$PH_NAME <$PH_EMAIL>"
if [ "$AUTHOR_EMAIL" = "$PH_EMAIL" ]; then
	echo "$AUTHOR is build/src's placeholder identity: AUTHOR must be the person who sends" >&2
	exit 1
fi

# the postings, as export.sh reads them: read once, build/src may move on
postings=$(git -C "$SRC" for-each-ref --format='%(refname:short)' 'refs/heads/[0-9][0-9]-*' | sort)
[ -n "$postings" ] || { echo "build/src has no posting branches (NN-topic)" >&2; exit 1; }
declare -A tip
for p in $postings; do tip[$p]=$(git -C "$SRC" rev-parse "$p^{commit}"); done
last=$(echo "$postings" | tail -1)
if [ "${tip[$last]}" != "$(git -C "$SRC" rev-parse HEAD)" ]; then
	echo "HEAD is not the last posting ($last): build/src is being changed, or has commits in no posting" >&2
	exit 1
fi
base=$(git -C "$SRC" rev-parse "base^{commit}")
pkgver=$(git -C "$SRC" log -1 --format=%s "$base" | sed -n 's/^Linux \([^ ]*\) .*/\1/p')
[ -n "$pkgver" ] || { echo "build/src's base commit does not say its Linux version" >&2; exit 1; }

# get_maintainer.pl and MAINTAINERS of the base, from the tarball it came from
GM=$TOP/build/maintainers
if [ "$(cat "$GM/version" 2>/dev/null)" != "$pkgver" ]; then
	tarball=$(scripts/fetch-source.sh $VER)
	[ "$(cat "${tarball%.tar.xz}.version")" = "$pkgver" ] ||
		{ echo "$tarball is not linux-source $pkgver, build/src's base" >&2; exit 1; }
	rm -rf "$GM" && mkdir -p "$GM"
	tar -xJf "$tarball" -C "$GM" --strip-components=1 linux-source-$VER/MAINTAINERS \
		linux-source-$VER/.mailmap linux-source-$VER/scripts/get_maintainer.pl
	echo "$pkgver" > "$GM/version"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/repo.git
git init -q --bare "$R"
echo "$(git -C "$SRC" rev-parse --path-format=absolute --git-common-dir)/objects" \
	> "$R/objects/info/alternates"
g() { git -C "$R" -c core.abbrev=12 "$@"; }
g update-ref refs/tags/base "$base"

# the commits again, the person's
export GIT_COMMITTER_NAME=$AUTHOR_NAME GIT_COMMITTER_EMAIL=$AUTHOR_EMAIL
parent=$base prev=base
for p in $postings; do
	if ! git -C "$SRC" merge-base --is-ancestor "${tip[$prev]:-$base}" "${tip[$p]}"; then
		echo "posting $p does not follow $prev" >&2; exit 1
	fi
	for c in $(git -C "$SRC" rev-list --reverse --topo-order "${tip[$prev]:-$base}..${tip[$p]}"); do
		[ "$(git -C "$SRC" rev-list --no-walk --count --merges "$c")" = 0 ] ||
			{ echo "$c is a merge" >&2; exit 1; }
		IFS=$'\t' read -r an ae ad cd < <(git -C "$SRC" log -1 --format=$'%an\t%ae\t%ad\t%cd' --date=raw "$c")
		if [ "$ae" = "$PH_EMAIL" ]; then an=$AUTHOR_NAME ae=$AUTHOR_EMAIL; fi
		git -C "$SRC" log -1 --format=%B "$c" |
			awk -v ph="Signed-off-by: $PLACEHOLDER" -v me="Signed-off-by: $AUTHOR" '
				$0 == ph { $0 = me } $0 == me && seen++ { next } { print }' |
			git interpret-trailers --if-exists addIfDifferent --trailer "Signed-off-by: $AUTHOR" \
			> "$tmp/msg"
		parent=$(GIT_AUTHOR_NAME=$an GIT_AUTHOR_EMAIL=$ae GIT_AUTHOR_DATE=$ad GIT_COMMITTER_DATE=$cd \
			g commit-tree "$c^{tree}" -p "$parent" -F "$tmp/msg")
	done
	g update-ref "refs/heads/$p" "$parent"
	prev=$p
done

# the cover letter's addition: the base
base_text() {	# posting index (0: the first)
	local with=.
	[ "$1" = 0 ] || with=",
with the postings before this one (prerequisite-patch-id below)."
	echo "base: Debian's linux-source-$VER ($pkgver), tools/perf$with
base-commit below is that tarball's tools/perf committed alone, in no
public tree.  A rebase onto perf-tools-next comes first: it could not
be fetched where these patches were made."
}

# To: the maintainers of the sections of the files changed, and their lists
# (but linux-kernel, that every section has); Cc: the rest (reviewers, other
# lists, keyword matches)
recipients() {	# patch files...
	(cd "$GM" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-tree \
		${GET_MAINTAINER_OPTS:-} "$@") > "$tmp/gm" || { cat "$tmp/gm" >&2; return 1; }
	awk -v me="$AUTHOR_EMAIL" -v ph="$PH_EMAIL" '
		match($0, /^(.*<[^>]*>|[^ ]+) \(/) {
			addr = substr($0, 1, RLENGTH - 2); role = substr($0, RLENGTH + 1)
			sub(/\)$/, "", role)
			if (index(addr, "<" me ">") || addr == me || index(addr, "<" ph ">")) next
			if (role ~ /^(maintainer|supporter):/ && role !~ /:Keyword:/) {
				sec = role; sub(/^[^:]*:/, "", sec); to_sec[sec] = 1
			}
			n++; a[n] = addr; r[n] = role
		}
		END {
			for (i = 1; i <= n; i++) {
				sec = r[i]; sub(/^[^:]*:/, "", sec)
				kind = (to_sec[sec] && r[i] ~ /^(maintainer|supporter|open list|moderated list|list):/ &&
					a[i] != "linux-kernel@vger.kernel.org") ? "to" : "cc"
				if (!seen[a[i]]++) print kind "\t" a[i]
			}
		}' "$tmp/gm"
}

rm -rf "$DIR" && mkdir -p "$DIR"
prev=base i=0 missing_changes=
for p in $postings; do
	prefix=PATCH
	[ "$(git -C "$SRC" config --bool "branch.$p.rfc" || true)" = true ] && prefix="RFC PATCH"
	desc=$(git -C "$SRC" config "branch.$p.description" || true)
	[ -n "$desc" ] || { echo "posting $p has no cover letter" >&2; exit 1; }
	if [ "$VERSION" -gt 1 ]; then
		desc=$(echo "$desc" | sed -E "s/^Changes since the ([0-9]+)-patch version/Changes since v$((VERSION - 1)) (\1 patches)/")
		echo "$desc" | grep -q "^Changes since v$((VERSION - 1))" || missing_changes="$missing_changes $p"
	fi
	# its Cc: lines go in the headers of the posting's messages (below)
	g config "branch.$p.description" "$(echo "$desc" | grep -v '^Cc: ')

$(base_text $i)"
	opts=(-q --zero-commit --numbered --cover-letter --cover-from-description=subject
	      --subject-prefix="$prefix" --base=base --from="$AUTHOR")
	[ "$VERSION" = 1 ] || opts+=(-v "$VERSION")
	# the recipients, from the patches themselves
	g format-patch "${opts[@]}" -o "$tmp/plain/$p" "$prev..$p"
	recipients $(ls "$tmp/plain/$p"/*.patch | grep -v -E '/(v[0-9]+-)?0000-cover-letter\.patch$') > "$tmp/rcpt"
	# and the Cc: lines of the cover letter
	echo "$desc" | sed -n 's/^Cc: *//p' | sed 's/^/cc\t/' >> "$tmp/rcpt"
	grep -q '^to' "$tmp/rcpt" || { echo "$p: get_maintainer.pl names no maintainer" >&2; exit 1; }
	rcpt=()
	while IFS=$'\t' read -r kind addr; do rcpt+=("--$kind=$addr"); done < "$tmp/rcpt"
	g format-patch "${opts[@]}" "${rcpt[@]}" -o "$tmp/out/$p" "$prev..$p"
	cover=$(ls "$tmp/out/$p"/*0000-cover-letter.patch)
	# the cover letter is dated as the posting's last patch, not as now
	date=$(grep -m1 '^Date: ' "$(ls "$tmp/out/$p"/*.patch | tail -1)")
	sed -i "s/^Date: .*/$date/" "$cover"
	# the messages in order, one file each (git send-email sends a file as
	# one message), and in one mbox (git am, b4, mail clients)
	mkdir -p "$DIR/$p"
	cp "$tmp/out/$p"/*.patch "$DIR/$p/"
	cat "$DIR/$p"/*.patch > "$DIR/$p.mbox"
	prev=$p i=$((i + 1))
done
for p in $missing_changes; do
	echo "note: $p's cover letter has no \"Changes since v$((VERSION - 1))\"" >&2
done
echo "wrote $(echo "$postings" | wc -l) postings, v$VERSION, from $AUTHOR, to $DIR/:" \
	"$(git -C "$SRC" rev-list --count "$base..${tip[$last]}") patches on linux-source $pkgver"
