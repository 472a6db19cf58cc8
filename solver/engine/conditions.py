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


def _of_kind(kinds: tuple[int, ...], members: list[int], kind: int) -> int:
    """How many of `members` are of `kind` (`kinds`: the book's kind per card)."""
    return sum(1 for c in members if kinds[c] == kind)


def _timeline(kind: int) -> Counter:
    def f(st: GameState, src: int) -> int:
        return _of_kind(st.book.kinds, st.monuments(), kind)
    return f


def _techs(kind: int) -> Counter:
    def f(st: GameState, src: int) -> int:
        return _of_kind(st.book.kinds, st.techs, kind)
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
    "timeline.min_type": lambda st, src: min(_timeline(k)(st, src)
                                             for k in (CITY, MEGALITH, PYRAMID)),
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


MIN_TYPE: Final = -1
MAX_TYPE: Final = -2
#: Counters that count one zone by type: (zone: 0 Past, 1 technologies, 2 Timeline; the type,
#: or the fewest / the most of the three types). Same values as their `COUNTERS` functions.
KIND_COUNTERS: Final[dict[str, tuple[int, int]]] = {
    "past.city": (0, CITY), "past.megalith": (0, MEGALITH), "past.pyramid": (0, PYRAMID),
    "past.max_type": (0, MAX_TYPE), "past.min_type": (0, MIN_TYPE),
    "techs.ancient": (1, ANCIENT), "techs.secret": (1, SECRET), "techs.writing": (1, WRITING),
    "techs.min_type": (1, MIN_TYPE), "techs.max_type": (1, MAX_TYPE),
    "timeline.city": (2, CITY), "timeline.megalith": (2, MEGALITH),
    "timeline.pyramid": (2, PYRAMID), "timeline.min_type": (2, MIN_TYPE),
}

#: The counters whose value depends on the card they are counted for (the others ignore it).
SOURCE_COUNTERS: Final = frozenset(
    {"self.tokens", "adj.city", "adj.megalith", "adj.pyramid", "adj.any", "adj.max_type"})


def count(st: GameState, counter: str, source: int) -> int:
    """The value of a counter for the effect of card `source`."""
    return COUNTERS[counter](st, source)


def holds(st: GameState, condition: tuple[Clause, ...], source: int) -> bool:
    """True when every clause of the condition holds now."""
    return all(c.holds(COUNTERS[c.counter](st, source)) for c in condition)


MET: Final = 0  # requirement_status: the requirement holds as printed
MET_IF_RELAXED: Final = 1  # it holds with one "at least" value lowered by 1 (Candi Sukuh, D19)
NOT_MET: Final = 2


class Counts:
    """The values of the card-independent counters of one state, each computed at most once.

    For checks that read many counters of the same state while it does not change (every
    available technology's requirement at one decision). Made, used and dropped within one
    call: it is never stored, so no change of the state can make it stale."""

    __slots__ = ("st", "values", "kinds")

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.values: dict[str, int] = {}
        self.kinds: list[list[int] | None] = [None, None, None]  # by zone of KIND_COUNTERS

    def of(self, counter: str) -> int:
        """`count(st, counter, -1)`, computed once. The counts of one zone by card type
        (`KIND_COUNTERS`) all come from one pass over the zone."""
        v = self.values.get(counter)
        if v is None:
            by_kind = KIND_COUNTERS.get(counter)
            if by_kind is None:
                v = COUNTERS[counter](self.st, -1)
            else:
                zone, which = by_kind
                hist = self.kinds[zone]
                if hist is None:
                    hist = self._histogram(zone)
                    self.kinds[zone] = hist
                v = min(hist) if which == MIN_TYPE else max(hist) if which == MAX_TYPE \
                    else hist[which]
            self.values[counter] = v
        return v

    def _histogram(self, zone: int) -> list[int]:
        """How many cards of each of the three types (monument or technology) in a zone."""
        st = self.st
        members = st.past if zone == 0 else st.techs if zone == 1 else st.monuments()
        kinds = st.book.kinds
        hist = [0, 0, 0, 0]
        for c in members:
            hist[kinds[c]] += 1
        return hist[:3]

    def at(self, counter: str, source: int) -> int:
        """`count(st, counter, source)`: a counter that reads its card (`SOURCE_COUNTERS`) is
        computed for that card, any other once for all cards."""
        if counter in SOURCE_COUNTERS:
            return COUNTERS[counter](self.st, source)
        return self.of(counter)


def requirement_status(counts: Counts, requirement: tuple[Clause, ...]) -> int:
    """`MET`, `MET_IF_RELAXED` or `NOT_MET` for a technology requirement (RULES.md section 5,
    Learn). With Candi Sukuh in the Timeline (RULES.md D19) the player may lower one "at least"
    value by 1 (floor 0): `MET_IF_RELAXED` when exactly one clause fails, a ``>=`` clause that
    holds once lowered so."""
    failing = -1
    value = 0
    for i, c in enumerate(requirement):
        v = counts.of(c.counter)
        if not c.holds(v):
            if failing >= 0:
                return NOT_MET
            failing, value = i, v
    if failing < 0:
        return MET
    c = requirement[failing]
    return MET_IF_RELAXED if c.op == ">=" and value >= max(0, c.value - 1) else NOT_MET


def requirement_met(st: GameState, requirement: tuple[Clause, ...], relax_one: bool) -> bool:
    """A technology requirement (RULES.md section 5, Learn). With Candi Sukuh in the Timeline
    (`relax_one`, RULES.md D19) the player may lower one "at least" value by 1 (floor 0): the
    requirement is met if it holds with at most one ``>=`` clause lowered so."""
    status = requirement_status(Counts(st), requirement)
    return status == MET or (relax_one and status == MET_IF_RELAXED)


def special_in_play(st: GameState, name: str) -> Iterator[int]:
    """Cards in play (Timeline or board) with the named special effect."""
    cards = st.book.cards
    for c in st.in_play():
        for e in cards[c].effects:
            if e.special == name:
                yield c


# ------------------------------------------------------------------ effect and steps
