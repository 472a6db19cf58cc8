"""The closing-note tables of issue 13: ``python -m benchmarks.solve_table`` (status, VP, bound,
gap, time to best per deal) and ``python -m benchmarks.vs_mcts`` (solve's VP against the fair
MCTS's), each on one deal with a tiny budget."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import nrpa_settings, prove_from, solve_table, vs_mcts
from solver.bounds.bound import make_bound
from solver.bounds.cpsat.bound import BoundPolicy, CpsatBound
from solver.solve import SolveConfig


def test_deals_are_selected_by_id_or_by_trials_and_hands() -> None:
    ids = [d.id for d in solve_table.select_deals("t1-h1, t2-h3-s4", "1", "1", seed=7)]
    assert ids == ["t1-h1-s7", "t2-h3-s4"]
    grid = solve_table.select_deals(None, "1,2,3,4,5,6", "1,2,3,4", seed=0)
    assert len(grid) == 24 and grid[0].id == "t1-h1-s0" and grid[-1].id == "t6-h4-s0"
    for bad in ("t1", "t1-h5", "x1-h1", "t1-h1-x2", "t1-hd"):
        with pytest.raises(ValueError, match="--deals"):
            solve_table.select_deals(bad, "1", "1", seed=0)
    for trials, hands, option in (("1", "5", "--hands"), ("x", "1", "--trials")):
        with pytest.raises(ValueError, match=option):
            solve_table.select_deals(None, trials, hands, seed=0)


def test_a_deal_id_may_name_the_draw_10_keep_6_hand() -> None:
    """``t7-hdraw-s58`` deals 10 cards to keep 6 (RULES.md section 3), as ``heritage solve
    --trial 7 --hand draw --seed 58``: the game's first decision is the keep."""
    [named] = solve_table.select_deals("t7-hdraw-s58", "", "", seed=0)
    [grid] = solve_table.select_deals(None, "7", "draw", seed=58)
    assert named == grid and named.id == "t7-hdraw-s58" and named.hand == "draw"
    root = named.root()
    assert len(root.hand) == 10


