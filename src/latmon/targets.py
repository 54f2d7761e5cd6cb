"""Campaign steps on the emulated ARM machines beyond a plain Linux guest (docs/target/xen.md,
docs/amp.md): the A53 interrupt suite on QEMU's virt machine without an OS (qemu-baremetal);
Xen with a measuring Linux Dom0, a Linux DomU created by xl (its load in Dom0 or in itself) or
the suite as a dom0less guest (xen); Linux on two cores with the suite on two others, its log in
shared memory (amp).

Every run file is labelled emulated and records where it ran: the hypervisor (``env.hypervisor``:
``none`` or Xen's version as Xen reported it), the vCPU pinning (``env.vcpu_pinning``: what
``xl vcpu-list`` showed while the DomU ran, or how the cores were split) and the kernel
(``env.kernel_version``: the measuring Linux's, ``none (bare metal)`` for the suite).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from latmon import amp, guest, qemu, xen
from latmon.errors import LatmonError
from latmon.runner import (
    Step,
    StepResult,
    _ingest,
    _save,
    _scenario_meta,
    cyclictest_command,
    save_guest_outputs,
)
from latmon.scenario import Scenario

#: the suite's last line on a machine it powers off (board/virt.c)
SUITE_END = re.compile(r"board: exit status (\d+)")
#: the A53 suite as an arm64 Image (make sw-all)
FIRMWARE = Path(__file__).resolve().parents[2] / "build" / "sw" / "examples" / "suite-a53-virt.img"
GUEST_CMDLINE = "quiet loglevel=3 panic=-1 rdinit=/init"
DOMU_CMDLINE = "console=hvc0 quiet loglevel=1 panic=-1 rdinit=/init"


def firmware_image() -> Path:
    if not FIRMWARE.exists():
        raise LatmonError(f"{FIRMWARE} is not built; run 'make sw-all'")
    return FIRMWARE


def suite_bootargs(s: Scenario) -> str:
    """The suite's command line: the cases, the wait for a lost interrupt."""
    words = [f"timeout-ms={s.target.timeout_ms}"]
    if s.target.cases:
        words.insert(0, "cases=" + ",".join(s.target.cases))
    return " ".join(words)


def _common_meta(step: Step, env: dict[str, str]) -> dict[str, str]:
    return {
        **_scenario_meta(step),
        "emulated": "yes",
        "target": step.scenario.target.describe(),
        "env.machine": "aarch64",
        "env.virtualization": "qemu (TCG, emulated)",
        "env.host_cpu_model": env.get("env.cpu_model", "unknown"),
        "env.host_kernel": env.get("env.kernel_version", "unknown"),
    }


def _linux_job(s: Scenario, load: bool) -> str:
    """The measuring Linux's job: load (if it runs there), latprobe, cyclictest, rtla."""
    return guest.measurement_job(
        s.probe.args(),
        s.name,
        s.duration_ns,
        s.warmup_ns,
        (s.load.command(Path("/tmp")) if load and s.load.kind != "none" else None),
        (cyclictest_command(s, Path("/tmp/cyclictest.json")) if s.cyclictest else None),
        (s.probe.priority if s.target.rtla and s.probe.policy != "other" else None),
    )


def _linux_timeout(s: Scenario) -> float:
    """Boots of Xen, Dom0 and a DomU under TCG on a shared host take minutes."""
    seconds = max(1, round(s.duration_ns / 1e9))
    tools = 1 + s.cyclictest + s.target.rtla
    return 900 + (s.warmup_ns / 1e9 + tools * seconds) * 6


def _save_suite_log(
    text: str, step: Step, outdir: Path, meta: dict[str, str], result: StepResult
) -> None:
    """The suite's console as <stem>.log and its run file; its own verdict in the notes."""
    log = outdir / f"{step.stem}.log"
    log.write_text(text)
    result.logs.append(log)
    assert result.notes is not None
    for line in text.splitlines():
        if line.startswith("suite: FAIL") or line.startswith("fault:"):
            result.notes.append(line.strip())
    for run in _ingest(log, result)[:1]:
        result.run_files.append(_save(run, meta, outdir / f"{step.stem}.parquet"))
    if not result.run_files:
        raise LatmonError(
            f"{step.stem}: the suite wrote no readable latmon-log; its console is in {log}"
        )


def running_case(console: str) -> str:
    """Which case of the suite ran last, from its "suite: case NAME" lines (for the message
    of a time limit)."""
    names = re.findall(r"^suite: case (\S+)\s*$", console, re.M)
    return f"in case {names[-1]}" if names else "before its first case"


