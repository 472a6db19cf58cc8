"""The goal chests after the last decline (RULES.md section 8, issue 13): the counters a goal
reads move only within ranges that the Creates, Learns and removals still reachable give
(`solver.bounds.goalreach`), so the simple bound leaves out the splits of the actions left
that cannot meet every goal, and says no line exists when none can."""

from __future__ import annotations

import math

import pytest

from solver.bounds.bound import SimpleBound
from solver.bounds.goalreach import counter_range, may_hold
from solver.bounds.poolfacts import pool_facts
from solver.bounds.simple import NO_LINE, as_bound, simple_upper_bound
from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import Clause
from solver.engine.goal_check import chest_goal
from solver.engine.goals import And, Or
from solver.engine.state import GameState
from tests.builder import position
from tests.test_chests import with_chests
from tests.test_endgame import plain_optimum

MIRINA = CHEST_LETTERS[2]  # the shipped Chest from Mirina: 5 or more monuments in the Timeline
TILES = ["T9", "T23", None, None, None, None, "T44", "T30", "T45"]


def _last_turn(timeline: dict[int, list[str]], goal: bool = True) -> GameState:
    """The last turn's action phase, two actions left, C1 and C2 in hand, 16 lost knowledge
    (Phoenician Alphabet, T44: 4 VP, and Thoth, T30: 2 VP, may be learned)."""
    st = position(hand=["C1", "C2"], timeline=timeline, past=["C7"], tiles=TILES, lost=16,
                  time_space=1, time_visits=2, turn=16, deck_top=["C8", "C9", "C10"])
    return with_chests(st, goals=(MIRINA,)) if goal else st


def test_the_shipped_goal_is_the_one_these_tests_read() -> None:
    st = _last_turn({2: ["C3"], 3: ["C4"], 4: ["C5", "C6"]})
    assert chest_goal(st, st.goal_chests[0]) == Clause("timeline.any", ">=", 5)


def test_counter_ranges_after_the_last_decline() -> None:
    """The Past is final, the Timeline grows by the Creates (at most 12), the collection by the
    Learns, lost knowledge falls by the removals (never below 0) and never grows; VP is not
    bounded here."""
    st = _last_turn({2: ["C3"], 3: ["C4"], 4: ["C5", "C6"]})
    assert counter_range(st, "past.any", 3, 2, 1, 5) == (1, 1)
    assert counter_range(st, "timeline.any", 3, 2, 1, 5) == (4, 7)
    assert counter_range(st, "timeline.any", 30, 2, 1, 5) == (4, 12)
    assert counter_range(st, "techs.any", 3, 2, 1, 5) == (0, 2)
    assert counter_range(st, "lost", 3, 2, 1, 5) == (11, 16)
    assert counter_range(st, "lost", 3, 2, 1, 50) == (0, 16)
    assert counter_range(st, "artifacts", 3, 2, 1, 5) == (0, 1)
    assert counter_range(st, "vp", 3, 2, 1, 5) is None


@pytest.mark.parametrize(("goal", "creates", "holds"), [
    (Clause("timeline.any", ">=", 5), 0, False),
    (Clause("timeline.any", ">=", 5), 1, True),
    (Clause("timeline.any", ">", 5), 1, False),
    (Clause("past.any", ">=", 2), 9, False),
    (Clause("lost", "<=", 10), 0, False),  # 16 lost knowledge, at most 5 removed
    (Clause("lost", "<=", 11), 0, True),
    (Clause("lost", "==", 17), 0, False),
    (Clause("vp", ">=", 500), 0, True),  # not bounded here: may hold
    (And((Clause("timeline.any", ">=", 5), Clause("past.any", ">=", 1))), 1, True),
    (And((Clause("timeline.any", ">=", 5), Clause("past.any", ">=", 2))), 1, False),
    (Or((Clause("timeline.any", ">=", 5), Clause("past.any", ">=", 2))), 0, False),
    (Or((Clause("timeline.any", ">=", 5), Clause("past.any", ">=", 1))), 0, True),
])
def test_may_hold_reads_the_ranges(goal: Clause | And | Or, creates: int, holds: bool) -> None:
    st = _last_turn({2: ["C3"], 3: ["C4"], 4: ["C5", "C6"]})
    assert may_hold(goal, st, creates, 2, 1, 5) is holds


def test_splits_that_cannot_meet_the_goal_are_left_out() -> None:
    """Four monuments in the Timeline and the goal asks five: a line that spends both actions
    on Learns (the best split without the goal: Phoenician Alphabet and Thoth) misses it, so
    the bound drops, and stays at least the optimum of the lines that meet it."""
    timeline = {2: ["C3"], 3: ["C4"], 4: ["C5", "C6"]}
    free = simple_upper_bound(_last_turn(timeline, goal=False))
    st = _last_turn(timeline)
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert best <= simple_upper_bound(st, pool_facts(st)) < free


def test_no_split_meets_the_goal_means_no_line() -> None:
    """Two monuments in the Timeline, two actions and nothing that grants a Create: five
    monuments cannot be reached, so no line wins; the bound says so (``-inf`` to the search)
    and a search with no bound finds none."""
    st = _last_turn({2: ["C3"], 3: ["C4"]})
    assert simple_upper_bound(st, pool_facts(st)) == NO_LINE
    assert SimpleBound().upper_bound(st) == -math.inf == as_bound(NO_LINE)
    complete, best = plain_optimum(st)
    assert complete and best is None
