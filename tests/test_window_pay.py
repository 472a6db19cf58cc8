"""The window at a Create's payment (`solver.bounds.window.pay_ask`, `placed_first`): when turn
15's last action is a Create whose card and space are chosen, putting the card into play before
its payment reaches the same states (RULES.md section 5), and from there the rest of the turn is
a window like any other. Checked state by state (every payment, both orders), against exact
searches from generated last-action Creates, and on crafted ones: what opens the window, what
keeps it shut."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from solver.bounds.poolfacts import PoolFactsCache
from solver.bounds.simplegate import SimpleGate, SimpleGatePolicy
from solver.bounds.window import last_window, last_windows, pay_ask, placed_first, window_asked
from solver.bounds.windowmoves import swap_pending
from solver.bounds.windowwork import cannot_run
from solver.engine.frames import (
    D_ACTION,
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_PAY,
    F_DECLINE_PHASE,
    F_PLACE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
)
from solver.engine.state import GameState
from solver.rng import Stream
from tests.builder import idx, play, position
from tests.test_window import WINDOW_ARTIFACTS, _check, _check_into_window

#: Cards to create that cost cards from the hand where their starting space is left (section
#: 5): with no effect, with a decline or Timeline effect of the window's kinds, one whose
#: Create removes knowledge (M23) and those whose Create swaps them (P23, C14: the window's
#: one move).
CREATE = ("C1", "C3", "M1", "P2", "C16", "C21", "M12", "M23", "P23", "C9", "C14")
#: Cards for the hand besides (what the payment may take).
HAND = ("C2", "C4", "C5", "M7", "A11", "P3", "C7", "M2")
SPACE1 = ("P5", "C33", "M8", "C19", "C25", "P17")


def _last_create(artifacts: list[str], space1: list[str], tokens: dict[str, int],
                 hand: list[str], lost: int = 0) -> GameState:
    """Turn 15 (of 16) in its last action, a Create just chosen (no card yet)."""
    st = position(hand=hand, timeline={1: space1, 3: ["C6"]}, tokens=tokens,
                  past=["P1", "M3"], artifacts=artifacts, lost=lost, techs=["T1", "T2", "T5"],
                  time_space=2, time_visits=2, turn=15,
                  deck_top=["C8", "C10", "C11", "C12", "P4", "M4"], tiles=[None] * 9,
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_ACTION, 0)])
    return play(st, "create")


def _payments(st: GameState) -> list[GameState]:
    """Every way to pay the payment of `st` (one card at a time, in the engine's order), each
    applied to a copy: the states where the payment is over."""
    out: list[GameState] = []
    todo = [st.clone()]
    while todo:
        s = todo.pop()
        if not s.stack or s.stack[-1][0] != D_PAY or len(s.stack) < len(st.stack):
            out.append(s)
            continue
        for a in s.legal_actions():
            branch = s.clone()
            branch.apply(a)
            todo.append(branch)
    return out


def test_a_create_s_payment_opens_a_window() -> None:
    """C3 (Göbekli Tepe, starting space 5) created in space 6 costs 2 + 1 cards: at the first
    card of its payment the window opens (no action choice left, the card's Create group and
    the Timeline phase of its kinds): the hand of 4 ends with 1 at least, the bound holds the
    optimum. After the first card the ask is not repeated; in a turn's first action (an action
    choice left) none opens."""
    st = play(_last_create(["A9"], ["M1"], {"M1": 2}, ["C3", "C2", "C4", "M7", "P3"], lost=2),
              "C3", "s6")
    assert st.stack[-1][0] == D_PAY and st.stack[-2][0] == F_PLACE
    assert pay_ask(st) and window_asked(st)
    w = last_window(st)
    assert w is not None
    assert w.hand_least == 1
    assert idx(st, "C3") in w.start.in_play()
    assert _check(st)
    play(st, "C2")
    assert not pay_ask(st)
    first = position(hand=["C3", "C2", "C4", "M7"], timeline={1: ["M1"], 3: ["C6"]},
                     tokens={"M1": 2}, past=["P1", "M3"], artifacts=["A9"],
                     techs=["T1", "T2", "T5"], time_space=2, time_visits=2, turn=15,
                     tiles=[None] * 9)
    play(first, "create", "C3", "s6")  # the turn's first action: an action choice is left
    assert not pay_ask(first) and last_window(first) is None


def test_a_swap_opens_a_window_per_target() -> None:
    """P23 (Pyramids of Xi'an) swaps itself with another monument once created: the window's
    one move (`solver.bounds.windowmoves.self_swap`), followed target by target. Created in
    space 5: swapped with M1 it declines from space 1 (M1 starts turn 16 in space 4); swapped
    with C6 it starts turn 16 in space 2 (C6 in space 4, M1 declined). The bound holds the
    optimum."""
    st = play(_last_create(["A9"], ["M1"], {"M1": 2}, ["P23", "C2", "C4"]), "P23", "s5")
    assert pay_ask(st)
    ws = last_windows(st)
    assert ws is not None and len(ws) == 2
    p23, m1, c6 = idx(st, "P23"), idx(st, "M1"), idx(st, "C6")
    starts = {(tuple(w.start.spaces[1]), tuple(w.start.spaces[3]), p23 in w.start.past)
              for w in ws}
    assert starts == {((c6,), (m1,), True), ((p23,), (c6,), False)}
    assert _check(st)


def test_a_pending_swap_lets_a_place_condition_hold() -> None:
    """C7 (Luxor Temple, space 1, 3 knowledge) removes 3 knowledge from itself if adjacent to
    two pyramids; now one (P5 above it). P23, a pyramid created in space 3, may swap into
    space 2's lower place beside it: its Timeline effect may run, so the window's least lost
    knowledge counts its removal (`cannot_run` reads the places as holding while a swap
    waits); the bound holds the optimum."""
    base = position(hand=["P23", "C2", "C4"], timeline={1: ["C7", "P5"], 2: ["C6"]},
                    tokens={"C7": 3, "P5": 0, "C6": 1}, past=["P1", "M3"], artifacts=[],
                    lost=2, techs=["T1", "T2", "T5"], time_space=2, time_visits=2, turn=15,
                    deck_top=["C8", "C10", "C11", "C12", "P4", "M4"], tiles=[None] * 9,
                    pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                             (D_ACTION, 0)])
    st = play(base, "create", "P23", "s3")
    assert pay_ask(st)
    c7 = idx(st, "C7")
    luxor = st.book.cards[c7].effects[0]
    assert cannot_run(st, luxor, c7, 0, False)  # one pyramid beside it now
    placed = placed_first(st)
    assert placed is not None and swap_pending(placed)
    assert not cannot_run(placed, luxor, c7, 0, False)
    ws = last_windows(st)
    assert ws is not None
    # every start, that with P23 beside C7 too, may see C7 decline with none left
    assert all(w.lost_lo <= 2 for w in ws)
    assert _check(st)


@pytest.mark.parametrize("seed", range(10))
def test_placing_first_reaches_the_same_states(seed: int) -> None:
    """In a generated last-action Create, for every card and space that cost cards, each way to
    pay reaches the same state whether the card went into play before or after it."""
    asked = 0
    for s in _payment_asks(_generated(seed)):
        placed = placed_first(s)
        assert placed is not None
        after = sorted(x.key() for x in _payments(s))
        assert len(after) > 1 or len(s.hand) == s.stack[-1][1]
        assert after == sorted(x.key() for x in _payments(placed))
        asked += 1
    assert asked >= 1


def _payment_asks(st: GameState) -> Iterator[GameState]:
    """The payment asks (`pay_ask`) a Create just chosen at `st` reaches: one per card and
    space that cost cards."""
    for card in st.legal_actions():
        chosen = st.clone()
        chosen.apply(card)
        if pay_ask(chosen):  # an artifact: no space to choose
            yield chosen
        if not chosen.stack or chosen.stack[-1][0] != D_CREATE_SPACE:
            continue
        for space in chosen.legal_actions():
            s = chosen.clone()
            s.apply(space)
            if pay_ask(s):
                yield s


def _generated(seed: int) -> GameState:
    """A last-action Create (`_last_create`): 1-3 of `CREATE` and 2-5 of `HAND` in hand, 1 or
    2 of `WINDOW_ARTIFACTS`, 1 or 2 of `SPACE1` with 0-3 knowledge each, 0-8 lost knowledge."""
    rng = Stream(seed, "window-pay", 0)
    arts = rng.shuffled(list(WINDOW_ARTIFACTS))[:1 + rng.below(2)]
    space1 = rng.shuffled(list(SPACE1))[:1 + rng.below(2)]
    hand = [*rng.shuffled(list(CREATE))[:1 + rng.below(3)],
            *rng.shuffled(list(HAND))[:2 + rng.below(4)]]
    tokens = {m: rng.below(4) for m in space1}
    return _last_create(arts, space1, tokens, hand, lost=rng.below(9))


@pytest.mark.parametrize("seed", range(12))
def test_at_least_the_optimum_from_a_last_action_create(seed: int) -> None:
    """From generated last-action Creates (`_generated`), at the payment asks where a window
    opens (every card and space): the bound there is at least the optimum; then by random play
    into later window asks, the same."""
    st = _generated(seed)
    for s in _payment_asks(st):
        if last_window(s) is not None:
            assert _check(s)
    _check_into_window(st, Stream(seed, "window-pay-play", 0))


def test_payment_asks_are_gated_apart() -> None:
    """The asks at a payment cover every card the hand may give, so they prune less often: the
    gate counts them apart from the other window asks."""
    st = play(_last_create(["A9"], ["M1"], {"M1": 2}, ["C3", "C2", "C4", "M7", "P3"], lost=2),
              "C3", "s6")
    pool = PoolFactsCache()
    gate = SimpleGate(SimpleGatePolicy(calls=2, rate=0.5, probe=4))
    gate.start_search(1000.0)
    assert gate.window(st, pool) is not None
    assert gate.pay_seen[:2] == [1, 1] and gate.window_seen == [0, 0, 0]


def _decline_create(hand: list[str], space1: list[str], tokens: dict[str, int],
                    lost: int = 0) -> GameState:
    """Turn 15 (of 16) at its decline phase, Menhirs of Monteneuf (M11) in space 1 among
    `space1`, A9 in play."""
    st = position(hand=hand, timeline={1: ["M11", *space1], 3: ["C6"]}, tokens=tokens,
                  past=["P1", "M3"], artifacts=["A9"], lost=lost, techs=["T1", "T2", "T5"],
                  time_space=2, time_visits=2, turn=15,
                  deck_top=["C8", "C10", "C11", "C12", "P4", "M4"], tiles=[None] * 9,
                  phase="decline")
    while st.stack[-1][0] != D_CREATE_CARD:  # M11 declines first, its Create taken
        legal = st.legal_actions()
        order = [a for a in legal if st.action_to_string(a) in ("M11", "yes")]
        st.apply(order[0] if order else legal[0])
    return st


def test_a_create_in_the_decline_phase_opens_a_window() -> None:
    """M11's decline effect creates (section 4C step 2): at the first card of that Create's
    payment the window opens, M11's own decline effect not counted again (it is the one
    running); its 2 knowledge and C21's 1 become lost knowledge, less what C21's decline
    removal may take (3 at most: the tally does not follow whose knowledge a removal takes)."""
    st = play(_decline_create(["C3", "C2", "C4", "M7", "P3"], ["C21"], {"M11": 2, "C21": 1},
                              lost=3), "C3", "s6")
    assert st.in_decline and pay_ask(st)
    w = last_window(st)
    assert w is not None
    assert (w.lost_lo, w.lost_hi, w.hand_least) == (3, 6, 1)
    assert _check(st)


@pytest.mark.parametrize("seed", range(8))
def test_at_least_the_optimum_from_a_decline_create(seed: int) -> None:
    """From generated decline phases where M11 creates: at each payment ask, every way to pay
    reaches the same states in both orders, and where a window opens its bound is at least the
    optimum."""
    rng = Stream(seed, "window-pay-decline", 0)
    hand = [*rng.shuffled(list(CREATE))[:1 + rng.below(3)],
            *rng.shuffled(list(HAND))[:2 + rng.below(4)]]
    space1 = rng.shuffled(list(SPACE1))[:rng.below(2)]
    tokens = {m: rng.below(4) for m in ("M11", *space1)}
    st = _decline_create(hand, space1, tokens, lost=rng.below(9))
    asked = 0
    for s in _payment_asks(st):
        placed = placed_first(s)
        assert placed is not None
        assert sorted(x.key() for x in _payments(s)) == sorted(
            x.key() for x in _payments(placed))
        if last_window(s) is not None:
            assert _check(s)
            asked += 1
    assert asked >= 1
