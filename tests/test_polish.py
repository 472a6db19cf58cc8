"""The tail polish of a solve (`solver.polish`, issue 13 "better lines sooner"): it never
returns a worse line, it improves a deliberately poor one, a node-limited solve with it is
deterministic, and a proof it reports is a proof of the tail from that turn's position."""

from __future__ import annotations

import pytest

from cli.common import Output
from cli.solve import _status_lines, result_json
from solver.engine.newgame import new_game
from solver.engine.record import GameRecord
from solver.engine.setup import Setup
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.polish import PolishConfig, line_value, polish, turn_starts
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPA, NRPAConfig
from solver.search.status import Status
from solver.solve import Progress, SolveConfig, SolveResult, solve
from tests.builder import book


def poor_line(seed: int, nodes: int = 3000) -> tuple[GameState, list[int], float]:
    """A deal and a goal-meeting line from a short NRPA run (deterministic)."""
    root = new_game(Setup(hand="1", seed=seed), book())
    inc = NRPA(root, NRPAConfig(max_nodes=nodes, seed=1), game=HeritageGame()).run()
    assert inc.found
    return root, list(inc.line), inc.value


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_polish_never_returns_a_worse_line(seed: int) -> None:
    root, line, value = poor_line(seed)
    res = polish(root, HeritageGame(), line, value, PolishConfig(nodes=1500))
    assert res.value >= value
    assert line_value(root, res.line) == res.value  # legal, ends the game, meets every goal
    assert res.improved == (res.value > value)
    assert res.turns and res.turns[0] == max(turn_starts(root, line))  # the last turn first
    assert res.nodes <= 1500


def test_polish_improves_a_poor_line_and_proves_its_last_turn() -> None:
    """Seed 2: NRPA's 3,000-decision line scores 18; the exact search from the start of turn 16
    finds 22 and completes (a proof for that position); the one from turn 15 runs out of nodes
    without finding more, so the proof stands. (With 1,000 nodes or more, the search from turn
    15 finds 23: a new tail, which the proof from turn 16 was not about; it took 2,000 before
    the simple bound's last-turn technologies, `solver.bounds.techrow`.)"""
    root, line, value = poor_line(2)
    res = polish(root, HeritageGame(), line, value, PolishConfig(nodes=500))
    assert res.improved and res.value > value
    assert line_value(root, res.line) == res.value
    assert res.proven_from_turn == 16
    # The proof, checked on its own: from the start of turn 16 on the polished line, a complete
    # exact search finds nothing better than the line's value.
    cut = turn_starts(root, res.line)[16]
    pos = root.clone()
    for a in res.line[:cut]:
        pos.apply(a)
    again = search(pos, SearchConfig(), incumbent=res.value, game=HeritageGame())
    assert again.status == Status.INFEASIBLE  # complete: nothing strictly better


def test_an_unfinished_search_that_changes_the_line_sends_the_polish_back_to_its_end() -> None:
    """Seed 2 with 3,000 nodes: the search from turn 16 completes (18 -> 22 in 35 nodes, a
    proof), the one from turn 15 runs out of nodes after changing turns 15 and 16, so that proof
    is off the new line.
    Without a reserve the polish ends with no proof; with `reprove_share` it searches the new
    line's turn 16 again (a proof), then turn 15."""
    root, line, value = poor_line(2)
    bare = polish(root, HeritageGame(), line, value, PolishConfig(nodes=3000, reprove_share=0.0))
    assert bare.improved and bare.proven_from_turn is None and bare.turns == (16, 15)
    res = polish(root, HeritageGame(), line, value, PolishConfig(nodes=3000))
    assert res.improved and line_value(root, res.line) == res.value
    assert res.turns == (16, 15, 16, 15) and res.proven_from_turn == 16
    assert res.nodes <= 3000
    cut = turn_starts(root, res.line)[16]  # the proof holds on the returned line
    pos = root.clone()
    for a in res.line[:cut]:
        pos.apply(a)
    again = search(pos, SearchConfig(), incumbent=res.value, game=HeritageGame())
    assert again.status == Status.INFEASIBLE
    with pytest.raises(ValueError):
        PolishConfig(nodes=10, reprove_share=1.0)


