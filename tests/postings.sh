#!/bin/bash
# make postings AUTHOR=... writes postings a person can send: every message
# from that person, every patch signed off by them and by nobody under
# build/src's placeholder identity, every message to the perf maintainers
# and linux-perf-users with a Cc, every cover letter with its base; the
# postings' mboxes applied in order with git am on build/src's base give
# build/src's master; git send-email --dry-run sends each posting's
# directory as its messages, threaded under the cover letter.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
SRC=build/src
AUTHOR_NAME="Test Person" AUTHOR_EMAIL=test@example.org
AUTHOR="$AUTHOR_NAME <$AUTHOR_EMAIL>"
fail() { echo "FAIL: $*"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
OUT=$tmp/postings

master=$(git -C $SRC rev-parse master)
postings=$(git -C $SRC for-each-ref --format='%(refname:short)' 'refs/heads/[0-9][0-9]-*' | sort)
npatches=$(git -C $SRC rev-list --count base..master)
placeholder=$(git -C $SRC config user.email)
pkgver=$(git -C $SRC log -1 --format=%s base | sed -n 's/^Linux \([^ ]*\) .*/\1/p')
[ -n "$postings" ] && [ -n "$pkgver" ] || fail "build/src has no postings or no base version"

make -s postings AUTHOR="$AUTHOR" POSTINGS="$OUT" > $tmp/make.log 2>&1 ||
	{ cat $tmp/make.log; fail "make postings failed"; }
cat $tmp/make.log
[ "$(git -C $SRC rev-parse master)" = "$master" ] || fail "build/src's master moved during the test"

# one unfolded header of a message file
header() {	# name file
	awk -v h="$1:" 'NR > 1 && /^$/ { exit }
		cur && /^[ \t]/ { line = line " " $0; next }
		cur { print line; cur = 0 }
		$1 == h { cur = 1; line = $0 }
		END { if (cur) print line }' "$2" | sed -E 's/[ \t]+/ /g'
}

mboxes=$(cd "$OUT" && ls *.mbox 2>/dev/null)
[ "$(echo "$mboxes" | sed 's/\.mbox$//')" = "$postings" ] ||
	fail "the mboxes ($(echo $mboxes)) are not the postings of build/src ($(echo $postings))"
for p in $postings; do
	cat "$OUT/$p"/*.patch | cmp -s - "$OUT/$p.mbox" || fail "$p.mbox is not the messages of $p/, in order"
done
grep -q -F "$placeholder" "$OUT"/*.mbox && fail "build/src's placeholder identity ($placeholder) is in the postings"

# the scratch copy the postings are applied to
git clone -q $SRC $tmp/am || fail "git clone"
git -C $tmp/am checkout -q -b am base || fail "no tag base in the clone"
git -C $tmp/am config user.name "$AUTHOR_NAME"
git -C $tmp/am config user.email "$AUTHOR_EMAIL"

total=0 prev=
for p in $postings; do
	mb=$OUT/$p.mbox
	d=$tmp/split/$p && mkdir -p $d
	n=$(git mailsplit -o$d "$mb") || fail "$p: git mailsplit"
	msgs=$(ls $d)
	cover=$d/$(echo "$msgs" | head -1)
	subj=$(header Subject "$cover")
	[[ $subj =~ \[(RFC\ )?PATCH\ v([0-9]+)\ 0+/([0-9]+)\] ]] || fail "$p: the first message is no cover letter: $subj"
	count=${BASH_REMATCH[3]}
	[ "$n" = $((count + 1)) ] || fail "$p: $n messages for $count patches and a cover letter"
	for m in $msgs; do
		f=$d/$m
		from=$(header From "$f")
		[ "$from" = "From: $AUTHOR" ] || fail "$p/$m: $from"
		to=$(header To "$f") cc=$(header Cc "$f")
		for a in linux-perf-users@vger.kernel.org acme@kernel.org namhyung@kernel.org; do
			echo "$to" | grep -q -F "$a" || fail "$p/$m: $a not in $to"
		done
		echo "$cc" | grep -q -F linux-kernel@vger.kernel.org || fail "$p/$m: no LKML in Cc: $cc"
		[ "$f" = "$cover" ] && continue
		sob=$(git mailinfo $tmp/msg $tmp/patch < "$f" >/dev/null && grep '^Signed-off-by: ' $tmp/msg | tail -1)
		[ "$sob" = "Signed-off-by: $AUTHOR" ] || fail "$p/$m: last sign-off is '$sob'"
		[ -s $tmp/patch ] || fail "$p/$m: no diff"
	done
	grep -q -F "base: Debian's linux-source-7.3 ($pkgver), tools/perf" "$cover" || fail "$p: no base in the cover letter"
	grep -q "perf-tools-next" "$cover" || fail "$p: the cover letter does not say the rebase onto perf-tools-next"
	grep -q "^base-commit: $(git -C $SRC rev-parse base)$" "$cover" || fail "$p: no base-commit"
	[ "$(grep -c '^prerequisite-patch-id: ' "$cover")" = $total ] ||
		fail "$p: not one prerequisite-patch-id per patch of the postings before ($total)"
	# the mbox as it is, its cover letter dropped as empty
	git -C $tmp/am am -q --empty=drop "$mb" > $tmp/am.log 2>&1 ||
		{ cat $tmp/am.log; fail "$p does not apply with git am on ${prev:-base}"; }
	git -C $tmp/am diff --quiet "$(git -C $SRC rev-parse "$p")" HEAD || fail "$p applied differs from build/src's $p"
	total=$((total + count)) prev=$p
done
[ $total = "$npatches" ] || fail "$total patches posted, build/src has $npatches"
git -C $tmp/am diff --quiet "$master" HEAD || fail "the postings applied differ from build/src's master"
[ "$(git -C $tmp/am log --format='%an <%ae>' base..HEAD | sort -u)" = "$AUTHOR" ] ||
	fail "authors after git am: $(git -C $tmp/am log --format='%an <%ae>' base..HEAD | sort -u | tr '\n' ' ')"
echo "$(echo "$postings" | wc -l) postings, $total patches: From and signed off by $AUTHOR, applied on base: master's tree"

# git send-email takes them (--dry-run: nothing is sent)
for p in $postings; do
	git send-email --dry-run --confirm=never --suppress-cc=self --from="$AUTHOR" \
		--smtp-server=/bin/true "$OUT/$p/" < /dev/null > $tmp/send.log 2>&1 ||
		{ tail -20 $tmp/send.log; fail "git send-email --dry-run $p/"; }
	n=$(grep -c '^Dry-OK\. Log says:' $tmp/send.log)
	[ "$n" = "$(ls $tmp/split/$p | wc -l)" ] || { tail -20 $tmp/send.log; fail "$p: git send-email --dry-run sent $n messages"; }
	first=$(grep -m1 '^Message-Id: ' $tmp/send.log | sed 's/^Message-Id: //')
	[ "$(grep -c "^In-Reply-To: $first$" $tmp/send.log)" = $((n - 1)) ] ||
		fail "$p: git send-email does not thread the patches under the cover letter"
	grep -q "^From: $AUTHOR$" $tmp/send.log || fail "$p: git send-email would not send from $AUTHOR"
	grep -q "^Sendmail: .* linux-perf-users@vger.kernel.org" $tmp/send.log || fail "$p: git send-email would not mail linux-perf-users"
done
echo "git send-email --dry-run: every posting, every message, from $AUTHOR"
