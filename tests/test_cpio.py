"""The newc cpio writer: read back by an independent parser of the format's definition (the
kernel's buffer-format.rst): magic, 13 hex fields, name and data each padded to 4 bytes, the
trailer; parents created before their files; deterministic bytes."""

from __future__ import annotations

import stat

from latmon.campaign.cpio import CpioWriter


def parse_newc(data: bytes) -> list[tuple[str, int, bytes]]:
    out, pos = [], 0
    while True:
        assert data[pos : pos + 6] == b"070701", pos
        fields = [int(data[pos + 6 + 8 * i : pos + 14 + 8 * i], 16) for i in range(13)]
        mode, size, namesize = fields[1], fields[6], fields[11]
        name_start = pos + 110
        name = data[name_start : name_start + namesize - 1].decode()
        assert data[name_start + namesize - 1] == 0
        pos = name_start + namesize
        pos += -pos % 4
        body = data[pos : pos + size]
        pos += size
        pos += -pos % 4
        if name == "TRAILER!!!":
            assert pos == len(data)
            return out
        out.append((name, mode, body))


def test_files_links_and_parents_read_back() -> None:
    w = CpioWriter()
    w.file("usr/bin/tool", b"\x7fELF...", 0o755)
    w.symlink("bin/sh", "busybox")
    w.file("etc/passwd", b"root:x:0:0::/root:/bin/sh\n")
    entries = parse_newc(w.to_bytes())
    names = [e[0] for e in entries]
    assert names == ["usr", "usr/bin", "usr/bin/tool", "bin", "bin/sh", "etc", "etc/passwd"]
    by_name = {n: (m, b) for n, m, b in entries}
    assert stat.S_ISDIR(by_name["usr/bin"][0])
    assert by_name["usr/bin/tool"] == (stat.S_IFREG | 0o755, b"\x7fELF...")
    assert stat.S_ISLNK(by_name["bin/sh"][0]) and by_name["bin/sh"][1] == b"busybox"


def test_same_input_same_bytes() -> None:
    def build() -> bytes:
        w = CpioWriter()
        w.file("job.sh", b"echo hi\n", 0o755)
        return w.to_bytes()

    assert build() == build()
    assert len(build()) % 4 == 0
