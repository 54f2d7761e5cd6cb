"""Run QEMU for the ARM targets (docs/target/qemu.md): a time limit on every run, the serial
console captured to a file, an optional second channel for data, and the exit status.

Two machines are used:
- ``xlnx-zcu102`` (Zynq UltraScale+): bare-metal A53 images loaded with QEMU's generic loader,
  deterministic under ``-icount``; the image ends through semihosting, so QEMU's exit status is
  the firmware's;
- ``virt`` with a Cortex-A53: arm64 Linux from a kernel and an initramfs; a virtio console
  (``hvc0`` in the guest) carries the results, separate from the kernel's console.

Every result of these runs is emulated: QEMU executes the instructions but does not model a
Cortex-A53's timing, caches or the programmable logic.

QEMU never outlives the process that started it: it runs in its own process group, which is
killed at the time limit, when the console shows the end, on SIGTERM or SIGINT (before the
signal's own handling goes on), and by the kernel (PR_SET_PDEATHSIG) if the caller is killed
outright.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from latmon.errors import LatmonError

QEMU = "qemu-system-aarch64"
#: the name of the virtio serial port that carries a guest's results (target/guest-init.sh)
DATA_PORT = "org.latmon.results"
#: -icount shift=4: every instruction advances virtual time by 16 ns, one tick of the ZCU102
#: model's 62.5 MHz generic timer; align=off, sleep=off: virtual time only, never the host's.
ICOUNT = "shift=4,align=off,sleep=off"


PR_SET_PDEATHSIG = 1


class QemuError(LatmonError):
    """QEMU is missing, did not start, or exceeded its time limit."""


@dataclass
class QemuResult:
    command: list[str]
    status: int | None  # None: killed at the time limit
    console: str  # the serial console (UART0 / ttyAMA0)
    data: str  # the data channel (virtio console), "" when there is none
    stderr: str
    seconds: float
    timed_out: bool = False
    notes: list[str] = field(default_factory=list)
    #: stopped by the host when the console showed the end (``until``), not by the guest
    stopped_at_end: bool = False


def qemu_binary() -> str:
    path = shutil.which(QEMU)
    if path is None:
        raise QemuError(f"{QEMU} is not installed; run 'make setup' (Debian: qemu-system-arm)")
    return path


def run(
    args: list[str],
    workdir: Path,
    timeout_s: float,
    data_channel: bool = False,
    until: re.Pattern[str] | None = None,
) -> QemuResult:
    """Run QEMU with @args (machine, images), the console on a file, no display, no audio.

    With @data_channel a virtio serial port named ``org.latmon.results`` is added (the guest
    finds it by that name, target/guest-init.sh). The run is killed after @timeout_s seconds
    (the result says timed_out; what was captured until then is kept). With @until, QEMU is
    stopped as soon as the console matches it: for guests that end without ending the machine
    (a Xen domain that shuts down while Xen runs on).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    console = workdir / "console.txt"
    data = workdir / "data.txt"
    for f in (console, data):
        f.unlink(missing_ok=True)
    command = [
        qemu_binary(),
        *args,
        "-display",
        "none",
        "-monitor",
        "none",
        "-audiodev",
        "none,id=noaudio",
        "-chardev",
        f"file,id=console,path={console}",
        "-serial",
        "chardev:console",
    ]
    if data_channel:
        command += [
            "-device",
            "virtio-serial-device",
            "-chardev",
            f"file,id=data,path={data}",
            "-device",
            f"virtserialport,chardev=data,name={DATA_PORT}",
        ]
    start = time.monotonic()
    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )
    timed_out = stopped = False
    try:
        with _group_killed_on_signals(proc.pid):
            if until is None:
                out, err = proc.communicate(timeout=timeout_s)
            else:
                stopped = _wait_for(proc, console, until, start + timeout_s)
                timed_out = not stopped and proc.poll() is None
                if stopped or timed_out:
                    _kill_group(proc.pid)
                out, err = proc.communicate()
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        out, err = proc.communicate()
    except BaseException:
        _kill_group(proc.pid)
        proc.wait()
        raise
    seconds = time.monotonic() - start
    stderr = (out + err).decode(errors="replace")
    return QemuResult(
        command=command,
        status=None if timed_out else proc.returncode,
        console=console.read_text(errors="replace") if console.exists() else "",
        data=data.read_text(errors="replace") if data.exists() else "",
        stderr=_quiet(stderr),
        seconds=seconds,
        timed_out=timed_out,
        stopped_at_end=stopped,
    )


