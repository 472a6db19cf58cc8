"""Game setup (RULES.md section 3): hands, explicit deck order and die sequence, bad input.

Bad input raises `SetupError` whose message names the field and the offending value.
"""

from __future__ import annotations

import pytest

from puzzles.cardsets import load_book
from solver.engine.errors import SetupError
from solver.engine.frames import D_ACTION, D_KEEP
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import GameState
from tests.builder import codes

BOOK = load_book(["base"])
BUILDERS = [c.code for c in BOOK.builders]

# The premade starting hands: the cards with that starting-hand mark in the reference data
# (shared/reference/base-cards.json).
PREMADE = {
    1: ["C5", "M18", "P18", "P31", "A4", "A8"],
    2: ["M16", "M26", "P34", "A3", "A5", "A9"],
    3: ["C11", "M22", "P10", "P14", "P21", "A24"],
    4: ["M2", "M17", "P16", "A14", "A23", "A32"],
}
HAND1 = PREMADE[1]


def deck_without(hand: list[str]) -> list[str]:
    return [c for c in BUILDERS if c not in hand]


def setup_error(setup_args: dict[str, object]) -> str:
    """The message of the SetupError that building or dealing this setup raises."""
    with pytest.raises(SetupError) as err:
        new_game(Setup(**setup_args), BOOK)  # type: ignore[arg-type]
    return str(err.value)


# ---------------------------------------------------------------- hands


@pytest.mark.parametrize("mark", [1, 2, 3, 4])
def test_premade_hands_hold_the_six_marked_cards(mark: int) -> None:
    """Section 3.4: a premade hand is the six cards with that mark, taken out of the deck
    before shuffling; the game starts at the first action of turn 1."""
    st = new_game(Setup(hand=str(mark), seed=3), BOOK)
    assert sorted(codes(st, st.hand)) == sorted(PREMADE[mark])
    assert [c.code for c in BOOK.builders if c.starting_hand == mark] == sorted(
        PREMADE[mark], key=lambda code: BOOK.lookup(code).index)  # type: ignore[union-attr]
    assert len(st.deck) == 138 and not set(st.deck) & set(st.hand)
    assert st.discard == []
    assert st.turn == 1 and st.pending() == (D_ACTION, 0)
    assert st.time_space == 4 and st.spaces[3] == (-1,)


def test_draw_hand_keeps_six_as_a_decision_one_sequence_per_subset() -> None:
    """Section 3.4: draw 10, keep 6 (the player's decision); the 4 others go to the discard
    pile. The kept cards are chosen one at a time in rising card order, so each of the
    C(10, 6) = 210 subsets is reached by exactly one sequence."""
    st = new_game(Setup(hand="draw", seed=11), BOOK)
    top = st.pending()
    assert len(st.hand) == 10 and top is not None and top[0] == D_KEEP
    drawn = list(st.hand)
    assert st.legal_actions() == [st.string_to_action(BOOK[c].code) for c in drawn[:5]]

    kept_sets: list[tuple[int, ...]] = []

    def walk(state: GameState, chosen: list[int]) -> None:
        top = state.pending()
        if top is None or top[0] != D_KEEP:
            assert chosen == sorted(chosen)  # picks in rising order (a forced last pick is
            assert set(chosen) <= set(state.hand)  # taken automatically, so not in `chosen`)
            assert len(state.hand) == 6
            assert sorted(state.discard) == sorted(set(drawn) - set(state.hand))
            assert top == (D_ACTION, 0)
            kept_sets.append(tuple(state.hand))
            return
        for a in state.legal_actions():
            child = state.clone()
            child.apply(a)
            walk(child, chosen + [a & 1023])

    walk(st, [])
    assert len(kept_sets) == 210
    assert len(set(kept_sets)) == 210


def test_list_hand_is_six_named_cards() -> None:
    """A hand given as a list (a physical game replayed): those six cards, out of the deck."""
    hand = ["C1", "C2", "M1", "M3", "P1", "A1"]
    st = new_game(Setup(hand="list", hand_cards=tuple(hand), seed=0), BOOK)
    assert codes(st, st.hand) == hand
    assert len(st.deck) == 138


# ---------------------------------------------------------------- explicit deck and dice


