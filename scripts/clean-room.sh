#!/usr/bin/env bash
# clean-room.sh — run a command in a fresh clone of this repository inside a brand-new, minimal
# Debian 12 (bookworm) root file system, where nothing installed by hand on this machine exists.
#
#   scripts/clean-room.sh                         # make demo && make test
#   scripts/clean-room.sh 'make test'             # any command, run from the clone's root
#   scripts/clean-room.sh --rev v0.2 'make bench' # another commit (default: HEAD)
#   scripts/clean-room.sh --keep 'make test'      # keep the root afterwards (its path is printed)
#
# This is what CI runs (.ci/run): a machine that has been worked on hides missing install steps
# (a package installed by hand months ago, a venv, a built file); this root has none of them.
# Each run builds the root anew with mmdebstrap (--variant=minbase plus git, make and CA
# certificates: what a user needs to clone the repository and type `make`) and caches nothing
# between runs: no packages, no venv, no build tree. Only committed work is cloned.
#
# Needs root (mmdebstrap into a directory, chroot, mounts). The host's network settings are
# copied in (name resolution, apt's configuration, CA certificates, pip's configuration): they
# are facts of the machine, not install steps of the project.
set -euo pipefail

usage() {
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
}

keep=0
rev=HEAD
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1; shift ;;
    --rev) [ $# -ge 2 ] || { echo "clean-room: --rev needs a commit" >&2; exit 2; }; rev=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) echo "clean-room: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -le 1 ] || { echo "clean-room: give the command as one quoted argument, e.g. 'make demo && make test'" >&2; exit 2; }
cmd=${1:-"make demo && make test"}

top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null) \
  || { echo "clean-room: $(dirname "$0") is not inside a git checkout" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "clean-room: needs root (mmdebstrap, chroot, mounts); run it with sudo" >&2; exit 2; }
commit=$(git -C "$top" rev-parse --verify -q "$rev^{commit}") \
  || { echo "clean-room: '$rev' is not a commit of $top" >&2; exit 2; }
if [ "$rev" = HEAD ] && [ -n "$(git -C "$top" status --porcelain --untracked-files=no)" ]; then
  echo "clean-room: note: uncommitted changes are NOT in the clean room (commit first)" >&2
fi

if ! command -v mmdebstrap >/dev/null; then
  echo "clean-room: installing mmdebstrap (Debian package) to build the root"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null \
    || { echo "clean-room: could not install mmdebstrap" >&2; exit 1; }
fi

root=$(mktemp -d /tmp/clean-room.XXXXXX)
cleanup() {
  local rc=$?
  # Nothing started inside may outlive the run (a stress load, a simulator, a server).
  local pid
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$root" ] && kill -9 "$pid" 2>/dev/null
  done
  for m in $(awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r); do
    umount -l "$m" 2>/dev/null || true
  done
  if [ "$keep" = 1 ]; then
    echo "clean-room: root kept at $root"
  else
    rm -rf --one-file-system "$root"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$(date +%s)
echo "clean-room: building a minimal Debian 12 root in $root ..."
mmdebstrap --quiet --variant=minbase --include=ca-certificates,git,make bookworm "$root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main"

cp /etc/resolv.conf "$root/etc/resolv.conf"
cp -a /etc/apt/apt.conf.d/. "$root/etc/apt/apt.conf.d/" 2>/dev/null || true
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"

mkdir -p "$root/src"
git clone -q --no-checkout "$top" "$root/src/latmon"
git -C "$root/src/latmon" checkout -q --detach "$commit"

mount -t proc proc "$root/proc"
for d in sys dev; do
  mount --rbind "/$d" "$root/$d"
  mount --make-rslave "$root/$d"
done

echo "clean-room: root ready after $(( $(date +%s) - start )) s; commit $(git -C "$top" rev-parse --short "$commit")"
echo "clean-room: running '$cmd'"
run_start=$(date +%s)
set +e
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 CI=true \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
  bash -c "cd /src/latmon && $cmd"
rc=$?
set -e
echo "clean-room: '$cmd' exit $rc after $(( $(date +%s) - run_start )) s (root built in $(( run_start - start )) s)"
exit $rc
