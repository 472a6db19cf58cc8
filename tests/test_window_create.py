"""The window with one Create in it (`solver.bounds.windowcreate`): Menhirs of Monteneuf's (M11)
decline effect creates a monument from the hand, or a chest under the board (Ж) does at any
lightning window left. Every card and space is a start of its own; a card created in space 1
declines at once (its knowledge may convert, a mover among them moves one); lost knowledge's
range is worked out start by start (`declined_knowledge`). Checked against exact searches from
crafted and generated positions."""

from __future__ import annotations

import pytest

from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import ReachMemo
from solver.bounds.window import last_windows, window_moment
from solver.bounds.windowcards import Window, present_for_all
from solver.bounds.windowwork import (
    cannot_run,
    declined_knowledge,
    declined_now,
    early_create,
    least_entering,
    tally,
)
from solver.engine import actions as A
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_WINDOW,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    Frame,
)
from solver.engine.state import GameState
from solver.rng import Stream
from tests.builder import position
from tests.test_window import (
    WINDOW_ARTIFACTS,
    _check,
    _check_into_window,
    _timeline_phase,
    _with_chests,
)

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


#: The rest of turn 15 from its Timeline phase as the engine lays it out (`solver.engine.turn`):
#: a lightning window at the start of the decline phase and of the technology phase.
FROM_TIMELINE: tuple[Frame, ...] = (
    (F_TECH_PHASE,), (D_CHEST_WINDOW,), (F_DECLINE_PHASE,), (D_CHEST_WINDOW,), (F_TIMELINE_PHASE,))
#: The same from its second action: one more window, at the start of the Timeline phase.
FROM_ACTION: tuple[Frame, ...] = (*FROM_TIMELINE, (D_CHEST_WINDOW,), (D_ACTION, 1))


def _sanxingdui(hand: list[str], arts: list[str], space1: list[str], tokens: dict[str, int],
                lost: int, pending: tuple[Frame, ...] = FROM_TIMELINE) -> GameState:
    """Turn 15 with the Chest of Sanxingdui (Ж: create a monument from the hand) under the
    board and the turn's lightning windows to come (`pending`), seven monuments in the Past."""
    st = position(hand=hand, timeline={1: space1, 3: ["C6"]}, tokens=tokens, past=list(PAST7),
                  artifacts=arts, lost=lost, techs=["T1", "T2", "T5"], time_space=2,
                  time_visits=2, turn=15, deck_top=["C8", "C9", "C10", "P3", "M9", "A12"],
                  pending=list(pending), tiles=[None] * 9)
    return _with_chests(st, "Ж")


def _where(st: GameState, ws: list[Window] | tuple[Window, ...], code: str) -> set[int]:
    """The spaces of turn 16's start where `code` is on some start of `ws` (0: the Past)."""
    out = {s + 1 for w in ws for s, items in enumerate(w.start.spaces)
           for c in items if c >= 0 and _code(st, c) == code}
    return out | ({0} if any(_code(st, c) == code for w in ws for c in w.start.past) else set())


def test_a_chest_s_create_is_followed_at_each_window() -> None:
    """Ж may create P24 (cost 0 in space 3, 1 in spaces 2 and 4) or C2 at the start of the
    decline phase (space 2 then slides to space 1 of turn 16, space 3 to 2) or of the
    technology phase (after the slide: space 4 stays space 4), or not at all: each is a start
    (the chest still under the board on the last); the bound holds the optimum."""
    st = _sanxingdui(["P24", "C2"], ["A3", "A9"], ["M1"], {"M1": 1, "C6": 2}, lost=4)
    ws = last_windows(st)
    assert ws is not None
    assert [len(w.start.chests_under) for w in ws].count(1) == 1  # kept for turn 16
    assert _where(st, ws, "P24") == {1, 2, 3, 4}
    assert _check(st)


def test_a_card_created_before_the_decline_may_decline() -> None:
    """With three cards in hand Ж may create P24 in space 1 (cost 2) before the decline phase:
    it declines there with its knowledge, which may become lost."""
    st = _sanxingdui(["P24", "M29", "C2"], ["A3", "A9"], ["M1"], {"M1": 1, "C6": 2}, lost=4)
    ws = last_windows(st)
    assert ws is not None and 0 in _where(st, ws, "P24")
    declined = [w for w in ws if any(_code(st, c) == "P24" for c in w.start.past)]
    assert min(w.lost_hi for w in declined) > max(w.lost_hi for w in ws
                                                  if w.start.chests_under)


