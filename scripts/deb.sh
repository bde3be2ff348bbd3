#!/bin/bash
# Make build/deb/perf-offcpu_VERSION_amd64.deb with dpkg-deb from STAGEDIR,
# where 'make deb' installed perf and its manual for prefix /usr (DESTDIR).
#   scripts/deb.sh STAGEDIR
#
# The name: perf-offcpu, that Conflicts/Replaces/Provides linux-perf, rather
# than beside it.  Debian 12's linux-perf ships the same paths (/usr/bin/perf,
# the perf-*.1 pages, the bash completion), and perf finds its scripts and
# manual by the prefix compiled in, so a second perf beside it would need
# other names and another prefix; and linux-perf's perf cannot replace this
# one: it is built without BPF skeletons, so its --off-cpu records nothing.
# Provides keeps what depends on linux-perf installable.
# Version: the kernel release of build/src's base, then "offcpu" and the
# number of patches of the series and HEAD's commit (".dirty" for changes
# not committed): 7.3.4-offcpu105+g1c14c6d.
# Depends: dpkg-shlibdeps, on a throwaway debian/ directory, and python3 for
# perf-core's python scripts.  The flame graph template is a file of the
# package: Debian 12 has no package of d3-flame-graph.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=$(realpath "${1:?usage: scripts/deb.sh STAGEDIR}")
name=perf-offcpu
src=$PWD/build/src
git() { command git --no-optional-locks -C "$src" "$@"; }	# read-only in build/src

base=$(git log -1 --format=%s base | sed -E 's/^Linux ([0-9.]+)-.*/\1/')
version=$base-offcpu$(git rev-list --count base..HEAD)+g$(git rev-parse --short HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] || version=$version.dirty
maint="$(command git config user.name || echo perf-offcpu) <$(command git config user.email || echo root@localhost)>"

# Debian's layout: the completion where bash-completion loads it, man pages
# gzipped, no /usr/bin/trace (a generic name; it is 'perf trace'), stripped
# binaries, the JVMTI agent in a directory of its own (it has no soname);
# for lintian, scripts of perf-core executable (python3 ones), other files not
is_elf() { file -b "$1" | grep -q ^ELF; }
export -f is_elf
cd "$stage"
rm -f usr/bin/trace
install -D -m 644 etc/bash_completion.d/perf usr/share/bash-completion/completions/perf
rm -r etc
install -D -m 644 -t usr/lib/$name usr/lib64/libperf-jvmti.so
rm -r usr/lib64
gzip -9nf usr/share/man/man1/*.1
elfs=$(find usr -type f -exec bash -c 'is_elf "$1"' _ {} \; -print)
strip --strip-unneeded --remove-section=.comment --remove-section=.note $elfs
for f in $(find usr/libexec/perf-core -type f); do
	is_elf $f && continue
	if [ "$(head -c2 $f)" = '#!' ]; then
		sed -i -E '1s@^#! ?/usr/bin/(env )?python$@#!/usr/bin/python3@' $f
		chmod 755 $f
	else
		chmod 644 $f
	fi
done
doc=usr/share/doc/$name
mkdir -p $doc
cat > $doc/copyright <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: perf
Source: Debian's linux-source-7.3 (tools/perf), with the off-CPU patch series

Files: *
Copyright: 2008-2026 Ingo Molnar, Arnaldo Carvalho de Melo and the Linux kernel developers
License: GPL-2
 On Debian systems, the complete text of the GNU General Public License
 version 2 can be found in /usr/share/common-licenses/GPL-2.

Files: usr/share/d3-flame-graph/*
Copyright: 2018 Martin Spier (d3-flame-graph 4.1.3, from the npm registry)
License: Apache-2.0
 On Debian systems, the complete text of the Apache License 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.
EOF
cat > $doc/changelog.Debian <<EOF
$name ($version) bookworm; urgency=medium

  * perf $base with the off-CPU series, built by 'make deb'.

 -- $maint  $(date -R -d @"$(git log -1 --format=%ct)")
EOF
gzip -9nf $doc/changelog.Debian
find . -type d -exec chmod 755 {} +
cd - > /dev/null

# the flame graph template, where perf's flamegraph script looks for it
scripts/flamegraph-template.sh "$stage/usr/share/d3-flame-graph/d3-flamegraph-base.html"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: amd64\n' $name $name > "$tmp/debian/control"
mkdir "$stage/DEBIAN"	# dpkg-shlibdeps finds the package's root by it
depends=$(cd "$tmp" && dpkg-shlibdeps -O $(for f in $elfs; do echo "-e$stage/$f"; done) |
	sed -n 's/^shlibs:Depends=//p')

cat > "$stage/DEBIAN/control" <<EOF
Package: $name
Version: $version
Architecture: amd64
Maintainer: $maint
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends, python3:any
Conflicts: linux-perf
Replaces: linux-perf
Provides: linux-perf (= $base)
Section: devel
Priority: optional
Homepage: https://www.kernel.org/
Description: Linux perf $base with complete off-CPU profiling
 perf, the performance analysis tool of Linux, with BPF skeletons and the
 off-CPU patch series: perf record --off-cpu records where threads waited,
 for how long and who woke them, with kernel and user stacks; off-CPU,
 off-wake and wall-clock flame graphs (template included), wait chains.
 It replaces Debian's linux-perf, that installs the same files.
EOF
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
mkdir -p build/deb
deb=build/deb/${name}_${version}_amd64.deb
rm -f build/deb/${name}_*.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" > /dev/null
echo "built $deb"
