"""`solver.search.playout`: the random and greedy playouts over the search protocol, on a toy
puzzle and on the engine (the streams are consumed as ``heritage play`` always consumed them)."""

from __future__ import annotations

import doctest
from collections.abc import Hashable

import solver.search.playout as playout_module
from puzzles.deal import build_setup, load_cards
from solver.engine.newgame import new_game
from solver.rng import Stream
from solver.search.playout import greedy_playout, random_playout
from solver.search.protocol import PuzzleState


class Steps:
    """Add 1, 2 or 3 until the total reaches 6; the value rewards an exact 6."""

    def __init__(self, total: int = 0) -> None:
        self.total = total

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [1, 2, 3]

    def apply(self, action: int) -> None:
        self.total += action

    def clone(self) -> Steps:
        return Steps(self.total)

    def is_terminal(self) -> bool:
        return self.total >= 6

    def value(self) -> float:
        return 10.0 if self.total == 6 else 0.0

    def feasible(self) -> bool:
        return True

    def key(self) -> Hashable:
        return self.total

    def action_to_string(self, action: int) -> str:
        return f"+{action}"


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(playout_module).failed == 0


def test_the_toy_puzzle_implements_the_protocol() -> None:
    assert isinstance(Steps(), PuzzleState)


def test_random_playout_draws_once_per_decision_from_the_legal_actions() -> None:
    state = Steps()
    line = random_playout(state, Stream(7, "test", 0))
    stream = Stream(7, "test", 0)
    expected, total = [], 0
    while total < 6:
        a = [1, 2, 3][stream.below(3)]
        expected.append(a)
        total += a
    assert line == expected and state.total == total
    assert random_playout(state, Stream(7, "test", 0)) == []  # a finished game: no draw


def test_random_playout_on_the_engine_is_the_play_policy() -> None:
    """The loop ``heritage play`` and the engine benchmark used before the playout existed."""
    book, card_sets = load_cards(["base"])
    setup = build_setup(book, card_sets, hand="draw", seed=5)
    mine = new_game(setup, book)
    line = random_playout(mine, Stream(5, "policy", 0))
    st, stream, expected = new_game(setup, book), Stream(5, "policy", 0), []
    while not st.is_terminal():
        legal = st.legal_actions()
        a = legal[stream.below(len(legal))]
        st.apply(a)
        expected.append(a)
    assert line == expected and mine.key() == st.key() and mine.is_terminal()


def test_greedy_playout_takes_the_best_scored_option_first_on_ties() -> None:
    root = Steps()
    played = greedy_playout(root, lambda s: -abs(6 - s.total))
    assert played.line == [3, 3] and played.state.total == 6 and root.total == 0
    assert played.evaluated == 6  # three options at each of two decisions


def test_greedy_playout_breaks_ties_with_the_stream_only_when_they_tie() -> None:
    flat = greedy_playout(Steps(), lambda s: 0.0, Stream(1, "ties", 0))
    stream = Stream(1, "ties", 0)
    total, expected = 0, []
    while total < 6:
        a = [1, 2, 3][stream.below(3)]
        expected.append(a)
        total += a
    assert flat.line == expected
    untied = greedy_playout(Steps(), lambda s: float(s.total), Stream(1, "ties", 0))
    assert untied.line == [3, 3]
