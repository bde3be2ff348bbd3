#!/bin/bash
# The kernel matrix: boot Debian's own kernels under qemu (full emulation)
# with this machine's root, read-only, as the guest's, and run
# scripts/guest-check.sh there with the perf built by 'make'.
#   scripts/kernels.sh [5.10|6.1|6.12|7.3 ...]	(default: 6.1 6.12 7.3)
# GUEST_CHECK=/path/to/script runs another script in the guests; 5.10, with
# no BPF task storage, runs scripts/guest-kernel-floor.sh.
# Each kernel's log and its "N passed, N failed" are in build/kernels/VER/.
# The packages come from the Debian mirror this machine uses, through a
# temporary sources list (the machine's apt configuration is not changed):
# the newest linux-image-amd64 of the version's suite, and what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD
OUT=$TOP/build/kernels
mkdir -p "$OUT/dl"

suite() {
	case $1 in
	5.10) echo "bullseye bullseye-security";;	# Debian 11
	6.1) echo "bookworm bookworm-security";;	# Debian 12
	6.12) echo "trixie trixie-security";;		# Debian 13
	7.3) echo "trixie-backports";;
	*) echo "unknown kernel $1 (5.10, 6.1, 6.12 or 7.3)" >&2; return 1;;
	esac
}

apt=$OUT/apt
aptopts=(-q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/parts"
	-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root
	-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null)
