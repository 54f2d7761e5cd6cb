#!/bin/busybox sh
# /init of the arm64 QEMU guests (target/initramfs.py, docs/target/qemu.md).
#
# Mounts the kernel's file systems, loads the virtio console (the results channel: hvc0 in the
# guest, a file on the host), reports what the kernel is, runs /job.sh (appended to the
# initramfs by the host for each run) and powers off. Each file the job hands to `emit` goes to
# the results channel framed as
#   @@file NAME
#   ...content...
#   @@end NAME status=N
/bin/busybox mkdir -p /usr/sbin /sbin
/bin/busybox --install -s
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

release=$(uname -r)
for m in virtio_mmio virtio_console; do
  insmod /lib/modules/$release/$m.ko 2>/dev/null
done
i=0
while [ ! -e /dev/hvc0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if [ -e /dev/hvc0 ]; then
  out=/dev/hvc0
  # the first bytes written while the port is still being set up can be lost: let it settle
  # and start with a line that is allowed to vanish
  sleep 0.5
  echo "@@hello" > $out
else
  out=/dev/console
fi
export LATMON_OUT=$out

emit() { # emit NAME FILE STATUS
  { echo "@@file $1"; cat "$2"; echo; echo "@@end $1 status=$3"; } > "$LATMON_OUT"
}
# run NAME COMMAND...: run it, its stdout+stderr become file NAME with its exit status
run() {
  name=$1; shift
  "$@" > /tmp/$name 2>&1
  emit "$name" /tmp/$name $?
}

{
  echo "@@guest kernel=$release cpus=$(nproc) preempt=$(uname -v | tr ' ' '_')"
  echo "@@guest tracers=$(tr ' ' ',' < /sys/kernel/tracing/available_tracers 2>/dev/null)"
} > "$out"
cat /proc/cmdline > /tmp/cmdline
emit cmdline /tmp/cmdline 0
if [ -r /sys/kernel/tracing/available_events ]; then
  emit available_events /sys/kernel/tracing/available_events 0
fi

if [ -x /job.sh ]; then
  . /job.sh
  echo "@@done status=$?" > "$out"
else
  echo "@@done status=none (no /job.sh)" > "$out"
fi
sync
poweroff -f
