#!/usr/bin/env python3
"""Fetch the Debian arm64 packages the QEMU guests are built from, checksummed and cached.

The machine's own dpkg architectures and apt state are left alone: a private apt configuration
(its own sources, lists, cache and an empty dpkg status) under build/target/apt resolves and
downloads arm64 packages of the same Debian release from the same mirrors the machine uses.

What is fetched (docs/target/qemu.md):
- the kernels, without dependencies: the image of `linux-image-arm64` (PREEMPT_VOLUNTARY) and
  of `linux-image-rt-arm64` (PREEMPT_RT);
- the guest userland with its run-time libraries: busybox-static, rt-tests (cyclictest),
  rtla (timerlat), stress-ng;
- Xen (docs/target/xen.md), without dependencies: the hypervisor of xen-hypervisor-4.17-arm64
  and the tools of xen-utils-4.17 (xl, xenstored, xenconsoled; the package's Python and
  pygrub are not wanted); the libraries they load come with the userland (libxenmisc4.17,
  libxenstore4 and their dependencies).

Every .deb is checked against the SHA256 of the signed Packages index and listed in
build/target/debs/manifest.tsv. A second run with all files present and matching the manifest
does not touch the network. Exit status 0, or 1 with a one-line reason.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

USERLAND = (
    "busybox-static",
    "rt-tests",
    "rtla",
    "stress-ng",
    # the libraries of Xen's tools (xl, xenstored, xenconsoled, xen-init-dom0)
    "libxenmisc4.17",
    "libxenstore4",
)
KERNELS = {"std": "linux-image-arm64", "rt": "linux-image-rt-arm64"}
#: fetched without their dependencies (role: package)
XEN = {"xen-hypervisor": "xen-hypervisor-4.17-arm64", "xen-tools": "xen-utils-4.17"}
ARCH = "arm64"


class FetchError(Exception):
    pass


def _codename() -> str:
    for line in Path("/etc/os-release").read_text().splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip('"')
    raise FetchError("no VERSION_CODENAME in /etc/os-release; this needs Debian 12 (bookworm)")


def machine_sources(codename: str) -> list[tuple[str, str, str, str]]:
    """(uri, suite, components, signed_by) of the machine's Debian sources for this release,
    from deb822 .sources files and one-line .list files. LATMON_DEBIAN_MIRROR overrides."""
    mirror = os.environ.get("LATMON_DEBIAN_MIRROR")
    keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
    if mirror:
        return [(mirror, codename, "main", keyring)]
    found: list[tuple[str, str, str, str]] = []
    etc = Path("/etc/apt")
    files = [etc / "sources.list", *sorted((etc / "sources.list.d").glob("*"))]
    for f in files:
        if not f.is_file() or f.suffix not in (".list", ".sources"):
            continue
        text = f.read_text(errors="replace")
        if f.suffix == ".sources":
            for stanza in re.split(r"\n\s*\n", text):
                fields: dict[str, str] = {}
                for line in stanza.splitlines():
                    if line.startswith("#") or ":" not in line:
                        continue
                    k, v = line.split(":", 1)
                    fields[k.strip().lower()] = v.strip()
                if (
                    fields.get("enabled", "yes").lower() == "no"
                    or "deb" not in fields.get("types", "").split()
                ):
                    continue
                for uri in fields.get("uris", "").split():
                    for suite in fields.get("suites", "").split():
                        if suite.split("-")[0] == codename and "main" in fields.get(
                            "components", ""
                        ):
                            found.append((uri, suite, "main", fields.get("signed-by", keyring)))
        else:
            for line in text.splitlines():
                words = re.sub(r"\[[^]]*\]", "", line).split()
                if (
                    len(words) >= 4
                    and words[0] == "deb"
                    and words[2].split("-")[0] == codename
                    and "main" in words[3:]
                ):
                    found.append((words[1], words[2], "main", keyring))
    if not found:
        raise FetchError(
            f"no Debian {codename} 'main' source in /etc/apt; set LATMON_DEBIAN_MIRROR=<mirror URL>"
        )
    return found


class PrivateApt:
    """apt-get/apt-cache with their own state: arm64 only, nothing installed."""

    def __init__(self, root: Path) -> None:
        root = root.resolve()
        self.root = root
        codename = _codename()
        (root / "sources.list.d").mkdir(parents=True, exist_ok=True)
        (root / "preferences.d").mkdir(exist_ok=True)
        (root / "lists" / "partial").mkdir(parents=True, exist_ok=True)
        (root / "cache" / "archives" / "partial").mkdir(parents=True, exist_ok=True)
        status = root / "status"
        if not status.exists():
            status.write_text("")
        stanzas = [
            f"Types: deb\nURIs: {uri}\nSuites: {suite}\nComponents: {comp}\n"
            f"Architectures: {ARCH}\nSigned-By: {key}\n"
            for uri, suite, comp, key in machine_sources(codename)
        ]
        (root / "sources.list.d" / "arm64.sources").write_text("\n".join(stanzas))
        self.options = [
            "-o", f"APT::Architecture={ARCH}",
            "-o", f"APT::Architectures::={ARCH}",
            "-o", "Dir::Etc::SourceList=/dev/null",
            "-o", f"Dir::Etc::SourceParts={root / 'sources.list.d'}",
            "-o", f"Dir::Etc::PreferencesParts={root / 'preferences.d'}",
            "-o", "Dir::Etc::Preferences=/dev/null",
            "-o", f"Dir::State={root}",
            "-o", f"Dir::State::Lists={root / 'lists'}",
            "-o", f"Dir::State::status={status}",
            "-o", f"Dir::Cache={root / 'cache'}",
            "-o", "APT::Sandbox::User=root",
            "-o", "APT::Get::List-Cleanup=false",
            "-o", "Acquire::Languages=none",
        ]  # fmt: skip

    def run(self, tool: str, *args: str, cwd: Path | None = None) -> str:
        proc = subprocess.run(
            [tool, *self.options, *args], capture_output=True, text=True, cwd=cwd, check=False
        )
        if proc.returncode != 0:
            detail = (proc.stderr.strip().splitlines() or ["no message"])[-1]
            raise FetchError(f"{tool} {' '.join(args[:3])} failed: {detail}")
        return proc.stdout

    def update(self) -> None:
        self.run("apt-get", "-qq", "update")

    def record(self, name: str, version: str | None = None) -> dict[str, str]:
        """The Packages index record of name (newest, or the given version)."""
        return self.records([(name, version)])[0]

    def records(self, wanted: list[tuple[str, str | None]]) -> list[dict[str, str]]:
        """The index records of several packages, in one apt-cache call."""
        specs = [f"{n}:{ARCH}" + (f"={v}" if v else "") for n, v in wanted]
        text = self.run("apt-cache", "show", "--no-all-versions", *specs)
        out: list[dict[str, str]] = []
        for stanza in re.split(r"\n\s*\n", text.strip()):
            fields: dict[str, str] = {}
            for line in stanza.splitlines():
                if line and not line[0].isspace() and ":" in line:
                    k, v = line.split(":", 1)
                    fields.setdefault(k, v.strip())
            out.append(fields)
        by_name = {(r.get("Package"), r.get("Version")) for r in out}
        if len(out) != len(wanted) or any(
            (n, v) not in by_name for n, v in wanted if v is not None
        ):
            raise FetchError(f"apt-cache show gave {len(out)} records for {len(wanted)} packages")
        return out

    def closure(self, names: list[str]) -> list[tuple[str, str]]:
        """(package, version) of names and their run-time dependencies (no recommends)."""
        out = self.run("apt-get", "install", "-s", "-y", "--no-install-recommends", *names)
        found = []
        for line in out.splitlines():
            m = re.match(r"^Inst (\S+) \((\S+) ", line)
            if m:
                found.append((m.group(1).split(":")[0], m.group(2)))
        if not found:
            raise FetchError(f"apt resolved nothing for {' '.join(names)}")
        return found


def kernel_package(apt: PrivateApt, meta: str) -> tuple[str, str]:
    """The versioned image package a kernel metapackage depends on."""
    depends = apt.record(meta).get("Depends", "")
    m = re.search(r"(linux-image-[0-9][^ ,(]*)", depends)
    if not m:
        raise FetchError(f"{meta} depends on no linux-image package ({depends!r})")
    name = m.group(1)
    return name, apt.record(name)["Version"]


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_manifest(path: Path) -> list[dict[str, str]]:
    rows = []
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            role, name, version, filename, digest = line.split("\t")
            rows.append(
                {"role": role, "name": name, "version": version, "file": filename, "sha256": digest}
            )
    return rows


def request_line() -> str:
    """The manifest's first line: what was asked for, so that a changed list fetches again."""
    wanted = [*KERNELS.values(), *XEN.values(), *USERLAND]
    return "# request: " + " ".join(wanted)


