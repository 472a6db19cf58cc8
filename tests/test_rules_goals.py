"""Chest cards (RULES.md sections 5, 6, 8 and 10): the goal language a chest file is written in
(text and JSON tree, its whole-number thresholds, its nesting limit), the distance of a goal
from being met, the Campaign mid-game revision of goal chests (section 6), which Trial mode
does not have, and a "you may" step in a chest's effect (section 5: optional).

Written to kill mutants of `solver.engine.goals`, `solver.engine.goal_check` and
`solver.engine.chests` that the rules tests did not notice.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from puzzles.chests import DEFAULT_PATH, load_chests
from solver.engine import flow
from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import Clause
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_REVISE,
    D_FLIP,
    D_YESNO,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
)
from solver.engine.goal_check import evaluate, shortfall
from solver.engine.goals import MAX_GOAL_DEPTH, And, GoalError, Or, parse_goal
from solver.engine.state import CHEST_BASE, GameState
from tests.builder import names_of, play, position
from tests.test_chests import resume, with_chests

LEAF = {"counter": "past.any", "op": ">=", "value": 1}


def L(ch: str) -> int:
    return CHEST_LETTERS.index(ch)


# ------------------------------------------------------------------ the goal text


def test_a_goal_text_read_from_a_file_may_end_with_a_newline() -> None:
    """A chest's goal text (section 8: the user's chest file) may carry surrounding blanks."""
    assert parse_goal("  past.pyramid >= 6 \n") == Clause("past.pyramid", ">=", 6)
    assert parse_goal("timeline.any >= 5 and past.any >= 10\n") == And(
        (Clause("timeline.any", ">=", 5), Clause("past.any", ">=", 10)))


def test_a_goal_threshold_may_be_a_negative_whole_number() -> None:
    """Victory points can be negative (section 7, row 5: -1 per lost knowledge), so a goal on
    the score may compare with a negative whole number."""
    assert parse_goal("vp >= -5") == Clause("vp", ">=", -5)
    assert parse_goal("vp > -1 or lost < 3") == Or(
        (Clause("vp", ">", -1), Clause("lost", "<", 3)))


@pytest.mark.parametrize("text", ["past.any >= X1", "past.any >= lost"])
def test_a_goal_threshold_that_is_not_a_whole_number_is_a_goal_error(text: str) -> None:
    with pytest.raises(GoalError, match="expected a whole number"):
        parse_goal(text)


def _parens(depth: int) -> str:
    return "(" * depth + "past.any >= 1" + ")" * depth


def test_goal_text_parentheses_nest_at_most_the_documented_depth() -> None:
    """goals.py: parentheses may nest `MAX_GOAL_DEPTH` levels; one more is a `GoalError` that
    says so (not a recursion error)."""
    assert parse_goal(_parens(MAX_GOAL_DEPTH)) == Clause("past.any", ">=", 1)
    with pytest.raises(GoalError, match=f"nest deeper than {MAX_GOAL_DEPTH}"):
        parse_goal(_parens(MAX_GOAL_DEPTH + 1))


def test_parenthesised_parts_side_by_side_are_not_nesting() -> None:
    """Twenty bracketed parts joined by "and" nest one level each, not twenty: a deepest
    nesting of exactly `MAX_GOAL_DEPTH` after them still parses, one more still does not."""
    groups = " and ".join(["(past.city >= 1 or lost <= 9)"] * 20)
    g = parse_goal(f"{groups} and {_parens(MAX_GOAL_DEPTH)}")
    assert isinstance(g, And) and len(g.parts) == 21
    assert g.parts[-1] == Clause("past.any", ">=", 1)
    with pytest.raises(GoalError, match="nest deeper"):
        parse_goal(f"{groups} and {_parens(MAX_GOAL_DEPTH + 1)}")


# ------------------------------------------------------------------ the goal JSON tree


def test_an_and_or_of_one_part_is_that_part() -> None:
    assert parse_goal({"and": [LEAF]}) == Clause("past.any", ">=", 1)
    assert parse_goal({"or": [["lost", "<=", 4]]}) == Clause("lost", "<=", 4)


@pytest.mark.parametrize("tree", [{"and": []}, {"or": []}])
def test_an_empty_and_or_is_rejected_not_met_by_default(tree: dict[str, Any]) -> None:
    """An empty "and" would be a goal always met (a trial passed without playing for it,
    section 9): the chest file is wrong and says so."""
    with pytest.raises(GoalError, match="needs a non-empty list"):
        parse_goal(tree)


@pytest.mark.parametrize("value", [True, "5", 2.5, None])
def test_a_goal_comparison_value_must_be_a_whole_number(value: object) -> None:
    with pytest.raises(GoalError, match="is not a whole number"):
        parse_goal({"counter": "past.any", "op": ">=", "value": value})


def _tree(depth: int) -> dict[str, Any]:
    """An "and" nested `depth` levels deep, a comparison at each level."""
    return LEAF if depth == 0 else {"and": [LEAF, _tree(depth - 1)]}


def test_goal_tree_and_or_nest_at_most_the_documented_depth() -> None:
    """goals.py: a JSON goal tree may nest and/or `MAX_GOAL_DEPTH` levels, one more is a
    `GoalError` that says so."""
    g = parse_goal(_tree(MAX_GOAL_DEPTH))
    assert isinstance(g, And) and len(g.parts) == 2
    with pytest.raises(GoalError, match=f"nest deeper than {MAX_GOAL_DEPTH}"):
        parse_goal(_tree(MAX_GOAL_DEPTH + 1))


# ------------------------------------------------------------------ how far from a goal


@pytest.mark.parametrize(("text", "missing"), [
    ("past.any > 3", 2), ("past.any > 1", 0), ("past.any > 0", 0),
    ("past.any < 1", 2), ("past.any < 3", 0), ("past.any < 2", 1),
])
def test_shortfall_of_a_strict_comparison_counts_the_monuments_missing(
        text: str, missing: int) -> None:
    """Two monuments in the Past: "more than 3" needs 2 more, "fewer than 1" needs 2 fewer; a
    goal that holds is 0 away (section 8: a goal met at the end)."""
    st = position(past=["C1", "P1"])
    goal = parse_goal(text)
    assert shortfall(goal, st) == missing
    assert evaluate(goal, st) == (missing == 0)


# ------------------------------------------------------------------ the mid-game revision


def _seventh_monument(campaign: bool) -> GameState:
    """C5 declines into the Past as its 7th monument; goal chests А and Г on the board."""
    st = position(hand=["C1"], past=["C2", "C3", "M1", "M3", "P1", "P2"],
                  timeline={1: ["C5"], 3: ["M4"]}, turn=9)
    with_chests(st, goals=("А", "Г"), campaign=campaign)
    st = resume(st, (F_TECH_PHASE,), (F_DECLINE_PHASE,))
    assert st.pending() == (D_FLIP,)
    return play(st, "tileA")


def test_campaign_revision_after_the_flip_offers_each_of_two_goal_chests() -> None:
    """Section 6, Campaign mode: right after the flip the player may once discard goal chests,
    at least one stays: with two goals, either may go."""
    st = _seventh_monument(campaign=True)
    top = st.pending()
    assert top is not None and top[0] == D_CHEST_REVISE
    assert names_of(st) == ["chest:А", "chest:Г", "done"]
    play(st, "chest:А")
    assert st.goal_chests == [L("Г")]
    assert CHEST_BASE + L("А") not in st.artifacts


def test_trial_mode_has_no_goal_revision_after_the_flip() -> None:
    """Section 6: the revision is Campaign mode's; a trial keeps both its goal chests."""
    st = _seventh_monument(campaign=False)
    top = st.pending()
    assert top is None or top[0] != D_CHEST_REVISE
    assert st.goal_chests == [L("А"), L("Г")]


