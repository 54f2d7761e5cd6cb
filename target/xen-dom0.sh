# Shell functions of a Xen Dom0 in the QEMU guests (docs/target/xen.md), sourced by the job:
#   . /etc/latmon/xen-dom0.sh
#   xen_tools_start                 load the Xen drivers, start xenstored and xenconsoled
#   xen_facts                       emit xl-info.txt (version, scheduler, Xen's command line)
#   xen_domu_start CFG              xl create CFG (the DomU's console is logged by xenconsoled)
#   xen_domu_wait NAME SECONDS      wait until domain NAME is gone; 1 on time-out (then destroyed);
#                                   xl vcpu-list every 5 s meanwhile, the last one emitted as
#                                   vcpu-list.txt (the pinning while the DomU ran)
#   xen_domu_load_wait NAME SECONDS wait until domain NAME (which only carries the load) says
#                                   on its console that the load runs; 1 if not in time or dead
#   xen_domu_console NAME           emit NAME's console log as file NAME.console
# The run/emit helpers come from /init (target/guest-init.sh).

xen_tools_start() {
  for m in xen-evtchn xen-privcmd xenfs xen-gntdev xen-gntalloc; do
    insmod /lib/modules/$(uname -r)/$m.ko 2>/tmp/insmod.txt || {
      echo "xen: insmod $m: $(cat /tmp/insmod.txt)"; return 1; }
  done
  mkdir -p /proc/xen /dev/pts /var/run/xen /var/run/xenstored /var/lib/xenstored \
    /var/log/xen/console /var/lib/xen
  mount -t xenfs xenfs /proc/xen || return 1
  mount -t devpts devpts /dev/pts
  : > /etc/xen/xl.conf
  xenstored --pid-file /var/run/xenstored.pid || return 1
  timeout 120 xen-init-dom0 > /tmp/xen-init-dom0.txt 2>&1 || {
    echo "xen: xen-init-dom0 failed: $(cat /tmp/xen-init-dom0.txt)"; return 1; }
  xenconsoled --log=guest --log-dir=/var/log/xen/console \
    --pid-file=/var/run/xenconsoled.pid || return 1
}

xen_facts() {
  xl info > /tmp/xl-info.txt 2>&1
  emit xl-info.txt /tmp/xl-info.txt $?
}

xen_domu_start() {
  run xl-create.txt timeout 300 xl create "$1"
}

xen_domu_wait() {
  i=0
  status=0
  while xl domid "$1" > /dev/null 2>&1; do
    if [ $((i % 5)) -eq 0 ]; then
      # only a list that names the domain: one taken as it powers off says "(null)"
      xl vcpu-list > /tmp/vcpu-list.new 2>&1 && grep -q "^$1 " /tmp/vcpu-list.new \
        && mv /tmp/vcpu-list.new /tmp/vcpu-list.txt
    fi
    if [ $i -ge "$2" ]; then
      xl destroy "$1"
      status=1
      break
    fi
    sleep 1
    i=$((i + 1))
  done
  [ -f /tmp/vcpu-list.txt ] && emit vcpu-list.txt /tmp/vcpu-list.txt 0
  return $status
}

xen_domu_load_wait() {
  log=/var/log/xen/console/guest-$1.log
  i=0
  while ! grep -q '@@end load-started' "$log" 2>/dev/null; do
    if [ $i -ge "$2" ]; then
      echo "xen: $1 did not report its load running within $2 s"
      return 1
    fi
    sleep 1
    i=$((i + 1))
  done
  grep -q 'load running' "$log" || { echo "xen: $1's load did not start:"; cat "$log"; return 1; }
  echo "xen: $1's load runs (after ${i} s)"
}

xen_domu_console() {
  emit "$1.console" "/var/log/xen/console/guest-$1.log" 0
}
