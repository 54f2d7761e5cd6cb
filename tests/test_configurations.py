"""Configurations side by side (latmon.analysis.configurations): one row per scenario with where it
ran and its headline measurement, computed independently here from the samples."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from latmon.analysis.configurations import configuration_rows
from latmon.model import Run, Series


def series(name: str, values: list[int], unit: str = "ns", clock: int | None = None) -> Series:
    return Series(
        name=name,
        unit=unit,
        clock_hz=clock,
        columns={"latency": np.asarray(values, dtype=np.int64)},
    )


def run(scenario: str, order: int, source: str, *s: Series, **meta: str) -> Run:
    base = {
        "scenario": scenario,
        "campaign_order": str(order),
        "source": source,
        "target": f"where {scenario} ran",
        "emulated": "yes",
        "env.hypervisor": meta.pop("hypervisor", "none"),
        "env.vcpu_pinning": meta.pop("pinning", "none"),
        "env.kernel_version": meta.pop("kernel", "none (bare metal)"),
    }
    return Run(meta={**base, **meta}, series=list(s))


def test_one_row_per_configuration_in_campaign_order() -> None:
    suite = run(
        "bare",
        2,
        "latmon-irq-suite",
        series("caches-on", [3, 5, 4], "cycles", 62_500_000),
        series("wfi-idle", [100, 200], "cycles", 62_500_000),
    )
    domu = run(
        "domu",
        1,
        "latprobe",
        series("cpu0", [1000, 3000]),
        series("cpu1", [2000]),
        hypervisor="Xen 4.17.7",
        pinning="domu v0->p2 (hard 2)",
        kernel="6.1.0-56-arm64",
        **{"env.preemption": "PREEMPT_VOLUNTARY (HZ=250)"},
    )
    cyclic = run("domu", 1, "cyclictest", series("cpu0", [9, 9]), tool="cyclictest")
    host = Run(meta={"scenario": "no-target"}, series=[series("cpu0", [1])])
    rows = configuration_rows([suite, cyclic, domu, host])
    assert [r.scenario for r in rows] == ["domu", "bare"]  # campaign order; no target: left out
    d, b = rows
    # latprobe's CPUs pooled (cyclictest is in the report's other tables)
    assert (d.n, d.median, d.p99, d.max) == (3, 2000, 3000, 3000)
    assert d.measured.startswith("latprobe")
    assert d.hypervisor == "Xen 4.17.7" and d.pinning == "domu v0->p2 (hard 2)"
    assert d.kernel == "6.1.0-56-arm64 (PREEMPT_VOLUNTARY (HZ=250))"
    # the suite's caches-on case in ns: 16 ns per count of a 62.5 MHz counter
    ns = sorted(int(Fraction(v * 1_000_000_000, 62_500_000)) for v in (3, 5, 4))
    assert (b.n, b.median, b.max) == (3, ns[1], ns[2])
    assert "caches-on" in b.measured and b.kernel == "none (bare metal)" and b.emulated


def test_the_report_opens_with_the_configurations_side_by_side() -> None:
    """In the HTML report the configurations come first, before the verdict, with every
    configuration named and the latency columns in a unit that fits them (exact ns kept)."""
    from latmon.report import HtmlReport

    bare = run("bare", 1, "latprobe", series("cpu0", [9_000, 11_000, 10_000]))
    domu = run(
        "domu",
        2,
        "latprobe",
        series("cpu0", [150_000, 250_000, 200_000]),
        hypervisor="Xen 4.17.7",
        pinning="domu v0->p2 (hard 2)",
    )
    page = HtmlReport(deadline_ns=3_000_000).render([bare, domu])
    first = page.index("Configurations side by side")
    assert first < page.index("Deadline")
    section = page[first : page.index("</table>", first)]
    assert "bare [emulated]" in section and "domu [emulated]" in section
    assert "Xen 4.17.7" in section and "domu v0-&gt;p2 (hard 2)" in section
    assert "µs" in section  # medians of 10 µs and 200 µs: scaled, not raw ns


def test_the_caption_is_written_for_the_campaign_that_ran() -> None:
    """A hypervisor campaign's note speaks of Dom0 and DomU; a comparison of kernels with no
    hypervisor (the preemption-model campaign) speaks of kernels and loads, never of domains."""
    from latmon.analysis.configurations import meaning

    xen = configuration_rows(
        [
            run("bare", 1, "latprobe", series("cpu0", [1, 2])),
            run("domu", 2, "latprobe", series("cpu0", [3, 4]), hypervisor="Xen 4.17.7"),
        ]
    )
    kernels = configuration_rows(
        [
            run("std-idle", 1, "latprobe", series("cpu0", [1, 2]), kernel="6.1.0-56-arm64"),
            run("rt-idle", 2, "latprobe", series("cpu0", [3, 4]), kernel="6.1.0-56-rt-arm64"),
        ]
    )
    assert "DomU" in meaning(xen) and "Dom0" in meaning(xen)
    text = meaning(kernels)
    assert "Dom0" not in text and "DomU" not in text and "Xen" not in text
    assert "preemption model" in text and "under stress" in text


def test_no_deadline_verdict_on_emulated_time() -> None:
    """Every run emulated: no pass/fail against the deadline, the reason instead; a run on a
    real machine in the report brings the verdict back."""
    from latmon.report import HtmlReport

    a = run("a", 1, "latprobe", series("cpu0", [9_000_000, 1_000_000]))
    b = run("b", 2, "latprobe", series("cpu0", [2_000_000, 1_000_000]))
    page = HtmlReport(deadline_ns=3_000_000).render([a, b])
    assert "no verdict on emulated time" in page
    assert "miss it" not in page and "meet it" not in page and ">FAIL<" not in page
    real = run("real", 3, "latprobe", series("cpu0", [9_000_000]), emulated="no")
    page = HtmlReport(deadline_ns=3_000_000).render([a, b, real])
    assert "no verdict on emulated time" not in page and "miss it" in page
