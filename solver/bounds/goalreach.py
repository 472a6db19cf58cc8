"""Whether the goal chests can still be met after the last decline, given how many Creates,
Learns and removals a line can still make (`solver.bounds.reachable`): the simple bound drops
the counts that cannot meet them (`solver.bounds.simple`).

A goal is checked at the end (RULES.md section 8). After the last decline that moves monuments
(`solver.guidance.endgame.after_last_decline`) the counters a goal reads move only within
ranges that the counts of what is still reachable give:

* the Past's counts (``past.*`` but ``past.rotated``) never change again: a card enters the
  Past only by declining and never leaves it (section 4C step 2);
* the Timeline's counts only grow, by one per Create of a monument (section 5): a monument
  leaves the Timeline only by declining, and a move keeps it there (`solver.engine.targets`);
  at most 12 monuments fit (6 spaces, 2 places; `solver.bounds.endrules.TIMELINE_PLACES`);
* the collection's counts only grow, by one per Learn (the collection never loses a
  technology, section 5);
* the artifacts on the board grow by one per Create of an artifact, and may fall (an effect may
  discard them): from 0 up;
* lost knowledge never grows again (section 4C step 2 is its only source) and falls by the
  removals still reachable (D22), never below 0.

Any other counter (VP, tokens, rotated Past monuments) may take any value. A goal that no value
in these ranges meets is never met by a line with these counts: no such line wins the trial.
"""

from __future__ import annotations

from typing import Final

from solver.bounds.endrules import TIMELINE_PLACES
from solver.engine.cards import Clause
from solver.engine.goal_check import chest_goal, counter_value
from solver.engine.goals import And, Goal
from solver.engine.state import GameState

#: The Past's counters that no longer change after the last decline.
FIXED: Final = frozenset({"past.city", "past.megalith", "past.pyramid", "past.any",
                          "past.max_type", "past.min_type", "past.endgame"})
TIMELINE: Final = frozenset({"timeline.city", "timeline.megalith", "timeline.pyramid",
                             "timeline.any", "timeline.min_type"})
TECHS: Final = frozenset({"techs.ancient", "techs.secret", "techs.writing", "techs.any",
                          "techs.min_type", "techs.max_type", "techs.level1", "techs.level2"})


def counter_range(st: GameState, counter: str, creates: int, learns: int, art_creates: int,
                  lost_removed: int) -> tuple[int, int] | None:
    """The values `counter` can end at after the last decline with at most these Creates of
    monuments, Learns, Creates of artifacts and removals of lost knowledge (see the module);
    None when nothing bounds it."""
    if counter in FIXED:
        v = counter_value(st, counter)
        return v, v
    if counter in TIMELINE:
        v = counter_value(st, counter)
        top = v + creates
        return v, min(TIMELINE_PLACES, top) if counter == "timeline.any" else top
    if counter in TECHS:
        v = counter_value(st, counter)
        return v, v + learns
    if counter == "artifacts":
        return 0, counter_value(st, counter) + art_creates
    if counter == "lost":
        return max(0, st.lost - lost_removed), st.lost
    return None


def may_hold(goal: Goal, st: GameState, creates: int, learns: int, art_creates: int,
             lost_removed: int) -> bool:
    """False when no value of the goal's counters within their ranges (`counter_range`) meets
    `goal`; True otherwise (it may be met)."""
    if isinstance(goal, Clause):
        rng = counter_range(st, goal.counter, creates, learns, art_creates, lost_removed)
        if rng is None:
            return True
        lo, hi = rng
        t = goal.value
        op = goal.op
        if op == ">=":
            return hi >= t
        if op == ">":
            return hi > t
        if op == "<=":
            return lo <= t
        if op == "<":
            return lo < t
        return lo <= t <= hi  # "=="
    if isinstance(goal, And):
        return all(may_hold(p, st, creates, learns, art_creates, lost_removed)
                   for p in goal.parts)
    return any(may_hold(p, st, creates, learns, art_creates, lost_removed) for p in goal.parts)


def goals_may_hold(st: GameState, creates: int, learns: int, art_creates: int,
                   lost_removed: int) -> bool:
    """Whether every goal chest in an artifact space may still be met (`may_hold`); call only
    after the last decline."""
    return all(may_hold(chest_goal(st, k), st, creates, learns, art_creates, lost_removed)
               for k in st.goal_chests)
