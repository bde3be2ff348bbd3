#!/bin/bash
# The Debian package of 'make deb' in a fresh Debian 12: apt installs it, and
# what it depends on, from this machine's mirror into a bookworm chroot, in
# place of Debian's linux-perf (installed first: the package conflicts); there
# perf record --off-cpu records offcpu-time samples, perf help record shows
# this perf's manual (--off-cpu[=what,...], --off-cpu-thresh), and the flame
# graph script finds the packaged template, offline.
# The chroot's base (debootstrap minbase, with man-db for perf help) is made
# once into build/deb-root.tar and unpacked afresh each run.  debootstrap and
# the chroot run in mount namespaces of their own, so their mounts (/proc,
# /sys for BPF and tracefs, /dev) go with them, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=build/deb-root.tar
dir=$PWD/build/deb-test
root=$dir/root
start=$SECONDS

make -s deb
deb=$(ls build/deb/perf-offcpu_*_amd64.deb)
echo "package: $deb ($((SECONDS - start)) s)"

mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' |
	awk '$2 == "bookworm" { print $1; exit }')
if [ ! -f $cache ]; then
	t=$SECONDS
	echo "creating $cache: debootstrap bookworm from $mirror"
	command -v debootstrap > /dev/null || scripts/deps.sh debootstrap
	tmp=build/deb-root.tmp
	rm -rf --one-file-system $tmp
	unshare -m debootstrap --variant=minbase --include=man-db bookworm $tmp "$mirror" \
		> build/deb-root.log 2>&1 || { tail -20 build/deb-root.log; exit 1; }
	tar -C $tmp -cf $cache.tmp . && mv $cache.tmp $cache
	rm -rf --one-file-system $tmp
	echo "  $((SECONDS - t)) s"
fi

# remove the chroot, unless something is still mounted in it
cleanup() {
	if findmnt -rn -o TARGET | grep -q "^$root/"; then
		echo "still mounted under $root: not removed"
	else
		rm -rf --one-file-system "$dir"
	fi
}
cleanup
trap cleanup EXIT
mkdir -p "$root"
tar -C "$root" -xf $cache
cp /etc/resolv.conf "$root"/etc/
# the host's sources (its mirror); Valid-Until off for a snapshot mirror
rm -f "$root"/etc/apt/sources.list
cp /etc/apt/sources.list "$root"/etc/apt/ 2>/dev/null || true
cp /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources "$root"/etc/apt/sources.list.d/ 2>/dev/null || true
echo 'Acquire::Check-Valid-Until "false";' > "$root"/etc/apt/apt.conf.d/99no-valid-until
cp "$deb" "$root"/tmp/

cat > "$root"/tmp/check.sh <<'EOF'
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive MANPAGER=cat MANWIDTH=100
cd /tmp
apt-get update -qq
echo "apt-get install linux-perf, then apt install ./$1"
apt-get install -y -q linux-perf > apt.log 2>&1 || { tail -30 apt.log; exit 1; }
apt install -y -q "./$1" > apt.log 2>&1 || { tail -30 apt.log; exit 1; }
grep -A1 REMOVED apt.log
dpkg -S /usr/bin/perf
if dpkg-query -W -f '${db:Status-Status}\n' linux-perf 2>/dev/null | grep -q '^installed$'; then
	echo "FAIL: linux-perf still installed"; exit 1
fi
perf version

echo "perf record --off-cpu -o /tmp/p.data -- sleep 0.2"
perf record --off-cpu -o /tmp/p.data -- sleep 0.2 2>&1
perf report -i /tmp/p.data --stdio > report.txt 2>&1
grep -E "^# Samples: [1-9][0-9]* +of event 'offcpu-time'" report.txt ||
	{ echo "FAIL: no offcpu-time samples"; head -30 report.txt; exit 1; }

echo "perf help record: --off-cpu[=...] and --off-cpu-thresh"
perf help record > help.txt 2>&1
grep -E -- '^ +--off-cpu\[=' help.txt && grep -E -- '^ +--off-cpu-thresh$' help.txt ||
	{ echo "FAIL: perf help record"; head help.txt; exit 1; }

echo "perf script report flamegraph: the packaged template"
perf script report flamegraph -i /tmp/p.data -- -o /tmp/fg.html < /dev/null > fg.log 2>&1 ||
	{ cat fg.log; exit 1; }
grep -q 'd3-flame-graph' /tmp/fg.html || { echo "FAIL: no flame graph"; cat fg.log; exit 1; }
echo "ok"
EOF
t=$SECONDS
unshare -m sh -ec 'root=$1
	mount -t proc proc "$root"/proc
	mount --rbind /sys "$root"/sys
	mount --rbind /dev "$root"/dev
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		/bin/bash /tmp/check.sh "$2"' sh "$root" "$(basename "$deb")"
echo "in the chroot: $((SECONDS - t)) s; in all: $((SECONDS - start)) s"
