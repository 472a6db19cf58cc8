"""Cards of the hand alike (`solver.guidance.handcards`): once no Create of a card not yet picked
can come and nothing reads the kinds of the cards in the hand, a payment, an Archive or a discard
searches only the sets of the smallest cards (Rule 5 of `solver.guidance.dominance`) and the
search key counts the hand, the deck and the discard pile instead of naming their cards; neither
loses a line (RULES.md section 5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from solver.bounds.createsleft import CreatesLeft
from solver.engine import actions as A
from solver.engine.frames import D_ACTION, D_ARCHIVE, D_PAY
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.guidance.dominance import HAND_PICKS, Dominance
from solver.guidance.endgame import KEY_DECK, KEY_HAND, search_key
from solver.guidance.handcards import hand_cards_alike, kind_readers
from solver.guidance.ordering import Order, incumbent_order
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.status import Status
from tests.builder import idx, names_of, play, position

HANDS = [
    ["C3", "C4", "C5", "C6", "C7"],
    ["C1", "C3", "M7", "P1", "P2", "P6"],
    ["C4", "M2", "M7", "P6", "C8"],
    # the card created by the second action decides the score: paying the first Create with the
    # smallest cards loses a VP (a rule applied while a Create can come would fail below)
    ["M22", "M25", "M28", "C34", "M8"],
    ["M27", "C4", "C8", "M19", "M26"],
]


def last_turn(hand: Sequence[str], actions: int = 2, artifacts: Sequence[str] = ()) -> GameState:
    """The last turn (RULES.md section 4, D8) with `hand`, a small Timeline and Past, and
    `actions` action choices left."""
    st = position(hand=list(hand), timeline={2: ["M3"], 3: ["P4"]}, tokens={"M3": 1, "P4": 2},
                  past=["C9", "M9", "P9"], artifacts=list(artifacts), time_space=1,
                  time_visits=2, turn=16, deck_top=["C10", "C11", "M10"])
    while sum(1 for fr in st.stack if fr[0] == D_ACTION) > actions:
        st.stack.pop(next(i for i in range(len(st.stack) - 1, -1, -1)
                          if st.stack[i][0] == D_ACTION))
    return st


class WithoutRule5:
    """The game's hooks with the dominance rules but Rule 5 and with the key naming the cards
    (wraps a `HeritageGame`: compiled classes cannot be subclassed by interpreted code)."""

    cycle_free = True  # the hooks of a `HeritageGame` with the simple bound

    def __init__(self) -> None:
        self.inner = HeritageGame()
        self.dominance = Dominance(self.inner.readers.takes)

    def upper_bound(self, st: GameState) -> float:
        return self.inner.upper_bound(st)

    def search_key(self, st: GameState) -> object:
        return search_key(st, self.inner.readers.readers(st), self.inner.readers.takes)

    def improved(self, value: float) -> None:
        self.inner.improved(value)

    def order(self, root: GameState, line: Sequence[int]) -> Order:
        return incumbent_order(root, line, dominance=self.dominance.prune)


def optimum(st: GameState, game: Any) -> tuple[float | None, int]:
    """(optimum, nodes) of a complete search from `st` with `game`'s hooks and dominance."""
    res = search(st.clone(), SearchConfig(max_nodes=300_000), order=game.order(st, []), game=game)
    assert res.status in (Status.OPTIMAL, Status.INFEASIBLE)
    return res.value, res.nodes


def test_the_last_create_paid_with_the_smallest_cards() -> None:
    """One action left, a Create of a cost-2 monument from a hand of five: no Create can follow
    (nothing in play grants one), so of the hand only its smallest card is offered at each pick;
    with two actions left (the second may create from the hand) every card is."""
    for actions, alike in ((1, True), (2, False)):
        st = last_turn(HANDS[0], actions)
        dom = HeritageGame().dominance
        st.apply(A.ACT_CREATE)
        st.apply(next(a for a in st.legal_actions() if A.value_of(a) == idx(st, "C3")))
        st.apply(next(a for a in st.legal_actions() if A.value_of(a) == 5))  # its own space
        assert st.stack[-1][0] == D_PAY
        legal = st.legal_actions()
        assert len(legal) >= 3
        kept = dom.prune(st, legal)
        if alike:
            assert [A.value_of(a) for a in kept] == [min(st.hand)]
        else:
            assert list(kept) == list(legal)


def test_a_kind_reader_in_play_keeps_every_card() -> None:
    """Moai Statue (A7) on the board reads the artifacts in the hand in the Timeline phase: the
    cards are not alike, even with no Create to come."""
    plain = last_turn(HANDS[0], 0)
    moai = last_turn(HANDS[0], 0, artifacts=["A7"])
    creates = CreatesLeft()
    readers = {c for c, _ in kind_readers(plain).cards}
    assert {idx(plain, "A7"), idx(plain, "P33")} <= readers  # Moai Statue, Calakmul
    assert not creates(plain) and not creates(moai)
    assert hand_cards_alike(plain, kind_readers(plain), creates)
    assert not hand_cards_alike(moai, kind_readers(moai), creates)


