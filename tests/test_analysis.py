"""The analysis room (`solver.analysis`): the player's continuation as the first incumbent of a
solve, the turn-by-turn review (losses never negative, witnesses that replay, the same result
for any number of workers), the interactive session (answers, undo, hint) and the position in
words (issue 16)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest
from typer.testing import CliRunner

import solver.analysis.review as review_module
from cli.analyse import _lost_text, summary_lines
from cli.app import app
from puzzles.lines import replay
from solver.analysis.position import option_phrase, question, view
from solver.analysis.review import (
    Ranked,
    Review,
    ReviewConfig,
    ReviewError,
    TurnReview,
    _chain,
    _inherit,
    _least_loss,
    review_game,
)
from solver.analysis.session import AnswerError, Session
from solver.engine.newgame import new_game
from solver.engine.record import GameRecord
from solver.rng import Stream
from solver.search.playout import random_playout
from solver.search.status import Status
from solver.solve import SolveConfig, solve

RUNNER = CliRunner()
SMALL = SolveConfig(node_limit=1_500)


@lru_cache(maxsize=8)
def played(*args: str) -> GameRecord:
    """A finished random-play game of ``heritage play ARGS``."""
    result = RUNNER.invoke(app, ["play", *args, "--json"])
    assert result.exit_code == 0, result.output
    record, error = replay(json.loads(result.stdout))
    assert record is not None and error is None, error
    return record


def start_of(record: GameRecord) -> Any:
    return new_game(record.setup, record.book)


def position_at(record: GameRecord, turn: int, decision: int) -> GameRecord:
    """The game up to decision `decision` of `turn` (1: the start of the turn)."""
    out = GameRecord.new(record.setup, record.book)
    for t, k, text in record.decisions():
        if (t, k) >= (turn, decision):
            break
        out.apply_notation(text)
    return out


# ------------------------------------------------------------------ solve with an incumbent

def _rest(record: GameRecord, at: GameRecord) -> list[int]:
    """The game's actions from position `at` to the end."""
    st = at.state.clone()
    done = sum(len(t) for t in at.line)
    actions = []
    for _, _, text in list(record.decisions())[done:]:
        a = st.string_to_action(text)
        actions.append(a)
        st.apply(a)
    return actions


def _rank(res: Any) -> tuple[bool, float]:
    return (True, res.value) if res.value is not None else (False, res.failed_value)


@pytest.mark.parametrize("turn", [2, 9, 15])
def test_the_incumbent_line_is_never_beaten_by_a_worse_result(turn: int) -> None:
    """A tiny budget finds little; the player's continuation still ranks as the result's
    floor (every goal met above any goal missed, then VP)."""
    record = played("--trial", "1", "--seed", "3")
    at = position_at(record, turn, 1)
    rest = _rest(record, at)
    st = record.state
    floor = (st.feasible(), st.value())
    res = solve(at.state, SolveConfig(node_limit=50), incumbent=rest)
    assert _rank(res) >= floor
    line = res.line or res.failed_line
    end = at.state.clone()
    for a in line:
        end.apply(a)
    assert end.is_terminal() and _rank(res) == (end.feasible(), end.value())


def test_a_goal_meeting_incumbent_near_the_end_is_proven_or_beaten() -> None:
    """No trial: every line meets the goals; one turn before the end the exact search
    completes, so the answer is OPTIMAL and at least the incumbent's VP."""
    record = played("--seed", "5")
    last = max(t for t, _, _ in record.decisions())
    at = position_at(record, last, 1)
    res = solve(at.state, SolveConfig(node_limit=200_000), incumbent=_rest(record, at))
    assert res.status == Status.OPTIMAL
    assert res.value is not None and res.value >= record.state.value()


def test_lines_no_better_than_the_incumbent_do_not_move_the_time_to_best() -> None:
    """`SolveResult.time_to_best` is when the line returned was found: a line the search finds
    that does not beat the incumbent (NRPA's first playouts here) leaves it at 0, the
    incumbent having been known from the start."""
    record = played("--seed", "5")
    at = position_at(record, 9, 1)
    good = solve(at.state, SolveConfig(node_limit=20_000, exact=False))
    assert good.value is not None
    res = solve(at.state, SolveConfig(node_limit=300, exact=False), incumbent=good.line)
    assert res.value == good.value and res.line == good.line
    assert res.time_to_best == 0.0


