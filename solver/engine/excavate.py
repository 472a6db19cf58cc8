"""The Excavate action (RULES.md section 5, D7): rotate one or more straight monuments in the
Past and draw 2 cards for each (3 with Phaistos Disc, A29). Rotated monuments are
interchangeable, so the decision is how many. With Kensington Runestone (A25) and exactly 2
rotated, the player may remove up to 6 knowledge instead of drawing. Then the Excavate
triggers (Crystal Skull, A16)."""

from __future__ import annotations

from solver.engine import actions as A
from solver.engine.conditions import special_in_play
from solver.engine.frames import (
    D_EXCAVATE,
    D_KENSINGTON,
    F_EXCAVATE_DRAW,
    F_EXCAVATE_TRIGGERS,
    Frame,
    Registry,
)
from solver.engine.groups import push_group
from solver.engine.knowledge import NO_CARD_SOURCE, start_removal
from solver.engine.state import GameState


def excavate_options(st: GameState, fr: Frame) -> list[int]:
    return [A.code(A.NUMBER, n) for n in range(1, len(st.past) - st.rotated + 1)]


def excavate_choose(st: GameState, fr: Frame, action: int) -> None:

    n = A.value_of(action)
    st.rotated += n
    st.stack.append((F_EXCAVATE_TRIGGERS, n))
    if n == 2 and any(True for _ in special_in_play(st, "kensington_runestone")):
        st.stack.append((D_KENSINGTON, n))
    else:
        st.stack.append((F_EXCAVATE_DRAW, n))


def excavate_draw(st: GameState, fr: Frame) -> None:

    rate = 3 if any(True for _ in special_in_play(st, "phaistos_disc")) else 2
    st.draw(rate * fr[1])


def kensington_options(st: GameState, fr: Frame) -> list[int]:
    return [A.YES, A.NO]


def kensington_choose(st: GameState, fr: Frame, action: int) -> None:

    if action == A.YES:
        start_removal(st, source=NO_CARD_SOURCE, amount=6, up_to=True,
                      candidates=tuple(st.monuments()))
    else:
        st.stack.append((F_EXCAVATE_DRAW, fr[1]))


def excavate_triggers(st: GameState, fr: Frame) -> None:
    n = fr[1]
    cards = st.book.cards
    group: list[tuple[int, int]] = []
    for x in st.in_play():
        for i, e in enumerate(cards[x].effects):
            t = e.trigger
            if t is not None and t.event == "excavate" and n >= t.rotated_at_least:
                group.append((x, i))
    push_group(st, group)


def register() -> Registry:
    auto = {F_EXCAVATE_DRAW: excavate_draw, F_EXCAVATE_TRIGGERS: excavate_triggers}
    options = {D_EXCAVATE: excavate_options, D_KENSINGTON: kensington_options}
    choose = {D_EXCAVATE: excavate_choose, D_KENSINGTON: kensington_choose}
    return auto, options, choose
