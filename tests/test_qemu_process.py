"""QEMU never outlives what started it (latmon.campaign.qemu): killed with the caller on
SIGTERM, SIGINT and SIGKILL, at the time limit, and with `latmon run` when a campaign on an
emulated target is stopped. QEMU runs in its own session, so a signal to the caller's process
group does not reach it: without this, a stopped run left a QEMU running on a shared machine.

The QEMU of the direct tests is a real one, started frozen (-S): it costs no CPU and would run
until killed.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.qemu

FROZEN = ["-M", "virt", "-S", "-nic", "none"]  # a machine that never starts its CPU
GONE_WITHIN_S = 10.0


def qemu_children(pid: int) -> list[int]:
    """QEMU processes whose parent is @pid (alive: zombies count as gone)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            name, rest = (proc / "stat").read_text().rsplit(")", 1)
        except OSError:
            continue
        state, ppid = rest.split()[:2]
        if int(ppid) == pid and state != "Z" and "qemu-system" in name:
            found.append(int(proc.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def wait_for_qemu(caller: subprocess.Popen[str], limit_s: float = 60.0) -> int:
    deadline = time.monotonic() + limit_s
    while not (found := qemu_children(caller.pid)):
        assert caller.poll() is None, f"the caller ended before QEMU ran: {caller.communicate()}"
        assert time.monotonic() < deadline, "QEMU did not start"
        time.sleep(0.02)
    (pid,) = found
    return pid


def assert_gone(pid: int) -> None:
    deadline = time.monotonic() + GONE_WITHIN_S
    while alive(pid):
        assert time.monotonic() < deadline, f"QEMU (pid {pid}) outlived its caller"
        time.sleep(0.05)


def start_caller(tmp_path: Path, timeout_s: float) -> subprocess.Popen[str]:
    script = textwrap.dedent(
        f"""
        import signal
        from pathlib import Path
        from latmon.campaign import qemu
        # Python's own SIGINT handling, even when started with SIGINT ignored (a background job)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        r = qemu.run({FROZEN!r}, Path({str(tmp_path / "qemu")!r}), {timeout_s})
        print("timed_out" if r.timed_out else f"status {{r.status}}", flush=True)
        """
    )
    return subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


@pytest.mark.parametrize(
    ("sig", "status"),
    [
        (signal.SIGTERM, -signal.SIGTERM),  # the default action goes on: ended by the signal
        (signal.SIGINT, -signal.SIGINT),  # KeyboardInterrupt, uncaught: Python ends by SIGINT
        (signal.SIGKILL, -signal.SIGKILL),  # no handler can run: PR_SET_PDEATHSIG
    ],
    ids=["SIGTERM", "SIGINT", "SIGKILL"],
)
def test_qemu_dies_with_its_caller(tmp_path: Path, sig: signal.Signals, status: int) -> None:
    caller = start_caller(tmp_path, timeout_s=300)
    try:
        pid = wait_for_qemu(caller)
        caller.send_signal(sig)
        caller.communicate(timeout=30)
        assert caller.returncode == status
        assert_gone(pid)
    finally:
        caller.kill()
        caller.wait()


def test_qemu_is_killed_at_the_time_limit(tmp_path: Path) -> None:
    caller = start_caller(tmp_path, timeout_s=2)
    try:
        pid = wait_for_qemu(caller)
        out, _ = caller.communicate(timeout=60)
        assert out.strip() == "timed_out"
        assert_gone(pid)
    finally:
        caller.kill()
        caller.wait()


def test_a_signal_handler_of_the_caller_still_runs(tmp_path: Path) -> None:
    """The handler the caller had (here one that raises, as latmon run's does) runs after QEMU
    is killed, and it is in place again once qemu.run returns."""
    script = textwrap.dedent(
        f"""
        import signal
        from pathlib import Path
        from latmon.campaign import qemu

        class Stop(Exception):
            pass

        def handler(signum, frame):
            raise Stop()

        signal.signal(signal.SIGTERM, handler)
        try:
            qemu.run({FROZEN!r}, Path({str(tmp_path / "qemu")!r}), 300)
        except Stop:
            print("stopped", signal.getsignal(signal.SIGTERM) is handler, flush=True)
        """
    )
    caller = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        pid = wait_for_qemu(caller)
        caller.send_signal(signal.SIGTERM)
        out, err = caller.communicate(timeout=30)
        assert out.strip() == "stopped True", err
        assert caller.returncode == 0
        assert_gone(pid)
    finally:
        caller.kill()
        caller.wait()


def test_a_stopped_campaign_on_an_emulated_target_leaves_no_qemu(
    c_binary, latmon_cli: Path, tmp_path: Path
) -> None:
    """`latmon run` of the bare-metal suite on QEMU, sent SIGTERM while QEMU runs: the campaign
    says it was interrupted (status 130) and no QEMU is left."""
    c_binary("examples/suite-a53-virt.img")
    scenario = Path(__file__).resolve().parents[1] / "scenarios" / "hv-baremetal.yaml"
    out = tmp_path / "campaign"
    caller = subprocess.Popen(
        [str(latmon_cli), "run", str(scenario), "-o", str(out), "--repetitions", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pid = wait_for_qemu(caller, limit_s=120)
        caller.send_signal(signal.SIGTERM)
        _, err = caller.communicate(timeout=60)
        assert caller.returncode == 130, err
        assert "interrupted" in err
        assert json.loads((out / "manifest.json").read_text())["interrupted"]
        assert_gone(pid)
    finally:
        caller.kill()
        caller.wait()
