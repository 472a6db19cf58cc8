"""Effects that reveal builder cards: look at the top, keep some, discard the rest (RULES.md
sections 5 and 11, decisions D4 and D6).

Revealed cards wait in limbo until they are kept or discarded. Every take stops at 10 in hand
(**D4**): a card that cannot be kept is discarded (Hermes Trismegistus: reveal 5, keep 2,
discard the rest, section 11). Calakmul reveals until it finds its cards; Ancient Greek creates
an artifact from among the cards it sets aside. Kept cards are chosen in card order, so each set
kept is one sequence of decisions (**D6**).
"""

from __future__ import annotations

from solver.engine import actions as A
from solver.engine.cards import ARTIFACT, Step
from solver.engine.create import start_create
from solver.engine.frames import D_PICK, F_REVEAL_DISCARD, Frame, Registry
from solver.engine.state import HAND_LIMIT, GameState


def reveal_builder(st: GameState, n: int) -> tuple[int, ...]:
    """Take up to `n` cards from the top of the builder deck into limbo."""
    out = []
    for _ in range(n):
        c = st.take_top()
        if c < 0:
            break
        out.append(c)
    st.limbo.extend(out)
    return tuple(out)


def step_reveal_keep(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Look at the top cards, keep some, discard the rest. Every take stops at 10 in hand (D4):
    with 10 in hand the cards are still looked at and all discarded (T3 Hermes Trismegistus,
    T4 Thales); P34's skip at 10 in hand is the condition of its own effect (clarifications)."""
    room = max(0, HAND_LIMIT - len(st.hand))
    revealed = reveal_builder(st, step.count)
    keep = min(step.keep, room, len(revealed))
    st.stack.append((F_REVEAL_DISCARD, revealed))
    if keep:
        st.stack.append((D_PICK, revealed, keep, -1))


def pick_options(st: GameState, fr: Frame) -> list[int]:
    _, revealed, keep, last = fr
    left = sorted(c for c in revealed if c in st.limbo and c > last)
    n = len(left)
    return [A.code(A.CARD, c) for i, c in enumerate(left) if n - i >= keep]


def pick_choose(st: GameState, fr: Frame, action: int) -> None:
    _, revealed, keep, _ = fr
    c = A.value_of(action)
    st.limbo.remove(c)
    st.add_to_hand(c)
    if keep > 1:
        st.stack.append((D_PICK, revealed, keep - 1, c))


def reveal_discard(st: GameState, fr: Frame) -> None:
    for c in fr[1]:
        if c in st.limbo:
            st.limbo.remove(c)
            st.discard.append(c)


def step_reveal_until(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Calakmul (P33): turn up one card at a time; cards of the type go to hand, each other card
    is discarded at once (so a reshuffle later in the effect includes it, as in the reference);
    stop at `count` of them or at 10 in hand. When the deck runs out it is refilled from the
    discard pile only while that pile still holds a card of the type: otherwise nothing more
    can turn up, and turning the discarded cards over again would never end."""
    cards = st.book.cards
    taken = 0
    while taken < step.count and len(st.hand) < HAND_LIMIT:
        if not st.deck and not any(cards[c].kind == step.monument_type for c in st.discard):
            break
        c = st.take_top()
        if c < 0:
            break
        if cards[c].kind == step.monument_type:
            st.add_to_hand(c)
            taken += 1
        else:
            st.discard.append(c)


def step_ancient_greek(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Ancient Greek (T22): set the top 10 aside; if an artifact among them can be created (a
    free artifact space and its cost payable), create one (mandatory); discard the rest. The
    rest is discarded as soon as the artifact is chosen, before its Create resolves
    (`solver.engine.create.create_card_choose`), so a reshuffle during that Create (a draw of
    M26 Chabola) includes them; with no artifact to create, all ten are discarded at once."""
    revealed = reveal_builder(st, 10)
    st.stack.append((F_REVEAL_DISCARD, revealed))
    if any(st.book.cards[c].kind == ARTIFACT for c in revealed):
        start_create(st, ARTIFACT, None, optional=False, granted_by=-1, source=revealed)


def register() -> Registry:
    """The reveal frames for the engine loop (`solver.engine.flow`)."""
    return {F_REVEAL_DISCARD: reveal_discard}, {D_PICK: pick_options}, {D_PICK: pick_choose}
