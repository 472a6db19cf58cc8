"""Counters and conditions: what effects, requirements and end-game rules count.

The counters are those of `puzzles/data/CARD_FORMAT.md`. A condition is a conjunction of
clauses, checked when the effect resolves (card clarifications: "conditions are checked at
resolution"); a technology requirement when the technology is learned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from solver.engine.cards import (
    ANCIENT,
    ARTIFACT,
    CITY,
    MEGALITH,
    PYRAMID,
    SECRET,
    WRITING,
    Clause,
)
from solver.engine.state import GameState

Counter = Callable[["GameState", int], int]


def _past(kind: int) -> Counter:
    return lambda st, src: st.count_past(kind)


def _timeline(kind: int) -> Counter:
    def f(st: GameState, src: int) -> int:
        cards = st.book.cards
        return sum(1 for c in st.monuments() if cards[c].kind == kind)
    return f


def _techs(kind: int) -> Counter:
    def f(st: GameState, src: int) -> int:
        cards = st.book.cards
        return sum(1 for c in st.techs if cards[c].kind == kind)
    return f


def _adj(kind: int | None) -> Counter:
    def f(st: GameState, src: int) -> int:
        cards = st.book.cards
        return sum(1 for c in st.adjacent(src) if kind is None or cards[c].kind == kind)
    return f


def _adj_max(st: GameState, src: int) -> int:
    cards = st.book.cards
    adj = st.adjacent(src)
    return max(sum(1 for c in adj if cards[c].kind == k) for k in (CITY, MEGALITH, PYRAMID))


def _past_endgame(st: GameState, src: int) -> int:
    cards = st.book.cards
    return sum(1 for c in st.past if cards[c].activation == "endgame")


def _space1(st: GameState, src: int) -> int:
    return len(st.space_monuments(1))


def _hand_artifacts(st: GameState, src: int) -> int:
    cards = st.book.cards
    return sum(1 for c in st.hand if cards[c].kind == ARTIFACT)


COUNTERS: Final[dict[str, Counter]] = {
    "past.city": _past(CITY),
    "past.megalith": _past(MEGALITH),
    "past.pyramid": _past(PYRAMID),
    "past.any": lambda st, src: len(st.past),
    "past.max_type": lambda st, src: max(st.count_past(k) for k in (CITY, MEGALITH, PYRAMID)),
    "past.min_type": lambda st, src: min(st.count_past(k) for k in (CITY, MEGALITH, PYRAMID)),
    "past.endgame": _past_endgame,
    "timeline.city": _timeline(CITY),
    "timeline.megalith": _timeline(MEGALITH),
    "timeline.pyramid": _timeline(PYRAMID),
    "timeline.any": lambda st, src: sum(1 for _ in st.monuments()),
    "timeline.min_type": lambda st, src: min(_timeline(k)(st, src) for k in (CITY, MEGALITH, PYRAMID)),
    "space1": _space1,
    "techs.ancient": _techs(ANCIENT),
    "techs.secret": _techs(SECRET),
    "techs.writing": _techs(WRITING),
    "techs.any": lambda st, src: len(st.techs),
    "techs.min_type": lambda st, src: min(_techs(k)(st, src) for k in (ANCIENT, SECRET, WRITING)),
    # South Arabian Writing (RULES.md section 12): "5 technologies of the same type"
    "techs.max_type": lambda st, src: max(_techs(k)(st, src) for k in (ANCIENT, SECRET, WRITING)),
    "artifacts": lambda st, src: len(st.board_artifacts()),
    "lost": lambda st, src: st.lost,
    "tl_tokens": lambda st, src: st.timeline_tokens(),
    "hand": lambda st, src: len(st.hand),
    "hand.artifact": _hand_artifacts,
    "self.tokens": lambda st, src: st.tokens[src],
    "adj.city": _adj(CITY),
    "adj.megalith": _adj(MEGALITH),
    "adj.pyramid": _adj(PYRAMID),
    "adj.any": _adj(None),
    "adj.max_type": _adj_max,
}


def count(st: GameState, counter: str, source: int) -> int:
    """The value of a counter for the effect of card `source`."""
    return COUNTERS[counter](st, source)


def holds(st: GameState, condition: tuple[Clause, ...], source: int) -> bool:
    """True when every clause of the condition holds now."""
    return all(c.holds(COUNTERS[c.counter](st, source)) for c in condition)


def requirement_met(st: GameState, requirement: tuple[Clause, ...], relax_one: bool) -> bool:
    """A technology requirement (RULES.md section 5, Learn). With Candi Sukuh in the Timeline
    (`relax_one`, RULES.md D19) the player may lower one "at least" value by 1 (floor 0): the
    requirement is met if it holds with at most one ``>=`` clause lowered so."""
    values = [COUNTERS[c.counter](st, -1) for c in requirement]
    failing = [i for i, c in enumerate(requirement) if not c.holds(values[i])]
    if not failing:
        return True
    if not relax_one or len(failing) > 1:
        return False
    c = requirement[failing[0]]
    return c.op == ">=" and values[failing[0]] >= max(0, c.value - 1)


def special_in_play(st: GameState, name: str) -> Iterator[int]:
    """Cards in play (Timeline or board) with the named special effect."""
    cards = st.book.cards
    for c in st.in_play():
        for e in cards[c].effects:
            if e.special == name:
                yield c


# ------------------------------------------------------------------ effect and steps
