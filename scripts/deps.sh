#!/bin/bash
# Install what the build, the tests and the demo need, from Debian only.
#   scripts/deps.sh [extra packages...]
set -euo pipefail
pkgs="xz-utils git make gcc clang llvm pkg-config flex bison
	libelf-dev libdw-dev libdebuginfod-dev zlib1g-dev libzstd-dev liblzma-dev
	libcap-dev libnuma-dev libslang2-dev libunwind-dev libtraceevent-dev
	libtracefs-dev libperl-dev python3 python3-dev libssl-dev libbabeltrace-dev
	systemtap-sdt-dev libcapstone-dev libpfm4-dev binutils-dev libiberty-dev
	perl procps util-linux ccache asciidoc xmlto docbook-xsl docbook-xml $*"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
