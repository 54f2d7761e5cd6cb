#!/bin/busybox sh
# /init of the arm64 QEMU guests (target/initramfs.py, docs/target/qemu.md).
#
# Mounts the kernel's file systems, loads the virtio console driver (the results channel: the
# virtio serial port named org.latmon.results in the guest, a file on the host; a Xen DomU,
# which has no virtio, uses its console hvc0, which xenconsoled in Dom0 logs), reports what the
# kernel is, runs /job.sh (appended to the initramfs by the host for each run) and powers off.
# Each file the job hands to `emit` goes to the results channel framed as
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
port=
i=0
while [ -z "$port" ] && [ $i -lt 50 ]; do
  for p in /sys/class/virtio-ports/*; do
    [ "$(cat $p/name 2>/dev/null)" = org.latmon.results ] && port=/dev/${p##*/}
  done
  [ -n "$port" ] || { sleep 0.1; i=$((i + 1)); }
done
while [ -n "$port" ] && [ ! -e "$port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if [ -n "$port" ] && [ -e "$port" ]; then
  out=$port
  # the first bytes written while the port is still being set up can be lost: let it settle
  # and start with a line that is allowed to vanish
  sleep 0.5
  echo "@@hello" > $out
elif [ -e /dev/hvc0 ]; then
  out=/dev/hvc0 # a Xen DomU: its console, logged by xenconsoled in Dom0
  stty -F $out raw -echo 2>/dev/null
  echo "@@hello" > $out
else
  out=/dev/console
fi
hypervisor=none
if [ -r /sys/hypervisor/type ]; then
  v=/sys/hypervisor/version
  hypervisor="$(cat /sys/hypervisor/type)-$(cat $v/major 2>/dev/null).$(cat $v/minor 2>/dev/null)$(cat $v/extra 2>/dev/null)"
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
  echo "@@guest kernel=$release cpus=$(nproc) preempt=$(uname -v | tr ' ' '_') hypervisor=$hypervisor"
  echo "@@guest tracers=$(tr ' ' ',' < /sys/kernel/tracing/available_tracers 2>/dev/null)"
} > "$out"
cat /proc/cmdline > /tmp/cmdline
emit cmdline /tmp/cmdline 0
# (not through a Xen console: 100 KB there take long, and nothing needs them in a DomU)
if [ -r /sys/kernel/tracing/available_events ] && [ "$out" != /dev/hvc0 ]; then
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
