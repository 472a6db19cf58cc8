"""The effect interpreter: the primitives of the card vocabulary as engine frames (RULES.md
sections 5 and 13, decisions D4, D6 and D22).

An effect resolves as the steps of its data (`solver.engine.cards.Step`), in printed order.
Mandatory steps apply as far as possible; "you may" steps and effects are a yes/no decision, offered
only when accepting can change something, so one outcome is reached by one sequence (RULES.md D6).
Every target is a decision of the player; automatic steps (draw, "each" removals) are not.

This module resolves an effect, runs its steps and asks the yes/no. `STEP_HANDLERS` sends each
step op to its handler, which lives with its concept: monuments as targets
(`solver.engine.targets`), builder reveals (`solver.engine.reveal`), technologies
(`solver.engine.techeffects`), costs (`solver.engine.costs`), and here the steps that start an
action or change one count. `SPECIAL_HANDLERS` and `STANDING_SPECIALS` name the specials the
engine knows. These tables are the source of truth for `solver.engine.coverage`:
`tests/cards/test_coverage.py` checks that its sets are exactly theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from solver.engine import actions as A
from solver.engine.archive import start_archive
from solver.engine.cards import ANY_MONUMENT, Step
from solver.engine.conditions import count, holds
from solver.engine.costs import can_pay, step_discard_hand, step_pay
from solver.engine.create import start_create
from solver.engine.errors import EffectNotImplementedError
from solver.engine.frames import D_NUMBER, D_YESNO, F_EFFECT, F_STEPS, Frame, Registry
from solver.engine.learn import start_learn
from solver.engine.reveal import step_ancient_greek, step_reveal_keep, step_reveal_until
from solver.engine.state import HAND_LIMIT, GameState
from solver.engine.targets import can_move, can_remove, step_move, step_remove, step_swap
from solver.engine.techeffects import step_bury, step_gain_held_tech, step_hold_tech, step_niches

#: A step handler: (state, card, step, context: the units paid, for ``per: paid``).
StepHandler = Callable[[GameState, int, Step, int], None]
#: A special handler: (state, the card whose effect resolves).
SpecialHandler = Callable[[GameState, int], None]


def resolve_effect(st: GameState, fr: Frame) -> None:
    """Resolve one effect of a card: check its condition now; ask when it is optional."""
    _, card, i, ctx = fr
    e = st.book.cards[card].effects[i]
    if e.opponents_only or e.score is not None or e.reduction is not None or e.discount is not None:
        return
    if e.special is not None:
        special = SPECIAL_HANDLERS.get(e.special)
        if special is not None:
            special(st, card)
        elif e.special not in STANDING_SPECIALS:
            raise EffectNotImplementedError(
                f"{st.book.cards[card].code}: special {e.special!r} is not implemented")
        return
    if not holds(st, e.condition, card):
        return
    if e.optional:
        if e.steps and can_step(st, card, e.steps[0], ctx):
            st.stack.append((D_YESNO, card, e.steps, ctx))
        return
    st.stack.append((F_STEPS, card, e.steps, 0, ctx, False))


def run_steps(st: GameState, fr: Frame) -> None:
    """Run one step of an effect and queue the next; a "you may" step is asked first, unless
    the action it starts asks for itself (Create, Learn, Archive)."""
    _, card, steps, i, ctx, confirmed = fr
    step: Step = steps[i]
    if i + 1 < len(steps):
        st.stack.append((F_STEPS, card, steps, i + 1, ctx, False))
    if step.optional and not confirmed and step.op not in ("create", "learn", "archive"):
        if can_step(st, card, step, ctx):
            st.stack.append((D_YESNO, card, (step,), ctx))
        return
    run_step(st, card, step, ctx)


def yesno_options(st: GameState, fr: Frame) -> list[int]:
    return [A.YES, A.NO]


def yesno_choose(st: GameState, fr: Frame, action: int) -> None:
    if action == A.YES:
        _, card, steps, ctx = fr
        st.stack.append((F_STEPS, card, steps, 0, ctx, True))


def can_step(st: GameState, card: int, step: Step, ctx: int) -> bool:
    """Whether accepting an optional step can change anything (else it is not offered)."""
    op = step.op
    if op == "remove_knowledge":
        return can_remove(st, card, step)
    if op == "move":
        return can_move(st, card, step)
    if op == "pay":
        return can_pay(st, card, step)
    if op == "draw":
        return len(st.hand) < HAND_LIMIT
    return True


def run_step(st: GameState, card: int, step: Step, ctx: int) -> None:
    op = step.op
    handler = STEP_HANDLERS.get(op)
    if handler is None:
        raise EffectNotImplementedError(
            f"{st.book.cards[card].code}: effect step {op!r} is not implemented")
    handler(st, card, step, ctx)


# ------------------------------------------------------------------ steps of one count or action

def step_draw(st: GameState, card: int, step: Step, ctx: int) -> None:
    if step.per is None:
        n = step.n
    elif step.per == "paid":
        n = ctx
    else:
        n = count(st, step.per, card)
    st.draw(n)


def step_discard_lost(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Discard lost knowledge: "up to N" lets the player choose 0..N, a plain N removes
    min(N, lost) (D22)."""
    most = min(step.amount, st.lost)
    if most <= 0:
        return
    if step.up_to:
        st.stack.append((D_NUMBER, most))
    else:
        st.lost -= most


