#!/bin/bash
# Extract the part of Debian's linux-source-7.3 that perf needs into build/src,
# commit it as the 'base' tag and apply patches/series on top with git am.
#   scripts/prepare-src.sh          create build/src if it does not exist
#   scripts/prepare-src.sh refresh  recreate it from patches/ (refuses to drop
#                                   commits that are not exported)
set -euo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD
VER=7.3
SRC=build/src PATCHES=patches
TARBALL=$(scripts/fetch-source.sh "$VER")
PKGVER=$(cat "${TARBALL%.tar.xz}.version")

if [ -d $SRC/.git ]; then
	[ "${1:-}" = refresh ] || exit 0
	if ! scripts/export.sh --check >/dev/null; then
		echo "build/src has commits or changes not in patches/: run 'make export' first" >&2
		echo "(or remove build/src yourself to throw them away)" >&2
		exit 1
	fi
	rm -rf $SRC
fi

tmp=$SRC.tmp
rm -rf $tmp && mkdir -p $tmp
top=linux-source-$VER
# MANIFEST lists what a perf tarball needs; the build also wants the top
# Makefile and what it includes (for 'make kernelversion', perf's version)
# and we want checkpatch for the patches.
tar -xJf $TARBALL -C $tmp --strip-components=1 $top/tools/perf/MANIFEST
extra="Makefile scripts/Makefile.* scripts/Kbuild.include scripts/subarch.include
	arch/x86/Makefile arch/x86/Makefile_32.cpu scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch"
tar -xJmf $TARBALL -C $tmp --strip-components=1 \
	--wildcards --no-wildcards-match-slash \
	$(for f in $(cat $tmp/tools/perf/MANIFEST); do
		for e in $extra; do [[ $f == $e ]] && continue 2; done; echo "$top/$f"
	  done; for e in $extra; do echo "$top/$e"; done)

cd $tmp
git init -q -b master
git config user.name "$(git -C "$TOP" config user.name || echo perf-offcpu)"
git config user.email "$(git -C "$TOP" config user.email || echo perf-offcpu@localhost)"
git add -A
GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git commit -q -m "Linux $PKGVER (tools/perf subset of Debian linux-source-$VER)"
git tag base
# a rebase moves the posting branches along with the commits
git config rebase.updateRefs true

# end the posting in directory $1 here: a branch of its name, whose
# description is its cover letter (subject, then body, before the shortlog)
end_posting() {
	local cover="$TOP/$PATCHES/$1/0000-cover-letter.patch"
	git branch -f "$1" HEAD
	[ -f "$cover" ] || return 0
	grep -q '^Subject: \[RFC PATCH' "$cover" && git config "branch.$1.rfc" true
	awk '
		!body && /^Subject: / { sub(/^Subject: \[[^]]*\] */, ""); subj = $0; insubj = 1; next }
		!body && insubj && /^ / { subj = subj $0; next }
		!body && /^$/ { body = 1; print subj; print ""; next }
		!body { insubj = 0; next }
		/^[^ ].* \([0-9]+\):$/ { exit }
		{ lines[n++] = $0 }
		END { while (n > 0 && lines[n - 1] == "") n--; for (i = 0; i < n; i++) print lines[i] }
	' "$cover" > ../description
	git config "branch.$1.description" "$(cat ../description)"
	rm -f ../description
}

posting=
while read -r p; do
	case "$p" in ''|'#'*) continue;; esac
	dir=${p%%/*}
	[ -n "$posting" ] && [ "$dir" != "$posting" ] && end_posting "$posting"
	posting=$dir
	git am -q --keep-cr "$TOP/$PATCHES/$p" || {
		echo "patch $p does not apply; fix it in $tmp (git am --continue) or in $PATCHES/" >&2
		exit 1
	}
done < "$TOP/$PATCHES/series"
[ -n "$posting" ] && end_posting "$posting"
git checkout -q -B master
cd "$TOP"
mkdir -p "$(dirname $SRC)"
mv $tmp $SRC
echo "$SRC: base $PKGVER + $(git -C $SRC rev-list --count base..HEAD) patches"
