"""``heritage bench`` (issue: Benchmarks): the suite as data, the saved positions' proven optima,
the baselines, the checks and summary definitions, the plots, the command line, and the CI smoke
run. Parts that need matplotlib or open-spiel (the optional extra ``bench``) skip without them.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.baselines import RunResult, greedy, greedy_score, random_play
from benchmarks.plots import anytime_curves, profile_curves
from benchmarks.run import (
    CONTENDERS,
    BenchConfig,
    best_known,
    check,
    cross_check,
    ratio,
    summarize,
)
from benchmarks.suite import DEFAULT_SUITE, Instance, SuiteError, load_suite
from cli.app import app
from puzzles.trials import with_trial
from solver.engine.frames import D_ORDER
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import CHEST_BASE, GameState
from solver.game import HeritageGame
from solver.guidance.dominance import prune
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.status import Status
from tests.builder import book

RUNNER = CliRunner(env={"COLUMNS": "160", "NO_COLOR": "1"})
SMALL_PROOF = 5_000  # positions whose proof is at most this many nodes are re-proven here


@lru_cache(maxsize=1)
def suite() -> Any:
    return load_suite()


def inst(iid: str) -> Instance:
    found: Instance = suite().by_id()[iid]
    return found


# ------------------------------------------------------------------ the suite


def test_the_suite_is_trials_by_hands_by_seeds_plus_proven_positions() -> None:
    s = suite()
    assert [i.id for i in s.deals] == [f"t{t}-h{h}-s0" for t in range(1, 7) for h in "1234"]
    assert all(i.kind == "deal" and i.optimum is None for i in s.deals)
    assert len(s.positions) >= 6
    assert {p.trial for p in s.positions} == {1, 2, 3, 4, 5, 6}
    for p in s.positions:
        assert p.kind == "position" and p.optimum is not None and p.file is not None
        root = p.root()
        assert not root.is_terminal() and root.setup.trial == p.trial
    assert s.subsets["core6"] == ("t1-h1-s0", "t2-h2-s0", "t3-h3-s0", "t4-h4-s0", "t5-h1-s0",
                                  "t6-h2-s0")
    smoke = s.select("smoke")
    assert len(smoke) == 4 and {i.kind for i in smoke} == {"deal", "position"}


def test_a_deal_is_dealt_as_heritage_solve_deals_it() -> None:
    """Instance t2-h3-s0 is ``heritage solve --trial 2 --hand 3 --seed 0``."""
    b = book()
    card_sets = tuple(("base", d) for _, d in b.sets)
    expected = new_game(with_trial(Setup(hand="3", seed=0, card_sets=card_sets), 2), b)
    assert inst("t2-h3-s0").root().key() == expected.key()


def test_the_small_positions_optima_are_proven_again() -> None:
    """Each small position's stored optimum is what the exact search proves today, with the
    solver's dominance rules and, for the smallest, without them (plain branch and bound)."""
    small = [p for p in suite().positions if (p.proof_nodes or 0) <= SMALL_PROOF]
    assert len(small) >= 3

    for p in small:
        root = p.root()
        game = HeritageGame()
        res = search(root, SearchConfig(max_nodes=20 * SMALL_PROOF), order=game.order(root, []),
                     game=game)
        assert res.status == Status.OPTIMAL and res.value == p.optimum, p.id
        if (p.proof_nodes or 0) <= 200:
            plain = search(root, SearchConfig(max_nodes=200_000), game=HeritageGame())
            assert plain.status == Status.OPTIMAL and plain.value == p.optimum, p.id


def test_select_by_subset_and_ids_in_suite_order() -> None:
    s = suite()
    got = s.select("core6", ["t6-h2-s0-b8", "t1-h2-s0"])
    assert [i.id for i in got] == ["t1-h1-s0", "t1-h2-s0", "t2-h2-s0", "t3-h3-s0", "t4-h4-s0",
                                   "t5-h1-s0", "t6-h2-s0", "t6-h2-s0-b8"]
    assert len(s.select()) == len(s.instances)
    with pytest.raises(SuiteError, match="--subset: 'nope'"):
        s.select("nope")
    with pytest.raises(SuiteError, match="--instance: 't9-h1-s0'"):
        s.select(None, ["t9-h1-s0"])


