#!/usr/bin/env bash
# make setup: install every system package and Python dependency latmon needs on Debian 12.
#
# Idempotent and quick when done: apt runs only when a package is missing, pip only when
# pyproject.toml or requirements.lock changed since the last successful install.
# Python packages go into a virtual environment (default .venv in the repository; override with
# VENV=path). Nothing is installed into the system interpreter.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
venv=${VENV:-$here/.venv}
stamp=$venv/.latmon-setup-stamp

die() { echo "setup: error: $*" >&2; exit 1; }

# System packages, one per line with why it is needed.
apt_packages=(
  build-essential          # gcc, make: liblatmon, latctl, latprobe, C unit tests
  iverilog                 # cocotb simulations (Icarus)
  yosys                    # synthesis resource figures (make synth)
  rt-tests                 # cyclictest, hackbench: side-by-side measurements
  stress-ng                # load generator for the scenarios
  python3                  # host analysis
  python3-venv             # the virtual environment below
  python3-dev              # headers for cocotb's VPI/VHPI libraries and latmon's C text parser (latmon.inputs._textparse)
  gcc-aarch64-linux-gnu    # bare-metal example, Cortex-A53 build; latprobe for arm64 guests
  libc6-dev-arm64-cross    # the static arm64 latprobe links glibc's static libraries
  qemu-system-arm          # qemu-system-aarch64: the A53 images on the ZCU102 model, arm64 Linux guests, Xen
  device-tree-compiler     # dtc: QEMU's device tree extended with Xen's boot modules and the AMP split; fdt test
  gcc-arm-none-eabi        # bare-metal example, Cortex-R5 build (freestanding: no C library needed)
  gcc-riscv64-unknown-elf  # bare-metal example and interrupt test-case suite for the virtual SoC's RV32IM harts (rv32im/ilp32 libgcc multilib)
  linux-source-6.1         # the Linux SoC's kernel (make linux-soc): Debian's 6.1 sources, built for rv32
  gcc-riscv64-linux-gnu    # builds that kernel (its -march=rv32ima/-mabi=ilp32 code needs no libc)
  flex                     # the kernel's Kconfig and dtc parsers
  bison                    # the kernel's Kconfig and dtc parsers
  bc                       # the kernel build's timeconst generator
  cpio                     # lists the Linux SoC's initramfs in its test, a reader independent of ours
  clang-format             # C style check
  clang-14                 # compiles the Linux SoC's simulator (Verilator's C++): a faster model than GCC's
  ghdl                     # checks the VHDL component declaration of the IP
  git                      # generated-file staleness check, version strings
  prometheus               # the fleet integration test scrapes latprobe's and latctl's exporters with a real Prometheus
  chromium                 # the report's browser test (headless, driven by Playwright), latmon report --pdf
  fonts-dejavu-core        # a font for chromium's screenshots and PDFs (a minimal system has none)
  linux-source-6.1         # meta-latmon's tests: the ZCU102 device tree and the kernel's Kconfig, as Debian ships them
  flex                     # meta-latmon's tests: the kernel's kconfig tool is built from linux-source-6.1
  bison                    # (same)
  libevent-dev             # LiteX's simulator (hw/litex/sim.py): its sim core and serial2console module link libevent
  libjson-c-dev            # LiteX's simulator: its module configuration (sim_config.js) is read with json-c
  zlib1g-dev               # LiteX's simulator links zlib
)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found; latmon's setup supports Debian 12 (bookworm). Install these packages by hand: ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || die "these system packages are missing: ${missing[*]}. Run 'make setup' as root (or: sudo make setup)."
  echo "setup: installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Wait for another apt/dpkg (an unattended upgrade, a second setup) instead of failing at once.
  apt_opts=(-o DPkg::Lock::Timeout=600)
  apt-get "${apt_opts[@]}" update -qq || die "apt-get update failed; check the network and /etc/apt/sources.list"
  apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install failed for: ${missing[*]}"
fi

# Python: any python3 >= 3.11 on PATH (Debian 12 ships 3.11).
py=${PYTHON:-python3}
command -v "$py" >/dev/null 2>&1 || die "$py not found"
"$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || die "latmon needs Python >= 3.11; $py is $("$py" -V 2>&1). Set PYTHON=/path/to/python3.11"

if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating virtual environment $venv"
  "$py" -m venv "$venv" || die "could not create $venv (is python3-venv installed?)"
fi

want=$(cat "$here/pyproject.toml" "$here/requirements.lock" "$here/src/latmon/inputs/_textparse.c" "$here/src/latmon/tail/_serial.c" "$here/src/latmon/report/_digest.c" | sha256sum | cut -d' ' -f1)
# (also when latmon's C extensions are missing, e.g. after git clean: pip builds them)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] \
  || ! "$venv/bin/python" -c 'import latmon.inputs._textparse, latmon.tail._serial, latmon.report._digest' 2>/dev/null; then
  echo "setup: installing Python dependencies into $venv (pinned by requirements.lock)"
  "$venv/bin/python" -m pip install -q -c "$here/requirements.lock" -e "$here[dev]" \
    || die "pip install failed; see the messages above"
  echo "$want" > "$stamp"
fi
# The Debian arm64 packages the QEMU guests are built from (make target-test): fetched once with a
# private apt configuration, checked against the signed index's SHA256, cached under build/.
"$py" "$here/target/debs.py" --out "$here/build/target/debs" --apt-dir "$here/build/target/apt" \
  || die "could not fetch the arm64 guest packages; see the message above"
echo "setup: ok ($("$venv/bin/python" -V), venv $venv)"
