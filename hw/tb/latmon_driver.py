"""The real C driver (sw/lib/latmon.c) in a cocotb simulation: liblatmon built as a shared
library, loaded with ctypes, its HAL calling back into the testbench.

The driver's blocking C calls run in a cocotb bridge thread (cocotb.task.bridge); each register
access of its HAL is a ctypes callback that performs the AXI4-Lite transaction on the simulated
design through a cocotb.task.resume function, so simulated time passes only inside the HAL — as
on a CPU whose bus accesses take the time the bus takes.

The ctypes structures mirror sw/include/latmon/latmon.h; a mismatch shows up as garbage in the
tests, which compare everything the driver returns with the models.
"""

from __future__ import annotations

import ctypes
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path

from cocotb.task import bridge, resume

ROOT = Path(__file__).resolve().parents[2]
SW = ROOT / "sw"
DRIVER_SOURCES = [
    SW / "lib" / "latmon.c",
    SW / "lib" / "latmon_log.c",
    SW / "lib" / "latmon_crc32.c",
]

READ32 = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint32)
)
WRITE32 = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32)
WAIT_IRQ = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int)


class Hal(ctypes.Structure):
    _fields_ = [
        ("read32", READ32),
        ("write32", WRITE32),
        ("wait_irq", WAIT_IRQ),
        ("ctx", ctypes.c_void_p),
    ]


class Caps(ctypes.Structure):
    _fields_ = [
        ("major", ctypes.c_uint16),
        ("minor", ctypes.c_uint16),
        *(
            (name, ctypes.c_uint)
            for name in (
                "cnt_width",
                "sync_stages",
                "trace_depth",
                "trace_width",
                "has_hist",
                "hist_bins",
                "has_stamp",
                "stamp_entries",
                "has_stim",
                "id_width",
                "has_irq",
                "has_timeout",
                "has_counters",
                "has_sum",
                "minimal",
            )
        ),
    ]


class Dev(ctypes.Structure):
    _fields_ = [("hal", Hal), ("clock_hz", ctypes.c_uint64), ("caps", Caps)]


class Config(ctypes.Structure):
    _fields_ = [
        ("irq_mode", ctypes.c_int),
        ("ack_mode", ctypes.c_int),
        ("timeout", ctypes.c_uint32),
        ("threshold", ctypes.c_uint32),
        ("trace_ring", ctypes.c_int),
        ("irq_enable", ctypes.c_uint32),
        ("hist_start", ctypes.c_uint32),
        ("hist_shift", ctypes.c_uint),
        ("stamp_enable", ctypes.c_int),
        ("stamp_timeout", ctypes.c_uint32),
    ]


class Stats(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_uint32),
        ("irq_status", ctypes.c_uint32),
        ("last", ctypes.c_uint32),
        ("min", ctypes.c_uint32),
        ("max", ctypes.c_uint32),
        ("count", ctypes.c_uint32),
        ("sum", ctypes.c_uint64),
        ("sum_count", ctypes.c_uint32),
        ("violations", ctypes.c_uint32),
        ("timeouts", ctypes.c_uint32),
        ("overruns", ctypes.c_uint32),
        ("ignored", ctypes.c_uint32),
        ("trace_count", ctypes.c_uint32),
        ("trace_lost", ctypes.c_uint32),
    ]


class HistBank(ctypes.Structure):
    _fields_ = [
        ("underflow", ctypes.c_uint32),
        ("overflow", ctypes.c_uint32),
        ("count", ctypes.c_uint64),
        ("sum", ctypes.c_uint64),
        ("min", ctypes.c_uint32),
        ("max", ctypes.c_uint32),
        ("saturated", ctypes.c_int),
        ("bins", ctypes.c_uint),
    ]


def build_driver(out_dir: Path, extra_sources: list[Path] | None = None) -> Path:
    """Compile liblatmon (and extra C sources) into a shared library, warnings as errors."""
    out_dir.mkdir(parents=True, exist_ok=True)
    lib = out_dir / "liblatmon_sim.so"
    sources = [*DRIVER_SOURCES, *(extra_sources or [])]
    if lib.exists() and all(lib.stat().st_mtime > s.stat().st_mtime for s in sources):
        return lib
    subprocess.run(
        [
            "gcc",
            "-std=c11",
            "-O1",
            "-g",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fPIC",
            "-shared",
            f"-I{SW / 'include'}",
            f"-I{SW / 'lib'}",
            "-o",
            str(lib),
            *map(str, sources),
        ],
        check=True,
    )
    return lib


class SimDriver:
    """liblatmon on a simulated bus: read/write/wait are coroutines of the testbench."""

    def __init__(
        self,
        lib_path: Path,
        read: Callable[[int], Awaitable[int]],
        write: Callable[[int, int], Awaitable[None]],
        wait_irq: Callable[[int], Awaitable[bool]] | None = None,
    ) -> None:
        self.lib = ctypes.CDLL(str(lib_path))
        self.lib.latmon_strerror.restype = ctypes.c_char_p
        blocking_read = resume(read)
        blocking_write = resume(write)
        blocking_wait = resume(wait_irq) if wait_irq else None
        self.accesses = 0

        def c_read(_ctx: int, offset: int, value: ctypes._Pointer) -> int:  # type: ignore[type-arg]
            self.accesses += 1
            value[0] = blocking_read(offset)
            return 0

        def c_write(_ctx: int, offset: int, value: int) -> int:
            self.accesses += 1
            blocking_write(offset, value)
            return 0

        def c_wait(_ctx: int, timeout_ms: int) -> int:
            assert blocking_wait is not None
            return 0 if blocking_wait(timeout_ms) else 110  # ETIMEDOUT

        # keep the callbacks alive as long as the driver
        self._callbacks = (READ32(c_read), WRITE32(c_write), WAIT_IRQ(c_wait))
        self.hal = Hal(*self._callbacks, None)
        if wait_irq is None:
            self.hal.wait_irq = ctypes.cast(None, WAIT_IRQ)
        self.dev = Dev()

    def strerror(self, err: int) -> str:
        return self.lib.latmon_strerror(err).decode()

    def check(self, err: int, what: str) -> None:
        if err:
            raise AssertionError(f"{what}: {self.strerror(err)} ({err})")

    async def call(self, name: str, *args: object) -> int:
        """Call a liblatmon function (blocking C) from a test, in a bridge thread."""
        function = getattr(self.lib, name)

        def run() -> int:
            return int(function(*args))

        return int(await bridge(run)())
