"""The engine loop and its handler table: run automatic frames until a real decision is pending.

A decision with no option vanishes (nothing to choose, e.g. no target); a decision with one
option is taken at once (it is not a choice, and it is not written in a line). Otherwise the
state stops there and `legal` holds the options, in a fixed order.

The handler table is explicit: every phase and action module exports its handlers through
`register()`, and `Rules` merges them in the order listed in `PHASE_MODULES`. Nothing is filled
lazily and no import order matters. A state reaches the table through `GameState.rules`, which
`solver.engine.newgame.new_game` sets to `RULES`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from solver.engine import (
    archive,
    chests,
    costs,
    create,
    decline,
    effects,
    excavate,
    knowledge,
    learn,
    reveal,
    targets,
    techeffects,
    turn,
)
from solver.engine.errors import IllegalActionError
from solver.engine.frames import Frame, Registry
from solver.engine.goal_check import goals_met
from solver.engine.scoring import score_sheet
from solver.engine.sheet import ScoreSheet
from solver.engine.state import GameState

Auto = Callable[[GameState, Frame], None]
Options = Callable[[GameState, Frame], list[int]]
Choose = Callable[[GameState, Frame, int], None]

#: The modules whose handlers make up the rules (each frame kind is handled by one of them).
PHASE_MODULES: Final[tuple[Callable[[], Registry], ...]] = (
    turn.register, decline.register, create.register, learn.register, archive.register,
    excavate.register, effects.register, targets.register, reveal.register, techeffects.register,
    costs.register, knowledge.register, chests.register,
)


class Observer(Protocol):
    """Watches the loop (`solver.engine.describe`): every decision taken, explicit or forced,
    and every automatic frame, which the observer runs itself with `run(st, fr)`."""

    def note(self, fr: Frame, action: int, explicit: bool) -> None: ...

    def auto(self, fr: Frame, run: Auto) -> None: ...


class Rules:
    """The rules of the solo game as a table of frame handlers (`solver.engine.frames`):
    automatic frames run, decisions list their options and take one."""

    __slots__ = ("auto", "options", "choose")

    def __init__(self, registries: tuple[Callable[[], Registry], ...] = PHASE_MODULES) -> None:
        """Merge the modules' handler tables; a frame kind handled twice raises `ValueError`."""
        self.auto: dict[int, Auto] = {}
        self.options: dict[int, Options] = {}
        self.choose: dict[int, Choose] = {}
        for register in registries:
            a, o, c = register()
            for table, part in ((self.auto, a), (self.options, o), (self.choose, c)):
                twice = table.keys() & part.keys()
                if twice:
                    raise ValueError(f"frame kinds {sorted(twice)} are registered twice")
                table.update(part)

    def settle(self, st: GameState, observer: Observer | None = None) -> None:
        """Advance until a decision with two or more options is pending, or the game is over.

        Unobserved (every search), each frame is taken off the stack before its handler runs
        and a decision that waits is put back: the same stack, one list operation less per
        frame. No option handler reads the stack."""
        if observer is not None:
            self._settle_observed(st, observer)
            return
        auto, options, choose = self.auto, self.options, self.choose
        stack = st.stack
        while stack:
            fr = stack.pop()
            kind: int = fr[0]
            if kind < 100:
                auto[kind](st, fr)
                continue
            opts = options[kind](st, fr)
            n = len(opts)
            if n > 1:
                stack.append(fr)
                st.legal = opts
                return
            if n:
                choose[kind](st, fr, opts[0])
        st.legal = []

    def _settle_observed(self, st: GameState, observer: Observer) -> None:
        """`settle` telling `observer` of every frame."""
        auto, options, choose = self.auto, self.options, self.choose
        stack = st.stack
        while stack:
            fr = stack[-1]
            kind: int = fr[0]
            if kind < 100:
                stack.pop()
                observer.auto(fr, auto[kind])
                continue
            opts = options[kind](st, fr)
            if len(opts) > 1:
                st.legal = opts
                return
            stack.pop()
            if opts:
                observer.note(fr, opts[0], False)
                choose[kind](st, fr, opts[0])
        st.legal = []

    def apply(self, st: GameState, action: int, observer: Observer | None = None) -> None:
        """Take one option of the pending decision, then `settle`."""
        if action not in st.legal:
            raise IllegalActionError(f"action {action} is not legal here")
        fr = st.stack.pop()
        if observer is not None:
            observer.note(fr, action, True)
        self.choose[fr[0]](st, fr, action)
        self.settle(st, observer)

    def score(self, st: GameState) -> ScoreSheet:
        """The score sheet (RULES.md section 7)."""
        return score_sheet(st)

    def goals_met(self, st: GameState) -> bool:
        """Every goal chest in an artifact space met (RULES.md section 8)."""
        return goals_met(st)


#: The rules every dealt game plays by (the table never changes once built).
RULES: Final = Rules()


def settle(st: GameState) -> None:
    """`Rules.settle` of the state's own rules."""
    RULES.settle(st)


def apply(st: GameState, action: int) -> None:
    """`Rules.apply` of the state's own rules."""
    RULES.apply(st, action)