def cached_ok(outdir: Path) -> bool:
    manifest = outdir / "manifest.tsv"
    if not manifest.exists():
        return False
    if manifest.read_text().splitlines()[:1] != [request_line()]:
        return False
    rows = read_manifest(manifest)
    return bool(rows) and all(
        (outdir / r["file"]).exists() and sha256(outdir / r["file"]) == r["sha256"] for r in rows
    )


def fetch(outdir: Path, aptdir: Path, log: bool = True) -> None:
    outdir = outdir.resolve()
    if cached_ok(outdir):
        if log:
            print(f"target: arm64 packages cached in {outdir} (checksums match)")
        return
    outdir.mkdir(parents=True, exist_ok=True)
    apt = PrivateApt(aptdir)
    if log:
        print("target: fetching the arm64 package index (private apt configuration)")
    apt.update()
    wanted: list[tuple[str, str, str]] = []  # role, name, version
    for role, meta in KERNELS.items():
        name, version = kernel_package(apt, meta)
        wanted.append((f"kernel-{role}", name, version))
    for role, name in XEN.items():
        wanted.append((role, name, apt.record(name)["Version"]))
    for name, version in apt.closure(list(USERLAND)):
        wanted.append(("userland", name, version))
    rows = []
    index = {
        (r.get("Package"), r.get("Version")): r for r in apt.records([(n, v) for _, n, v in wanted])
    }
    for role, name, version in wanted:
        record = index[(name, version)]
        expected = record.get("SHA256")
        # apt-get download's name for it (an epoch's ':' is written %3a)
        filename = f"{name}_{version.replace(':', '%3a')}_{record['Architecture']}.deb"
        target = outdir / filename
        if not expected:
            raise FetchError(f"the index gives no SHA256 for {name} {version}")
        if not (target.exists() and sha256(target) == expected):
            if log:
                print(f"target: downloading {name} {version}")
            apt.run("apt-get", "-qq", "download", f"{name}:{ARCH}={version}", cwd=outdir)
            got = sha256(target) if target.exists() else "missing"
            if got != expected:
                raise FetchError(f"{filename}: SHA256 {got} is not the index's {expected}")
        rows.append("\t".join((role, name, version, filename, expected)))
    (outdir / "manifest.tsv").write_text(
        request_line() + "\n"
        "# role\tpackage\tversion\tfile\tsha256 (from the Packages index)\n"
        + "\n".join(rows)
        + "\n"
    )
    if log:
        print(f"target: {len(rows)} arm64 packages in {outdir}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for the .deb files")
    ap.add_argument("--apt-dir", type=Path, required=True, help="private apt state")
    args = ap.parse_args()
    try:
        fetch(args.out, args.apt_dir)
    except FetchError as error:
        print(f"target: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