def test_a_card_created_within_the_decline_phase_declines_there() -> None:
    """Space 1 full (M1, C3): Ж cannot put P24 there before the decline phase, but may at the
    window between the two declines or after the last (`solver.engine.chests`, moment 4),
    where it declines in the same phase: a start has it in the Past; the bound holds the
    optimum."""
    st = _sanxingdui(["P24", "M29", "C2"], ["A3", "A9"], ["M1", "C3"],
                     {"M1": 1, "C3": 1, "C6": 2}, lost=4)
    assert not st.has_free_place(1)
    ws = last_windows(st)
    assert ws is not None and 0 in _where(st, ws, "P24")
    assert _check(st)


def test_after_the_decline_the_window_stays_open() -> None:
    """At the lightning window of the technology phase (the last decline over) the window is
    asked and opens: Ж may create P24 or C2 into a space of turn 16's Timeline, where it stays
    (no slide is left); lost knowledge no longer changes (nothing here removes any); the bound
    holds the optimum."""
    st = _sanxingdui(["P24", "C2"], ["A3", "A9"], ["M1"], {"M1": 1, "C6": 2}, lost=4)
    while not (st.stack[-1][0] == D_CHEST_WINDOW and declined_now(st)):
        legal = st.legal_actions()
        st.apply(A.NO if A.NO in legal else A.DONE if A.DONE in legal else legal[0])
    assert st.turn == 15 and window_moment(st)
    ws = last_windows(st)
    assert ws is not None and len(ws) > 2
    assert {(w.lost_lo, w.lost_hi) for w in ws} == {(st.lost, st.lost)}
    assert _where(st, ws, "P24") == {2, 3, 4}  # no slide is left
    assert _check(st)


def test_a_created_card_that_swaps_itself() -> None:
    """P23 (cost 0 in its space) created by Ж swaps itself with another monument (mandatory):
    each target is a start of its own, one where it swaps into space 1 and declines there
    (M1 leaving it keeps its knowledge); the bound holds the optimum."""
    st = _sanxingdui(["P23"], ["A3", "A9"], ["M1"], {"M1": 1, "C6": 2}, lost=4)
    ws = last_windows(st)
    assert ws is not None
    assert 0 in _where(st, ws, "P23")  # swapped into space 1 before the decline
    assert _where(st, ws, "M1") - {0}  # M1 swapped out of it
    assert _check(st)


def test_before_the_timeline_phase_the_timeline_may_change() -> None:
    """Sarcophagus of Saqqara (A2: with at least 3 cities in the Timeline, remove 1 and draw 1)
    with one city in the Timeline: where Ж may still create before the Timeline phase
    (`early_create`) its condition may hold when it resolves; with no chest it cannot (the
    Timeline does not change in the Timeline phase)."""
    st = _sanxingdui(["C2"], ["A2"], ["M1"], {"M1": 1}, lost=4, pending=FROM_ACTION)
    plain = st.clone()
    plain.chests_under = []
    a2 = next(c for c in range(len(st.book.cards)) if _code(st, c) == "A2")
    effect = next(e for e in st.book.cards[a2].effects if e.moment == "timeline")
    assert early_create(st) and not early_create(plain)
    assert not cannot_run(st, effect, a2, 0, False)
    assert cannot_run(plain, effect, a2, 0, False)


def test_a_chest_s_create_is_counted_as_one() -> None:
    """The tally counts Ж's Create, wherever the window is asked (the Timeline phase under way
    too), instead of closing."""
    work = tally(_sanxingdui(["P24"], ["A3", "A9"], ["M1"], {"M1": 1}, lost=4), 0, False)
    assert work.fits and work.creates == 1


#: Monuments for the hand with Ж (cheap and costly ones, a mover, a city that vanishes with
#: knowledge, one with a Timeline effect, one that reads the Timeline).
CHEST_HAND = ("P24", "M29", "C15", "C25", "P30", "P26", "M19", "C2", "C4", "C5")


@pytest.mark.parametrize("seed", [0, 2, 3, 5, 6, 7])
def test_at_least_the_optimum_where_a_chest_may_create(seed: int) -> None:
    """From turn 15's second action with Ж under the board (1-2 of `WINDOW_ARTIFACTS`, 1-2
    monuments in space 1, 2-4 cards in hand), random play into the window: the bound is at
    least the optimum, also where Ж may still create before the Timeline phase (seeds 0, 3
    and 5: the window is asked at the last action's payment)."""
    rng = Stream(seed, "window-chest", 0)
    arts = rng.shuffled(list(WINDOW_ARTIFACTS))[:1 + rng.below(2)]
    space1 = rng.shuffled(["M1", "C3", "P5", "M12"])[:1 + rng.below(2)]
    hand = rng.shuffled(list(CHEST_HAND))[:2 + rng.below(3)]
    tokens = {m: rng.below(4) for m in (*space1, "C6")}
    st = _sanxingdui(hand, arts, space1, tokens, rng.below(9), FROM_ACTION)
    _check_into_window(st, Stream(seed, "window-chest-play", 0))
