#!/bin/bash
# Fetch Debian's linux-source-7.3 (trixie-backports) into build/dl without
# touching the machine's apt configuration: a temporary sources list on the
# Debian mirror the machine already uses, checked with the Debian archive
# keyring as apt always does.  Prints the path of the tarball.
#   scripts/fetch-source.sh 7.3
set -euo pipefail
cd "$(dirname "$0")/.."
VER=${1:-7.3}
SUITE=trixie-backports
PKG=linux-source-$VER
DL=$PWD/build/dl
TARBALL=$DL/$PKG.tar.xz

[ -s "$TARBALL" ] && { echo "$TARBALL"; exit 0; }
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
	awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:\/\/.*\/debian\/?$/) { print $i; exit } }' || true)
[ -n "$mirror" ] || mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
	awk '$1 == "URIs:" { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }' || true)
[ -n "$mirror" ] || { echo "no Debian mirror in the apt sources of this machine" >&2; exit 1; }

apt=$(mktemp -d)
trap 'rm -rf "$apt"' EXIT
mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache/archives/partial"
printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	"$mirror" "$SUITE" > "$apt/parts/$SUITE.sources"
opts=(-q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/parts"
      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root)
apt-get "${opts[@]}" update >"$apt/log" 2>&1 || { cat "$apt/log" >&2; exit 1; }
mkdir -p "$DL"
(cd "$apt" && apt-get "${opts[@]}" download "$PKG" >>"$apt/log" 2>&1) || { cat "$apt/log" >&2; exit 1; }
deb=$(ls "$apt"/${PKG}_*.deb)
dpkg-deb --fsys-tarfile "$deb" | tar -x -O ./usr/src/$PKG.tar.xz > "$TARBALL.tmp"
basename "$deb" .deb | sed 's/^[^_]*_//; s/_all$//' > "$DL/$PKG.version"
mv "$TARBALL.tmp" "$TARBALL"
echo "$TARBALL"
