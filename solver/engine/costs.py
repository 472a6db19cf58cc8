"""Effects that ask a cost: discard cards from hand, an artifact, or the card itself, then apply
the rest of the effect (RULES.md sections 5 and 13, decisions D6 and D11).

A cost paid in cards is chosen one card at a time in card order (`D_PAY`, `D_DISCARD_VAR`,
`D_ARTIFACT_PAY`), so each set paid is one sequence of decisions (**D6**). The effect that
follows (`Step.then`) runs as steps of its own, with the units paid as its context, for its
``per: paid`` amounts. Chest cards are not artifacts and cannot be discarded to pay (**D11**).
"""

from __future__ import annotations

from solver.engine import actions as A
from solver.engine.cards import Step
from solver.engine.errors import EffectNotImplementedError
from solver.engine.frames import D_ARTIFACT_PAY, D_DISCARD_VAR, D_PAY, F_STEPS, Frame, Registry
from solver.engine.state import EMPTY, GameState


def can_pay(st: GameState, card: int, step: Step) -> bool:
    """Whether a cost can be paid in full (a cost of "up to" cards always can)."""
    if step.cost == "discard_hand":
        ctype = step.card_type
        cards = st.book.cards
        return sum(1 for c in st.hand if ctype is None or cards[c].kind == ctype) >= step.amount
    if step.cost == "discard_artifacts":
        return bool(st.board_artifacts())
    if step.cost == "discard_self":
        return card in st.artifacts
    return True


def step_discard_hand(st: GameState, card: int, step: Step, ctx: int) -> None:
    n = min(step.amount, len(st.hand))
    if n:
        st.stack.append((D_PAY, n, -1, step.card_type))


def step_pay(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Pay a cost, then apply the rest; `paid` counts the units for ``per: paid``."""
    cost = step.cost
    if cost == "discard_hand":
        if not can_pay(st, card, step):
            return
        st.stack.append((F_STEPS, card, step.then, 0, step.amount, False))
        st.stack.append((D_PAY, step.amount, -1, step.card_type))
    elif cost == "discard_hand_up_to":
        st.stack.append((D_DISCARD_VAR, card, step.then, step.amount, 0, -1))
    elif cost == "discard_self":
        if card not in st.artifacts:
            return
        st.artifacts[st.artifacts.index(card)] = EMPTY
        st.discard.append(card)
        st.stack.append((F_STEPS, card, step.then, 0, 1, False))
    elif cost == "discard_artifacts":
        st.stack.append((D_ARTIFACT_PAY, card, step.then, 0, -1))
    else:
        raise EffectNotImplementedError(f"pay cost {cost!r}")


def discard_var_options(st: GameState, fr: Frame) -> list[int]:
    _, _, _, most, n, last = fr
    opts = [A.CARD_CODE | c for c in st.hand if c > last] if n < most else []
    opts.append(A.DONE)
    return opts


def discard_var_choose(st: GameState, fr: Frame, action: int) -> None:
    _, card, then, most, n, _ = fr
    if action == A.DONE:
        st.stack.append((F_STEPS, card, then, 0, n, False))
        return
    c = A.value_of(action)
    st.discard_from_hand(c)
    st.stack.append((D_DISCARD_VAR, card, then, most, n + 1, c))


def artifact_pay_options(st: GameState, fr: Frame) -> list[int]:
    _, _, _, n, last = fr
    opts = [A.TARGET_CODE | a for a in sorted(st.board_artifacts()) if a > last]
    if n >= 1:
        opts.append(A.DONE)
    return opts


def artifact_pay_choose(st: GameState, fr: Frame, action: int) -> None:
    _, card, then, n, _ = fr
    if action == A.DONE:
        st.stack.append((F_STEPS, card, then, 0, n, False))
        return
    a = A.value_of(action)
    st.artifacts[st.artifacts.index(a)] = EMPTY
    st.discard.append(a)
    st.stack.append((D_ARTIFACT_PAY, card, then, n + 1, a))


def register() -> Registry:
    """The cost decisions of effects for the engine loop (`solver.engine.flow`); a discard
    of a fixed number of cards (`D_PAY`) is the Create action's (`solver.engine.create`)."""
    options = {D_DISCARD_VAR: discard_var_options, D_ARTIFACT_PAY: artifact_pay_options}
    choose = {D_DISCARD_VAR: discard_var_choose, D_ARTIFACT_PAY: artifact_pay_choose}
    return {}, options, choose
