"""A playout prior for the solo game: which options a sensible player tries more often.

NRPA adds it to its learned weights (GNRPA): the prior only changes the probabilities of a
playout, never what is legal, so no line is lost; the learned weights correct a bad prior.
Numbers are log-odds; they live here, in one place. NRPA asks once per decision for the codes
(`codes`) and the prior factors ``exp(bias)`` of every option (`factors`), precomputed here, so a
playout calls no ``exp`` and no per-option function.

A code (`code`) names the pending decision's kind and the option, so NRPA learns a weight for
"Learn at the action choice" apart from "Learn this technology"; a lightning chest's options
also name the turn, since a chest is used once and *when* decides what it gives. The prior
leans to keeping a chest (`CHEST_PRIOR` at each chance: a window, an action choice): with even
odds at every chance, the 60-s lines used 33 of 40 lightning chests in turn 1, where a chest
that removes knowledge or discards lost knowledge finds none (benchmarks/README.md, session 43).

A `PlanPrior` adds the relaxation's plan (`solver.bounds.cpsat`: which cards to create, where,
and which technologies to learn) as one more bonus: plain data (it crosses into the NRPA
worker processes), a prior like the others, never a pruning.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from solver.engine import actions as A
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_WINDOW,
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_LEARN,
    D_REMOVE,
)
from solver.engine.state import GameState
from solver.frozen import Frozen

ACTION_PRIOR: Final = {A.ACT_CREATE: 1.5, A.ACT_LEARN: 1.0, A.ACT_EXCAVATE: 0.8, A.ACT_ARCHIVE: 0.0,
                A.ACT_SEARCH: -0.5}
#: per space away from the card's starting space (extra discards)
SPACE_DISTANCE_PENALTY: Final = 0.7
STOP_REMOVING_PENALTY: Final = 1.0  # "done" before removing every knowledge token it may
PLAN_BONUS: Final = 2.0  # an option the relaxation's plan names (`PlanPrior`; measured in issue 13)
CHEST_PRIOR: Final = -3.0  # use a lightning chest now (at a window or before an action)

#: a code is ``kind << CODE_SHIFT | action`` (every action is below `A.ACTION_SPACE`) and, for
#: a lightning chest's option, ``| turn << TURN_SHIFT`` (`code`; decision kinds are below 2**8)
CODE_SHIFT: Final = (A.ACTION_SPACE - 1).bit_length()
TURN_SHIFT: Final = CODE_SHIFT + 8
FIRST_CHEST: Final = A.code(A.CHEST, 0)  # chest options are at or above (chests: the last kind)
ACTION_FACTOR: Final = {a: math.exp(b) for a, b in ACTION_PRIOR.items()}
SPACE_FACTOR: Final = tuple(math.exp(-SPACE_DISTANCE_PENALTY * d) for d in range(32))
STOP_REMOVING_FACTOR: Final = math.exp(-STOP_REMOVING_PENALTY)
CHEST_FACTOR: Final = math.exp(CHEST_PRIOR)


@dataclass(frozen=True)
class PlanPrior(Frozen):
    """The relaxation's plan as a playout prior (plain data).

    :param creates: ``(turn, card, space)`` per planned creation (space 0: an artifact).
    :param techs: the technologies the plan learns.
    :param bonus: log-odds added to an option the plan names.
    """

    creates: tuple[tuple[int, int, int], ...] = ()
    techs: tuple[int, ...] = ()
    bonus: float = PLAN_BONUS
    due: dict[int, int] = field(init=False, compare=False, repr=False)  # card -> earliest turn
    spaces: dict[int, tuple[int, ...]] = field(init=False, compare=False, repr=False)
    factor: float = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        due: dict[int, int] = {}
        spaces: dict[int, tuple[int, ...]] = {}
        for turn, card, space in self.creates:
            due[card] = min(turn, due.get(card, turn))
            if space:
                spaces[card] = (*spaces.get(card, ()), A.code(A.SPACE, space))
        object.__setattr__(self, "due", due)
        object.__setattr__(self, "spaces", spaces)
        object.__setattr__(self, "factor", math.exp(self.bonus))

    @property
    def empty(self) -> bool:
        return not self.creates and not self.techs


def code(st: GameState, action: int) -> int:
    """A context code for learned policies (NRPA): the action and the kind of pending decision,
    so a policy can learn *when* an action is good; a lightning chest's options (each chest,
    and "done" at a window) also name the turn, so a policy learns in which turn a chest pays
    and not only whether (RULES.md section 8: a chest is used once, at any moment; removing
    knowledge in turn 1 finds no monument, in turn 15 it may spare a lost token)."""
    return codes(st, (action,))[0]


def codes(st: GameState, legal: Sequence[int]) -> list[int]:
    """``[code(st, a) for a in legal]`` in one pass (NRPA asks per decision; the rule is
    written here once)."""
    stack = st.stack
    kind: int = stack[-1][0] if stack else 0
    base = kind << CODE_SHIFT
    if kind == D_CHEST_WINDOW:
        base |= st.turn << TURN_SHIFT
    elif kind == D_ACTION and st.chests_under:  # lightning chests offered before an action
        turn = st.turn << TURN_SHIFT
        return [turn | base | a if a >= FIRST_CHEST else base | a for a in legal]
    return [base | a for a in legal]


def bias(st: GameState, action: int) -> float:
    """The prior log-odds of `action` at the pending decision (without a plan)."""
    if not st.stack:
        return 0.0
    fr = st.stack[-1]
    kind: int = fr[0]
    if kind in (D_ACTION, D_CHEST_WINDOW) and action >= FIRST_CHEST:
        return CHEST_PRIOR  # a lightning chest used now (kept: "done", or an action)
    if kind == D_ACTION:
        return ACTION_PRIOR.get(action, 0.0)
    if kind == D_CREATE_SPACE:
        card = st.book.cards[fr[1]]
        return -SPACE_DISTANCE_PENALTY * abs(A.value_of(action) - card.starting_space)
    if kind == D_REMOVE and action == A.DONE:
        return -STOP_REMOVING_PENALTY
    return 0.0


def reads_only_options(kind: int, legal: Sequence[int], plan: PlanPrior | None) -> bool:
    """Whether `choice` at a decision of `kind` with options `legal` depends on them alone (and
    the fixed `plan`), not on the rest of the state nor on the book: everywhere but the action
    choice with a plan (it reads the hand, the turn and the tiles), the choice of a Timeline
    space (it reads the card's starting space), a lightning chest's window and any decision
    offering a chest (their codes read the turn, `code`)."""
    if kind in (D_CREATE_SPACE, D_CHEST_WINDOW):
        return False
    if kind == D_ACTION and any(a >= FIRST_CHEST for a in legal):
        return False
    return kind != D_ACTION or plan is None or plan.empty


def factors(st: GameState, legal: Sequence[int],
            plan: PlanPrior | None = None) -> list[float] | None:
    """``exp`` of the prior log-odds of each option of `legal` (`bias`, plus `PlanPrior.bonus`
    on what `plan` names), or None when they are all 0: the factors of `choice`."""
    return choice(st, legal, plan)[1]


def choice(st: GameState, legal: Sequence[int], plan: PlanPrior | None = None,
           ) -> tuple[list[int], list[float] | None]:
    """The codes (`codes`) and the prior factors of the options of one decision, in one call
    (NRPA asks per decision): ``exp`` of the prior log-odds of each option of `legal` (`bias`,
    plus `PlanPrior.bonus` on what `plan` names), or None when they are all 0. The plan names:
    at the action choice, Create when a card in hand is planned for this turn or earlier, Learn
    when a planned technology is on offer; at a Create, the planned cards and, for the card
    being placed, its planned spaces; at a Learn, the planned technologies."""
    stack = st.stack
    if not stack:
        return list(legal), None
    fr = stack[-1]
    kind: int = fr[0]
    cs = codes(st, legal)
    out: list[float] | None = None
    if kind == D_ACTION:
        out = [CHEST_FACTOR if a >= FIRST_CHEST else ACTION_FACTOR.get(a, 1.0) for a in legal]
        if plan is not None and not plan.empty:
            due = plan.due
            turn = st.turn
            if any(due.get(c, turn + 1) <= turn for c in st.hand):
                out = [f * plan.factor if a == A.ACT_CREATE else f
                       for f, a in zip(out, legal, strict=True)]
            if plan.techs and any(t in plan.techs for t in st.available_techs()):
                out = [f * plan.factor if a == A.ACT_LEARN else f
                       for f, a in zip(out, legal, strict=True)]
    elif kind == D_CREATE_SPACE:
        start = st.book.cards[fr[1]].starting_space
        out = [SPACE_FACTOR[abs(A.value_of(a) - start)] for a in legal]
        if plan is not None and fr[1] in plan.spaces:
            planned = plan.spaces[fr[1]]
            out = [f * plan.factor if a in planned else f for f, a in zip(out, legal, strict=True)]
    elif kind == D_REMOVE:
        if A.DONE in legal:
            out = [STOP_REMOVING_FACTOR if a == A.DONE else 1.0 for a in legal]
    elif kind == D_CHEST_WINDOW:
        out = [CHEST_FACTOR if a >= FIRST_CHEST else 1.0 for a in legal]
    elif plan is not None and kind == D_CREATE_CARD and plan.due:
        due = plan.due
        out = [plan.factor if A.value_of(a) in due and A.kind_of(a) == A.CARD else 1.0
               for a in legal]
    elif plan is not None and kind == D_LEARN and plan.techs:
        techs = plan.techs
        out = [plan.factor if A.value_of(a) in techs and A.kind_of(a) == A.CARD else 1.0
               for a in legal]
    return cs, out
