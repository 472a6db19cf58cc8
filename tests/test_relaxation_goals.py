"""The goal chests in the relaxation (relaxation 9, `solver.bounds.cpsat.goals`): each kind of
goal formula (an "at most" clause, And, Or) and the campaign's "one goal is enough", on
positions where the goal cannot be met (the model must say INFEASIBLE, as the exact search does)
or where only another goal can (it must not).

Found missing by session 55's mutation sample: dropping the "at most" clause of the Coffer of
Knossos (Е: at most 6 lost knowledge), the parts of an And (О) or of an Or (П), the campaign's
"one of them", the cap of the final artifacts or of the final rotated monuments, and forcing an
"at most" clause or an Or's parts outside its goal's literal, all passed every test before.
"""

from __future__ import annotations

import pytest

from solver.bounds.cpsat.relaxation import RelaxConfig, relax
from solver.bounds.cpsat.schedule import phase_of
from solver.engine.state import GameState
from tests.builder import position
from tests.test_chests import with_chests
from tests.test_relaxation import exact

CFG = RelaxConfig(max_deterministic_time=1.0)
# Cards without an effect on lost knowledge, the Past or the artifacts, on top of the deck.
HARMLESS = ["C1", "C2", "C3", "C4", "C5", "C6"]


def _with_goals(st: GameState, letters: str, campaign: bool = False) -> GameState:
    """`st` with these goal chests in the first free artifact spaces (RULES.md section 8)."""
    return with_chests(st, goals=tuple(letters), campaign=campaign)


def _last_turn(lost: int) -> GameState:
    """The start of the last turn (the time card in space 1, its two visits done: no decline
    any more, D8), an empty hand, Timeline and Past, `lost` lost knowledge, no technology on
    the tiles: its two actions can only Search (nothing to create, learn or excavate)."""
    return position(lost=lost, deck_top=HARMLESS, tiles=[None] * 9,
                    time_space=1, time_visits=2, turn=16)


def _infeasible(st: GameState) -> bool:
    phase = phase_of(st)
    assert phase is not None
    return relax(st, phase, CFG).infeasible


@pytest.mark.parametrize(("letter", "lost", "met"), [
    ("Е", 9, False), ("Е", 6, True),  # at most 6 lost knowledge
    ("О", 9, False), ("О", 4, False),  # at most 4 lost and 3 in the Timeline: the Timeline's 0
    ("П", 0, False),  # 5 rotated in the Past or 3 artifacts: neither
    ("Д", 0, False),  # 2 artifacts
])
def test_a_goal_out_of_reach_is_infeasible(letter: str, lost: int, met: bool) -> None:
    """In the last turn with nothing to create, lost knowledge and the Timeline stay as they
    are (no decline after turn 16's Timeline phase, D8; lost knowledge only comes down by
    effects, none in reach) and no artifact or rotated monument can come: the goal is met or
    missed now, and the relaxation says so as the exact search does (the final counters of
    `counters.final_counters` hold no more than the position can reach)."""
    st = _with_goals(_last_turn(lost), letter)
    complete, best = exact(st)
    assert complete and (best is not None) == met
    assert _infeasible(st) == (not met)


def _campaign(letters: str) -> GameState:
    """A campaign before the middle of the game (RULES.md section 6: the player may still
    discard goal chests, one stays): two turns left, two level II technologies owned (Ж's
    goal met), 9 lost knowledge (Е's out of reach: nothing in reach removes lost knowledge)
    and an empty Past (П's out of reach: nothing to rotate, and four actions cannot draw and
    create three artifacts)."""
    st = position(lost=9, techs=["T28", "T29"], deck_top=HARMLESS, tiles=[None] * 9,
                  time_space=2, time_visits=2, turn=15, midgame=False)
    return _with_goals(st, letters, campaign=True)


def test_campaign_one_goal_met_is_enough() -> None:
    """With Ж met, the campaign is winnable even though Е and П are out of reach (one goal
    stays after the revision); forcing Е's "at most" clause or П's parts whatever the goal's
    literal would say INFEASIBLE."""
    st = _campaign("ЖЕП")
    assert not st.midgame and st.setup.campaign
    assert not _infeasible(st)


def test_campaign_no_goal_met_is_infeasible() -> None:
    """With only Е and П, both out of reach, no goal can stay after the revision."""
    assert _infeasible(_campaign("ЕП"))


def test_rotated_monuments_need_an_excavate() -> None:
    """The Chest of Great Zimbabwe (П: 5 rotated monuments in the Past, or 3 artifacts) with 5
    straight monuments in the Past, the last turn's two actions and two cities to create (C6, C8):
    without the goal both Creates score (4 VP); with it one action must Excavate (D7: it
    rotates the five; a monument is rotated only by an Excavate, RULES.md section 5), so one
    Create (3 VP). The model's final rotated count must come from its Excavates (counting the
    Past's straight monuments as rotated said 4)."""
    def last_turn(goal: str) -> GameState:
        st = position(hand=["C6", "C8"], past=["C11", "C12", "C13", "C14", "C15"],
                      deck_top=[f"M{k}" for k in range(1, 11)], tiles=[None] * 9,
                      time_space=1, time_visits=2, turn=16)
        return _with_goals(st, goal) if goal else st

    assert exact(last_turn("")) == (True, 4.0)
    st = last_turn("П")
    assert exact(st, 50_000) == (True, 3.0)
    phase = phase_of(st)
    assert phase is not None
    assert relax(st, phase, CFG).bound == 3


@pytest.mark.parametrize(("past", "met"), [(4, False), (5, True)])
def test_rotations_after_a_straighten_are_at_most_the_past(past: int, met: bool) -> None:
    """After turn 15's decline (the Timeline empty: no monument comes to the Past any more,
    D8), a Past of `past` rotated monuments, Luddite (A15: discard it to straighten up to 4,
    turn 16's Timeline phase) and П to meet (5 rotated monuments). Luddite then an Excavate
    rotate four monuments again, eight rotations in all, but a Past of four holds at most four
    rotated monuments: infeasible (with five, П is met as it stands)."""
    codes = ["C11", "C12", "C13", "C14", "C15"][:past]
    st = position(past=codes, rotated=past, artifacts=["A15"],
                  deck_top=["C1", "C2", "C3", "C4", "C5", "M1", "M2", "M3"], tiles=[None] * 9,
                  time_space=2, time_visits=2, turn=15, phase="decline")
    st = _with_goals(st, "П")
    complete, best = exact(st, 100_000)
    assert complete and (best is not None) == met
    assert _infeasible(st) == (not met)
