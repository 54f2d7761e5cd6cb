"""`latmon run`: scenario validation, interleaving, load handling, clean stop, no orphans.

The runs are real (latprobe, stress-ng) and short; nothing here asserts a latency value.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from latmon.campaign.scenario import load_scenario
from latmon.campaign.steps import cyclictest_command, cyclictest_dma_latency, interleave
from latmon.errors import InputError
from latmon.inputs.runfile import read_run

ROOT = Path(__file__).resolve().parents[1]
QUICK_PROBE = "probe: {policy: other, mlock: false, interval: 1ms}\n"


def scenario(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\n{body}")
    return path


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("duration: ten\n", "duration: 'ten' is not a duration"),
        ("duration: 0s\n", "duration: must be positive"),
        ("repetitions: 0\n", "repetitions: must be a whole number from 1 to 1000"),
        ("probe: {priority: 120}\n", "probe.priority: must be a whole number from 1 to 99"),
        ("probe: {policy: batch}\n", "probe.policy: must be one of fifo, rr, other"),
        ("probe: {interval: 5us}\n", "probe.interval: must be from 10us to 1h"),
        ("probe: {cpus: 'one'}\n", "probe.cpus: write all, or CPUs like"),
        ("probe: {frequency: 2}\n", "probe: unknown key 'frequency'"),
        ("probe: {dma_latency: soon}\n", "probe.dma_latency: give microseconds or none"),
        ("probe: {dma_latency: -1}\n", "probe.dma_latency: must be a whole number from 0"),
        ("probe: {explain: 0ms}\n", "probe.explain: must be positive"),
        ("load: {kind: stress-ng}\n", "load.args: stress-ng needs stressors"),
        ("load: {kind: fork-bomb}\n", "load.kind: must be one of none, stress-ng"),
        ("load: {kind: none, args: [--cpu, '1']}\n", "load.args: only for kind stress-ng"),
        ("load: {kind: memory, bytes: lots}\n", "load.bytes: write a size like 256M"),
        ("side_by_side: perf\n", "side_by_side: must be one of cyclictest"),
        ("colour: blue\n", "scenario: unknown key 'colour'"),
        ("target: {kind: board}\n", "target.kind: must be one of host, qemu-arm64"),
        ("target: {kind: qemu-arm64, kernel: lowlatency}\n", "target.kernel: must be one of"),
        ("target: {kind: qemu-arm64, cpus: 0}\n", "target.cpus: must be a whole number"),
        ("target: {kernel: rt}\n", "target.kernel: not for kind host"),
        ("target: {kind: qemu-arm64, domain: dom0}\n", "target.domain: not for kind qemu-arm64"),
        ("target: {kind: xen, domain: domX}\n", "target.domain: must be one of dom0, domu"),
        (
            "target: {kind: xen, domain: domu, cpus: 3}\n",
            "target.cpus: 4 vCPUs pinned 1:1 need 4 physical CPUs",
        ),
        ("target: {kind: xen, domain: dom0less, load_in: dom0}\n", "target.load_in: only when"),
        (
            "target: {kind: xen, domain: dom0, load_in: domu}\n",
            "target.load_in: the DomU beside a measuring Dom0 only carries the load",
        ),
        (
            "target: {kind: xen, domain: dom0, load_in: domu, cpus: 3}\n"
            "load: {kind: stress-ng, args: [--cpu, '1']}\n",
            "target.cpus: 4 vCPUs pinned 1:1 need 4 physical CPUs",
        ),
        ("target: {kind: xen, domain: dom0, cases: [nested]}\n", "target.cases: only when"),
        ("target: {kind: qemu-baremetal, cases: [reboot]}\n", "target.cases: must be one of"),
        ("target: {kind: qemu-baremetal, cases: []}\n", "target.cases: a list of the suite"),
        ("target: {kind: amp, cpus: 8}\n", "target.cpus: not for kind amp"),
        (
            "target: {kind: qemu-baremetal}\nload: {kind: stress-ng, args: [--cpu, '1']}\n",
            "load.kind: the bare-metal suite (qemu-baremetal) runs no load",
        ),
        (
            "target: {kind: qemu-arm64}\nload: {kind: hackbench}\n",
            "load.kind: a QEMU guest has none or stress-ng",
        ),
        ("duration: [\n", "not valid YAML"),
    ],
)
def test_bad_scenarios_name_the_key(tmp_path: Path, body: str, message: str) -> None:
    path = scenario(tmp_path, "bad", body)
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    assert str(path) in str(caught.value)
    assert message in str(caught.value)


def test_shipped_scenarios_are_valid() -> None:
    names = set()
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        s = load_scenario(path)
        names.add(s.name)
        assert s.deadline_ns == 3_000_000, path  # the IEC 61850 budget of the studies
    assert {"idle", "cpu-stress", "many-stressors", "hackbench", "memory", "side-by-side"} <= names
    side = load_scenario(ROOT / "scenarios" / "cyclictest-side-by-side.yaml")
    assert side.cyclictest and side.load.kind == "stress-ng"
    for kernel in ("std", "rt"):
        for load in ("idle", "stress"):
            s = load_scenario(ROOT / "scenarios" / f"qemu-arm64-{kernel}-{load}.yaml")
            assert s.target.kind == "qemu-arm64" and s.target.kernel == kernel
            assert s.cyclictest and s.load.kind == ("none" if load == "idle" else "stress-ng")


def test_hypervisor_campaign_scenarios() -> None:
    """The six configurations of the hypervisor and AMP campaign (and the suite as a Xen guest,
    Dom0 beside a stressed DomU): each one a file, each measuring where it says, the stress of
    the DomU case in Dom0 and of the Dom0 case in a DomU."""
    found = {
        s.name: s
        for s in (load_scenario(p) for p in sorted((ROOT / "scenarios").glob("hv-*.yaml")))
    }
    kinds = {name: (s.target.kind, s.target.domain) for name, s in found.items()}
    assert kinds == {
        "hv-baremetal": ("qemu-baremetal", "domu"),
        "hv-linux": ("qemu-arm64", "domu"),
        "hv-xen-dom0": ("xen", "dom0"),
        "hv-xen-dom0-domu-stress": ("xen", "dom0"),
        "hv-xen-domu": ("xen", "domu"),
        "hv-xen-domu-dom0-stress": ("xen", "domu"),
        "hv-xen-dom0less": ("xen", "dom0less"),
        "hv-amp": ("amp", "domu"),
    }
    stress = found["hv-xen-domu-dom0-stress"]
    idle = found["hv-xen-domu"]
    assert stress.target.load_domain == "dom0" and stress.load.kind == "stress-ng"
    assert idle.load.kind == "none"
    # the idle and stressed DomU differ in the stress only
    assert (stress.probe, stress.duration_ns, stress.target.kernel) == (
        idle.probe,
        idle.duration_ns,
        idle.target.kernel,
    )
    # and the other way round: Dom0 measures, the DomU beside it carries the stress
    dom0_stress, dom0 = found["hv-xen-dom0-domu-stress"], found["hv-xen-dom0"]
    assert dom0_stress.target.load_domain == "domu" and dom0.load.kind == "none"
    assert (dom0_stress.probe, dom0_stress.duration_ns) == (dom0.probe, dom0.duration_ns)
    assert dom0_stress.load == stress.load
    # the same suite cases alone, as a Xen guest and next to Linux
    suite = ("hv-baremetal", "hv-xen-dom0less", "hv-amp")
    assert len({tuple(found[n].target.cases) for n in suite}) == 1
    assert all(found[n].target.runs_suite for n in suite)


@pytest.mark.parametrize(
    ("value", "probe_args", "cyclictest_args"),
    [
        ("null", [], []),  # the tools' defaults: both hold 0 µs as root
        ("0", ["--dma-latency", "0"], ["--latency=0"]),
        ("20", ["--dma-latency", "20"], ["--latency=20"]),
        ("none", ["--dma-latency", "none"], ["--default-system"]),
    ],
)
def test_dma_latency_is_the_same_for_both_tools(
    tmp_path: Path, value: str, probe_args: list[str], cyclictest_args: list[str]
) -> None:
    s = load_scenario(scenario(tmp_path, "dma", f"probe: {{dma_latency: {value}}}\n"))
    args = s.probe.args()
    assert [a for a in args if a in ("--dma-latency", "0", "20", "none")] == probe_args
    cmd = cyclictest_command(s, tmp_path / "c.json")
    assert [a for a in cmd if a.startswith(("--latency", "--default-system"))] == cyclictest_args


def test_cyclictest_dma_latency_is_read_from_its_output() -> None:
    assert cyclictest_dma_latency("# /dev/cpu_dma_latency set to 0us\nT: 0 ...") == "0"
    assert cyclictest_dma_latency("# /dev/cpu_dma_latency set to 20us\n") == "20"
    # not root, or --default-system: it says nothing of the kind
    assert cyclictest_dma_latency("WARN: open /dev/cpu_dma_latency: Permission denied\n") == "none"


def test_explain_reaches_latprobe(tmp_path: Path) -> None:
    s = load_scenario(scenario(tmp_path, "explain", "probe: {explain: 500us}\n"))
    args = s.probe.args()
    assert args[args.index("--explain") + 1] == "500000ns"


def test_repetitions_are_interleaved(tmp_path: Path) -> None:
    a = load_scenario(scenario(tmp_path, "a", "repetitions: 3\n"))
    b = load_scenario(scenario(tmp_path, "b", "repetitions: 2\n"))
    order = [(s.scenario.name, s.repetition) for s in interleave([a, b])]
    assert order == [("a", 1), ("b", 1), ("a", 2), ("b", 2), ("a", 3)]
    assert [s.order for s in interleave([a, b])] == [1, 2, 3, 4, 5]


def group_members(campaign: str) -> list[str]:
    """Live load processes of a campaign: the runner marks their environment with its folder."""
    marker = f"LATMON_CAMPAIGN={Path(campaign).resolve()}".encode()
    out = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            environ = (proc / "environ").read_bytes().split(b"\0")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
        if marker in environ and state != "Z":
            out.append(f"{proc.name}: {cmdline}")
    return out


def test_campaign_runs_interleaved_with_load_and_leaves_nothing(
    latmon_cli: Path, tmp_path: Path
) -> None:
    idle = scenario(tmp_path, "quiet", QUICK_PROBE)
    busy = scenario(tmp_path, "busy", QUICK_PROBE + "load: {kind: stress-ng, args: [--cpu, '1']}\n")
    out = tmp_path / "campaign"
    proc = subprocess.run(
        [
            str(latmon_cli),
            "run",
            str(idle),
            str(busy),
            "-o",
            str(out),
            "--repetitions",
            "2",
            "--duration",
            "1s",
            "--warmup",
            "0.3s",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert json.loads(proc.stdout) == manifest  # --json: the manifest on stdout
    assert [(s["scenario"], s["repetition"]) for s in manifest["steps"]] == [
        ("quiet", 1),
        ("busy", 1),
        ("quiet", 2),
        ("busy", 2),
    ]
    assert not manifest["interrupted"]
    for step in manifest["steps"]:
        (name,) = step["run_files"]
        run = read_run(out / name)
        assert run.meta["scenario"] == step["scenario"]
        assert run.meta["repetition"] == str(step["repetition"])
        assert run.meta["campaign_order"] == str(step["order"])
        assert run.meta["env.kernel"] == os.uname().release
        assert run.meta["load"] == ("none" if step["scenario"] == "quiet" else "stress-ng --cpu 1")
        assert run.meta["source"] == "latprobe" and run.series
    assert group_members(str(out)) == [], "a load process outlived the campaign"


def test_ctrl_c_keeps_what_was_measured_and_stops_the_load(
    latmon_cli: Path, tmp_path: Path
) -> None:
    busy = scenario(tmp_path, "busy", QUICK_PROBE + "load: {kind: stress-ng, args: [--cpu, '1']}\n")
    out = tmp_path / "campaign"
    proc = subprocess.Popen(
        [
            str(latmon_cli),
            "run",
            str(busy),
            "-o",
            str(out),
            "--repetitions",
            "3",
            "--duration",
            "20s",
            "--warmup",
            "0.2s",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Inside the first measurement: the load is up (the runner starts it first; on a loaded
    # machine that can take seconds), then latprobe has had time for well over 100 samples.
    deadline = time.monotonic() + 60.0
    while not group_members(str(out)):
        assert proc.poll() is None and time.monotonic() < deadline, "the load should be running"
        time.sleep(0.2)
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["interrupted"]
    (step,) = manifest["steps"]
    assert step["interrupted"]
    run = read_run(out / step["run_files"][0])
    assert run.meta["interrupted"] == "1"  # latprobe's own mark: it stopped on the signal
    assert sum(len(s.latency) for s in run.series) > 100  # what was measured is kept
    assert group_members(str(out)) == []


def test_killed_runner_takes_its_load_along(latmon_cli: Path, tmp_path: Path) -> None:
    busy = scenario(tmp_path, "busy", QUICK_PROBE + "load: {kind: stress-ng, args: [--cpu, '1']}\n")
    out = tmp_path / "campaign"
    proc = subprocess.Popen(
        [
            str(latmon_cli),
            "run",
            str(busy),
            "-o",
            str(out),
            "--duration",
            "20s",
            "--warmup",
            "0.2s",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started = time.monotonic() + 60  # a loaded machine starts the runner slowly: wait for it
    while not group_members(str(out)) and time.monotonic() < started and proc.poll() is None:
        time.sleep(0.1)
    assert group_members(str(out))
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while group_members(str(out)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(str(out)) == [], "orphans after the runner was killed"


def test_a_failing_load_is_an_error_not_a_quiet_measurement(
    latmon_cli: Path, tmp_path: Path
) -> None:
    bad = scenario(
        tmp_path, "bad", QUICK_PROBE + "load: {kind: stress-ng, args: [--no-such-stressor, '1']}\n"
    )
    proc = subprocess.run(
        [str(latmon_cli), "run", str(bad), "-o", str(tmp_path / "c"), "--duration", "1s"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "the load (stress-ng" in proc.stderr and "exited with status" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_run_arguments(latmon_cli: Path, tmp_path: Path) -> None:
    good = scenario(tmp_path, "good", QUICK_PROBE)
    cases = [
        (["run"], "Missing argument"),
        (["run", str(good)], "Missing option '-o'"),
        (["run", str(tmp_path / "none.yaml"), "-o", "x"], "cannot read"),
        (["run", str(good), str(good), "-o", "x"], "two scenarios are named 'good'"),
        (["run", str(good), "-o", "x", "--duration", "soon"], "is not a duration"),
        (["run", str(good), "-o", "x", "--latprobe", "/nonexistent"], "not an executable"),
    ]
    for args, message in cases:
        proc = subprocess.run(
            [str(latmon_cli), *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 2, args
        assert message in proc.stderr, (args, proc.stderr)
        assert "Traceback" not in proc.stderr