def test_an_unfinished_or_illegal_incumbent_is_refused() -> None:
    record = played("--seed", "5")
    at = position_at(record, 4, 1)
    rest = _rest(record, at)
    with pytest.raises(ValueError, match="before the game does"):
        solve(at.state, SMALL, incumbent=rest[:3])
    with pytest.raises(ValueError, match="not legal"):
        solve(at.state, SMALL, incumbent=[-5, *rest])


# ------------------------------------------------------------------ the passes

def _r(vp: int, goals: bool, *actions: int) -> Ranked:
    return Ranked(tuple(actions), vp, goals)


def test_backward_pass_lifts_a_position_to_what_follows_it() -> None:
    """``S_i`` then ``B_{i+1}`` is a line from ``P_i``: a weak search at ``P_i`` is lifted."""
    best = [_r(5, True, 9, 9), _r(8, True, 7, 7), _r(3, True)]
    improved = _chain(best, [(1,), (2,)])
    assert best[0] == _r(8, True, 1, 7, 7) and improved[0]
    assert [b.rank for b in best] == sorted((b.rank for b in best), reverse=True)


def test_forward_pass_clears_a_player_who_followed_the_best_line() -> None:
    """When the best line from ``P_i`` starts with the player's decisions, the player lost
    nothing there: its rest becomes ``B_{i+1}``."""
    best = [_r(10, True, 1, 4, 4), _r(6, True, 5, 5), _r(3, True)]
    improved = _chain(best, [(1,), (4, 4)])
    assert best[1] == _r(10, True, 4, 4) and improved[1]
    assert best[0].vp - best[1].vp == 0


def test_a_bound_holds_at_every_later_position_of_the_game() -> None:
    """Point 4: ``P_{i+1}`` is a continuation of ``P_i``, so each bound is the least of those
    before it; a best line that reaches it is proven optimal (not where the position was not
    analysed)."""
    statuses = [Status.FEASIBLE, Status.FEASIBLE, Status.UNKNOWN, Status.FEASIBLE]
    best = [_r(40, True), _r(50, True), _r(50, True), _r(38, True)]
    bounds = _inherit([50.0, 60.0, math.inf, 45.0], statuses, best, [True, True, False, True])
    assert bounds == [50.0, 50.0, 50.0, 45.0]
    assert statuses == [Status.FEASIBLE, Status.OPTIMAL, Status.UNKNOWN, Status.FEASIBLE]


def test_no_goal_meeting_line_after_a_position_proven_to_have_none() -> None:
    """A position proven to have no goal-meeting line (bound -inf): none after it has one, so
    a later position where none was found is proven so too (a line found that meets them is
    left as found)."""
    statuses = [Status.INFEASIBLE, Status.UNKNOWN, Status.FEASIBLE]
    best = [_r(9, False), _r(8, False), _r(7, True)]
    bounds = _inherit([-math.inf, 30.0, 20.0], statuses, best, [True, True, True])
    assert bounds == [-math.inf] * 3
    assert statuses == [Status.INFEASIBLE, Status.INFEASIBLE, Status.FEASIBLE]


def test_the_least_loss_is_the_best_line_less_the_next_bound() -> None:
    """The best VP from ``P_i`` is at least its best line's, that from ``P_{i+1}`` at most its
    bound (whole VP: 30.7 bounds 30): a loss of at least 2 here; never below 0; not told
    where a goal is missed at either end."""
    assert _least_loss(_r(32, True), _r(29, True), 30.7) == 2
    assert _least_loss(_r(32, True), _r(29, True), 40.0) == 0
    assert _least_loss(_r(32, False), _r(29, True), 29.0) is None
    assert _least_loss(_r(32, True), _r(29, False), -math.inf) is None


def test_a_goal_meeting_line_ranks_above_more_vp_missing_a_goal() -> None:
    best = [_r(4, True, 2, 2), _r(30, False, 3), _r(1, False)]
    _chain(best, [(1,), (3,)])
    assert best[0] == _r(4, True, 2, 2)  # not replaced by 30 VP that miss a goal


# ------------------------------------------------------------------ the review