apt_update() {
	local mirror src
	mirror=$(grep -h -o 'https\?://[^ ]*/debian/\?$' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
		grep -v security | head -1 || true)
	[ -n "$mirror" ] || mirror=$(grep -h -o 'https\?://[^ ]*/debian\b' /etc/apt/sources.list.d/* | head -1)
	src=$(printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n\n' \
		"$mirror" "bullseye bookworm trixie trixie-backports" /usr/share/keyrings/debian-archive-keyring.gpg
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
		"${mirror%/debian*}/debian-security" "bullseye-security bookworm-security trixie-security" \
		/usr/share/keyrings/debian-archive-keyring.gpg)
	# updated once a day, and when the suites change
	[ "$(cat "$apt/parts/kernels.sources" 2> /dev/null)" = "$src" ] &&
		[ -n "$(find "$apt/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2> /dev/null)" ] &&
		return
	mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache/archives/partial"
	echo "$src" > "$apt/parts/kernels.sources"
	apt-get "${aptopts[@]}" update > "$apt/log" 2>&1 ||
		{ cat "$apt/log" >&2; rm "$apt/parts/kernels.sources"; return 1; }
}

# build/kernels/VER/{vmlinuz,initrd.gz,version}
fetch() {
	local ver=$1 dir=$OUT/$1 v img pkgs deb
	# made again when the modules or the init change
	[ -s "$dir/initrd.gz" ] && [ "$(cat "$dir/initrd.modules" 2> /dev/null)" = "$(initrd_key)" ] && return
	apt_update
	# the newest linux-image-amd64 of the suites of this version
	v=$(apt-cache "${aptopts[@]}" madison linux-image-amd64 |
		awk -v p="$ver." 'index($3, p) == 1 { print $3 }' | sort -V | tail -1)
	[ -n "$v" ] || { echo "no linux-image-amd64 $ver.* on the mirror" >&2; return 1; }
	img=$(apt-cache "${aptopts[@]}" show "linux-image-amd64=$v" | sed -n 's/^Depends: //p' |
		tr ',' '\n' | grep -o 'linux-image-[^ ]*' | head -1)
	# the image, and the packages of the same version it needs (7.3: binary, modules)
	pkgs="$img $(apt-cache "${aptopts[@]}" depends "$img" |
		grep -o 'linux-\(binary\|modules\)-[^ ]*' | sort -u | tr '\n' ' ' || true)"
	rm -rf "$dir" && mkdir -p "$dir/root"
	(cd "$OUT/dl" && apt-get "${aptopts[@]}" download $pkgs > "$dir/fetch.log" 2>&1) ||
		{ cat "$dir/fetch.log" >&2; return 1; }
	for p in $pkgs; do
		deb=$(ls "$OUT/dl/${p}"_*.deb | tail -1)
		dpkg-deb -x "$deb" "$dir/root"
	done
	cp "$(find "$dir/root" -name "vmlinuz*" -type f | head -1)" "$dir/vmlinuz"
	echo "$img $v" > "$dir/version"
	initrd "$dir"
	rm -rf "$dir/root"
}

# a busybox initramfs with the modules that mount the host's root over 9p,
# and a disk for /tmp (the off-CPU tests wait for a disk there; ext4
# needs crc32c)
MODULES="virtio_pci 9pnet_virtio 9p virtio_blk crc32c_generic ext4"
initrd_key() {
	echo "$MODULES $(cksum < scripts/guest-init.sh)"
}
initrd() {
	local dir=$1 kver mods m f
	mods=$(dirname "$(find "$dir/root" -path '*/modules/*/kernel' -type d | head -1)")
	kver=$(basename "$mods")
	# modules.dep is made when the package is installed
	/sbin/depmod -b "${mods%/lib/modules/*}" "$kver" 2> /dev/null
	rm -rf "$dir/initrd" && mkdir -p "$dir/initrd/bin" "$dir/initrd/modules"
	cp /bin/busybox "$dir/initrd/bin/busybox"
	cp scripts/guest-init.sh "$dir/initrd/init"
	# the modules and what they need, in the order to load them
	for m in $MODULES; do
		dep_order "$mods" "$m"
	done | awk '!seen[$0]++' > "$dir/initrd/modules/order"
	while read -r f; do
		case $f in
		*.xz) xz -dc "$mods/$f" > "$dir/initrd/modules/$(basename "$f" .xz)";;
		*.zst) zstd -qdc "$mods/$f" > "$dir/initrd/modules/$(basename "$f" .zst)";;
		*) cp "$mods/$f" "$dir/initrd/modules/";;
		esac
	done < "$dir/initrd/modules/order"
	sed -i 's,.*/,,; s/\.\(xz\|zst\)$//' "$dir/initrd/modules/order"
	(cd "$dir/initrd" && find . | cpio -o -H newc --quiet | gzip) > "$dir/initrd.gz"
	rm -rf "$dir/initrd"
	initrd_key > "$dir/initrd.modules"
}

# the module files $2 needs, then its own (built-in modules are left out)
dep_order() {
	local line f d
	line=$(grep -E "(^|/)$2\.ko(\.xz|\.zst)?:" "$1/modules.dep") || return 0
	f=${line%%:*}
	for d in ${line#*:}; do
		d=$(basename "$d"); dep_order "$1" "${d%%.ko*}"
	done
	echo "$f"
}

run() {
	local ver=$1 dir=$OUT/$1 start check=${GUEST_CHECK:-$TOP/scripts/guest-check.sh}
	# 5.10 has no BPF task storage: --off-cpu must refuse, in one line
	[ "$ver" = 5.10 ] && check=${GUEST_CHECK:-$TOP/scripts/guest-kernel-floor.sh}
	fetch "$ver"
	rm -rf "$dir/out" && mkdir -p "$dir/out"
	rm -f "$dir/tmp.img" && truncate -s 2G "$dir/tmp.img"
	start=$(date +%s)
	echo "== $ver: $(cat "$dir/version"), qemu (full emulation), 2 CPUs"
	# TCG: this machine's /dev/kvm may not run a guest (kvm_pvm).  One
	# thread: with one per vCPU, 7.3 died of an int3 in __schedule() as
	# perf detached from sched_switch (its text being patched).
	# tsc=reliable: else the guest finds its TSCs unsynchronized, times
	# with the HPET, and its scheduler's clock (schedstat, that
	# tests/conservation.sh checks against) drifts from it between ticks:
	# on 6.1 the syncer's blocked time, by perf, came out 1-2% short of
	# it by schedstat (6 runs of 10 failed), though perf had a sample for
	# each of its sleeps (59 of 59); with tsc=reliable, within 0.1%.
	timeout 3600 qemu-system-x86_64 -accel tcg,thread=single -cpu max -smp 2 -m 4G \
		-nographic -no-reboot -nic none -kernel "$dir/vmlinuz" -initrd "$dir/initrd.gz" \
		-append "console=ttyS0 panic=-1 quiet loglevel=3 tsc=reliable check=$check" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-virtfs local,path="$dir/out",mount_tag=out,security_model=none \
		-drive file="$dir/tmp.img",format=raw,if=virtio,cache=unsafe \
		< /dev/null > "$dir/console.log" 2>&1 || true
	if grep -q -E '^[0-9]+ passed, [0-9]+ failed' "$dir/out/summary" 2> /dev/null; then
		echo "== $ver: $(tail -1 "$dir/out/summary") in $(( $(date +%s) - start )) s"
		# each failure with the lines that say why
		grep -E '^(FAIL|skip|      )' "$dir/out/summary" | sed 's/^/   /' || true
	else
		echo "== $ver: no result in $(( $(date +%s) - start )) s; the last tests and the console:"
		tail -5 "$dir/out/summary" 2> /dev/null | cut -c1-200 | sed 's/^/   /'
		grep -E -m1 -A12 'Oops|BUG:|panic' "$dir/console.log" | sed 's/^/   /' ||
			tail -30 "$dir/console.log" | sed 's/^/   /'
		echo "0 passed, 1 failed" >> "$dir/out/summary"
	fi
	rm -f "$dir/tmp.img"
}

command -v qemu-system-x86_64 > /dev/null || { echo "qemu-system-x86_64 missing (make deps)" >&2; exit 1; }
[ -x build/bin/perf ] || { echo "build/bin/perf missing: run make" >&2; exit 1; }
vers=${*:-6.1 6.12 7.3}
for v in $vers; do suite "$v" > /dev/null; done
passed=0 failed=0
for v in $vers; do
	run "$v"
	read -r p _ f _ < <(tail -1 "$OUT/$v/out/summary")
	passed=$((passed + p)) failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
