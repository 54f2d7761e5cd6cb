"""Scenario files (scenarios/*.yaml): what `latmon run` measures and under which load.

A scenario declares the probe settings, the load, warm-up, duration, repetitions and a deadline.
Every value is validated when the file is read; an error names the file, the key and what to
write instead. The format is documented in docs/scenarios.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from latmon.errors import InputError

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ns|us|ms|s|m|h)?\s*$")
_UNITS_NS = {
    "ns": 1,
    "us": 1_000,
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
LOAD_KINDS = ("none", "stress-ng", "hackbench", "memory")
TARGET_KINDS = ("host", "qemu-arm64", "qemu-baremetal", "xen", "amp")
GUEST_KERNELS = ("std", "rt")
XEN_DOMAINS = ("dom0", "domu", "dom0less")
POLICIES = ("fifo", "rr", "other")


def parse_duration_ns(value: object, default_unit: str = "s") -> int:
    """'10s', '250us', 1.5 (default unit) -> nanoseconds. Raises ValueError."""
    if isinstance(value, bool):
        raise ValueError("a duration, not true/false")
    if isinstance(value, int | float):
        text = f"{value}{default_unit}"
    elif isinstance(value, str):
        text = value
    else:
        raise ValueError(f"a duration like 10s or 250us, not {type(value).__name__}")
    m = _DURATION.match(text)
    if not m:
        raise ValueError(f"{value!r} is not a duration like 10s, 500ms or 250us")
    return round(float(m.group(1)) * _UNITS_NS[m.group(2) or default_unit])


@dataclass
class Probe:
    """latprobe settings."""

    interval_ns: int = 1_000_000
    cpus: str = "all"
    policy: str = "fifo"
    priority: int = 95
    mlock: bool = True
    stages: bool = False
    hist_bin_ns: int = 1_000
    max_samples: int = 1_000_000
    #: /dev/cpu_dma_latency: None = latprobe's default (0 µs when root, like cyclictest),
    #: a number of µs, or "none" to leave it untouched
    dma_latency: int | str | None = None
    #: explain every sample above this (ns), with the stages
    explain_ns: int | None = None

    def args(self) -> list[str]:
        a = [
            "-i",
            f"{self.interval_ns}ns",
            "--policy",
            self.policy,
            "--hist-bin",
            f"{self.hist_bin_ns}ns",
            "--max-samples",
            str(self.max_samples),
        ]
        if self.policy != "other":
            a += ["-p", str(self.priority)]
        if self.cpus != "all":
            a += ["-a", self.cpus]
        if not self.mlock:
            a.append("--no-mlock")
        if self.stages:
            a.append("--stages")
        if self.dma_latency is not None:
            a += ["--dma-latency", str(self.dma_latency)]
        if self.explain_ns is not None:
            a += ["--explain", f"{self.explain_ns}ns"]
        return a


@dataclass
class Load:
    """Background load during the measurement."""

    kind: str = "none"
    args: list[str] = field(default_factory=list)  # stress-ng stressors
    groups: int = 4  # hackbench -g
    fds: int = 6  # hackbench -f
    workers: int = 2  # memory: stress-ng --vm workers
    bytes: str = "25%"  # memory: per worker

    def command(self, workdir: Path) -> list[str] | None:
        """The load's command line (run in a loop by the runner if it ends), None for none."""
        if self.kind == "none":
            return None
        if self.kind == "stress-ng":
            return ["stress-ng", *self.args, "--temp-path", str(workdir), "--quiet"]
        if self.kind == "memory":
            return [
                "stress-ng",
                "--vm",
                str(self.workers),
                "--vm-bytes",
                self.bytes,
                "--vm-method",
                "all",
                "--temp-path",
                str(workdir),
                "--quiet",
            ]
        if self.kind == "hackbench":
            # hackbench ends after its loops: run it again until the runner stops the group
            once = f"hackbench -g {self.groups} -f {self.fds} -l 1000 >/dev/null"
            return ["sh", "-c", f"while {once}; do :; done"]
        raise AssertionError(self.kind)

    def describe(self) -> str:
        if self.kind == "none":
            return "none"
        if self.kind == "hackbench":
            return f"hackbench -g {self.groups} -f {self.fds} (repeated)"
        command = self.command(Path("/tmp")) or []
        return " ".join(a for a in command if a not in ("--temp-path", "/tmp", "--quiet"))


