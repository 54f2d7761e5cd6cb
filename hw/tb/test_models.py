"""The two reference models of latmon_core agree (they were written independently)."""

from __future__ import annotations

import random

import pytest
from latmon_tb import random_stimulus, waveform
from model.latmon_core_model import core_model
from model.latmon_model import core_cycle_model


def levels(stim_changes, length: int) -> tuple[list[int], list[int]]:
    irq, ack = [0] * length, [0] * length
    cur_irq = cur_ack = 0
    changes = dict((c, (i, a)) for c, i, a in stim_changes)
    for c in range(length):
        if c in changes:
            i, a = changes[c]
            cur_irq = cur_irq if i is None else i
            cur_ack = cur_ack if a is None else a
        irq[c], ack[c] = cur_irq, cur_ack
    return irq, ack


@pytest.mark.parametrize(("seed", "cnt_width", "timeout"), [(1, 32, 0), (2, 32, 150), (3, 6, 0)])
def test_event_model_equals_cycle_model(seed: int, cnt_width: int, timeout: int) -> None:
    stim = random_stimulus(random.Random(seed), 3000, long_gap=(timeout or 300) + 20)
    changes = waveform(stim)
    length = changes[-1][0] + (timeout or 300) + 50
    irq, ack = levels(changes, length)
    a = core_model(stim.irq, stim.ack, cnt_width, timeout, end_cycle=length - 1)
    b = core_cycle_model(irq, ack, timeout=timeout, cnt_width=cnt_width)
    assert a == b
    assert len(a) > 3000
