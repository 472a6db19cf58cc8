"""The Archive action (RULES.md section 5, D2): discard one or more cards from hand; for each,
remove 1 knowledge from Timeline monuments, spread as the player chooses."""

from __future__ import annotations

from solver.engine import actions as A
from solver.engine.frames import D_ARCHIVE, F_ARCHIVE_REMOVE, Frame, Registry
from solver.engine.knowledge import NO_CARD_SOURCE, start_removal
from solver.engine.state import GameState


def start_archive(st: GameState, optional: bool) -> None:
    st.stack.append((D_ARCHIVE, 0, -1, optional))


def archive_options(st: GameState, fr: Frame) -> list[int]:
    """Archived cards are chosen in rising card order, then ``done`` (at least one card)."""
    _, n, last, optional = fr
    opts = [A.CARD_CODE | c for c in st.hand if c > last]
    if n >= 1:
        opts.append(A.DONE)
    elif optional and opts:
        opts.append(A.NO)
    return opts


def archive_choose(st: GameState, fr: Frame, action: int) -> None:
    _, n, _, optional = fr
    if action == A.NO:
        return
    if action == A.DONE:
        st.stack.append((F_ARCHIVE_REMOVE, n))
        return
    c = A.value_of(action)
    st.discard_from_hand(c)
    st.stack.append((D_ARCHIVE, n + 1, c, optional))


def archive_remove(st: GameState, fr: Frame) -> None:

    start_removal(st, source=NO_CARD_SOURCE, amount=fr[1], up_to=False,
                  candidates=tuple(st.monuments()))


def register() -> Registry:
    return ({F_ARCHIVE_REMOVE: archive_remove}, {D_ARCHIVE: archive_options},
            {D_ARCHIVE: archive_choose})
