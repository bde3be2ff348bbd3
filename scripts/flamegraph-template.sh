#!/bin/bash
# Install the HTML template of perf's flamegraph script where it looks by
# default, from the d3-flame-graph package on the npm registry, so that
# 'perf script report flamegraph' works offline.  The version and checksum
# are the ones tools/perf/scripts/python/flamegraph.py expects.
#   scripts/flamegraph-template.sh [DEST]   (scripts/deb.sh: into the package)
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=4.1.3
MD5=143e0d06ba69b8370b9848dcd6ae3f36
DEST=${1:-/usr/share/d3-flame-graph/d3-flamegraph-base.html}

if [ -f "$DEST" ] && [ "$(md5sum < "$DEST" | cut -d' ' -f1)" = $MD5 ]; then
	exit 0
fi
command -v npm > /dev/null || scripts/deps.sh npm
tmp=build/npm
rm -rf $tmp && mkdir -p $tmp
(cd $tmp && npm pack --silent "d3-flame-graph@$VERSION" > /dev/null &&
	tar -xzf "d3-flame-graph-$VERSION.tgz")
src=$tmp/package/dist/templates/d3-flamegraph-base.html
if [ "$(md5sum < $src | cut -d' ' -f1)" != $MD5 ]; then
	echo "d3-flame-graph $VERSION template: unexpected checksum" >&2
	exit 1
fi
install -D -m 644 $src "$DEST"
echo "installed $DEST (d3-flame-graph $VERSION)"
