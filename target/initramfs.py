#!/usr/bin/env python3
"""Build what the arm64 QEMU guests boot (docs/target/qemu.md), from the packages target/debs.py
fetched:

- build/target/vmlinuz-std, vmlinuz-rt: the kernels of linux-image-arm64 (PREEMPT_VOLUNTARY)
  and linux-image-rt-arm64 (PREEMPT_RT), with their configs beside them;
- build/target/initramfs.cpio.gz: one initramfs for both: busybox-static, the static arm64
  latprobe and latctl, cyclictest, rtla and stress-ng with exactly the shared libraries they
  need (found by following each ELF's DT_NEEDED entries through the packages' library folders),
  each kernel's virtio_mmio and virtio_console modules (the results channel), and
  target/guest-init.sh as /init;
- build/target/xen/xen: the Xen hypervisor (docs/target/xen.md), with its build config;
- build/target/xen/dom0.cpio.gz: what a Dom0 needs on top of the initramfs (appended to it as a
  second archive): xl, xenstored, xenconsoled and xen-init-dom0 with the libraries they load
  that the initramfs does not already hold, each kernel's Xen driver modules (event channels,
  privcmd, xenfs, grant tables) and target/xen-dom0.sh, the shell functions that start the
  tools and run a DomU.

Rebuilt only when an input changed (the manifest of the packages, latprobe, latctl, the shell
scripts or this file). Exit status 0, or 1 with a one-line reason.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from latmon.campaign.cpio import CpioWriter  # noqa: E402

PROGRAMS = ("usr/bin/cyclictest", "usr/bin/rtla", "usr/bin/stress-ng")
LIB_DIRS = ("lib/aarch64-linux-gnu", "usr/lib/aarch64-linux-gnu", "lib", "usr/lib")
MODULES = ("kernel/drivers/virtio/virtio_mmio.ko", "kernel/drivers/char/virtio_console.ko")
#: Xen's tools in a Dom0 (xen-utils-4.17), from /usr/lib/xen-4.17/bin
XEN_TOOLS = ("xl", "xenstored", "xenconsoled", "xen-init-dom0")
XEN_TOOLS_DIR = "usr/lib/xen-4.17/bin"
#: a Dom0's Xen drivers, in the order they load (xenfs needs privcmd)
XEN_MODULES = (
    "kernel/drivers/xen/xen-evtchn.ko",
    "kernel/drivers/xen/xen-privcmd.ko",
    "kernel/drivers/xen/xenfs/xenfs.ko",
    "kernel/drivers/xen/xen-gntdev.ko",
    "kernel/drivers/xen/xen-gntalloc.ko",
)
#: loaded with dlopen by glibc (pthread_cancel in xl), so in no DT_NEEDED list
DLOPENED = ("libgcc_s.so.1",)
READELF = "aarch64-linux-gnu-readelf"


class BuildError(Exception):
    pass


def read_manifest(debs: Path) -> list[tuple[str, str, str]]:
    """(role, package, file) rows of debs/manifest.tsv."""
    path = debs / "manifest.tsv"
    if not path.exists():
        raise BuildError(f"{path} is missing; run 'make target-fetch' first")
    rows = []
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            role, name, _version, filename, _sha = line.split("\t")
            rows.append((role, name, filename))
    return rows


def extract(deb: Path, into: Path) -> None:
    proc = subprocess.run(["dpkg-deb", "-x", str(deb), str(into)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"dpkg-deb -x {deb.name}: {proc.stderr.strip()}")


def needed(elf: Path) -> tuple[list[str], str | None]:
    """DT_NEEDED sonames and the program interpreter of an ELF file."""
    proc = subprocess.run([READELF, "-d", "-l", str(elf)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"{READELF} {elf}: {proc.stderr.strip()}")
    libs, interp = [], None
    for line in proc.stdout.splitlines():
        if "(NEEDED)" in line:
            libs.append(line.split("[", 1)[1].split("]", 1)[0])
        if "Requesting program interpreter:" in line:
            interp = line.split(":", 1)[1].strip(" ]")
    return libs, interp


def find_lib(sysroot: Path, soname: str) -> Path:
    for d in LIB_DIRS:
        p = sysroot / d / soname
        if p.exists():
            return p
    raise BuildError(f"{soname} is in none of the fetched packages; add its package to USERLAND")


def library_closure(sysroot: Path, programs: list[Path]) -> dict[str, Path]:
    """soname -> file (symbolic links resolved) of every library the programs load."""
    found: dict[str, Path] = {}
    todo = list(programs)
    while todo:
        libs, interp = needed(todo.pop())
        if interp and Path(interp).name not in found:
            found[Path(interp).name] = find_lib(sysroot, Path(interp).name).resolve()
        for soname in libs:
            if soname not in found:
                path = find_lib(sysroot, soname).resolve()
                found[soname] = path
                todo.append(path)
    return found


def inputs_digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def build(debs: Path, latprobe: Path, latctl: Path, out: Path) -> None:
    rows = read_manifest(debs)
    init = HERE / "guest-init.sh"
    dom0_script = HERE / "xen-dom0.sh"
    for program, rule in ((latprobe, "sw-arm64"), (latctl, "sw-arm64")):
        if not program.exists():
            raise BuildError(f"{program} is missing; run 'make {rule}'")
    digest = inputs_digest(
        [debs / "manifest.tsv", latprobe, latctl, init, dom0_script, Path(__file__)]
    )
    stamp = out / "initramfs.inputs"
    products = [
        out / "initramfs.cpio.gz",
        out / "vmlinuz-std",
        out / "vmlinuz-rt",
        out / "xen" / "xen",
        out / "xen" / "dom0.cpio.gz",
    ]
    if stamp.exists() and stamp.read_text() == digest and all(p.exists() for p in products):
        print(f"target: guest images up to date in {out}")
        return
    out.mkdir(parents=True, exist_ok=True)
    sysroot = out / "sysroot"
    shutil.rmtree(sysroot, ignore_errors=True)
    kernels: dict[str, Path] = {}
    hypervisor: Path | None = None
    for role, _name, filename in rows:
        if role in ("userland", "xen-tools"):
            extract(debs / filename, sysroot)
        elif role == "xen-hypervisor":
            hypervisor = out / "xen-hypervisor"
            shutil.rmtree(hypervisor, ignore_errors=True)
            extract(debs / filename, hypervisor)
        else:
            kroot = out / role
            shutil.rmtree(kroot, ignore_errors=True)
            extract(debs / filename, kroot)
            kernels[role.removeprefix("kernel-")] = kroot
    if hypervisor is None:
        raise BuildError("the manifest names no xen-hypervisor package; run 'make target-fetch'")

    cpio = CpioWriter()
    for d in ("dev", "proc", "sys", "tmp", "run", "root", "etc", "bin", "sbin", "usr/bin"):
        cpio.directory(d)
    cpio.file("init", init.read_bytes(), 0o755)
    cpio.add_path("bin/busybox", sysroot / "bin/busybox")
    cpio.symlink("bin/sh", "busybox")
    cpio.file("usr/bin/latprobe", latprobe.read_bytes(), 0o755)
    cpio.file("usr/bin/latctl", latctl.read_bytes(), 0o755)
    programs = [sysroot / p for p in PROGRAMS]
    for p in programs:
        if not p.exists():
            raise BuildError(f"{p.relative_to(sysroot)} is not in the fetched packages")
        cpio.file(str(p.relative_to(sysroot)), p.read_bytes(), 0o755)
    base_libs = library_closure(sysroot, programs)
    for soname, path in sorted(base_libs.items()):
        cpio.file(f"lib/aarch64-linux-gnu/{soname}", path.read_bytes(), 0o755)
    cpio.symlink("lib/ld-linux-aarch64.so.1", "aarch64-linux-gnu/ld-linux-aarch64.so.1")
    cpio.file("etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
    cpio.file("etc/group", b"root:x:0:\n")

    dom0 = xen_dom0_archive(sysroot, set(base_libs), dom0_script)
    for role, kroot in sorted(kernels.items()):
        (image,) = (kroot / "boot").glob("vmlinuz-*")
        (config,) = (kroot / "boot").glob("config-*")
        release = image.name.removeprefix("vmlinuz-")
        shutil.copyfile(image, out / f"vmlinuz-{role}")
        shutil.copyfile(config, out / f"config-{role}")
        for m in MODULES:
            cpio.add_path(
                f"lib/modules/{release}/{Path(m).name}", kroot / "lib/modules" / release / m
            )
        for m in XEN_MODULES:
            dom0.add_path(
                f"lib/modules/{release}/{Path(m).name}", kroot / "lib/modules" / release / m
            )
        shutil.rmtree(kroot)

    xen_out = out / "xen"
    xen_out.mkdir(exist_ok=True)
    (xen_image,) = (hypervisor / "boot").glob("xen-*-arm64")
    shutil.copyfile(xen_image, xen_out / "xen")
    shutil.copyfile(xen_image.with_name(xen_image.name + ".config"), xen_out / "xen.config")
    shutil.rmtree(hypervisor)
    dom0_data = dom0.to_bytes()
    (xen_out / "dom0.cpio.gz").write_bytes(gzip.compress(dom0_data, compresslevel=6, mtime=0))

    data = cpio.to_bytes()
    (out / "initramfs.cpio.gz").write_bytes(gzip.compress(data, compresslevel=6, mtime=0))
    shutil.rmtree(sysroot)
    stamp.write_text(digest)
    print(
        f"target: {out / 'initramfs.cpio.gz'} ({len(data) // 1024} KiB unpacked), "
        f"kernels {', '.join(f'vmlinuz-{k}' for k in sorted(kernels))}; Xen {xen_out / 'xen'}, "
        f"Dom0 additions {xen_out / 'dom0.cpio.gz'} ({len(dom0_data) // 1024} KiB unpacked)"
    )


def xen_dom0_archive(sysroot: Path, have: set[str], script: Path) -> CpioWriter:
    """Xen's tools for a Dom0, with the libraries the initramfs lacks; the kernels' Xen modules
    are added by the caller."""
    tools = [sysroot / XEN_TOOLS_DIR / t for t in XEN_TOOLS]
    for t in tools:
        if not t.exists():
            raise BuildError(f"{t.relative_to(sysroot)} is not in the fetched xen-utils package")
    w = CpioWriter()
    for d in ("usr/sbin", "var", "var/lib", "var/lib/xen", "var/log", "var/log/xen", "etc/xen"):
        w.directory(d)
    for t in tools:
        w.file(f"usr/sbin/{t.name}", t.read_bytes(), 0o755)
    libs = library_closure(sysroot, tools)
    for soname in DLOPENED:
        libs[soname] = find_lib(sysroot, soname).resolve()
    for soname, path in sorted(libs.items()):
        if soname not in have:
            w.file(f"lib/aarch64-linux-gnu/{soname}", path.read_bytes(), 0o755)
    w.file("etc/latmon/xen-dom0.sh", script.read_bytes(), 0o644)
    return w


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--debs", type=Path, required=True)
    ap.add_argument("--latprobe", type=Path, required=True)
    ap.add_argument("--latctl", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    try:
        build(args.debs, args.latprobe, args.latctl, args.out)
    except BuildError as error:
        print(f"target: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
