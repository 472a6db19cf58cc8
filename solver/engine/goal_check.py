"""Goal chests checked on a position (RULES.md section 8): each goal's counters read from the
zones, whether it holds, and how far it is from holding.

The goal language itself (`Goal`, `parse_goal`, the counters' definitions) is
`solver.engine.goals`; this module is where it meets the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import Clause
from solver.engine.conditions import COUNTERS as CARD_COUNTERS
from solver.engine.goals import COUNTERS, And, Goal, GoalError
from solver.engine.scoring import score_sheet
from solver.engine.state import GameState


def _card_counter(name: str) -> Callable[[GameState], int]:
    f = CARD_COUNTERS[name]
    return lambda st: f(st, -1)


def _techs_level(level: int) -> Callable[[GameState], int]:
    return lambda st: sum(1 for t in st.techs if st.book.cards[t].level == level)


def _vp(st: GameState) -> int:
    return score_sheet(st).total


def _evaluators() -> dict[str, Callable[[GameState], int]]:
    out: dict[str, Callable[[GameState], int]] = {}
    for name in COUNTERS:
        if name in CARD_COUNTERS:
            out[name] = _card_counter(name)
    out["past.rotated"] = lambda st: st.rotated
    out["techs.level1"] = _techs_level(1)
    out["techs.level2"] = _techs_level(2)
    out["vp"] = _vp
    return out


#: How each goal counter is read from a state (a constant table, built once at import).
_EVAL: Final[dict[str, Callable[[GameState], int]]] = _evaluators()


def counter_value(st: GameState, name: str) -> int:
    """The value of a goal counter now (RULES.md section 8: goals are checked at the end)."""
    return _EVAL[name](st)


def evaluate(goal: Goal, st: GameState) -> bool:
    """Whether the goal holds in this state."""
    if isinstance(goal, Clause):
        return goal.holds(counter_value(st, goal.counter))
    if isinstance(goal, And):
        return all(evaluate(p, st) for p in goal.parts)
    return any(evaluate(p, st) for p in goal.parts)


def shortfall(goal: Goal, st: GameState) -> int:
    """How far the state is from meeting the goal (0 when met): for a comparison the distance
    of its count to the threshold, summed over an "and", the least over an "or". A search uses
    it to rank lines that miss a goal."""
    if isinstance(goal, Clause):
        v, t = counter_value(st, goal.counter), goal.value
        gap = {">=": t - v, ">": t + 1 - v, "<=": v - t, "<": v - t + 1, "==": abs(v - t)}
        return max(0, gap[goal.op])
    if isinstance(goal, And):
        return sum(shortfall(p, st) for p in goal.parts)
    return min(shortfall(p, st) for p in goal.parts)


def chest_goal(st: GameState, letter: int) -> Goal:
    """The goal of chest `letter` in this game's chest data (RULES.md section 8)."""
    data = st.setup.chest_data
    if data is None:
        raise GoalError(f"chest {CHEST_LETTERS[letter]}: this game has no chest data")
    return data.chests[letter].goal


def goals_met(st: GameState) -> bool:
    """True when every goal chest in an artifact space is met (no chests: always)."""
    return all(evaluate(chest_goal(st, k), st) for k in st.goal_chests)


def goal_shortfall(st: GameState) -> int:
    """The summed shortfall of every goal chest (0: all met)."""
    return sum(shortfall(chest_goal(st, k), st) for k in st.goal_chests)


def goals_json(st: GameState) -> list[dict[str, Any]]:
    """Each goal chest, left to right: ``{"chest": letter, "goal": text, "met": bool}``."""
    return [{"chest": CHEST_LETTERS[k], "goal": str(chest_goal(st, k)),
             "met": evaluate(chest_goal(st, k), st)} for k in st.goal_chests]