def _suite_file(tmp_path: Path, **changes: Any) -> Path:
    data = json.loads(DEFAULT_SUITE.read_text(encoding="utf-8"))
    data.update(changes)
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("changes, words", [
    ({"format": "other"}, ["'format'", "heritage-bench-suite"]),
    ({"version": 2}, ["'version'"]),
    ({"deals": {"trials": [], "hands": ["1"], "seeds": [0]}}, ["'deals.trials'"]),
    ({"deals": {"trials": [1], "hands": ["5"], "seeds": [0]}}, ["'deals.hands'"]),
    ({"positions": [{"id": "x", "file": "x.json", "trial": 1, "seed": 0}]},
     ["'positions[0].optimum'"]),
    ({"subsets": {"smoke": ["t1-h1-s0", "t7-h1-s0"]}}, ["'subsets.smoke'", "t7-h1-s0"]),
    ({"smoke": {"budget": -1}}, ["'smoke.budget'"]),
])
def test_a_bad_suite_file_names_the_field(tmp_path: Path, changes: dict[str, Any],
                                          words: list[str]) -> None:
    path = _suite_file(tmp_path, **changes)
    with pytest.raises(SuiteError) as err:
        load_suite(path)
    for w in words:
        assert w in str(err.value)


def test_a_position_that_no_longer_loads_says_how_to_remake_it(tmp_path: Path) -> None:
    pos = inst("t4-h4-s0-b4")
    assert pos.file is not None
    data = json.loads(pos.file.read_text(encoding="utf-8"))
    data["setup"]["card_sets"][0]["sha256"] = "0" * 64
    (tmp_path / "p.json").write_text(json.dumps(data), encoding="utf-8")
    broken = Instance("p", "position", 4, "4", 0, file=tmp_path / "p.json", optimum=56)
    with pytest.raises(SuiteError, match="--make-positions"):
        broken.root()


# ------------------------------------------------------------------ engine fix found by the bench


def test_dominance_keeps_a_timeline_queue_holding_a_chest_effect() -> None:
    """Regression (found making the bench positions): the Timeline-phase queue may hold a chest
    effect (source CHEST_BASE + k, RULES.md section 9) next to a card's pure draw; dominance
    rule 2 indexed the card book with it (IndexError). Now such a queue is searched in full."""
    b = book()
    card_sets = tuple(("base", d) for _, d in b.sets)
    root = new_game(with_trial(Setup(hand="1", seed=0, card_sets=card_sets), 4), b)
    for g in range(60):
        st = root.clone()
        stream = Stream(g, "bench-test", 0)
        while not st.is_terminal():
            fr = st.stack[-1]
            if fr[0] == D_ORDER and fr[2] and any(c >= CHEST_BASE for c, _ in fr[1]):
                legal = st.legal_actions()
                assert list(prune(st, legal)) == list(legal)
                assert any(st.action_to_string(a).startswith("!chest:") for a in legal)
                return
            legal = st.legal_actions()
            st.apply(legal[stream.below(len(legal))])
    pytest.fail("no Timeline queue with a chest effect in 60 random games of trial 4")


# ------------------------------------------------------------------ baselines


def _replay(root: GameState, line: list[int]) -> GameState:
    st = root.clone()
    for a in line:
        st.apply(a)
    return st


def test_random_play_with_no_time_plays_exactly_one_uniform_game() -> None:
    root = inst("t1-h1-s0").root()
    res = random_play(root, 1e-9, seed=3)
    assert res.extra == {"games": 1}
    stream = Stream(3, "bench-random", 0)
    st = root.clone()
    n = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply(legal[stream.below(len(legal))])
        n += 1
    assert res.nodes == n
    if st.feasible():
        assert res.vp == st.value() and _replay(root, res.line).key() == st.key()
    else:
        assert res.vp is None and res.failed_vp == st.value() and res.status == Status.UNKNOWN


def test_greedy_first_game_takes_the_best_scored_option_at_every_decision() -> None:
    pos = inst("t6-h2-s0-b8")
    root = pos.root()
    res = greedy(root, 1e-9, seed=0)
    assert res.extra == {"games": 1}
    st = root.clone()
    line = []
    while not st.is_terminal():
        scored = []
        for a in st.legal_actions():
            child = st.clone()
            child.apply(a)
            scored.append((greedy_score(child), a))
        top = max(s for s, _ in scored)
        a = next(a for s, a in scored if s == top)  # ties: the first option
        st.apply(a)
        line.append(a)
    assert res.line == line or (res.vp is None and not st.feasible())
    assert res.vp == (st.value() if st.feasible() else None)
    assert check(pos, root, res) == "ok"