def test_solve_table_prints_json_rows_and_appends_them_to_out(
        tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "rows.jsonl"
    assert solve_table.main(["--deals", "t4-h4", "--time-limit", "1", "--workers", "1",
                             "--json", "--out", str(out)]) == 0
    printed = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    written = [json.loads(x) for x in out.read_text().splitlines()]
    assert printed == written and len(written) == 1
    row = written[0]
    assert row["deal"] == "t4-h4-s0" and row["time_limit"] == 1.0
    assert row["status"] in ("FEASIBLE", "UNKNOWN", "OPTIMAL", "INFEASIBLE")
    for k in ("vp", "bound", "gap", "time_to_best", "nodes_per_second", "failed_vp"):
        assert k in row
    assert solve_table.main(["--deals", "t4-h4", "--time-limit", "0.5", "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].split()[:6] == ["deal", "status", "VP", "bound", "gap", "t_best"]
    assert "t4-h4-s0" in text and text.splitlines()[-1].startswith("won ")


def test_the_flag_is_solve_below_mcts_plus_15_percent() -> None:
    assert doctest.testmod(vs_mcts).failed == 0
    assert vs_mcts.flagged(57.4, 50) and not vs_mcts.flagged(57.5, 50)
    assert not vs_mcts.flagged(0, -10) and vs_mcts.flagged(-9, -10)


def test_vs_mcts_compares_a_deal_with_reused_solve_rows(tmp_path: Path, capsys: Any) -> None:
    pytest.importorskip("pyspiel",
                        reason="open-spiel is not installed (pip install 'heritage[bench]')")
    rows = tmp_path / "solve.jsonl"
    rows.write_text(json.dumps({"deal": "t4-h4-s0", "trial": 4, "hand": "4", "seed": 0,
                                "time_limit": 0.5, "status": "FEASIBLE", "vp": 1.0,
                                "time_to_best": 0.1}) + "\n")
    out = tmp_path / "vs.jsonl"
    assert vs_mcts.main(["--deals", "t4-h4", "--time-limit", "0.5", "--solve-json", str(rows),
                         "--binary", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "t4-h4-s0" in text and "below MCTS + 15%" in text
    row = json.loads(out.read_text())
    assert row["solve_vp"] == 1.0 and row["mcts_budget"] == 0.5
    assert "mcts_binary_vp" in row and row["mcts_simulations"] >= 2
    assert row["flagged"] == (row["mcts_vp"] is not None and 1.15 * row["mcts_vp"] > 1.0)


def test_nrpa_settings_parse_and_reject_clearly() -> None:
    got = nrpa_settings.parse_settings("2x30, 3x15,2x30-60")
    assert [s.name for s in got] == ["2x30", "3x15", "2x30-60"]
    assert got[2] == nrpa_settings.Setting(2, 60, 30)
    for bad in ("2", "2x", "0x30", "2x0", "2x0-30", "x30"):
        with pytest.raises(ValueError, match="--settings"):
            nrpa_settings.parse_settings(bad)


def test_nrpa_settings_runs_are_deterministic_and_read_at_checkpoints(
        tmp_path: Path, capsys: Any) -> None:
    """Two settings on one deal with a tiny node limit: the JSON rows, the same again on a
    second run (node limits: no machine in the result), and the VP at a checkpoint is the
    history's last value within it."""
    out = tmp_path / "runs.jsonl"
    args = ["--deals", "t4-h4", "--nodes", "3000", "--settings", "1x5,1x2-5", "--json"]
    assert nrpa_settings.main([*args, "--out", str(out)]) == 0
    first = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert nrpa_settings.main(args) == 0
    again = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert first == again == [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["setting"] for r in first] == ["1x5", "1x2-5"]
    for row in first:
        assert row["nodes"] >= 3000 and row["playouts"] >= 1
        steps = [v for _, v in row["history"]]
        assert steps == sorted(set(steps))  # improvements only
        if row["history"]:
            n, v = row["history"][0]
            assert nrpa_settings.vp_at(row, n - 1) is None and nrpa_settings.vp_at(row, n) == v
            assert row["vp"] == row["history"][-1][1]
    assert nrpa_settings.main(["--deals", "t4-h4", "--nodes", "2000", "--settings", "1x3"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].startswith("setting") and "t4-h4-s0" in text


def test_prove_from_with_a_node_budget_is_deterministic(tmp_path: Path, capsys: Any) -> None:
    """``python -m benchmarks.prove_from --node-limit``: the proof horizon with a budget in
    nodes (the same answer on every machine): session 8's line of t1-h1 is proven from the
    start of the last turn, with the same node count twice."""
    lines = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session8-t60.jsonl"
    runs = []
    for k in range(2):
        out = tmp_path / f"proof{k}.json"
        assert prove_from.main(["--lines", str(lines), "--deals", "t1-h1-s0", "--from-turn",
                                "16", "--down-to", "16", "--bound", "simple", "--node-limit",
                                "5000", "--json", str(out)]) == 0
        runs.append(json.loads(out.read_text()))
    assert runs[0][0]["earliest"] == 16
    assert runs[0][0]["rows"][0]["nodes"] <= 5000
    assert [r["rows"][0]["nodes"] for r in runs[0]] == [r["rows"][0]["nodes"] for r in runs[1]]
    assert "5,000 nodes a position" in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["0", "-5", "many"])
def test_prove_from_rejects_a_bad_node_limit_in_one_line(bad: str, capsys: Any) -> None:
    with pytest.raises(SystemExit) as stop:
        prove_from.main(["--node-limit", bad])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "error: argument --node-limit:" in err[-1]


def test_prove_from_policy_sets_bound_policy_fields() -> None:
    """``--policy FIELD=VALUE``: a `BoundPolicy` field; budgets in deterministic seconds,
    ``none`` where the field may be None."""
    pol = prove_from.policy_of(["gap_calls=7", "node=1.5", "budget=3", "calls=none"])
    assert pol.gap_calls == 7 and pol.node.max_deterministic_time == 1.5
    assert pol.budget == 3.0 and pol.calls is None
    assert pol.root == BoundPolicy().root  # untouched fields keep their defaults


@pytest.mark.parametrize(("argv", "says"), [
    (["--policy", "wide=1"], "expected FIELD=VALUE with FIELD one of root, near_root"),
    (["--policy", "gap_calls=many"], "'many' is not a value for gap_calls"),
    (["--policy", "budget=none"], "'none' is not a value for budget"),
    (["--bound", "simple", "--policy", "budget=1"], "--policy: only with --bound cpsat"),
])
def test_prove_from_rejects_a_bad_policy_in_one_line(argv: list[str], says: str,
                                                     capsys: Any) -> None:
    with pytest.raises(SystemExit) as stop:
        prove_from.main(argv)
    assert stop.value.code == 2
    assert says in capsys.readouterr().err.strip().splitlines()[-1]


def test_a_bound_policy_is_for_the_cpsat_bound_only() -> None:
    """`SolveConfig.bound_policy` and `make_bound`'s policy: the cpsat bound takes it as it is;
    the simple bound has no policy, so one given with it is a mistake, said at once."""
    pol = BoundPolicy(gap_calls=7)
    made = make_bound("cpsat", policy=pol)
    assert isinstance(made, CpsatBound) and made.policy is pol
    with pytest.raises(ValueError, match="for the cpsat bound"):
        make_bound("simple", policy=pol)
    with pytest.raises(ValueError, match="bound_policy is for bound='cpsat'"):
        SolveConfig(bound="simple", bound_policy=pol)
    assert SolveConfig(bound="cpsat", bound_policy=pol).bound_policy is pol