@dataclass
class Target:
    """Where the measurement runs (docs/scenarios.md): this machine (host); an arm64 Linux guest
    on QEMU booted for each repetition (qemu-arm64, docs/target/qemu.md); the A53 interrupt
    suite on QEMU's virt machine without an OS (qemu-baremetal); Xen with a Linux Dom0, a Linux
    DomU or the suite as a dom0less guest (xen, docs/target/xen.md); Linux on two cores and the
    suite on two others, its log in shared memory (amp, docs/amp.md)."""

    kind: str = "host"
    kernel: str = "std"
    cpus: int = 2
    memory_mib: int = 1024
    #: also run rtla timerlat hist in the guest when the kernel has the timerlat tracer
    rtla: bool = True
    #: xen: the domain that measures
    domain: str = "domu"
    dom0_vcpus: int = 2
    domu_vcpus: int = 2
    #: xen: where the scenario's load runs, dom0 or domu (default: the measuring domain); a
    #: Dom0 that measures with the load in a DomU creates one that runs only the load
    load_in: str = ""
    #: qemu-baremetal, xen dom0less, amp: the suite's cases (empty: all)
    cases: list[str] = field(default_factory=list)
    #: the suite's wait for an interrupt before it counts as lost (emulators on a busy host)
    timeout_ms: int = 2000

    @property
    def runs_suite(self) -> bool:
        """The A53 bare-metal suite measures (not a Linux tool)."""
        return self.kind in ("qemu-baremetal", "amp") or (
            self.kind == "xen" and self.domain == "dom0less"
        )

    @property
    def load_domain(self) -> str:
        return self.load_in or self.domain

    def describe(self) -> str:
        if self.kind == "host":
            return "this machine"
        if self.kind == "qemu-arm64":
            return f"QEMU arm64 guest, {self.kernel} kernel, {self.cpus} CPUs (emulated)"
        if self.kind == "qemu-baremetal":
            return f"A53 suite on QEMU virt, no OS, {self.cpus} CPUs (emulated)"
        if self.kind == "amp":
            return (
                f"AMP on QEMU virt ({self.cpus} CPUs): Linux ({self.kernel} kernel) on CPUs 1-2, "
                "A53 suite on CPUs 0 and 3, log through shared memory (emulated)"
            )
        beside = (
            f", a DomU ({self.domu_vcpus} vCPUs, xl create) runs the load"
            if self.domain == "dom0" and self.load_domain == "domu"
            else ""
        )
        what = {
            "dom0": f"Linux Dom0 ({self.kernel} kernel, {self.dom0_vcpus} vCPUs){beside}",
            "domu": f"Linux DomU ({self.kernel} kernel, {self.domu_vcpus} vCPUs, xl create)",
            "dom0less": f"A53 suite as a dom0less guest ({self.domu_vcpus} vCPUs)",
        }[self.domain]
        return f"Xen 4.17 on QEMU virt ({self.cpus} CPUs): {what} (emulated)"


@dataclass
class Scenario:
    name: str
    path: str
    description: str = ""
    probe: Probe = field(default_factory=Probe)
    load: Load = field(default_factory=Load)
    warmup_ns: int = 1_000_000_000
    duration_ns: int = 10_000_000_000
    repetitions: int = 1
    deadline_ns: int | None = None
    #: also run cyclictest under the same conditions, right after latprobe
    cyclictest: bool = False
    target: Target = field(default_factory=Target)


_TOP_KEYS = {
    "name",
    "description",
    "probe",
    "load",
    "warmup",
    "duration",
    "repetitions",
    "deadline",
    "side_by_side",
    "target",
}
_TARGET_KEYS = {
    "kind",
    "kernel",
    "cpus",
    "memory",
    "rtla",
    "domain",
    "dom0_vcpus",
    "domu_vcpus",
    "load_in",
    "cases",
    "timeout_ms",
}
#: which target keys each kind takes besides kind
_TARGET_KIND_KEYS = {
    "host": set(),
    "qemu-arm64": {"kernel", "cpus", "memory", "rtla"},
    "qemu-baremetal": {"cpus", "memory", "cases", "timeout_ms"},
    "xen": {
        "kernel",
        "cpus",
        "memory",
        "rtla",
        "domain",
        "dom0_vcpus",
        "domu_vcpus",
        "load_in",
        "cases",
        "timeout_ms",
    },
    "amp": {"kernel", "memory", "cases", "timeout_ms"},
}
_PROBE_KEYS = {
    "interval",
    "cpus",
    "policy",
    "priority",
    "mlock",
    "stages",
    "hist_bin",
    "max_samples",
    "dma_latency",
    "explain",
}
_LOAD_KEYS = {"kind", "args", "groups", "fds", "workers", "bytes"}