def test_explicit_deck_order_top_card_first() -> None:
    """Section 3.1: an explicit deck order is accepted (top card first)."""
    order = deck_without(HAND1)
    order = order[::-1]  # A36 on top
    st = new_game(Setup(hand="1", deck=tuple(order)), BOOK)
    assert codes(st, st.deck[::-1]) == order
    st.apply(st.string_to_action("search"))
    assert "A36" in codes(st, st.hand)


def test_explicit_die_sequence_is_used() -> None:
    """Section 3.1: an explicit die sequence replaces the seeded one."""
    dice = (6, 5, 4, 3, 2, 1) * 3
    setup = Setup(dice=dice)
    assert setup.rolls == dice
    assert Setup(dice=dice[:15]).rolls == dice[:15]


def test_setup_round_trips_through_json() -> None:
    """A setup written to a line file deals the same game when read back."""
    setup = Setup(hand="draw", seed=42, die_seed=7, time_space=3)
    again = Setup.from_json(setup.to_json())
    assert again.rolls == setup.rolls
    a, b = new_game(setup, BOOK), new_game(again, BOOK)
    assert a.key() == b.key()


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ({"hand": "list", "hand_cards": ("C5", "ZZ9", "M1", "M3", "P1", "A1")}, ["hand", "ZZ9"]),
        ({"hand": "list", "hand_cards": ("C5", "T1", "M1", "M3", "P1", "A1")}, ["hand", "T1"]),
        ({"hand": "list", "hand_cards": ("C5", "M1", "M3", "P1", "A1")}, ["hand", "6"]),
        ({"hand": "list", "hand_cards": ("C5", "C5", "M1", "M3", "P1", "A1")}, ["hand", "C5"]),
        ({"hand": "list", "hand_cards": ("C5", "M1", "M3", "P1", "A1", "A2", "A3")},
         ["hand", "6"]),
        ({"hand": "5"}, ["hand", "'5'"]),
    ],
    ids=["unknown-id", "technology", "five-cards", "duplicate", "seven-cards", "bad-spec"],
)
def test_bad_hand(args: dict[str, object], words: list[str]) -> None:
    """A hand that is not 6 valid distinct builder cards is refused, naming field and value."""
    message = setup_error(args)
    for word in words:
        assert word in message, (word, message)


def test_deck_with_an_unknown_card() -> None:
    order = deck_without(HAND1)
    order[10] = "QQ1"
    message = setup_error({"deck": tuple(order)})
    assert "deck" in message and "QQ1" in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("missing", ["deck", "A36", "missing"]),
        ("duplicate", ["deck", "twice"]),
        ("extra", ["deck", "C5"]),
    ],
)
def test_deck_that_is_not_a_permutation(change: str, words: list[str]) -> None:
    """The deck order must be a permutation of the builder cards outside the hand."""
    order = deck_without(HAND1)
    if change == "missing":
        order = order[:-1]  # A36 left out
    elif change == "duplicate":
        order = order + [order[0]]
    else:
        order = order + ["C5"]  # a card of hand 1
    message = setup_error({"deck": tuple(order)})
    for word in words:
        assert word in message, (word, message)


@pytest.mark.parametrize("bad", [0, 7, -1])
def test_die_value_outside_1_to_6(bad: int) -> None:
    dice = (1,) * 7 + (bad,) + (1,) * 8
    with pytest.raises(SetupError) as err:
        Setup(dice=dice)
    assert "dice" in str(err.value) and str(bad) in str(err.value)


def test_too_few_dice() -> None:
    """One die value per technology phase: 15 for 16 turns (space 4), 14 from space 3."""
    with pytest.raises(SetupError) as err:
        Setup(dice=(1,) * 14)
    assert "dice" in str(err.value) and "14" in str(err.value) and "15" in str(err.value)
    assert Setup(dice=(1,) * 14, time_space=3).rolls == (1,) * 14


def test_time_space_must_be_3_or_4() -> None:
    with pytest.raises(SetupError) as err:
        Setup(time_space=5)
    assert "time_space" in str(err.value) and "5" in str(err.value)


def test_from_json_rejects_a_non_object() -> None:
    with pytest.raises(SetupError) as err:
        Setup.from_json([1, 2], where="game.json")
    assert "game.json" in str(err.value)