def test_a_decline_reader_after_the_last_decline_keeps_the_cards_alike() -> None:
    """Calakmul (P33) reads the deck's kinds in its decline effect; in the last turn no monument
    declines (RULES.md section 4, D8), so in the Timeline it does not keep the cards apart."""
    st = position(hand=["C3", "C4", "C5"], timeline={2: ["P33"]}, past=["C9"], time_space=1,
                  time_visits=2, turn=16, deck_top=["C10"])
    st.stack = [fr for fr in st.stack if fr[0] != D_ACTION]
    assert idx(st, "P33") in st.in_play()
    assert hand_cards_alike(st, kind_readers(st), CreatesLeft())


def test_a_create_to_come_keeps_every_card() -> None:
    """With a Create action left, a card of the hand may still be created: not alike."""
    st = last_turn(HANDS[1], 1)
    creates = CreatesLeft()
    assert creates(st)
    assert not hand_cards_alike(st, kind_readers(st), creates)


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("actions", [1, 2])
def test_rule5_loses_nothing_from_the_last_turn(hand: list[str], actions: int) -> None:
    """The same optimum with and without Rule 5 from the last turn's start, in no more nodes."""
    st = last_turn(hand, actions)
    with_rule, n_with = optimum(st, HeritageGame())
    without, n_without = optimum(st, WithoutRule5())
    assert with_rule == without
    assert n_with <= n_without


def test_rule5_loses_nothing_along_random_lines() -> None:
    """Every pick of cards from the hand along random lines of the last turn (a Create first
    where one is legal): the same optimum with and without Rule 5; it thinned some picks and
    left others whole (a Create could still come)."""
    thinned = whole = 0
    for seed in range(20):
        st = last_turn(HANDS[seed % len(HANDS)], 1 + seed % 2)
        rng = Stream(seed, "hand-picks", 0)
        game = HeritageGame()
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.stack[-1][0] in HAND_PICKS and len(legal) > 1:
                if len(game.dominance.prune(st, legal)) < len(legal):
                    thinned += 1
                else:
                    whole += 1
                assert optimum(st, HeritageGame())[0] == optimum(st, WithoutRule5())[0], seed
            first = A.ACT_CREATE if A.ACT_CREATE in legal and rng.below(2) else None
            st.apply(first if first is not None else legal[rng.below(len(legal))])
    assert thinned >= 3 and whole >= 3


def test_archive_keeps_done() -> None:
    """An Archive once the cards are alike: the smallest card and ``done``/``no`` stay."""
    st = last_turn(HANDS[0], 1)
    st.apply(A.ACT_ARCHIVE)
    assert st.stack[-1][0] == D_ARCHIVE
    legal = st.legal_actions()
    kept = HeritageGame().dominance.prune(st, legal)
    cards = [A.value_of(a) for a in kept if A.kind_of(a) == A.CARD]
    assert cards == [min(st.hand)]
    assert [a for a in kept if A.kind_of(a) != A.CARD] == [
        a for a in legal if A.kind_of(a) != A.CARD]


def test_alike_key_counts_the_cards() -> None:
    """Two last-turn positions with no Create to come that differ only in which cards are in
    the hand and the deck share a search key; with a Create left, or with Moai Statue (A7) on
    the board, they do not."""
    a = last_turn(["C3", "C4", "C5"], 0)
    b = last_turn(["C3", "C4", "C6"], 0)
    assert b.key()[KEY_HAND] != a.key()[KEY_HAND] and b.key()[KEY_DECK] != a.key()[KEY_DECK]
    game = HeritageGame()
    assert game.search_key(a) == game.search_key(b)
    a1, b1 = last_turn(["C3", "C4", "C5"], 1), last_turn(["C3", "C4", "C6"], 1)
    assert game.search_key(a1) != game.search_key(b1)
    a7 = last_turn(["C3", "C4", "C5"], 0, artifacts=["A7"])
    b7 = last_turn(["C3", "C4", "C6"], 0, artifacts=["A7"])
    assert game.search_key(a7) != game.search_key(b7)


def test_a_create_granted_by_the_card_being_created_keeps_every_card() -> None:
    """No action choice left, Diquis Stone Spheres (M16: may create an artifact) being
    paid for: its Create is picked (it counts as one under way), but its effect grants another
    whose card is not yet picked (RULES.md section 5), so the artifact A1 in the hand may still
    enter play and the cards of the hand are not alike. Paying with the city C3 shows it: A1 is
    then offered to the granted Create."""
    st = play(last_turn(["M16", "A1", "C3"], 1), "create", "M16", "s1")
    assert not any(fr[0] == D_ACTION for fr in st.stack)
    assert st.stack[-1][0] == D_PAY
    assert names_of(st) == ["C3", "A1"]
    creates = CreatesLeft()
    assert creates(st)
    assert not hand_cards_alike(st, kind_readers(st), creates)
    play(st, "C3")
    assert "A1" in names_of(st), names_of(st)
