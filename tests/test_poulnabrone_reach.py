"""Poulnabrone Dolmen (M36) out of play doubles no Create until a Create of it
(`solver.bounds.reachable._split`, ``LATER``): the count is tighter where no Create is left
open for it, and the simple bound stays at least the optimum."""

from __future__ import annotations

import pytest

from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import reach
from solver.bounds.simple import decline_phases_left, simple_upper_bound
from solver.engine import actions as A
from solver.engine.frames import D_ACTION, D_PAY, F_DECLINE_PHASE, F_TECH_PHASE, F_TIMELINE_PHASE
from solver.engine.state import GameState
from solver.search.status import Status
from solver.solve import SolveConfig, solve
from tests.builder import idx, names_of, play, position
from tests.test_endgame import plain_optimum

PAST = ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "C11"]  # 11: M36 counts
#: the Past of the audited position below (11 cards)
PAST_OF_T5 = ["C2", "C11", "C35", "M11", "M17", "M19", "M20", "M22", "P10", "P14", "P17"]


def _last_turn(where: str, actions: int) -> GameState:
    """The last turn, `actions` action choices left, 11 cards in the Past, Menhir di Monte
    Corru Tundu (M2, cost 1) and two more cards in hand; M36 in the discard pile, in hand, in
    the Timeline or in the Past."""
    st = position(hand=["M2", "C12", "C13", *(["M36"] if where == "hand" else [])],
                  timeline={2: ["C14"], **({3: ["M36"]} if where == "timeline" else {})},
                  discard=["M36"] if where == "discard" else [],
                  past=[*PAST, *(["M36"] if where == "past" else [])], time_space=1,
                  time_visits=2, turn=16, deck_top=["C15", "C16"])
    while sum(1 for fr in st.stack if fr[0] == D_ACTION) > actions:
        st.stack.remove(next(fr for fr in st.stack if fr[0] == D_ACTION))
    return st


def _paying(st: GameState) -> GameState:
    """`st` after choosing to create M2 in its starting space, 4 (its cost, 1 card of 2,
    still to pay)."""
    st = st.clone()
    st.apply(A.code(A.ACT, A.CREATE))
    st.apply(A.code(A.CARD, idx(st, "M2")))
    st.apply(A.code(A.SPACE, 4))
    assert st.stack[-1][0] == D_PAY
    return st


def _creates(st: GameState) -> int:
    facts = pool_facts(st)
    return reach(st, facts.activators, decline_phases_left(st), facts.poulnabrone).creates


def test_out_of_play_doubles_nothing_without_an_open_create() -> None:
    """The last action's Create of a chosen card: M36 in the discard pile or in hand cannot
    be created any more (no Create is left whose card is not chosen): one Create, not two; in
    the Timeline it doubles it (and the Creates its doubling may open to other cards)."""
    assert _creates(_paying(_last_turn("discard", 1))) == 1
    assert _creates(_paying(_last_turn("hand", 1))) == 1
    assert _creates(_paying(_last_turn("timeline", 1))) >= 2


def test_out_of_play_doubles_while_a_create_is_open() -> None:
    """With a second action left M36 (in hand) may be created, then double: still counted,
    twice the count with M36 in the Past (never in play again) at least."""
    assert _creates(_paying(_last_turn("hand", 2))) >= 2 * _creates(_paying(_last_turn("past", 2)))


@pytest.mark.parametrize("where", ["discard", "hand", "timeline"])
@pytest.mark.parametrize("actions", [1, 2])
def test_bound_at_least_the_optimum(where: str, actions: int) -> None:
    """Admissible from the start of the actions and from the Create under way (two actions:
    only from there, the whole tree is too big for a search with no bound)."""
    starts = [_paying(_last_turn(where, actions))]
    if actions == 1:
        starts.append(_last_turn(where, actions))
    for st in starts:
        complete, best = plain_optimum(st)
        assert complete and best is not None
        assert simple_upper_bound(st, pool_facts(st)) >= best, (where, actions)


def test_a_decline_still_to_come_may_bring_the_past_to_eleven() -> None:
    """Turn 15, its decline phase still to come (the last one, D8), 10 cards in the Past and two
    monuments in space 1: the phase may bring the Past to 12, so M36 in the Timeline doubles the
    Creates after it (M36: with at least 11 cards in the Past), as with 11 already; in the Past
    itself (one of the 10) it doubles none."""
    def creates(past: list[str], where: str) -> int:
        st = position(hand=["M2", "C12", "C13"],
                      timeline={1: ["C14", "C15"], **({3: ["M36"]} if where == "timeline" else {})},
                      past=past, time_space=2, time_visits=2, turn=15, deck_top=["C16", "C17"])
        assert decline_phases_left(st) == 1
        return _creates(st)

    ten = creates(PAST[:10], "timeline")
    assert ten == creates(PAST, "timeline")
    assert ten > creates([*PAST[:9], "M36"], "past")


def test_an_extra_create_queued_after_its_create_still_counts() -> None:
    """Turn 16's last action creates Pyramid of Neferirkare (P30) in space 5, Poulnabrone
    Dolmen (M36) in play and 11 cards in the Past: M36's extra Create and Genetic Disk's (A24)
    removal are queued, their order to choose (section 5). The Create is made (P30 placed, no
    longer in flight) and the extra Create not yet asked: it still counts, one Create of a
    monument (Parthenon, C10, free in its starting space: one more monument in the Timeline).
    Seen in the proof audit (t5-h3-s4, NRPA's line, turn 16: the bound 30, the optimum 31, and
    a false OPTIMAL from the Create's space choice)."""
    st = position(hand=["C10", "P30"], timeline={1: ["TIME", "P31"], 2: ["P4", "C22"], 5: ["M36"]},
                  tokens={"P31": 2, "P4": 4, "C22": 1}, past=PAST_OF_T5, artifacts=["A24"],
                  lost=12, turn=16, time_visits=2,
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,), (D_ACTION, 1)])
    play(st, "create", "P30")
    choosing_space = st.clone()
    play(st, "s5")
    assert names_of(st) == ["!M36", "!A24"]
    assert _creates(st) >= 1
    complete, best = plain_optimum(st)
    assert complete and best == st.score().total + 1
    assert simple_upper_bound(st, pool_facts(st)) >= best
    for kind in ("simple", "cpsat"):  # the solver's proof from the space choice
        res = solve(choosing_space, SolveConfig(node_limit=100_000, exact_first_phases=99,
                                                exact_first_share=1.0, bound=kind, workers=1))
        assert (res.status, res.value) == (Status.OPTIMAL, best), kind