def run_baremetal_step(step: Step, outdir: Path, env: dict[str, str]) -> StepResult:
    """The suite image on QEMU virt, alone: its own two cores, no OS, no hypervisor."""
    s = step.scenario
    workdir = outdir / f"{step.stem}.qemu"
    args = [
        "-M",
        "virt,gic-version=2",
        "-cpu",
        xen.CPU,
        "-smp",
        str(s.target.cpus),
        "-m",
        str(s.target.memory_mib),
        "-nic",
        "none",
        "-no-reboot",
        "-kernel",
        str(firmware_image()),
        "-append",
        suite_bootargs(s),
    ]
    qr = qemu.run(args, workdir, 600, until=SUITE_END)
    result = StepResult(step, [], [], notes=[])
    if qr.timed_out:
        result.notes = [
            f"the suite did not end within 600 s, {running_case(qr.console)} (console in {workdir})"
        ]
    meta = {
        **_common_meta(step, env),
        "platform": "qemu-virt-cortex-a53",
        "env.hypervisor": "none",
        "env.vcpu_pinning": "none (no OS: the suite runs on CPUs 0 and 1 itself)",
        "env.kernel_version": "none (bare metal)",
        "env.cpus_online": str(s.target.cpus),
    }
    _save_suite_log(qr.console, step, outdir, meta, result)
    return result


def _partition(s: Scenario) -> xen.Partition:
    t = s.target
    with_domu = t.domain == "domu" or t.load_domain == "domu"
    return xen.Partition(
        pcpus=t.cpus,
        memory_mib=t.memory_mib,
        dom0_vcpus=t.dom0_vcpus,
        domu_vcpus=t.domu_vcpus if with_domu else 0,
    )


def _check_load_carrier(run: guest.GuestRun, step: Step, outdir: Path, workdir: Path) -> str:
    """The DomU that carried the load beside a measuring Dom0: keep what it and Dom0 said.
    A load that never ran is an error; one that ended before the measurement did, a note on
    the kept results (returned; empty when all went well)."""
    console = outdir / f"{step.stem}.domu-console.txt"
    for name, path in (("domu-load.txt", outdir / f"{step.stem}.domu-load.txt"),
                       (f"{xen.DOMU_NAME}.console", console)):  # fmt: skip
        if name in run.files:
            path.write_text(run.files[name].text + "\n")
    state = run.files.get("domu-load.txt")
    said = state.text.strip().replace("\n", "; ") if state else "nothing"
    if "latprobe.log" not in run.files:
        raise LatmonError(
            f"{step.stem}: the DomU that carries the load beside Dom0 failed ({said}); "
            f"its console: {console}, QEMU's in {workdir}"
        )
    if state is None or state.status != 0:
        return f"the DomU's load did not run through the whole measurement: {said}"
    return ""


def run_xen_step(step: Step, outdir: Path, env: dict[str, str]) -> StepResult:
    s = step.scenario
    t = s.target
    if t.domain == "dom0less":
        return _run_dom0less(step, outdir, env)
    p = _partition(s)
    workdir = outdir / f"{step.stem}.xen"
    result = StepResult(step, [], [], notes=[])
    images = xen.images()
    try:
        if t.domain == "dom0" and t.load_domain == "domu":
            # Dom0 measures while a DomU on its own pCPUs runs only the load
            load = s.load.command(Path("/tmp"))
            assert load is not None  # the scenario refuses load_in: domu without a load
            carrier = xen.load_carrier_job(load)
            files = xen.domu_files(p, t.kernel, carrier, DOMU_CMDLINE)
            body = (
                xen.load_carrier_start(s.warmup_ns, 300)
                + _linux_job(s, load=False)
                + "run vcpu-list.txt xl vcpu-list\n"
                + xen.load_carrier_stop()
            )
            job = xen.dom0_job(body)
            run = xen.run_dom0(p, t.kernel, job, workdir, _linux_timeout(s), extra_files=files)
            measured = run
            note = _check_load_carrier(run, step, outdir, workdir)
            if note:
                assert result.notes is not None
                result.notes.append(note)
        elif t.domain == "dom0":
            body = _linux_job(s, load=True) + "run vcpu-list.txt xl vcpu-list\n"
            run = xen.run_dom0(p, t.kernel, xen.dom0_job(body), workdir, _linux_timeout(s))
            measured = run
        else:
            domu_job = _linux_job(s, load=t.load_domain == "domu")
            load = s.load.command(Path("/tmp")) if t.load_domain == "dom0" else None
            wait = round(_linux_timeout(s)) - 300
            job = xen.domu_job(p, load if s.load.kind != "none" else None, s.warmup_ns, wait)
            files = xen.domu_files(p, t.kernel, domu_job, DOMU_CMDLINE)
            run = xen.run_dom0(p, t.kernel, job, workdir, _linux_timeout(s), extra_files=files)
            measured = xen.domu_channel(run)
            if "load.txt" in run.files:  # the load ran in Dom0: keep what it said
                (outdir / f"{step.stem}.dom0-load.txt").write_text(run.files["load.txt"].text)
    except (xen.XenError, guest.GuestError) as error:
        raise LatmonError(f"{step.stem}: {error}") from None
    for name in ("xl-info.txt", "vcpu-list.txt", "xl-create.txt"):
        if name in run.files:
            path = outdir / f"{step.stem}.{name}"
            path.write_text(run.files[name].text + "\n")
            result.logs.append(path)
    if measured.done is None:
        raise LatmonError(
            f"{step.stem}: the DomU did not finish its job (Dom0 waited); its console is in "
            f"{outdir / (step.stem + '.xl-create.txt')} and {workdir}"
        )
    meta = {
        **_common_meta(step, env),
        "platform": "qemu-virt-cortex-a53",
        **xen.hypervisor_facts(run),
        "env.xen_domain": t.domain,
        "env.load_domain": t.load_domain if s.load.kind != "none" else "none",
        "guest_kernel": t.kernel,
        "env.kernel_version": measured.info.get("kernel", "unknown"),
        "env.preemption": guest.preemption_model(images.config(t.kernel)),
        "env.cpus_online": measured.info.get("cpus", "unknown"),
    }
    save_guest_outputs(measured.files, step, outdir, meta, result)
    return result


