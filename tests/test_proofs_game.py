"""The proof code's game adapter (`solver.game.HeritageGame`: the move ordering of the exact
search and its transposition key), tests that a mutation run found missing: the ordering applies
the game's own dominance rules (Rule 5 and the deck takes, not only the module's `prune`) and
the bound's plan as hints, a permutation; the key forgets tokens that only the deck takes show
dead, and the positions it merges have the same optimum.

Positions are in the last turn (RULES.md section 4, D8: the game ends at its decline phase).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from solver.bounds.bound import SimpleBound
from solver.engine.frames import D_ACTION, D_ARCHIVE
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.guidance.endgame import token_readers, tokens_dead
from solver.search.exhaustive import SearchConfig, search
from solver.search.protocol import PlainGame
from solver.search.status import Status
from tests.builder import names_of, play, position


def ordered(game: HeritageGame, st: GameState, line: Sequence[int] = ()) -> list[str]:
    """The options of the pending decision as the game's exact search orders them, in notation."""
    order = game.order(st, list(line))
    return [st.action_to_string(a) for a in order(st, st.legal_actions())]


def deep_reader(tokens: dict[str, int]) -> GameState:
    """The last turn with two actions left, `tokens` on C3 and C4, and A13 (a Timeline effect
    that reads tokens) in the deck, too deep to be drawn before the Timeline phase: the tokens
    are dead only by the game's deck takes (`solver.bounds.decktakes`)."""
    return position(hand=["C1", "C2"], timeline={2: ["C3"], 3: ["C4"]}, tokens=tokens,
                    past=["C20"], time_space=1, time_visits=2, turn=16)


class Reversing:
    """A `SimpleBound` whose plan puts the options in reverse order (a permutation, as a plan's
    hints are; wraps: compiled classes cannot be subclassed by interpreted code)."""

    name = "reversing"
    cycle_free = True

    def __init__(self) -> None:
        self.inner = SimpleBound()
        self.pool = self.inner.pool

    def upper_bound(self, st: GameState) -> float:
        return self.inner.upper_bound(st)

    def root(self, st: GameState) -> Any:
        return self.inner.root(st)

    def start_search(self, incumbent: float | None) -> None:
        self.inner.start_search(incumbent)

    def improved(self, value: float) -> None:
        self.inner.improved(value)

    def plan_order(self, st: GameState, actions: Sequence[int]) -> Sequence[int]:
        return list(reversed(actions))

    def keyed_by(self, key: Callable[[GameState], Hashable]) -> None:
        self.inner.keyed_by(key)


# ------------------------------------------------------------------ the move ordering


def test_the_search_order_applies_the_games_dominance_rules() -> None:
    """The exact search's ordering thins with the game's `Dominance`, not only the module's
    `prune`: Rule 5 (section 5 Archive: once the cards of the hand are alike, only the smallest
    card is offered) and Rule 4 with the game's deck takes (an Archive's removal in the last
    turn with A13, the one Timeline reader of tokens, too deep in the deck: the tokens are dead,
    one monument is searched)."""
    st = position(hand=["C3", "C4", "C5", "C6"], timeline={2: ["M3"], 3: ["P4"]},
                  tokens={"M3": 1, "P4": 2}, past=["C9", "M9", "P9"], time_space=1,
                  time_visits=2, turn=16, deck_top=["C10", "C11", "M10"])
    st.stack.pop()  # one action left: no Create can follow, the cards are alike
    play(st, "archive")
    assert st.stack[-1][0] == D_ARCHIVE and names_of(st) == ["C3", "C4", "C5", "C6"]
    assert ordered(HeritageGame(), st) == ["C3"]
    removal = play(deep_reader({"C3": 2, "C4": 2}), "archive", "C1", "done")
    assert names_of(removal) == ["@C3", "@C4"]
    assert ordered(HeritageGame(), removal) == ["@C3"]


def test_the_search_order_takes_the_bounds_plan_as_hints() -> None:
    """The bound's plan orders the options the dominance rules keep (hints: a permutation,
    never a prune), and the incumbent's action still comes first on its line."""
    st = deep_reader({"C3": 2, "C4": 2})
    assert st.stack[-1][0] == D_ACTION
    legal = names_of(st)
    assert len(legal) >= 3
    assert ordered(HeritageGame(), st) == legal
    game = HeritageGame(Reversing())
    assert ordered(game, st) == legal[::-1]
    second = st.legal_actions()[1]
    assert ordered(game, st, [second]) == [legal[1], *(n for n in legal[::-1] if n != legal[1])]


# ------------------------------------------------------------------ the search key


def test_the_search_key_forgets_tokens_dead_by_the_deck_takes() -> None:
    """The transposition key leaves out the tokens once nothing can read them (RULES.md
    section 7: tokens score nothing by themselves), with the game's deck takes: two actions are
    left, so a card of the deck might still be drawn and created, but A13, the one reader, lies
    deeper than the cards that can leave the deck. Two positions that differ only in C3's and
    C4's tokens get one key, and their optima are equal (searched without any key or rule)."""
    a, b = deep_reader({"C3": 2, "C4": 2}), deep_reader({"C3": 1, "C4": 3})
    game = HeritageGame()
    assert a.key() != b.key()
    assert not tokens_dead(a, token_readers(a))
    assert tokens_dead(a, token_readers(a), game.readers.takes)
    assert game.search_key(a) == game.search_key(b)
    values = []
    for s in (a, b):
        res = search(s.clone(), SearchConfig(max_nodes=20_000), game=PlainGame())
        assert res.status == Status.OPTIMAL
        values.append(res.value)
    assert values[0] == values[1]