# ------------------------------------------------------------------ a chest's "you may" step


def test_a_you_may_step_of_a_chest_effect_is_still_asked_when_the_chest_is_used(
        tmp_path: Path) -> None:
    """Section 5: "you may" effects are optional; section 8: using a chest is not an action.
    Discarding a lightning chest whose effect is "you may draw 2 cards" (a user chest file,
    CARD_FORMAT.md step ``"optional": true``) asks whether to draw; "no" draws nothing and the
    chest is gone (D16)."""
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    chest = next(c for c in data["chests"] if c["letter"] == "А")
    chest["effect"]["steps"] = [{"op": "draw", "n": 2, "optional": True}]
    path = tmp_path / "chests.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    st = position(hand=["C1"], timeline={3: ["C7"]})
    st.setup = dataclasses.replace(st.setup, under=("А",), chest_data=load_chests(str(path)))
    st.chests_under = [L("А")]
    flow.settle(st)
    play(st, "!chest:А")
    top = st.pending()
    assert top is not None and top[0] == D_YESNO
    play(st, "no")
    assert len(st.hand) == 1 and st.chests_under == []
    assert st.pending() == (D_ACTION, 0)


@pytest.mark.parametrize("value", [10_001, -10_001, 10**26])
def test_a_goal_comparison_value_is_bounded(value: int) -> None:
    """A number no counter can come near is a mistake in the chest file (and too big for the
    constraint layer's coefficients): refused on load, naming the value."""
    with pytest.raises(GoalError, match=f"value {value} must be at most 10,000"):
        parse_goal({"counter": "past.any", "op": ">=", "value": value})
    assert parse_goal({"counter": "past.any", "op": ">=", "value": 10_000}) == Clause(
        "past.any", ">=", 10_000)
