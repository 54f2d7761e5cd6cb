"""arm64 Linux guests on QEMU's virt machine (docs/target/qemu.md): boot a kernel with the
initramfs built by target/initramfs.py, run a job (a shell script) in it, and collect the files
the job emits on the results channel (hvc0).

The job is added to the initramfs as a second, uncompressed cpio archive holding /job.sh (the
kernel unpacks concatenated archives in order), so the built initramfs is never changed. Inside
the job, ``run NAME COMMAND...`` runs a command and emits its output as file NAME with its exit
status, and ``emit NAME FILE STATUS`` emits a file (target/guest-init.sh).
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from latmon.campaign import qemu
from latmon.campaign.cpio import CpioWriter
from latmon.errors import LatmonError

#: the kernel command line: the console on the PL011, quiet, power off (not reboot) on panic
APPEND = "console=ttyAMA0 quiet loglevel=3 panic=-1 rdinit=/init"


class GuestError(LatmonError):
    """The guest did not boot, did not finish its job in time, or its channel is damaged."""


@dataclass
class GuestFile:
    name: str
    text: str
    status: int


@dataclass
class GuestRun:
    qemu: qemu.QemuResult
    files: dict[str, GuestFile] = field(default_factory=dict)
    info: dict[str, str] = field(default_factory=dict)  # kernel=, cpus=, preempt=, tracers=
    done: str | None = None  # the job's exit status as the guest reported it, None: not done

    def file(self, name: str) -> GuestFile:
        if name not in self.files:
            raise GuestError(
                f"the guest emitted no file {name!r} (it emitted: "
                f"{', '.join(self.files) or 'none'}); its console ends with: "
                f"{self.qemu.console.strip()[-300:]!r}"
            )
        return self.files[name]


def parse_channel(text: str) -> tuple[dict[str, GuestFile], dict[str, str], str | None]:
    """Split the results channel into files, guest facts and the job's final status."""
    files: dict[str, GuestFile] = {}
    info: dict[str, str] = {}
    done = None
    current: str | None = None
    body: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if current is not None:
            m = re.fullmatch(r"@@end (\S+) status=(\d+)", line)
            if m and m.group(1) == current:
                # emit writes the content, then a newline: the lines before the end marker
                # joined are the content exactly
                files[current] = GuestFile(current, "\n".join(body), int(m.group(2)))
                current, body = None, []
            else:
                body.append(line)
            continue
        if line.startswith("@@file "):
            current = line.split(" ", 1)[1]
        elif line.startswith("@@guest "):
            for kv in line.split(" ")[1:]:
                k, _, v = kv.partition("=")
                info[k] = v
        elif line.startswith("@@done "):
            done = line.split(" ", 1)[1].removeprefix("status=")
    return files, info, done


def job_archive(job: str) -> bytes:
    w = CpioWriter()
    w.file("job.sh", job.encode(), 0o755)
    return w.to_bytes()


def run_guest(
    kernel: Path,
    initramfs: Path,
    job: str,
    workdir: Path,
    timeout_s: float,
    cpus: int = 2,
    memory_mib: int = 1024,
    extra_append: str = "",
) -> GuestRun:
    """Boot, run @job, power off; the files it emitted. Raises GuestError when the guest did
    not finish (what it printed is named in the message and kept in @workdir)."""
    workdir.mkdir(parents=True, exist_ok=True)
    initrd = workdir / "initrd.img"
    if not initramfs.exists():
        raise GuestError(f"{initramfs} is missing; run 'make target-images'")
    base = initramfs.read_bytes()
    # the kernel skips zero bytes between archives and wants each one to start 4-byte aligned
    initrd.write_bytes(base + b"\0" * (-len(base) % 4) + job_archive(job))
    append = f"{APPEND} {extra_append}".strip()
    args = qemu.virt_linux_args(kernel, initrd, append, cpus, memory_mib)
    result = qemu.run(args, workdir, timeout_s, data_channel=True)
    files, info, done = parse_channel(result.data)
    (workdir / "job.sh").write_text(job)
    run = GuestRun(result, files, info, done)
    if result.timed_out or done is None:
        why = (
            f"no power-off within {timeout_s:.0f} s" if result.timed_out else "the job ended early"
        )
        raise GuestError(
            f"guest {kernel.name}: {why}; files so far: {', '.join(files) or 'none'}; "
            f"console (in {workdir}) ends with: {result.console.strip()[-400:]!r}"
        )
    return run


