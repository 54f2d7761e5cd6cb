"""Write cpio archives in the "newc" format, the one the Linux kernel unpacks as an initramfs
(Documentation/driver-api/early-userspace/buffer-format.rst). Deterministic: every time stamp is
0 and owners are root, so the same input gives the same bytes.

Several archives may be concatenated (compressed or not): the kernel unpacks them in order, a
later file replacing an earlier one. The QEMU runner uses this to add a job to a built initramfs.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

TRAILER = "TRAILER!!!"


@dataclass
class Entry:
    name: str  # path inside the archive, without a leading "/"
    mode: int  # file type and permission bits (stat.S_IFREG | 0o755, ...)
    data: bytes = b""  # a file's content, or a symbolic link's target


class CpioWriter:
    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self._dirs: set[str] = set()

    def _parents(self, name: str) -> None:
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in self._dirs:
                self._dirs.add(d)
                self.entries.append(Entry(d, stat.S_IFDIR | 0o755))

    def directory(self, name: str) -> None:
        name = name.strip("/")
        self._parents(name + "/x")

    def file(self, name: str, data: bytes, mode: int = 0o644) -> None:
        name = name.strip("/")
        self._parents(name)
        self.entries.append(Entry(name, stat.S_IFREG | mode, data))

    def symlink(self, name: str, target: str) -> None:
        name = name.strip("/")
        self._parents(name)
        self.entries.append(Entry(name, stat.S_IFLNK | 0o777, target.encode()))

    def add_path(self, name: str, path: Path) -> None:
        """A file from disk, with its permission bits (a symbolic link stays one)."""
        if path.is_symlink():
            self.symlink(name, str(path.readlink()))
        else:
            self.file(name, path.read_bytes(), path.stat().st_mode & 0o7777)

    def to_bytes(self) -> bytes:
        out = bytearray()
        for ino, e in enumerate([*self.entries, Entry(TRAILER, 0)], start=1):
            name = e.name.encode() + b"\0"
            # ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor
            # namesize check
            fields = [ino, e.mode, 0, 0, 1, 0, len(e.data), 0, 0, 0, 0, len(name), 0]
            header = b"070701" + b"".join(b"%08X" % f for f in fields)
            out += header + name
            out += b"\0" * (-len(out) % 4)
            out += e.data
            out += b"\0" * (-len(out) % 4)
        return bytes(out)
