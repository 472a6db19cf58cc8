"""`benchmarks.compare_trees`: the exact search compared on the same positions in both trees,
and the report's claims about it (a speed-up only where both trees prove the same optimum)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.compare_trees import exact_rows, main

ROOT = Path(__file__).resolve().parents[1]


def _run(proven: bool, value: float, seconds: float) -> dict[str, float]:
    return {"replayed": True, "proven": proven, "value": value, "nodes": 1000,
            "seconds": seconds, "nodes_per_second": 1000 / seconds}


def test_exact_rows_give_the_speed_up_of_one_optimum_proven_in_both() -> None:
    rows = exact_rows({"old": [_run(True, 22, 1.5)] * 3, "new": [_run(True, 22, 0.02)] * 3})
    assert rows[0].startswith("  old: OPTIMAL, value 22, 1,000 nodes, 1.500 s")
    assert rows[-1] == "  the same optimum in both: new proves it 75.0x faster"


@pytest.mark.parametrize(("old", "new"), [
    (_run(False, 19, 40.0), _run(True, 23, 2.0)),   # the old tree did not finish
    (_run(True, 21, 4.0), _run(True, 22, 1.0)),     # two optima: not the same position's
])
def test_exact_rows_claim_no_speed_up_without_one_optimum(
        old: dict[str, float], new: dict[str, float]) -> None:
    rows = exact_rows({"old": [old], "new": [new]})
    assert len(rows) == 2
    assert "faster" not in "\n".join(rows)


def test_a_tree_against_itself_does_the_same_work(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--old", str(ROOT), "--new", str(ROOT), "--runs", "1", "--games", "2",
                 "--nodes", "300", "--exact-nodes", "40", "--exact-turns", "16"])
    out = capsys.readouterr().out
    assert code == 0
    assert "exact search from the start of turn 16" in out
    assert out.count(", value ") == 2 and "not compared" not in out
    assert "on every run (decisions, NRPA nodes and value, exact nodes and values): True" in out
