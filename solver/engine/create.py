"""The Create action (RULES.md section 5): monuments into the Timeline, artifacts onto the board.

A Create is factored into decisions: the card, then (a monument) the space, then each card
discarded to pay, one at a time in rising card order. Then the card is placed with its
knowledge, and its immediate effect and every "each time you CREATE" effect in play resolve as
one group in the player's order (D15). Nested Creates granted by effects are full Creates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from solver.engine import actions as A
from solver.engine.cards import ANY_MONUMENT, ARTIFACT, Card
from solver.engine.conditions import count, holds
from solver.engine.frames import (
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_PAY,
    F_PLACE,
    Frame,
    Registry,
)
from solver.engine.groups import push_group
from solver.engine.state import EMPTY, GameState

MONUMENT: Final = ANY_MONUMENT  # kind filters of a (nested) Create
ARTIFACT_KIND: Final = ARTIFACT
#: A payment's last card picked before its first (`pay_options`: none yet).
NONE_PAID: Final = -1


def create_cost(card_cost: int, start: int, space: int) -> int:
    """Discard cost of a monument: printed cost + distance from its starting space."""
    return card_cost + abs(space - start)


def legal_spaces(st: GameState, card: int, payable: int) -> list[int]:
    """Spaces with a free place; a locked card only its starting space; affordable with
    `payable` other cards in hand."""
    c = st.book.cards[card]
    free = st.free_spaces()
    start = c.starting_space
    if c.locked:
        return [start] if start in free and c.discard_cost <= payable else []
    return [s for s in free if create_cost(c.discard_cost, start, s) <= payable]


def _creatable_in(cards: tuple[Card, ...], card: int, payable: int, free: list[int],
                  art_free: bool, kind: int | None, mtype: int | None) -> bool:
    """Whether `card` can be created with `payable` other cards to pay, given the spaces with a
    free place (`free`) and whether an artifact space is free: no technology; an artifact needs
    a free artifact space and its cost; a monument a free place it can afford, its starting
    space alone if locked (RULES.md section 4C); `kind`/`mtype` filter a granted Create."""
    c = cards[card]
    if c.is_tech:
        return False
    cost = c.discard_cost
    if c.kind == ARTIFACT:
        return kind != MONUMENT and art_free and cost <= payable
    if kind == ARTIFACT_KIND or (mtype is not None and c.kind != mtype) or cost > payable:
        return False
    start = c.starting_space
    if c.locked:
        return start in free
    slack = payable - cost
    return any(abs(s - start) <= slack for s in free)


def can_create(st: GameState, card: int, payable: int, kind: int | None, mtype: int | None) -> bool:
    """Whether `card` can be created now (`_creatable_in` on this state)."""
    return _creatable_in(st.book.cards, card, payable, st.free_spaces(), EMPTY in st.artifacts,
                         kind, mtype)


def creatable_among(st: GameState, candidates: Sequence[int], payable: int,
                    kind: int | None, mtype: int | None) -> list[int]:
    """The `candidates` that can be created now; the free places looked up once."""
    cards = st.book.cards
    free = st.free_spaces()
    art_free = EMPTY in st.artifacts
    return [c for c in candidates if _creatable_in(cards, c, payable, free, art_free, kind, mtype)]


def any_creatable(st: GameState) -> bool:
    """Whether any card in hand can be created now (the Create action is legal)."""
    cards = st.book.cards
    payable = len(st.hand) - 1
    free = st.free_spaces()
    art_free = EMPTY in st.artifacts
    for c in st.hand:  # noqa: SIM110 (a loop: no generator per call on the action choice's path)
        if _creatable_in(cards, c, payable, free, art_free, None, None):
            return True
    return False


def creatable(st: GameState, kind: int | None, mtype: int | None) -> list[int]:
    """Cards in hand that can be created now."""
    return creatable_among(st, st.hand, len(st.hand) - 1, kind, mtype)


def start_create(st: GameState, kind: int | None, mtype: int | None, optional: bool,
                 granted_by: int, source: tuple[int, ...] = ()) -> None:
    """Push the decisions of a Create. `source` non-empty: create one of these revealed cards
    (T22); once it is chosen the other revealed cards are discarded."""
    st.stack.append((D_CREATE_CARD, kind, mtype, optional, granted_by, source))


def create_card_options(st: GameState, fr: Frame) -> list[int]:
    _, kind, mtype, optional, _, source = fr
    if source:
        opts = [A.CARD_CODE | c for c in creatable_among(st, source, len(st.hand), kind, mtype)]
    else:
        opts = [A.CARD_CODE | c for c in creatable(st, kind, mtype)]
    if optional and opts:
        opts.append(A.NO)
    return opts


def create_card_choose(st: GameState, fr: Frame, action: int) -> None:
    _, _, _, _, granted_by, source = fr
    if action == A.NO:
        return
    card = A.value_of(action)
    if source:  # T22: the card is chosen among those set aside; the others are discarded now
        st.limbo.remove(card)
        for other in source:
            if other in st.limbo:
                st.limbo.remove(other)
                st.discard.append(other)
    else:
        st.hand.remove(card)
    st.limbo.append(card)
    c = st.book.cards[card]
    if c.kind == ARTIFACT:
        st.stack.append((F_PLACE, card, 0, granted_by))
        if c.discard_cost:
            st.stack.append((D_PAY, c.discard_cost, NONE_PAID, None))
    else:
        st.stack.append((D_CREATE_SPACE, card, granted_by))


def create_space_options(st: GameState, fr: Frame) -> list[int]:
    return [A.SPACE_CODE | s for s in legal_spaces(st, fr[1], len(st.hand))]


def create_space_choose(st: GameState, fr: Frame, action: int) -> None:
    _, card, granted_by = fr
    s = A.value_of(action)
    c = st.book.cards[card]
    cost = create_cost(c.discard_cost, c.starting_space, s)
    st.stack.append((F_PLACE, card, s, granted_by))
    if cost:
        st.stack.append((D_PAY, cost, NONE_PAID, None))


def pay_options(st: GameState, fr: Frame) -> list[int]:
    """Discards are chosen one at a time in rising card order (one sequence per set). With a
    card-type filter (A7) only those cards count."""
    _, remaining, last, ctype = fr
    cards = st.book.cards
    hand = [c for c in st.hand if c > last and (ctype is None or cards[c].kind == ctype)]
    n = len(hand)
    return [A.CARD_CODE | c for i, c in enumerate(hand) if n - i >= remaining]


def pay_choose(st: GameState, fr: Frame, action: int) -> None:
    _, remaining, _, ctype = fr
    c = A.value_of(action)
    st.discard_from_hand(c)
    if remaining > 1:
        st.stack.append((D_PAY, remaining - 1, c, ctype))


def entering_knowledge(st: GameState, card: int) -> int:
    """Knowledge put on a new monument: printed value, less its own discount and every
    reduction in play (never itself), floored at 0 (RULES.md section 5)."""
    cards = st.book.cards
    c = cards[card]
    value = c.knowledge
    for e in c.effects:
        d = e.discount
        if d is not None and holds(st, e.condition, card):
            value -= d.fixed if d.per is None else d.times * count(st, d.per, card)
    reducer = st.book.reducer
    for x in st.in_play():
        if x == card or not reducer[x]:
            continue
        for e in cards[x].effects:
            r = e.reduction
            if r is not None and (r.monument_type is None or r.monument_type == c.kind) \
                    and holds(st, e.condition, x):
                value -= r.amount
    return max(0, value)


def place(st: GameState, fr: Frame) -> None:
    """Put the created card into play, then resolve its Create group (D15)."""
    _, card, space, granted_by = fr
    st.limbo.remove(card)
    c = st.book.cards[card]
    if c.kind == ARTIFACT:
        st.artifacts[st.free_artifact_space()] = card
    else:
        st.put_in_space(card, space)
        st.tokens[card] = entering_knowledge(st, card)
    group: list[tuple[int, int]] = []
    for i, e in enumerate(c.effects):
        if e.moment == "immediate" and e.discount is None and not e.opponents_only:
            if e.special == "potala_skip_decline":
                if not st.in_decline:
                    st.potala = True
                continue
            group.append((card, i))
    cards = st.book.cards
    reactive = st.book.create_reactive
    for x in st.in_play():
        if x == card or not reactive[x]:
            continue
        for i, e in enumerate(cards[x].effects):
            if e.special == "poulnabrone":
                if c.kind != ARTIFACT and granted_by != x and len(st.past) >= 11:
                    group.append((x, i))
                continue
            t = e.trigger
            if t is None or t.event != "create":
                continue
            if t.kind == ARTIFACT and c.kind != ARTIFACT:
                continue
            if t.kind == ANY_MONUMENT and c.kind == ARTIFACT:
                continue
            if t.monument_type is not None and c.kind != t.monument_type:
                continue
            if t.spaces and space not in t.spaces:
                continue
            group.append((x, i))
    push_group(st, group)


def register() -> Registry:
    auto = {F_PLACE: place}
    options = {D_CREATE_CARD: create_card_options, D_CREATE_SPACE: create_space_options,
               D_PAY: pay_options}
    choose = {D_CREATE_CARD: create_card_choose, D_CREATE_SPACE: create_space_choose,
              D_PAY: pay_choose}
    return auto, options, choose
