"""The engine loop: run automatic frames until a real decision is pending.

A decision with no option vanishes (nothing to choose, e.g. no target); a decision with one
option is taken at once (it is not a choice, and it is not written in a line). Otherwise the
state stops there and `legal` holds the options, in a fixed order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solver.errors import IllegalActionError

if TYPE_CHECKING:
    from solver.frames import Frame
    from solver.state import GameState

Auto = Callable[["GameState", "Frame"], None]
Options = Callable[["GameState", "Frame"], list[int]]
Choose = Callable[["GameState", "Frame", int], None]

AUTO: dict[int, Auto] = {}
OPTIONS: dict[int, Options] = {}
CHOOSE: dict[int, Choose] = {}



def register_handlers() -> None:
    """Fill the handler tables from the phase and action modules (done once, on first use, so
    that any engine module can be imported first without an import cycle)."""
    from solver import archive, chests, create, decline, effects, excavate, learn, turn

    for module in (turn, decline, create, learn, archive, excavate, effects, chests):
        a, o, c = module.register()
        AUTO.update(a)
        OPTIONS.update(o)
        CHOOSE.update(c)


def settle(st: GameState) -> None:
    """Advance until a decision with two or more options is pending, or the game is over."""
    if not AUTO:
        register_handlers()
    stack = st.stack
    while stack:
        fr = stack[-1]
        kind = fr[0]
        if kind < 100:
            stack.pop()
            AUTO[kind](st, fr)
            continue
        opts = OPTIONS[kind](st, fr)
        if len(opts) > 1:
            st.legal = opts
            return
        stack.pop()
        if opts:
            CHOOSE[kind](st, fr, opts[0])
    st.legal = []


def apply(st: GameState, action: int) -> None:
    """Take one option of the pending decision."""
    if action not in st.legal:
        raise IllegalActionError(f"action {action} is not legal here")
    fr = st.stack.pop()
    CHOOSE[fr[0]](st, fr, action)
    settle(st)
