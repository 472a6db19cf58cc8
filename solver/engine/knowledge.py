"""Removing knowledge from Timeline monuments (RULES.md section 5: Archive, effects that remove
knowledge): one token at a time, in non-decreasing place order, so that each distribution of
the removal is one sequence of decisions.
"""

from __future__ import annotations

from typing import Final

from solver.engine import actions as A
from solver.engine.frames import D_REMOVE, Frame, Registry
from solver.engine.state import GameState

#: The source of a removal that no card's effect asks for: an Archive's (section 5, D2), the
#: Kensington Runestone's in an Excavate.
NO_CARD_SOURCE: Final = -1
#: The place a removal's first token may come from: any (`remove_options`).
FIRST_PLACE: Final = -1


def start_removal(st: GameState, source: int, amount: int, up_to: bool,
                  candidates: tuple[int, ...]) -> None:
    """Remove `amount` knowledge from the candidates, one token at a time in non-decreasing
    place order (one sequence per distribution); `up_to` lets the player stop (``done``).
    A mandatory removal that can take every token does so without asking."""
    cands = tuple(m for m in candidates if st.tokens[m] > 0)
    if not cands or amount <= 0:
        return
    if not up_to:
        total = sum(st.tokens[m] for m in cands)
        if total <= amount:
            for m in cands:
                st.tokens[m] = 0
            return
        if len(cands) == 1:
            st.tokens[cands[0]] -= amount
            return
    st.stack.append((D_REMOVE, source, amount, FIRST_PLACE, up_to, cands))


def remove_options(st: GameState, fr: Frame) -> list[int]:
    _, _, remaining, min_place, up_to, cands = fr
    places = sorted((st.place_index(m), m) for m in cands if st.tokens[m] > 0)
    places = [(p, m) for p, m in places if p >= min_place]
    if up_to:
        opts = [A.TARGET_CODE | m for _, m in places]
        opts.append(A.DONE)
        return opts
    # Mandatory: a token may be taken from a place only if enough remain from there on.
    opts = []
    for i, (_, m) in enumerate(places):
        if sum(st.tokens[x] for _, x in places[i:]) >= remaining:
            opts.append(A.TARGET_CODE | m)
    return opts


def remove_choose(st: GameState, fr: Frame, action: int) -> None:
    _, source, remaining, _, up_to, cands = fr
    if action == A.DONE:
        return
    m = A.value_of(action)
    st.tokens[m] -= 1
    if remaining > 1:
        st.stack.append((D_REMOVE, source, remaining - 1, st.place_index(m), up_to, cands))


def register() -> Registry:
    return {}, {D_REMOVE: remove_options}, {D_REMOVE: remove_choose}