def test_review_of_a_random_game_keeps_its_promises() -> None:
    """On the process pool (2 workers): the positions, the ranks falling from the first
    position to the game as played, no negative loss, an alternative exactly where a turn
    cost something, and best lines that replay to what they claim. (The same result for any
    number of workers: `tests/test_analyse_cli.py`.)"""
    record = played("--trial", "1", "--seed", "3")
    cfg = ReviewConfig(SolveConfig(node_limit=1_500), workers=2)
    review = review_game(start_of(record), record.line, cfg)
    turns = [t for t, turn in enumerate(record.line) if turn]
    assert [r.turn for r in review.rows] == turns
    final = (record.state.feasible(), record.state.score().total)
    ranks = [r.best.rank for r in review.rows] + [final]
    assert ranks == sorted(ranks, reverse=True)  # B_0 >= B_1 >= ... >= the game
    bounds = [r.bound for r in review.rows]
    assert bounds == sorted(bounds, reverse=True)  # a bound holds down the game
    for i, r in enumerate(review.rows):
        assert r.lost is not None and r.lost >= 0
        assert r.played.rank == final
        assert r.best.vp <= r.bound or not r.best.goals_met
        assert r.lost_at_least is None or r.lost_at_least <= r.lost
        if r.lost_proven and r.best.goals_met and final[0]:
            assert r.lost_at_least == r.lost
        if r.best.goals_met and r.best.vp == r.bound:
            assert r.status == Status.OPTIMAL
        assert r.best.rank >= r.played.rank
        assert r.goals_reachable is (True if r.best.goals_met else
                                     (False if r.status == Status.INFEASIBLE else None))
        assert (r.alternative is not None) == (r.best.rank > ranks[i + 1])
        # the best line is a real line from the position: it replays to the claimed VP
        st = position_at(record, r.turn, r.decision).state.clone()
        for a in r.best.actions:
            st.apply(a)
        assert st.is_terminal()
        assert (st.feasible(), st.score().total) == r.best.rank
    assert review.left_on_table == max(0, review.rows[0].best.vp - review.final_vp)


