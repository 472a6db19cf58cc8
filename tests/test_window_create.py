"""The window with one Create in it (`solver.bounds.windowcreate`): Menhirs of Monteneuf's (M11)
decline effect creates a monument from the hand. Every card and space is a start of its own; a
card created in space 1 declines at once (its knowledge may convert, a mover among them moves
one); lost knowledge's range is worked out start by start (`declined_knowledge`). Checked
against exact searches from crafted and generated positions."""

from __future__ import annotations

import pytest

from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import ReachMemo
from solver.bounds.window import last_windows
from solver.bounds.windowcards import present_for_all
from solver.bounds.windowwork import declined_knowledge, least_entering, tally
from solver.engine.state import GameState
from solver.rng import Stream
from tests.test_window import WINDOW_ARTIFACTS, _check, _check_into_window, _timeline_phase

#: Seven monuments in the Past: the middle of the game is behind (a card created in space 1
#: declines into the Past without a flip).
PAST7 = ("P1", "M3", "M4", "M5", "M6", "C11", "C12")


def _code(st: GameState, card: int) -> str:
    return st.book.cards[card].code


def _menhirs(hand: list[str], tokens: dict[str, int] | None = None, lost: int = 4,
             space1: tuple[str, ...] = ("M11",), past: tuple[str, ...] = PAST7) -> GameState:
    """Turn 15's Timeline phase with M11 (and `space1`'s others) to decline, Planetary Stone's
    and Tzolk'in's effects queued (A3, A9: discards and removals)."""
    return _timeline_phase(["A3", "A9"], list(space1), tokens or {"M11": 1, "C3": 2}, hand,
                           lost=lost, past=past)


def test_a_decline_create_opens_a_window() -> None:
    """M11 may create P24 or M29 from the hand into any space with a free place: one start
    where it creates nothing and one per card and space; the bound holds the optimum."""
    st = _menhirs(["P24", "M29", "C2"])
    ws = last_windows(st)
    assert ws is not None
    created = {(_code(st, c), s + 1) for w in ws for s, items in enumerate(w.start.spaces)
               for c in items if c >= 0 and _code(st, c) in ("P24", "M29")}
    assert ("M29", 1) in created and ("P24", 2) in created  # spaces 2 and 3 of turn 15
    assert any(_code(st, c) in ("P24", "M29") for w in ws for c in w.start.past)  # space 1
    assert _check(st)


def test_the_create_is_counted_as_one() -> None:
    """The tally counts M11's Create (it runs in the decline phase) instead of closing."""
    work = tally(_menhirs(["P24"]), 0, False)
    assert work.fits and work.creates == 1


def test_a_card_created_in_space_one_converts_its_knowledge() -> None:
    """Created in space 1, M29 (3 knowledge) declines at once: on that start lost knowledge
    may end 3 higher (its cost there, 3 cards, paid from the other three); on the others it
    does not grow by it."""
    st = _menhirs(["M29", "C2", "C4", "C5"], {"M11": 1, "C3": 2}, lost=4)
    ws = last_windows(st)
    assert ws is not None
    into = [w for w in ws if any(_code(st, c) == "M29" for c in w.start.past)]
    rest = [w for w in ws if w not in into]
    assert into and rest
    assert max(w.lost_hi for w in into) == 4 + 1 + 3
    assert max(w.lost_hi for w in rest) == 4 + 1
    assert _check(st)


def test_a_created_mover_moves_one() -> None:
    """C15 created in space 1 declines and moves another monument (C3 into space 1 too): the
    move's outcomes are starts of their own; the bound holds the optimum."""
    st = _menhirs(["C15", "C2", "C4"])
    ws = last_windows(st)
    assert ws is not None
    moved_in = [w for w in ws if any(_code(st, c) == "C3" for c in w.start.past)]
    assert moved_in  # C3 moved into space 1 by C15, and declined
    assert _check(st)


def test_before_the_middle_of_the_game_it_stays_shut() -> None:
    """With 2 monuments in the Past a card created in space 1 could flip the middle of the
    game (section 6): the window stays shut."""
    assert last_windows(_menhirs(["M29", "C2", "C4", "C5"], past=("P1", "M3"))) is None
    assert last_windows(_menhirs(["M29"], past=("P1", "M3"))) is not None  # not there: cost


def test_declined_knowledge_reads_the_past() -> None:
    """The knowledge that may become lost on the way to a start is that of the monuments new
    in its Past: held now, or (created) the printed value down to what reductions leave."""
    st = _menhirs(["M29"], {"M11": 2, "C3": 1})
    ws = last_windows(st)
    assert ws is not None
    m29 = next(c for c in range(len(st.book.cards)) if _code(st, c) == "M29")
    for w in ws:
        most, least = declined_knowledge(st, w.start)
        if m29 in w.start.past:
            assert (most, least) == (2 + 3, 2 + least_entering(st, m29))
        else:
            assert most == least == 2


def test_kept_cards_for_all_are_the_same() -> None:
    """The cards for all of each start, kept across positions (`present_for_all` with `kept`,
    as windows with a Create's many starts ask), are those worked out afresh."""
    st = _menhirs(["P24", "M29", "C2", "C4"])
    ws = last_windows(st)
    assert ws is not None and len(ws) > 4
    facts, memo = pool_facts(st), ReachMemo()
    counted = 0
    for w in ws:
        fresh = present_for_all(w, st, facts, memo)
        assert present_for_all(w, st, facts, memo, kept=True) == fresh
        assert present_for_all(w, st, facts, memo, kept=True) == fresh  # from the memo
        counted += fresh is not None
    assert memo.present and counted


#: Monuments for the hand (cheap and costly ones, a mover, a city that vanishes with
#: knowledge, one whose immediate effect creates: it closes the window).
HAND = ("P24", "M29", "C15", "C25", "M18", "P30", "P26", "M19", "C2", "C4")


@pytest.mark.parametrize("seed", range(10))
def test_at_least_the_optimum_where_a_card_may_be_created(seed: int) -> None:
    """From generated Timeline phases with M11 in space 1 (another monument beside it on some)
    and a hand of 2-4 cards, random play into the window: the bound is at least the optimum."""
    rng = Stream(seed, "window-create", 0)
    arts = rng.shuffled(list(WINDOW_ARTIFACTS))[:1 + rng.below(2)]
    space1 = ["M11", *(["M1"] if rng.below(2) else [])]
    hand = rng.shuffled(list(HAND))[:2 + rng.below(3)]
    tokens = {m: rng.below(4) for m in (*space1, "C3")}
    st = _timeline_phase(arts, space1, tokens, hand, lost=rng.below(9), past=PAST7)
    _check_into_window(st, Stream(seed, "window-create-play", 0))
