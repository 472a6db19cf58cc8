"""After the last decline, technologies whose lost-knowledge requirement can never be met again
are no candidates of the simple bound (`solver.bounds.simple._learnable_later`)."""

from __future__ import annotations

import pytest

from solver.bounds.poolfacts import pool_facts
from solver.bounds.simple import _learnable_later, decline_phases_left, simple_upper_bound
from solver.engine import actions as A
from solver.engine.frames import D_ACTION, D_LEARN
from solver.engine.state import GameState
from tests.builder import idx, position
from tests.test_endgame import SEEDS, plain_optimum, random_line
from tests.test_relaxation import endgame

TILES = ["T3", "T44", "T12", "T13", None, None, None, None, None]  # T44: lost >= 15


def _one_action_left(lost: int, candi: bool, free: bool = False) -> GameState:
    """The last turn, one action left; M34 (a Learn that ignores requirements) and P19 (Candi
    Sukuh) in the Past (they never act again) unless `free` / `candi` put them in play."""
    past = ["M1", "P5"] + ([] if free else ["M34"]) + ([] if candi else ["P19"])
    timeline = {3: ["P19"]} if candi else {}
    if free:
        timeline.setdefault(2, []).append("M34")
    st = position(hand=["C1"], timeline=timeline, past=past, lost=lost, techs=["T1", "T2", "T5"],
                  tiles=TILES, time_space=1, time_visits=2, turn=16, deck_top=["C6", "C7"])
    st.apply(A.ACT_SEARCH)
    return st


@pytest.mark.parametrize("lost", [13, 14, 15, 16])
@pytest.mark.parametrize("candi", [False, True])
def test_lost_requirement_filter_and_bound(lost: int, candi: bool) -> None:
    """T44 asks for 15 lost knowledge: with no decline left lost knowledge never grows (RULES.md
    section 4C step 2), so below 15 it is out (below 14 with Candi Sukuh out of the Past, D19);
    the bound stays at least the optimum either way."""
    st = _one_action_left(lost, candi)
    assert decline_phases_left(st) == 0
    facts = pool_facts(st)
    later = _learnable_later(st, facts)
    assert later is not None
    assert (idx(st, "T44") in later) == (lost >= (14 if candi else 15))
    assert idx(st, "T3") in later
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert simple_upper_bound(st, facts) >= best


def test_a_learn_that_ignores_requirements_keeps_every_candidate() -> None:
    """A Learn that ignores requirements under way: no filter. M34 (Montguyon Dolmen: on
    decline, learn ignoring requirements) in the Timeline at the last turn never declines (the
    game ends at the decline phase, D8): the filter holds, and the bound stays at least the
    optimum."""
    free = _one_action_left(10, False, free=True)
    facts = pool_facts(free)
    later = _learnable_later(free, facts)
    assert later is not None and idx(free, "T44") not in later and idx(free, "T3") in later
    assert idx(free, "M34") not in facts.free_learners
    complete, best = plain_optimum(free)
    assert complete and best is not None
    assert simple_upper_bound(free, facts) >= best
    st = _one_action_left(10, False)
    st.stack = [fr for fr in st.stack if fr[0] != D_ACTION] + [(D_LEARN, False, True, 1)]
    assert _learnable_later(st, pool_facts(st)) is None


@pytest.mark.parametrize("seed", SEEDS)
def test_every_technology_learned_later_was_a_candidate(seed: int) -> None:
    """Along random end-game lines: every technology that enters the collection after a
    position with no decline left was in that position's `_learnable_later` (or no filter)."""
    st = endgame(seed)
    facts = pool_facts(st)
    line = random_line(st, seed, 60)
    for i, pos in enumerate(line):
        if decline_phases_left(pos) != 0:
            continue
        later = _learnable_later(pos, facts)
        if later is None:
            continue
        final = set(line[-1].techs)
        assert final - set(pos.techs) <= later, (seed, i)