def test_an_interrupted_review_claims_no_loss_it_did_not_measure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C after three positions: the rest keep the player's line as their best, so the
    third's difference to the fourth would hold every later turn's losses. Its loss is unknown
    (None, ``?``), and neither the costliest turns nor "gave up the goals" name it."""
    real = review_module.solve_positions

    def three_then_ctrl_c(tasks: Any, workers: int, on_point: Any = None) -> Any:
        found, _ = real(tasks[:3], workers, on_point)
        return found + [None] * (len(tasks) - 3), True

    monkeypatch.setattr(review_module, "solve_positions", three_then_ctrl_c)
    record = played("--trial", "1", "--seed", "3")
    review = review_game(start_of(record), record.line, ReviewConfig(SMALL))
    assert review.interrupted and [r.analysed for r in review.rows[:4]] == [True] * 3 + [False]
    assert review.rows[2].lost is None and not review.rows[2].lost_proven
    assert review.rows[2].alternative is None
    assert all(r.lost is None for r in review.rows[3:])  # not analysed: no loss measured
    assert all(r in review.rows[:2] for r in review.costliest(3))
    given_up = review.goals_given_up
    assert given_up is None or given_up in review.rows[:2]
    text = "\n".join(summary_lines(review))
    assert f"turn {review.rows[2].turn} (" not in text.split("Costliest turns:")[1].split(".")[0]
    assert "Interrupted: 3 of" in text


def test_only_a_finished_game_from_its_deal_is_analysed() -> None:
    record = played("--trial", "1", "--seed", "3")
    with pytest.raises(ReviewError, match="before the game is over"):
        review_game(start_of(record), [list(t) for t in record.line[:5]], ReviewConfig(SMALL))
    with pytest.raises(ReviewError, match="from its deal"):
        review_game(position_at(record, 3, 1).state, record.line, ReviewConfig(SMALL))
    bad = [list(t) for t in record.line]
    bad[2][0] = "excavate"
    with pytest.raises(ReviewError, match="turn 2, decision 1"):
        review_game(start_of(record), bad, ReviewConfig(SMALL))


def _row(turn: int, vp: int, goals: bool, reach: bool | None, lost: int = 0) -> TurnReview:
    status = Status.INFEASIBLE if reach is False else Status.FEASIBLE
    return TurnReview(turn, 1, _r(vp, goals), status, 99.0, _r(1, False), lost, False, None, reach,
                      True, 0, 0.0)


@pytest.mark.parametrize(("lost", "proven", "least", "text"), [
    (3, True, 3, "3"), (3, False, 3, ">=3"), (5, False, 2, "~5 (>=2)"), (5, False, 0, "~5"),
    (5, False, None, "~5"), (0, False, 0, "~0"), (None, False, None, "?")])
def test_a_loss_is_printed_exact_at_least_or_estimated(
        lost: int | None, proven: bool, least: int | None, text: str) -> None:
    row = replace(_row(3, 10, True, True), lost=lost, lost_proven=proven, lost_at_least=least)
    assert _lost_text(row) == text


def test_the_turn_the_trial_became_unwinnable() -> None:
    rows = (_row(1, 9, True, True, 2), _row(2, 7, True, True, 4), _row(3, 3, False, False, 2))
    review = Review(rows, 1, False, True, False, False)
    lost = review.unwinnable
    assert lost is not None and (lost.turn, lost.certain, lost.at_start) == (2, True, False)
    assert [r.turn for r in review.costliest()] == [2, 1, 3]
    unsure = Review((rows[0], _row(2, 5, False, None), rows[2]), 1, False, True, False, False)
    lost = unsure.unwinnable
    assert lost is not None and (lost.turn, lost.certain, lost.last_winnable) == (2, False, 1)
    assert unsure.goals_given_up is not None and unsure.goals_given_up.turn == 1
    start = Review((_row(1, 3, False, False),), 1, False, True, False, False)
    assert start.unwinnable is not None and start.unwinnable.at_start
    last_turn = Review(rows[:2], 1, False, True, False, False)  # its decisions missed it
    lost = last_turn.unwinnable
    assert lost is not None and lost.at_end and lost.certain and lost.turn == 2
    late = Review((rows[0], _row(2, 5, False, None)), 1, False, True, False, False)
    lost = late.unwinnable  # nothing proven before the end: when is not known
    assert lost is not None and lost.at_end and not lost.certain and lost.last_winnable == 1
    won = Review(rows[:2], 7, True, True, False, False)
    assert won.unwinnable is None and won.goals_given_up is None


# ------------------------------------------------------------------ the session

def test_session_answers_by_number_or_notation_and_refuses_the_rest() -> None:
    record = played("--trial", "1", "--seed", "3")
    session = Session(GameRecord.new(record.setup, record.book))
    options = session.options()
    assert [o.number for o in options] == list(range(1, len(options) + 1))
    assert session.parse("2") == options[1]
    assert session.parse(f" {options[0].notation} ") == options[0]
    for bad in ("0", str(len(options) + 1), "C999", "frobnicate"):
        with pytest.raises(AnswerError):
            session.parse(bad)


def test_undo_takes_back_the_last_decision_with_its_forced_steps() -> None:
    record = played("--trial", "1", "--seed", "3")
    session = Session(GameRecord.new(record.setup, record.book))
    assert not session.undo()
    keys = []
    for _, _, text in list(record.decisions())[:12]:
        keys.append(session.record.state.key())
        session.take(session.parse(text))
    for key in reversed(keys):
        assert session.undo()
        assert session.record.state.key() == key
    assert session.decisions == 0


def test_a_hint_with_a_tiny_budget_is_a_legal_option_with_its_line_vp() -> None:
    record = played("--trial", "1", "--seed", "3")
    session = Session(position_at(record, 6, 1))
    hint = session.hint(SolveConfig(node_limit=300))
    assert hint is not None
    assert hint.option in session.options()
    assert hint.nodes <= 400 and isinstance(hint.vp, int)
    again = session.hint(SolveConfig(node_limit=300))
    assert again == hint  # a node budget is reproducible


# ------------------------------------------------------------------ the position in words

@pytest.mark.parametrize("args", [("--trial", "1", "--seed", "3"), ("--trial", "7", "--seed", "2"),
                                  ("--cards", "heritage", "--hand", "draw", "--seed", "9")])
def test_every_option_has_its_own_phrase(args: tuple[str, ...]) -> None:
    """Along random games, each decision's options read differently, in words (no raw frame
    numbers): a player can tell them apart without the notation."""
    record = played(*args)
    for policy in range(3):
        st = GameRecord.new(record.setup, record.book).state
        stream = Stream(policy, "policy", 0)
        for action in random_playout(st.clone(), stream):
            phrases = [option_phrase(st, a) for a in st.legal]
            assert len(set(phrases)) == len(phrases), (question(st), phrases)
            assert all(p and p[0].isupper() for p in phrases)
            st.apply(action)


def test_the_view_shows_every_zone_of_the_position() -> None:
    record = played("--trial", "1", "--seed", "3")
    st = position_at(record, 12, 1).state
    v = view(st)
    assert len(v.timeline) == 6 and v.turn == 12
    assert [h.split(" (")[-1].rstrip(")") for h in v.hand] == \
        [st.book.cards[c].code for c in st.hand]
    assert len(v.artifacts) == 5 and len(v.tiles) == 3
    assert v.lost == st.lost and v.score["total"] == st.score().total
    assert f"{len(st.past)} monuments" in v.past
    (goal,) = v.goals
    assert goal.chest == "А" and not goal.met
    assert goal.counts == (f"monuments in the Past: {len(st.past)} now, the goal asks >= 8",)
