#!/bin/busybox sh
# init of the kernel matrix's guests (scripts/kernels.sh): the host's root,
# read-only over 9p, with tmpfs where programs write; runs $check there
# (from the kernel's command line) with its output on the share "out".
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /host
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules/order); do
	insmod /modules/$m || echo "guest: insmod $m failed"
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 host /host ||
	{ echo "guest: cannot mount the host's root"; poweroff -f; }
h=/host
mount -t proc proc $h/proc
mount -t sysfs sysfs $h/sys
mount -t devtmpfs dev $h/dev
mkdir -p $h/dev/pts $h/dev/shm
mount -t devpts devpts $h/dev/pts
mount -t tmpfs shm $h/dev/shm
mount -t tracefs tracefs $h/sys/kernel/tracing
mount -t debugfs debugfs $h/sys/kernel/debug
mount -t bpf bpf $h/sys/fs/bpf
mount -t cgroup2 cgroup2 $h/sys/fs/cgroup
# /tmp on a disk, where there is one
if [ -b /dev/vda ] && chroot $h /sbin/mkfs.ext2 -q -F /dev/vda &&
   chroot $h /bin/mount -t ext4 /dev/vda /tmp; then
	chmod 1777 $h/tmp
else
	mount -t tmpfs tmpfs $h/tmp
fi
for d in root run var/tmp; do
	mount -t tmpfs tmpfs $h/$d
done
mkdir -p $h/tmp/out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out $h/tmp/out
ln -s /proc/self/fd $h/dev/fd 2> /dev/null
# loopback, as on any system (tests talk TCP to themselves); no NIC
ip link set lo up
echo "guest: $(uname -r), running $check"
chroot $h /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	/bin/bash -c "cd /tmp && exec /bin/bash $check" > $h/tmp/out/log 2>&1
echo "guest: done"
sync
poweroff -f
