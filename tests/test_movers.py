"""The entries into space 1 during the decline phases still to come (`solver.bounds.movers`):
at most one per decline effect that can create or move a monument, or learn a technology that
can (as many as such technologies not yet learned); and the simple bound with that count stays
at least the exact optimum."""

from __future__ import annotations

import dataclasses

import pytest

from solver.bounds.movers import mover_facts, phase_entries
from solver.bounds.poolfacts import pool_facts
from solver.bounds.simple import decline_phases_left, simple_upper_bound
from solver.engine.frames import D_ACTION, F_DECLINE_PHASE, F_TECH_PHASE, F_TIMELINE_PHASE
from solver.engine.state import GameState
from solver.search.exhaustive import SearchConfig, search
from solver.search.protocol import PlainGame
from solver.search.status import Status
from tests.builder import idx, position

LEARNERS = ["M34", "P7", "P9", "P10"]  # decline effects that learn


def _turn15(past: list[str], hand: list[str], space1: list[str], phase: str = "action",
            space3: tuple[str, ...] = ("C3",), one_action: bool = False) -> GameState:
    pending = [(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,), (D_ACTION, 1)]
    return position(hand=hand, timeline={1: space1, 3: list(space3)}, past=past,
                    techs=["T1", "T2", "T5"], time_space=2, time_visits=2, turn=15, phase=phase,
                    deck_top=["C6", "C7", "C8", "C9"], pending=pending if one_action else None,
                    tiles=[None] * 9 if one_action else None)


def test_the_pool_is_read_by_moment() -> None:
    """Ajanta Caves and Gunung Padang move, Menhirs of Monteneuf creates, on their decline;
    four decline effects learn; two technologies move a monument when learned."""
    st = _turn15([], [], ["M1"])
    f = mover_facts(st.book.cards, st.setup.card_pool(st.book))
    code = {c.index: c.code for c in st.book.cards}
    assert sorted(code[c] for c in f.movers) == ["C15", "M11", "P12"]
    assert sorted(code[c] for c in f.learners) == sorted(LEARNERS)
    assert sorted(code[c] for c in f.techs) == ["T10", "T16"]
    assert f.wild == ()


def _entries(past: list[str], phase: str = "action") -> int | None:
    st = _turn15(past, [], ["M1", "P5"], phase=phase)
    facts = pool_facts(st)
    assert facts.mover_facts is not None
    return phase_entries(st, facts.mover_facts)


def test_one_entry_per_decline_effect_that_can_move() -> None:
    """Each of the three decline movers out of the Past adds one; the decline Learns add as
    many as the moving technologies not yet learned (2), however many learners; the immediate
    movers (Dolmen of Menga, Lopburi Temple...) and Poulnabrone Dolmen add nothing of their
    own: they act inside a decline effect, whose entries are one at most."""
    assert _entries([]) == 3 + 2
    assert _entries(["M11", "M36"]) == 2 + 2
    assert _entries(["M11", *LEARNERS]) == 2
    assert _entries(["M11", "C15", "P12", *LEARNERS[1:]]) == 1
    assert _entries(["M11", "C15", "P12", *LEARNERS]) == 0
    assert _entries(["M11"], phase="decline") == _entries(["M11"]) == 2 + 2


def _optimum(st: GameState, nodes: int) -> float:
    """The optimum by a search with no bound (complete within `nodes`)."""
    res = search(st.clone(), SearchConfig(max_nodes=nodes), game=PlainGame())
    assert res.status is Status.OPTIMAL and res.value is not None
    return res.value


CASES = [
    (["M11", "M36"], ["C2"], ["C15", "M1"]),                # Ajanta Caves moves on decline
]


def _check(past: list[str], hand: list[str], space1: list[str], nodes: int) -> None:
    st = _turn15(past, hand, space1, space3=("M7", "C3"), one_action=True)
    assert decline_phases_left(st) == 1 and not st.in_decline
    assert idx(st, space1[0]) in st.spaces[0]
    assert simple_upper_bound(st, pool_facts(st)) >= _optimum(st, nodes)


@pytest.mark.parametrize(("past", "hand", "space1"), CASES)
def test_bound_at_least_the_optimum_from_the_last_action(
        past: list[str], hand: list[str], space1: list[str]) -> None:
    """Turn 15's last action (the last decline phase still to come, D8): the bound with the
    count is at least the optimum of a search with no bound."""
    _check(past, hand, space1, 400_000)


@pytest.mark.parametrize("turn", [14, 15])
def test_a_card_with_a_trigger_of_another_kind_leaves_every_decline_open(turn: int) -> None:
    """A card alive with an effect of another trigger that creates, moves or learns (none the
    card loader admits: its triggers are Create, Learn and Excavate, set off inside an effect)
    makes the entries unknown: the bound then lets every monument out of the Past decline, so it
    is never below the bound with the entries counted (which only restricts), and above it where
    the count binds. Here every monument that can create, move or swap one is in the Past: the
    entries left are the decline Learns' (2, for Planetary Grid and Sator Square)."""
    movers = ["C13", "C14", "C15", "M11", "M18", "M27", "M36", "P12", "P23"]
    st = position(timeline={1: ["M1", "P5"], 4: ["M7", "C3"]}, past=movers,
                  techs=["T1", "T2", "T5"], time_space=17 - turn, time_visits=2, turn=turn,
                  deck_top=["C6", "C7", "C8", "C9"])
    assert decline_phases_left(st) == 16 - turn
    facts = pool_facts(st)
    wild = dataclasses.replace(facts, mover_facts=dataclasses.replace(
        facts.mover_facts, wild=(idx(st, "M7"),)))
    assert phase_entries(st, facts.mover_facts) == 2
    assert phase_entries(st, wild.mover_facts) is None
    counted, unknown = simple_upper_bound(st, facts), simple_upper_bound(st, wild)
    assert unknown > counted