def _die_with_parent() -> None:  # runs in QEMU's process between fork and exec
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError):  # already gone
        os.killpg(pgid, signal.SIGKILL)


@contextmanager
def _group_killed_on_signals(pgid: int) -> Iterator[None]:
    """While QEMU runs, SIGTERM and SIGINT first kill its process group (which a signal to the
    caller's group does not reach: QEMU has its own session), then go on as they would have:
    the handler that was installed runs (the campaign's, Python's KeyboardInterrupt), or the
    default action ends this process. Only the main thread can install handlers; elsewhere the
    caller's cleanup and PR_SET_PDEATHSIG remain."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Callable[[int, FrameType | None], Any] | int] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        _kill_group(pgid)
        before = previous[signum]
        if callable(before):
            before(signum, frame)
        elif before != signal.SIG_IGN:  # SIG_DFL (or a handler not set from Python)
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        before = signal.getsignal(sig)
        if before is not None and before != signal.SIG_IGN:  # None: not set from Python
            previous[sig] = before
            signal.signal(sig, handler)
    try:
        yield
    finally:
        for signum, before in previous.items():
            signal.signal(signum, before)


def _wait_for(
    proc: subprocess.Popen[bytes], console: Path, pattern: re.Pattern[str], deadline: float
) -> bool:
    """Follow the console until @pattern appears in a line (True), QEMU exits or the deadline
    passes (False)."""
    offset, partial = 0, ""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        if console.exists():
            with console.open("rb") as f:
                f.seek(offset)
                chunk = f.read()
            offset += len(chunk)
            lines = (partial + chunk.decode(errors="replace")).split("\n")
            partial = lines.pop()
            if any(pattern.search(line) for line in lines):
                return True
        time.sleep(0.25)
    return False


def _quiet(stderr: str) -> str:
    """QEMU's messages without the ZCU102 model's fixed chatter about absent devices."""
    noise = ("DPDMA client not attached", "audiodev default parameter is deprecated")
    return "\n".join(line for line in stderr.splitlines() if not any(n in line for n in noise))


def zcu102_args(elf: Path, args: list[str] | None = None, icount: bool = True) -> list[str]:
    """A bare-metal image on the ZCU102 model's A53 core 0, at EL1 (the EL3 firmware's place
    is QEMU's), semihosting on for the exit status and @args as the image's command line."""
    if not elf.exists():
        raise QemuError(f"{elf} is not built; run 'make sw-all'")
    semihosting = "enable=on,target=native"
    for a in ["image", *(args or [])]:
        if "," in a:
            raise QemuError(f"a semihosting argument cannot contain ',': {a!r}")
        semihosting += f",arg={a}"
    out = ["-M", "xlnx-zcu102", "-semihosting-config", semihosting]
    if icount:
        out += ["-icount", ICOUNT]
    return [*out, "-device", f"loader,file={elf},cpu-num=0"]


def virt_linux_args(
    kernel: Path, initrd: Path, append: str, cpus: int = 2, memory_mib: int = 1024
) -> list[str]:
    """arm64 Linux on the virt machine with Cortex-A53 cores, no network."""
    for f in (kernel, initrd):
        if not f.exists():
            raise QemuError(f"{f} is missing; run 'make target-images'")
    return [
        "-M",
        "virt",
        "-cpu",
        "cortex-a53",
        "-smp",
        str(cpus),
        "-m",
        str(memory_mib),
        "-nic",
        "none",
        "-no-reboot",
        "-kernel",
        str(kernel),
        "-initrd",
        str(initrd),
        "-append",
        append,
    ]
