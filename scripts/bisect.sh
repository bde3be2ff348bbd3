#!/bin/bash
# Apply patches/series one patch at a time on a scratch copy of the base
# (build/bisect/src) and build perf after each, so that every patch builds
# on its own.  The object dir is kept between patches and runs: only what a
# patch touches is rebuilt.  Ends with "N passed, N failed".
# FROM=N: apply the first N-1 patches without building (they built before).
# A patch that only touches tests/shell/, Documentation/ or the python and
# perl report scripts is applied, not built: make builds none of them.
set -uo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD
B=build/bisect SRC=build/src PATCHES=patches
PERF_OPTS=${PERF_OPTS:-BUILD_BPF_SKEL=1 PYTHON=/usr/bin/python3 PYTHON_CONFIG=/usr/bin/python3-config NO_RUST=1}
# ccache, where installed, with paths taken relative to the project: a
# bisect in another clone of it hits the same cache
if [ -x /usr/lib/ccache/gcc ]; then
	export PATH=/usr/lib/ccache:$PATH CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1
fi

if [ ! -d $B/src/.git ]; then
	rm -rf $B/src && mkdir -p $B
	git clone -q $SRC $B/src || exit 1
fi
cd $B/src
git am --abort >/dev/null 2>&1
git checkout -q -f --detach base || exit 1
git clean -q -f -d
mkdir -p $TOP/$B/obj

passed=0 failed=0 n=0 features=
NOT_BUILT='^tools/perf/(tests/shell/|Documentation/|scripts/(python|perl)/(bin/[^/]+|[^/]+\.(py|pl))$)'
while read -r p; do
	case "$p" in ''|'#'*) continue;; esac
	n=$((n + 1))
	if [ $n -lt "${FROM:-1}" ]; then
		git am -q "$TOP/$PATCHES/$p" || { echo "FAIL  applies: $p"; failed=1; break; }
		continue
	fi
	git am -q "$TOP/$PATCHES/$p" || { echo "FAIL  applies: $p"; failed=$((failed + 1)); break; }
	# a patch of shell tests, scripts or documentation only changes
	# nothing make builds
	if ! git diff --name-only HEAD~ | grep -q -v -E "$NOT_BUILT"; then
		passed=$((passed + 1)); echo "ok    builds: $p (tests, scripts or docs only)"
		continue
	fi
	# the features found by the first build are given to the next ones,
	# which skip looking for them again (about 4 s each)
	if make -s -C tools/perf O=$TOP/$B/obj $PERF_OPTS $features -j"$(nproc)" > $TOP/$B/build.log 2>&1; then
		if [ -z "$features" ]; then
			cp $TOP/$B/obj/FEATURE-DUMP $TOP/$B/features && features="FEATURES_DUMP=$TOP/$B/features"
		fi
		passed=$((passed + 1)); echo "ok    builds: $p"
	else
		failed=$((failed + 1)); echo "FAIL  builds: $p"
		grep -E -A5 'error' $TOP/$B/build.log | head -30 | sed 's/^/      /'
		break
	fi
done < "$TOP/$PATCHES/series"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