@pytest.mark.parametrize("name", ["solve", "exact"])
def test_our_exact_methods_prove_a_small_position(name: str) -> None:
    pos = inst("t4-h4-s0-b4")
    root = pos.root()
    res = CONTENDERS[name](root, 5.0, 0)
    assert res.status == Status.OPTIMAL and res.vp == pos.optimum and res.bound == pos.optimum
    assert check(pos, root, res) == "ok"
    assert res.trace and res.trace[-1][1] == pos.optimum


def test_nrpa_reports_anytime_points_that_rise() -> None:
    pos = inst("t3-h3-s0-b6")
    root = pos.root()
    res = CONTENDERS["nrpa"](root, 0.3, 0)
    assert check(pos, root, res) == "ok"
    vps = [v for _, v in res.trace]
    assert vps == sorted(set(vps)) and (res.vp is None or vps[-1] == res.vp)


# ------------------------------------------------------------------ checks


def _result(vp: float | None, line: list[int], status: Status = Status.FEASIBLE) -> RunResult:
    return RunResult("x", status, vp, line, None, 0.0, len(line), 0.1)


def test_check_flags_a_result_beating_a_proven_optimum_or_a_line_that_does_not_replay() -> None:
    pos = inst("t4-h4-s0-b4")
    root = pos.root()
    best = search(root, SearchConfig(), game=HeritageGame())
    assert best.value == pos.optimum
    assert check(pos, root, _result(best.value, best.line, Status.OPTIMAL)) == "ok"
    forged = Instance(pos.id, pos.kind, pos.trial, pos.hand, pos.seed, pos.file, optimum=50.0)
    assert check(forged, root, _result(best.value, best.line)) == \
        f"{best.value:g} VP beats the proven optimum 50"
    higher = Instance(pos.id, pos.kind, pos.trial, pos.hand, pos.seed, pos.file, optimum=60.0)
    assert check(higher, root, _result(best.value, best.line, Status.OPTIMAL)) == \
        f"claims OPTIMAL at {best.value:g} VP, the proven optimum is 60"
    assert "claims INFEASIBLE" in check(pos, root, _result(None, [], Status.INFEASIBLE))
    assert check(pos, root, _result(55.0, best.line)) == \
        f"its line scores {best.value:g} VP, not the 55 claimed"
    assert check(pos, root, _result(56.0, best.line[:-1])) == "its line does not finish the game"
    assert check(pos, root, _result(56.0, [123456])).startswith("its line does not replay")


# ------------------------------------------------------------------ summary and plots


def _rec(instance: str, solver: str, vp: int | None, status: str = "FEASIBLE",
         trace: list[list[float]] | None = None, budget: float = 10.0) -> dict[str, Any]:
    return {"instance": instance, "solver": solver, "budget": budget, "vp": vp,
            "goals_met": vp is not None, "status": status, "time_to_best": 1.0 if vp else None,
            "nodes": 100, "seconds": 10.0, "check": "ok", "known_optimum": None,
            "trace": trace if trace is not None else ([[1.0, vp]] if vp is not None else [])}


SYNTH = [_rec("a", "p", 40), _rec("a", "q", 20), _rec("b", "p", None),
         _rec("b", "q", 30, "OPTIMAL"), _rec("c", "p", -5), _rec("c", "q", None)]
SYNTH_INSTANCES = [Instance("a", "deal", 1, "1", 0), Instance("b", "deal", 1, "2", 0),
                   Instance("c", "deal", 1, "3", 0)]


def test_summary_follows_its_definitions() -> None:
    best = best_known(SYNTH, SYNTH_INSTANCES)
    assert best == {"a": 40, "b": 30, "c": -5}
    assert ratio(20, 40) == 0.5 and ratio(None, 40) == 0.0 and ratio(-3, 40) == 0.0
    assert ratio(10, -5) is None and ratio(10, None) is None
    rows = {r["solver"]: r for r in summarize(SYNTH, SYNTH_INSTANCES, [10.0], ["p", "q"])["rows"]}
    assert (rows["p"]["won"], rows["p"]["mean_vp"], rows["p"]["ratio"]) == (2, 17.5, 0.5)
    assert (rows["q"]["won"], rows["q"]["mean_vp"], rows["q"]["ratio"]) == (2, 25.0, 0.75)
    assert (rows["p"]["proven_optimal"], rows["q"]["proven_optimal"]) == (0, 1)
    assert rows["p"]["nodes_per_second"] == 10


