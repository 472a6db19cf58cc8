"""``python -m benchmarks.audit_proofs``: the solver's proofs near the end of a real line
against the plain exhaustive search, on the last decisions of one suite line (tiny budget)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import audit_proofs
from solver.rng import Stream

LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session8-t60.jsonl"
DEAL = "t4-h4-s0"


def last_positions(n: int) -> list[Any]:
    """The last `n` decisions' positions of the suite's t4-h4 line (turn 16)."""
    [(_, root, line)] = list(audit_proofs.file_lines(LINES, {DEAL}))
    cuts = list(audit_proofs.positions(root, line, 16, 0, Stream(0, "test", 0)))
    return [pos for _, pos in cuts[-n:]]


def test_positions_are_the_line_from_the_turn_on_then_walks_off_it() -> None:
    [(_, root, line)] = list(audit_proofs.file_lines(LINES, {DEAL}))
    labels = [label for label, _ in audit_proofs.positions(root, line, 16, 2,
                                                           Stream(0, "test", 0))]
    cuts = [x for x in labels if x.startswith("cut")]
    walks = [x for x in labels if x.startswith("walk")]
    assert cuts and labels[:len(cuts)] == cuts and len(walks) == 2  # turn 16: one start
    assert walks[0].split()[1].split(".")[0] == cuts[0].split()[1]  # walks from its start
    starts = [label for label, _ in audit_proofs.positions(root, line, 15, 0,
                                                           Stream(0, "test", 0), True)]
    assert len(starts) == 2 and starts[1] == cuts[0]  # turns 15 and 16


def test_a_position_near_the_end_passes_every_check() -> None:
    row = audit_proofs.audit(last_positions(2)[0], 20_000)
    assert row is not None and row["optimum"] is not None
    assert row["bad"] == []
    assert row["solve_simple"] == ["OPTIMAL", row["optimum"]]
    assert row["solve_cpsat"] == ["OPTIMAL", row["optimum"]]
    assert row["bound_simple"] >= row["optimum"]


def test_the_parallel_solves_are_checked_too() -> None:
    """``--parallel``: each bound's solve in two processes under a time limit, its claims held
    to the same optimum."""
    keys = [key for key, _, cfg in audit_proofs.solve_configs(1_000, 5.0) if cfg.workers == 2]
    assert keys == ["solve_simple_w2", "solve_cpsat_w2"]
    assert all(cfg.time_limit == 5.0 and cfg.node_limit is None
               for _, _, cfg in audit_proofs.solve_configs(1_000, 5.0)[2:])
    row = audit_proofs.audit(last_positions(2)[0], 20_000, parallel=20.0)
    assert row is not None and row["bad"] == []
    assert row["solve_simple_w2"] == ["OPTIMAL", row["optimum"]]
    assert row["solve_cpsat_w2"] == ["OPTIMAL", row["optimum"]]


class LowBound:
    """A bound one VP under every position's score so far: unsound near the end."""

    def upper_bound(self, st: Any) -> float:
        return float(st.score().total) - 1.0


def test_an_unsound_bound_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_proofs, "make_bound", lambda kind: LowBound())
    row = audit_proofs.audit(last_positions(1)[0], 20_000)
    assert row is not None
    assert any("simple bound" in b and "below the optimum" in b for b in row["bad"])


def test_a_search_that_does_not_complete_skips_the_position() -> None:
    [(_, root, line)] = list(audit_proofs.file_lines(LINES, {DEAL}))
    start = next(pos for _, pos in audit_proofs.positions(root, line, 16, 0,
                                                          Stream(0, "test", 0)))
    assert audit_proofs.audit(start, 10) is None


def test_main_prints_rows_and_a_summary(tmp_path: Path, capsys: Any) -> None:
    rows = [r for r in LINES.read_text().splitlines() if json.loads(r)["deal"] == DEAL]
    one = tmp_path / "one.jsonl"
    one.write_text(rows[0] + "\n")
    assert audit_proofs.main(["--lines", str(one), "--walks", "0", "--plain-nodes", "300",
                              "--json"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    summary = out[-1]["summary"]
    assert summary["failed"] == 0 and summary["audited"] == len(out) - 1 >= 1
    assert summary["audited"] + summary["skipped"] >= 3


def test_bad_input_is_a_usage_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"deal": "t1-h1-s0", "line": [1]}\n')  # no trial, hand or seed
    for argv in ([], ["--lines", str(tmp_path / "none.jsonl")], ["--deals", "t9-h9"],
                 ["--lines", str(LINES), "--plain-nodes", "0"], ["--lines", str(junk)]):
        with pytest.raises(SystemExit) as stop:
            audit_proofs.main(argv)
        assert stop.value.code == 2


@pytest.mark.slow
def test_every_proof_near_the_end_of_four_suite_lines_holds(capsys: Any) -> None:
    """The audit on four suite lines (one per trial 1, 3, 5, 6), every decision of turn 16 and
    two walks off each line: no check fails (session 30: 648 positions on 72 lines, none
    failed)."""
    assert audit_proofs.main(["--lines", str(LINES), "--only",
                              "t1-h1-s0,t3-h2-s0,t5-h3-s0,t6-h4-s0", "--walks", "2",
                              "--plain-nodes", "300000", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]
    assert summary["failed"] == 0 and summary["audited"] >= 20