def test_polish_rejects_a_line_that_is_not_what_it_claims() -> None:
    root, line, value = poor_line(1)
    with pytest.raises(ValueError):
        polish(root, HeritageGame(), line, value + 1, PolishConfig(nodes=100))
    assert line_value(root, line[:-1]) is None  # stops before the end
    assert line_value(root, [*line[:-1], 10_000]) is None  # an illegal action
    with pytest.raises(ValueError):
        PolishConfig()


def test_the_exact_search_reports_its_nodes_to_the_display() -> None:
    """During ``phase exact`` the live display hears the exact search's nodes as it goes (it
    showed the count from before the phase until the search ended), and never a best value
    below the one it had."""
    seen: list[tuple[str, int, float]] = []
    st = new_game(Setup(hand="1", seed=5), book())
    res = solve(st, SolveConfig(node_limit=3_000, bound="simple", exact_first_phases=99,
                                exact_first_share=1.0),
                on_progress=lambda p: seen.append((p.phase, p.nodes, p.best_value)))
    first = next(i for i, (phase, _, _) in enumerate(seen) if phase == "exact")
    end = next((i for i in range(first, len(seen)) if seen[i][0] != "exact"), len(seen))
    exact = [(n, v) for _, n, v in seen[first:end]]  # the exact search run first
    assert len({n for n, _ in exact}) > 10  # counted as it goes, not once at the end
    assert [n for n, _ in exact] == sorted(n for n, _ in exact)
    assert [v for _, v in exact] == sorted(v for _, v in exact)
    assert res.value is not None and exact[-1][1] <= res.value


def test_node_limited_solve_with_polish_is_deterministic_and_reports_its_phases() -> None:
    def run() -> tuple[SolveResult, list[str]]:
        phases: list[str] = []

        def seen(p: Progress) -> None:
            if not phases or phases[-1] != p.phase:
                phases.append(p.phase)

        st = new_game(Setup(hand="1", seed=5), book())
        return solve(st, SolveConfig(node_limit=12_000, polish_share=0.4), on_progress=seen), phases

    (first, phases), (again, _) = run(), run()
    assert (first.line, first.value, first.nodes, first.proven_from_turn) == \
        (again.line, again.value, again.nodes, again.proven_from_turn)
    assert "polish turn 16" in phases
    assert phases.index("heuristic") < phases.index("polish turn 16") < phases.index("exact")
    assert first.status == Status.FEASIBLE
    assert first.nodes <= 12_000


def test_polish_off_keeps_the_old_solve() -> None:
    st = new_game(Setup(hand="1", seed=5), book())
    res = solve(st, SolveConfig(node_limit=6_000, polish_share=0.0))
    assert res.proven_from_turn is None
    with pytest.raises(ValueError):
        SolveConfig(polish_share=1.0)


def test_cli_reports_a_tail_proof_as_such_never_as_optimal(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A FEASIBLE result whose polish proved turn 16: ``--json`` carries ``proven_from_turn``
    beside status FEASIBLE, the text says it holds for that turn's position only."""
    root, line, value = poor_line(5)
    res = SolveResult(status=Status.FEASIBLE, line=line, value=value, failed_line=[],
                      failed_value=None, bound=400.0, nodes=1, seconds=1.0, time_to_best=1.0,
                      proven_from_turn=16)
    record = GameRecord.new(Setup(hand="1", seed=5), book())
    data = result_json(record, res)
    assert data["status"] == "FEASIBLE" and data["proven_from_turn"] == 16
    assert "proven_from_turn" not in result_json(
        record, SolveResult(**{**res.__dict__, "proven_from_turn": None}))
    _status_lines(Output(), res, record)
    text = capsys.readouterr().out
    assert "FEASIBLE" in text and "OPTIMAL" not in text
    assert "from the start of turn 16" in text and "not the line from turn 1" in text