# ---- one campaign step in a guest (latmon run, scenarios with target: kind: qemu-arm64) ----


def target_dir() -> Path:
    """Where target/initramfs.py put the kernels and the initramfs: $LATMON_TARGET_DIR, else
    build/target of this checkout."""
    explicit = os.environ.get("LATMON_TARGET_DIR")
    path = Path(explicit) if explicit else Path(__file__).resolve().parents[3] / "build" / "target"
    if not (path / "initramfs.cpio.gz").exists():
        raise GuestError(
            f"no guest images in {path}: run 'make target-images' (or set LATMON_TARGET_DIR)"
        )
    return path


def preemption_model(config: Path) -> str:
    """The preemption model and tick rate a kernel was built with, from its config file."""
    if not config.exists():
        return "unknown"
    options = dict(
        line.split("=", 1) for line in config.read_text().splitlines() if line.startswith("CONFIG_")
    )
    model = next(
        (
            name
            for name in ("PREEMPT_RT", "PREEMPT", "PREEMPT_VOLUNTARY", "PREEMPT_NONE")
            if options.get(f"CONFIG_{name}") == "y"
        ),
        "unknown",
    )
    return f"{model} (HZ={options.get('CONFIG_HZ', '?')})"


def measurement_job(
    latprobe_args: list[str],
    scenario: str,
    duration_ns: int,
    warmup_ns: int,
    load: list[str] | None,
    cyclictest: list[str] | None,
    rtla_priority: int | None,
) -> str:
    """The guest's job: start the load, warm up, latprobe, then cyclictest and rtla timerlat
    under the same load, stop the load. Files: latprobe.txt, latprobe.log, cyclictest.txt,
    cyclictest.json, rtla.txt, load.txt."""
    seconds = max(1, round(duration_ns / 1e9))
    lines = ["cd /tmp", "load_pid="]
    if load:
        lines.append(f"{shlex.join(load)} > /tmp/load.txt 2>&1 & load_pid=$!")
    lines.append(f"sleep {warmup_ns / 1e9:.3f}")
    lines.append('[ -z "$load_pid" ] || kill -0 $load_pid || echo "load died" >> /tmp/load.txt')
    probe = ["latprobe", *latprobe_args, "-D", f"{duration_ns}ns", "--scenario", scenario]
    lines.append(f"run latprobe.txt {shlex.join(probe)} -o /tmp/latprobe.log -q")
    lines.append("[ -f /tmp/latprobe.log ] && emit latprobe.log /tmp/latprobe.log 0")
    if cyclictest:
        lines.append(f"run cyclictest.txt {shlex.join(cyclictest)}")
        lines.append("[ -f /tmp/cyclictest.json ] && emit cyclictest.json /tmp/cyclictest.json 0")
    if rtla_priority is not None:
        rtla = ["rtla", "timerlat", "hist", "-d", f"{seconds}s", "-E", "100000"]
        rtla += ["-P", f"f:{rtla_priority}"]
        lines.append("if grep -qw timerlat /sys/kernel/tracing/available_tracers; then")
        lines.append(f"  run rtla.txt {shlex.join(rtla)}")
        lines.append("fi")
    lines.append('[ -z "$load_pid" ] || { kill $load_pid; wait $load_pid; }')
    lines.append("[ -f /tmp/load.txt ] && emit load.txt /tmp/load.txt 0")
    return "\n".join(lines) + "\n"