def test_a_result_failing_its_check_counts_for_nothing() -> None:
    """A line that does not verify (or beats a proven optimum) is no evidence: it neither
    raises the best known VP nor counts as won or proven."""
    bad = {**_rec("a", "q", 90, "OPTIMAL"), "check": "its line misses a goal"}
    records = [*SYNTH[:1], bad, *SYNTH[2:]]
    assert best_known(records, SYNTH_INSTANCES)["a"] == 40
    rows = {r["solver"]: r for r in summarize(records, SYNTH_INSTANCES, [10.0], ["p", "q"])["rows"]}
    assert (rows["q"]["won"], rows["q"]["proven_optimal"], rows["q"]["failed_checks"]) == (1, 1, 1)
    assert rows["q"]["ratio"] == 0.5  # a: 0 (failed), b: 30/30, c: no positive best
    assert rows["p"]["ratio"] == 0.5  # a: 40/40 still, b: 0


def test_proofs_are_checked_against_the_other_results_lines() -> None:
    """An OPTIMAL below a goal-meeting line another result found on the instance, or an
    INFEASIBLE beside one, is a failure of the run; an OPTIMAL at the best found is not."""
    assert cross_check(SYNTH) == []  # b: q's OPTIMAL 30 is the best found
    low = _rec("b", "r", 25, "OPTIMAL")
    none = {**_rec("a", "r", None, "INFEASIBLE"), "goals_met": False}
    failed = {**_rec("b", "s", 99), "check": "its line misses a goal"}  # no evidence
    assert cross_check([*SYNTH, low, none, failed]) == [
        "b r 10 s: claims OPTIMAL at 25 VP, q 10 s found a line of 30",
        "a r 10 s: claims INFEASIBLE, p 10 s found a goal-meeting line of 40"]


def test_anytime_and_profile_curves_follow_their_definitions() -> None:
    recs = [_rec("a", "p", 40, trace=[[0.5, 20], [2.0, 40]]), _rec("b", "p", 15, trace=[[1.0, 15]])]
    best: dict[str, float | None] = {"a": 40, "b": 30}
    ts, ys = anytime_curves(recs, best, 10.0, ["p"])["p"]
    at = {t: y for t, y in zip(ts, ys, strict=True)}
    assert at[ts[0]] == 0.0 and ys[-1] == pytest.approx((1.0 + 0.5) / 2)
    mid = [y for t, y in at.items() if 1.0 <= t < 2.0]
    assert mid and all(y == pytest.approx((0.5 + 0.5) / 2) for y in mid)
    taus, fr = profile_curves(recs, best, 10.0, ["p"])["p"]
    assert fr[0] == 0.5  # instance a at tau = 1
    assert all(f == (1.0 if t >= 2.0 - 1e-9 else 0.5) for t, f in zip(taus, fr, strict=True))


def test_plots_are_written_as_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (optional extra 'bench')")
    from benchmarks.plots import plot_all

    files = plot_all(SYNTH, best_known(SYNTH, SYNTH_INSTANCES), [10.0], ["p", "q"], tmp_path)
    assert [f.name for f in files] == ["anytime-10s.png", "profile-10s.png"]
    for f in files:
        assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ command line


def test_bench_config_refuses_bad_values() -> None:
    with pytest.raises(ValueError, match="budgets"):
        BenchConfig(budgets=(0.0,))
    with pytest.raises(ValueError, match="unknown solver 'best'"):
        BenchConfig(solvers=("best",))
    assert math.isfinite(BenchConfig().budgets[0])


def test_bench_command_writes_json_lines_summary_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = RUNNER.invoke(app, ["bench", "--instance", "t4-h4-s0-b4", "--solver", "exact",
                                 "--solver", "random", "--solver", "greedy", "--budget", "0.5",
                                 "--engine-games", "5", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["instance"], r["solver"], r["budget"]) for r in lines] == [
        ("t4-h4-s0-b4", "exact", 0.5), ("t4-h4-s0-b4", "random", 0.5),
        ("t4-h4-s0-b4", "greedy", 0.5)]
    for r in lines:
        assert r["check"] == "ok" and r["known_optimum"] == 56
        assert set(r) >= {"status", "vp", "goals_met", "bound", "time_to_best", "nodes", "trace"}
    exact = lines[0]
    assert exact["status"] == "OPTIMAL" and exact["vp"] == 56 and exact["bound"] == 56
    assert summary["best_known"]["t4-h4-s0-b4"] == 56
    assert summary["engine"]["games"] == 5 and summary["failures"] == []
    assert [row["solver"] for row in summary["rows"]] == ["exact", "random", "greedy"]
    text = (out / "summary.txt").read_text()
    assert "trials won" in text and "engine throughput: 5 random games" in text
    again = RUNNER.invoke(app, ["bench", "--summarize", "--out", str(out), "--json", "--no-plots"])
    assert again.exit_code == 0, again.output
    redone = json.loads(again.stdout)
    assert redone["rows"] == summary["rows"] and redone["engine"] == summary["engine"]
    try:
        import matplotlib  # noqa: F401

        assert summary["plots"] == ["anytime-0.5s.png", "profile-0.5s.png"]
    except ImportError:
        assert summary["plots"] == [] and "matplotlib" in result.stderr


