"""The formal proofs of the IP (hw/formal, SymbiYosys): each passes, and a deliberately broken RTL
line makes its proof fail."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "formal"))
from formal import MUTATIONS, PROOFS, mutate, run_proof

RTL = Path(__file__).resolve().parents[1] / "rtl"


@pytest.mark.parametrize("proof", list(PROOFS))
def test_proof_passes(proof: str, tmp_path: Path) -> None:
    result = run_proof(proof, RTL, tmp_path / proof)
    assert result["status"] == "PASS", result
    assert result["how"] == "k-induction", result  # a full proof, not a bounded one


@pytest.mark.parametrize("mutation", list(MUTATIONS))
def test_broken_line_fails_its_proof(mutation: str, tmp_path: Path) -> None:
    proof = MUTATIONS[mutation][3]
    rtl = mutate(mutation, tmp_path / "rtl")
    assert (rtl / MUTATIONS[mutation][0]).read_text() != (RTL / MUTATIONS[mutation][0]).read_text()
    result = run_proof(proof, rtl, tmp_path / proof)
    assert result["status"] == "FAIL", result  # a counterexample, not a timeout or an error