def number_options(st: GameState, fr: Frame) -> list[int]:
    return [A.code(A.NUMBER, n) for n in range(fr[1] + 1)]


def number_choose(st: GameState, fr: Frame, action: int) -> None:
    st.lost -= A.value_of(action)


def step_straighten(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Straighten rotated Past monuments. They are interchangeable, and a straight monument can
    do everything a rotated one can, so "up to" straightens as many as it may (clarifications:
    A15 and T19 straighten automatically)."""
    st.rotated -= min(step.amount, st.rotated)


def step_create(st: GameState, card: int, step: Step, ctx: int) -> None:
    start_create(st, step.kind, step.monument_type, optional=step.optional, granted_by=-1)


def step_learn(st: GameState, card: int, step: Step, ctx: int) -> None:
    start_learn(st, optional=step.optional, ignore_requirements=step.ignore_requirements,
                count=step.count)


def step_archive(st: GameState, card: int, step: Step, ctx: int) -> None:
    start_archive(st, optional=step.optional)


def step_vanish(st: GameState, card: int, step: Step, ctx: int) -> None:
    """C25-C29: a declining card that still holds knowledge is discarded instead."""
    if st.tokens[card] >= 1:
        st.vanishing = card


def special_poulnabrone(st: GameState, card: int) -> None:
    """M36: the extra Create is a monument Create ("you may CREATE 2 [monuments]")."""
    start_create(st, ANY_MONUMENT, None, optional=True, granted_by=card)


#: Every step op the interpreter runs, and its handler.
STEP_HANDLERS: Final[dict[str, StepHandler]] = {
    "draw": step_draw,
    "remove_knowledge": step_remove,
    "discard_lost": step_discard_lost,
    "swap": step_swap,
    "move": step_move,
    "straighten": step_straighten,
    "create": step_create,
    "learn": step_learn,
    "archive": step_archive,
    "reveal_keep": step_reveal_keep,
    "reveal_until": step_reveal_until,
    "niches": step_niches,
    "ancient_greek": step_ancient_greek,
    "discard_hand": step_discard_hand,
    "pay": step_pay,
    "bury_tech": step_bury,
    "vanish_if_knowledge": step_vanish,
    "hold_tech": step_hold_tech,
    "gain_held_tech": step_gain_held_tech,
}

#: Specials that resolve when their effect comes up (the group is formed in `create.place`).
SPECIAL_HANDLERS: Final[dict[str, SpecialHandler]] = {
    "poulnabrone": special_poulnabrone,
}

#: Standing specials: nothing resolves; the rule that reads them applies them while in play.
STANDING_SPECIALS: Final = frozenset({
    "potala_skip_decline",  # solver.engine.create.place: no decline this turn
    "candi_sukuh",  # solver.engine.learn.candi_sukuh_in_timeline (D19)
    "kensington_runestone",  # solver.engine.excavate
    "phaistos_disc",  # solver.engine.excavate
    "elongated_skulls",  # solver.engine.decline
})


def register() -> Registry:
    """The effect frames, the yes/no and the number for the engine loop (`solver.engine.flow`)."""
    auto = {F_EFFECT: resolve_effect, F_STEPS: run_steps}
    options = {D_YESNO: yesno_options, D_NUMBER: number_options}
    choose = {D_YESNO: yesno_choose, D_NUMBER: number_choose}
    return auto, options, choose