@pytest.mark.parametrize("args, words", [
    (["--budget", "0"], ["--budget"]),
    (["--solver", "best"], ["--solver", "best"]),
    (["--subset", "nope"], ["--subset", "nope"]),
    (["--instance", "t9-h1-s0"], ["--instance", "t9-h1-s0"]),
    (["--suite", "no-such-suite.json"], ["no-such-suite.json", "cannot read"]),
    (["--engine-games", "-1"], ["--engine-games"]),
])
def test_bench_bad_input_exits_2_with_one_line(tmp_path: Path, args: list[str],
                                               words: list[str]) -> None:
    result = RUNNER.invoke(app, ["bench", *args, "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for w in words:
        assert w in lines[0]


GOOD_RESULT = {"instance": "t1-h1-s0", "kind": "deal", "trial": 1, "hand": "1", "seed": 0,
               "solver": "random", "budget": 1.0, "status": "FEASIBLE", "vp": 30,
               "goals_met": True, "bound": None, "time_to_best": 0.1, "nodes": 80,
               "seconds": 0.2, "failed_vp": None, "known_optimum": None, "check": "ok",
               "trace": [[0.1, 30]], "line": [], "extra": {}}


@pytest.mark.parametrize("content, words", [
    (b'{"a": 1}\n', ["results.jsonl, line 1", "field 'instance'"]),
    (b"5\n", ["results.jsonl, line 1", "expected a result object"]),
    (b"\xff\xfe{}", ["results.jsonl", "not UTF-8"]),
    (b"{\n", ["results.jsonl, line 1", "not valid JSON"]),
    (json.dumps({**GOOD_RESULT, "vp": "30"}).encode(), ["field 'vp' = '30'", "int or null"]),
    (json.dumps({**GOOD_RESULT, "status": "WON"}).encode(), ["field 'status' = 'WON'"]),
    (json.dumps({**GOOD_RESULT, "goals_met": 1}).encode(), ["field 'goals_met' = 1"]),
])
def test_bench_summarize_of_bad_results_exits_2_naming_the_line_and_field(
        tmp_path: Path, content: bytes, words: list[str]) -> None:
    """``--summarize`` reads a results file a run left, maybe damaged: one line naming the file,
    the line and the field, exit 2 (1 is bench's failed check), never a traceback."""
    (tmp_path / "results.jsonl").write_bytes(content)
    result = RUNNER.invoke(app, ["bench", "--summarize", "--out", str(tmp_path), "--no-plots"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0]


@pytest.mark.parametrize("content, words", [
    (b"\xff{}", ["not UTF-8"]),
    (json.dumps({"format": "heritage-bench-suite", "version": 1, "deals": {
        "trials": [1], "hands": ["1"], "seeds": [0]}, "positions": 5}).encode(),
     ["field 'positions'", "expected a list"]),
])
def test_bench_bad_suite_file_exits_2(tmp_path: Path, content: bytes, words: list[str]) -> None:
    suite = tmp_path / "suite.json"
    suite.write_bytes(content)
    result = RUNNER.invoke(app, ["bench", "--suite", str(suite), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and all(w in result.stderr for w in words), result.stderr


def test_smoke_bench_runs_clean(tmp_path: Path) -> None:
    """``heritage bench --smoke``: the CI run (about a minute): every available solver on the
    smoke subset, every check passing, the tables and files written."""
    out = tmp_path / "smoke"
    result = RUNNER.invoke(app, ["bench", "--smoke", "--out", str(out)])
    assert result.exit_code == 0, result.output
    s = suite()
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    summary = json.loads((out / "summary.json").read_text())
    solvers = summary["config"]["solvers"]
    assert solvers[:5] == ["solve", "nrpa", "exact", "random", "greedy"]
    assert len(lines) == len(s.subsets["smoke"]) * len(solvers)
    assert all(r["check"] == "ok" and r["budget"] == s.smoke_budget for r in lines)
    assert summary["engine"]["games"] == s.smoke_engine_games
    for r in lines:
        if r["kind"] == "position" and r["solver"] in ("solve", "exact"):
            assert r["status"] == "OPTIMAL" and r["vp"] == r["known_optimum"], r
    assert "mean VP" in result.stdout and "engine throughput" in result.stdout