def _run_dom0less(step: Step, outdir: Path, env: dict[str, str]) -> StepResult:
    """The suite image as a guest Xen builds at boot (no Dom0), on its own vCPUs."""
    s = step.scenario
    p = xen.Partition(
        pcpus=s.target.cpus,
        memory_mib=s.target.memory_mib,
        dom0_vcpus=0,
        domu_vcpus=s.target.domu_vcpus,
        domu_memory_mib=64,
    )
    workdir = outdir / f"{step.stem}.xen"
    try:
        qr, console = xen.run_dom0less(
            p, firmware_image(), suite_bootargs(s), workdir, 1200, SUITE_END
        )
    except xen.XenError as error:
        raise LatmonError(f"{step.stem}: {error}") from None
    result = StepResult(step, [], [], notes=[])
    if qr.timed_out:
        result.notes = [
            f"the guest did not end within 1200 s, {running_case(console)} "
            f"(Xen's console in {workdir})"
        ]
    version = re.search(r"Xen version (\S+)", qr.console)
    meta = {
        **_common_meta(step, env),
        "platform": "qemu-virt-cortex-a53",
        "env.hypervisor": f"Xen {version.group(1)}" if version else "Xen (version not seen)",
        "env.xen_scheduler": "credit2",
        "env.xen_cmdline": xen.command_line(p, with_dom0=False),
        "env.xen_pcpus": str(p.pcpus),
        "env.xen_domain": "dom0less",
        "env.vcpu_pinning": (
            f"dom0less guest: {p.domu_vcpus} vCPUs on {p.pcpus} pCPUs, no Dom0; no per-vCPU "
            "affinity (Xen 4.17 sets none for dom0less guests)"
        ),
        "env.kernel_version": "none (bare metal)",
        "env.cpus_online": str(p.domu_vcpus),
    }
    _save_suite_log(console, step, outdir, meta, result)
    return result


def run_amp_step(step: Step, outdir: Path, env: dict[str, str]) -> StepResult:
    """Linux on CPUs 1-2 (load inside), the suite on CPUs 0 and 3 writing its log into shared
    memory, read out by latctl ring in Linux (docs/amp.md)."""
    s = step.scenario
    t = s.target
    workdir = outdir / f"{step.stem}.amp"
    load = s.load.command(Path("/tmp")) if s.load.kind != "none" else None
    job = amp.linux_job(load, s.warmup_ns)
    try:
        run = amp.run(
            t.kernel, firmware_image(), suite_bootargs(s), job, workdir, 1500, t.memory_mib
        )
    except (amp.AmpError, guest.GuestError) as error:
        raise LatmonError(f"{step.stem}: {error}") from None
    result = StepResult(step, [], [], notes=[])
    if "load.txt" in run.files:
        (outdir / f"{step.stem}.load.txt").write_text(run.files["load.txt"].text)
    reader = run.file("ring.txt")
    if reader.status != 0:
        assert result.notes is not None
        result.notes.append(f"latctl ring: {reader.text.strip()} (status {reader.status})")
    meta = {
        **_common_meta(step, env),
        "platform": "qemu-virt-cortex-a53",
        "env.hypervisor": "none",
        "env.vcpu_pinning": (
            "none (no hypervisor): Linux on CPUs 1-2, the suite on CPUs 0 and 3 "
            "(AMP, shared-memory log ring)"
        ),
        "env.kernel_version": "none (bare metal)",
        "env.linux_kernel": run.info.get("kernel", "unknown"),
        "env.linux_load": shlex.join(load) if load else "none",
        "env.cpus_online": "2 (suite) + 2 (Linux)",
    }
    _save_suite_log(run.file("firmware.log").text, step, outdir, meta, result)
    return result


def run_target_step(step: Step, outdir: Path, env: dict[str, str]) -> StepResult:
    kind = step.scenario.target.kind
    if kind == "qemu-baremetal":
        return run_baremetal_step(step, outdir, env)
    if kind == "xen":
        return run_xen_step(step, outdir, env)
    if kind == "amp":
        return run_amp_step(step, outdir, env)
    raise AssertionError(kind)
