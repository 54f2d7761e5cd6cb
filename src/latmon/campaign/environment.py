"""What the machine under test is: recorded into every run's metadata by `latmon run`.

Each value is read from the kernel's own files; a value that cannot be read is recorded as
"unknown" with the reason, never guessed.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

SYS_CPU = Path("/sys/devices/system/cpu")


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def cpu_model() -> str:
    text = _read(Path("/proc/cpuinfo")) or ""
    for line in text.splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def governors() -> str:
    """Frequency governors of the CPUs, e.g. 'performance' or 'cpu0-1:schedutil'."""
    found: dict[str, list[str]] = {}
    for cpu in sorted(SYS_CPU.glob("cpu[0-9]*")):
        gov = _read(cpu / "cpufreq" / "scaling_governor")
        if gov:
            found.setdefault(gov, []).append(cpu.name.removeprefix("cpu"))
    if not found:
        return "none (no cpufreq driver)"
    if len(found) == 1:
        return next(iter(found))
    return "; ".join(f"cpu{','.join(cpus)}:{gov}" for gov, cpus in found.items())


def virtualization() -> str:
    """'vm: kvm; container: docker', from systemd-detect-virt, or the CPU's hypervisor flag."""
    tool = shutil.which("systemd-detect-virt")
    if tool:
        found = []
        for kind in ("vm", "container"):
            proc = subprocess.run([tool, f"--{kind}"], capture_output=True, text=True, check=False)
            found.append(f"{kind}: {proc.stdout.strip() or 'none'}")
        return "; ".join(found)
    flags = _read(Path("/proc/cpuinfo")) or ""
    return "vm: yes (hypervisor flag)" if " hypervisor" in flags else "vm: none detected"


def preemption() -> str:
    """The kernel's preemption model, from its version string or the dynamic setting."""
    dynamic = _read(Path("/sys/kernel/debug/sched/preempt"))
    if dynamic:
        chosen = [w.strip("()") for w in dynamic.split() if w.startswith("(")]
        if chosen:
            return f"{chosen[0]} (dynamic)"
    version = platform.version()
    for model in ("PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT"):
        if model in version:
            return model
    return "none/voluntary (not in the version string)"


def environment() -> dict[str, str]:
    uname = platform.uname()
    return {
        "env.kernel": uname.release,
        "env.kernel_version": uname.version,
        "env.kernel_cmdline": _read(Path("/proc/cmdline")) or "unknown",
        "env.preemption": preemption(),
        "env.machine": uname.machine,
        "env.cpu_model": cpu_model(),
        "env.cpus_online": _read(SYS_CPU / "online") or "unknown",
        "env.cpus_isolated": _read(SYS_CPU / "isolated") or "none",
        "env.governor": governors(),
        "env.virtualization": virtualization(),
        "env.hostname": uname.node,
        "env.user_is_root": "yes" if os.geteuid() == 0 else "no",
    }