class _Checker:
    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def fail(self, key: str, problem: str) -> InputError:
        return InputError(self.path, None, f"{key}: {problem}")

    def mapping(self, value: object, key: str, allowed: set[str]) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.fail(key, "must be a mapping (key: value lines)")
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise self.fail(key, f"unknown key {unknown[0]!r}; known: {', '.join(sorted(allowed))}")
        return value

    def duration(self, value: object, key: str, unit: str = "s") -> int:
        try:
            ns = parse_duration_ns(value, unit)
        except ValueError as error:
            raise self.fail(key, str(error)) from None
        if ns <= 0:
            raise self.fail(key, "must be positive")
        return ns

    def integer(self, value: object, key: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(key, f"must be a whole number from {lo} to {hi}, not {value!r}")
        return value

    def boolean(self, value: object, key: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {value!r}")
        return value

    def choice(self, value: object, key: str, choices: tuple[str, ...]) -> str:
        if value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}, not {value!r}")
        return str(value)


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate one scenario file."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text())
    except OSError as error:
        raise InputError(str(path), None, f"cannot read: {error.strerror}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise InputError(str(path), line, f"not valid YAML: {error}") from None
    c = _Checker(path)
    top = c.mapping(raw, "scenario", _TOP_KEYS)
    if not top:
        raise c.fail("scenario", "the file is empty")
    name = top.get("name", path.stem)
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise c.fail("name", "use letters, digits, '-', '_' and '.' only")
    s = Scenario(name=name, path=str(path), description=str(top.get("description", "")))

    p = c.mapping(top.get("probe"), "probe", _PROBE_KEYS)
    if "interval" in p:
        s.probe.interval_ns = c.duration(p["interval"], "probe.interval", "us")
        if not 10_000 <= s.probe.interval_ns <= 3_600_000_000_000:
            raise c.fail("probe.interval", "must be from 10us to 1h")
    if "cpus" in p:
        cpus = str(p["cpus"])
        if cpus != "all" and not re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", cpus):
            raise c.fail("probe.cpus", f"write all, or CPUs like 0, 0-3 or 1,3 (not {cpus!r})")
        s.probe.cpus = cpus
    if "policy" in p:
        s.probe.policy = c.choice(p["policy"], "probe.policy", POLICIES)
    if "priority" in p:
        s.probe.priority = c.integer(p["priority"], "probe.priority", 1, 99)
    if "mlock" in p:
        s.probe.mlock = c.boolean(p["mlock"], "probe.mlock")
    if "stages" in p:
        s.probe.stages = c.boolean(p["stages"], "probe.stages")
    if "hist_bin" in p:
        s.probe.hist_bin_ns = c.duration(p["hist_bin"], "probe.hist_bin", "ns")
    if "max_samples" in p:
        s.probe.max_samples = c.integer(p["max_samples"], "probe.max_samples", 0, 1_000_000_000)
    if "dma_latency" in p and p["dma_latency"] is not None:
        if p["dma_latency"] == "none":
            s.probe.dma_latency = "none"
        elif isinstance(p["dma_latency"], str):
            raise c.fail(
                "probe.dma_latency", f"give microseconds or none, not {p['dma_latency']!r}"
            )
        else:
            s.probe.dma_latency = c.integer(p["dma_latency"], "probe.dma_latency", 0, 2**31 - 1)
    if "explain" in p and p["explain"] is not None:
        s.probe.explain_ns = c.duration(p["explain"], "probe.explain", "us")

    ld = c.mapping(top.get("load"), "load", _LOAD_KEYS)
    s.load.kind = c.choice(ld.get("kind", "none"), "load.kind", LOAD_KINDS)
    if "args" in ld:
        args = ld["args"]
        if not isinstance(args, list) or not all(isinstance(a, str | int) for a in args):
            raise c.fail("load.args", "must be a list of stress-ng arguments, e.g. [--cpu, '2']")
        s.load.args = [str(a) for a in args]
        if s.load.kind != "stress-ng":
            raise c.fail("load.args", "only for kind stress-ng")
    if s.load.kind == "stress-ng" and not s.load.args:
        raise c.fail("load.args", "stress-ng needs stressors, e.g. [--cpu, '2']")
    if "groups" in ld:
        s.load.groups = c.integer(ld["groups"], "load.groups", 1, 1000)
    if "fds" in ld:
        s.load.fds = c.integer(ld["fds"], "load.fds", 1, 1000)
    if "workers" in ld:
        s.load.workers = c.integer(ld["workers"], "load.workers", 1, 1024)
    if "bytes" in ld:
        s.load.bytes = str(ld["bytes"])
        if not re.fullmatch(r"\d+(%|[KMG])?", s.load.bytes):
            raise c.fail("load.bytes", "write a size like 256M or a share of memory like 25%")

    if "warmup" in top:
        s.warmup_ns = c.duration(top["warmup"], "warmup")
    if "duration" in top:
        s.duration_ns = c.duration(top["duration"], "duration")
    if s.duration_ns < s.probe.interval_ns:
        raise c.fail("duration", "is shorter than one probe interval")
    if "repetitions" in top:
        s.repetitions = c.integer(top["repetitions"], "repetitions", 1, 1000)
    if "deadline" in top and top["deadline"] is not None:
        s.deadline_ns = c.duration(top["deadline"], "deadline", "us")
    if "side_by_side" in top:
        s.cyclictest = c.choice(top["side_by_side"], "side_by_side", ("cyclictest",)) != ""
    t = c.mapping(top.get("target"), "target", _TARGET_KEYS)
    s.target.kind = c.choice(t.get("kind", "host"), "target.kind", TARGET_KINDS)
    _target(c, t, s)
    return s


def _target(c: _Checker, t: dict[str, Any], s: Scenario) -> None:
    """The target: keys valid for its kind, values in range, a load it can run."""
    target = s.target
    kind = target.kind
    foreign = sorted(set(t) - {"kind"} - _TARGET_KIND_KEYS[kind])
    if foreign:
        takes = ", ".join(sorted(_TARGET_KIND_KEYS[kind])) or "nothing besides kind"
        raise c.fail(f"target.{foreign[0]}", f"not for kind {kind} (it takes {takes})")
    if kind == "xen":
        target.cpus, target.memory_mib = 4, 2048
    if kind == "amp":
        target.cpus, target.memory_mib = 4, 2048
    if "kernel" in t:
        target.kernel = c.choice(t["kernel"], "target.kernel", GUEST_KERNELS)
    if "cpus" in t:
        target.cpus = c.integer(t["cpus"], "target.cpus", 1, 8)
    if "memory" in t:
        target.memory_mib = c.integer(t["memory"], "target.memory", 256, 8192)
    if "rtla" in t:
        target.rtla = c.boolean(t["rtla"], "target.rtla")
    if "domain" in t:
        target.domain = c.choice(t["domain"], "target.domain", XEN_DOMAINS)
    if "dom0_vcpus" in t:
        target.dom0_vcpus = c.integer(t["dom0_vcpus"], "target.dom0_vcpus", 1, 8)
    if "domu_vcpus" in t:
        target.domu_vcpus = c.integer(t["domu_vcpus"], "target.domu_vcpus", 1, 8)
    if "load_in" in t:
        target.load_in = c.choice(t["load_in"], "target.load_in", ("dom0", "domu"))
        if target.domain == "dom0less":
            raise c.fail("target.load_in", "only when Linux measures (domain: dom0 or domu)")
    if "timeout_ms" in t:
        target.timeout_ms = c.integer(t["timeout_ms"], "target.timeout_ms", 1, 600_000)
    if "cases" in t:
        cases = t["cases"]
        if not isinstance(cases, list) or not cases:
            raise c.fail("target.cases", "a list of the suite's cases, e.g. [caches-on, nested]")
        from latmon.firmware import timer_suite_cases  # the names' one home: the image

        for case in cases:
            c.choice(case, "target.cases", timer_suite_cases())
        target.cases = [str(x) for x in cases]
    if kind == "xen" and target.domain != "dom0less":
        if "cases" in t or "timeout_ms" in t:
            raise c.fail("target.cases", "only when the suite measures (domain: dom0less)")
        with_domu = target.domain == "domu" or target.load_domain == "domu"
        used = target.dom0_vcpus + (target.domu_vcpus if with_domu else 0)
        if used > target.cpus:
            raise c.fail(
                "target.cpus",
                f"{used} vCPUs pinned 1:1 need {used} physical CPUs; the machine has {target.cpus}",
            )
    if kind == "xen" and target.domain == "dom0less" and target.domu_vcpus > target.cpus:
        raise c.fail("target.domu_vcpus", f"more vCPUs than the machine's {target.cpus} CPUs")
    if kind == "host":
        return
    carrier = kind == "xen" and target.domain == "dom0" and target.load_domain == "domu"
    if carrier and s.load.kind == "none":
        raise c.fail(
            "target.load_in",
            "the DomU beside a measuring Dom0 only carries the load: give one (load.kind)",
        )
    if target.runs_suite and kind != "amp" and s.load.kind != "none":
        raise c.fail("load.kind", f"the bare-metal suite ({kind}) runs no load: write none")
    if s.load.kind not in ("none", "stress-ng"):
        raise c.fail("load.kind", "a QEMU guest has none or stress-ng (its initramfs has no more)")
