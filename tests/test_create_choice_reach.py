"""A Create whose card is being chosen (``D_CREATE_CARD`` pending) creates one of its options
(`solver.bounds.reachable.reach`): the cards out of play that are not among them bring nothing,
and the simple bound stays at least the optimum."""

from __future__ import annotations

import pytest

from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import Reach, reach
from solver.bounds.simple import decline_phases_left, simple_upper_bound
from solver.engine import actions as A
from solver.engine.frames import D_ACTION, D_CREATE_CARD
from solver.engine.state import GameState
from tests.builder import position
from tests.test_endgame import plain_optimum


def _choosing(hand: list[str], deck_top: list[str]) -> GameState:
    """The last turn's last action, Create taken: the card to create is being chosen."""
    st = position(hand=hand, timeline={2: ["C3"]}, past=["C4"], time_space=1, time_visits=2,
                  turn=16, deck_top=deck_top)
    st.stack.remove(next(fr for fr in st.stack if fr[0] == D_ACTION))
    st.apply(A.code(A.ACT, A.CREATE))
    assert st.stack[-1][0] == D_CREATE_CARD
    return st


def _reach(st: GameState) -> Reach:
    facts = pool_facts(st)
    return reach(st, facts.activators, decline_phases_left(st), facts.poulnabrone)


def test_cards_out_of_hand_bring_nothing() -> None:
    """Tikal Temple I (P14: its immediate effect learns) and Masuda Iwafune (M27: creates) on
    the deck's top cannot be the card created from this hand: no Learn, one Create. In hand,
    Tikal Temple I's Learn counts (and what the technology it learns may grant)."""
    r = _reach(_choosing(["M2", "C13", "C14"], ["P14", "M27"]))
    assert (r.creates, r.learns) == (1, 0)
    assert _reach(_choosing(["M2", "P14", "C13", "C14"], ["M27"])).learns >= 1


@pytest.mark.parametrize("hand", [["M2", "C13", "C14"], ["M2", "P14", "C13", "C14", "C15"]])
def test_bound_at_least_the_optimum(hand: list[str]) -> None:
    st = _choosing(hand, ["P14", "M27"] if "P14" not in hand else ["M27"])
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert simple_upper_bound(st, pool_facts(st)) >= best
