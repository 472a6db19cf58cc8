"""Monuments as targets of effects: remove knowledge, swap, move (RULES.md sections 5 and 13).

The player chooses every target (a `D_TARGET` decision); removals from "each" monument are
automatic. Two targets of one step (a pair removal, a swap of two others) are chosen in place
order, so one outcome is reached by one sequence (**D6**). The declining card is immune to move
and swap, but may still lose knowledge; the time card is never a target (**D18**). Each of the
two cities of Philae loses up to its own amount (**D20**); Xixia Wangling takes up to 3 from any
one adjacent monument (**D21**).
"""

from __future__ import annotations

from typing import Final

from solver.engine import actions as A
from solver.engine.cards import Filter, Step
from solver.engine.conditions import count
from solver.engine.frames import D_MOVE_SPACE, D_TARGET, Frame, Registry
from solver.engine.knowledge import start_removal
from solver.engine.state import GameState

# D_TARGET purposes
REMOVE_ONE: Final = 0
PAIR_FIRST: Final = 1
PAIR_SECOND: Final = 2
SWAP_SELF: Final = 3
SWAP_FIRST: Final = 4
SWAP_SECOND: Final = 5
MOVE: Final = 6
#: The purposes that take knowledge from the monuments chosen.
REMOVAL_PURPOSES: Final = frozenset({REMOVE_ONE, PAIR_FIRST, PAIR_SECOND})


def amount_of(st: GameState, card: int, step: Step, ctx: int) -> int:
    """The step's amount, times the units paid (``per: paid``) or a count (``per: <counter>``)."""
    if step.per is None:
        return step.amount
    if step.per == "paid":
        return step.amount * ctx
    return step.amount * count(st, step.per, card)


def matching(st: GameState, card: int, f: Filter) -> list[int]:
    """Timeline monuments that a filter admits, in place order (the declining card is immune
    to move and swap, but may still lose knowledge)."""
    cards = st.book.cards
    adj = st.adjacent(card) if f.adjacent else None
    out = []
    for m in st.monuments():
        if f.other and m == card:
            continue
        if f.monument_type is not None and cards[m].kind != f.monument_type:
            continue
        if adj is not None and m not in adj:
            continue
        if f.min_tokens is not None and st.tokens[m] < f.min_tokens:
            continue
        if f.exact_tokens is not None and st.tokens[m] != f.exact_tokens:
            continue
        if f.space is not None and st.place_of(m)[0] != f.space:
            continue
        out.append(m)
    return out


def movable(st: GameState, card: int, f: Filter) -> list[int]:
    return [m for m in matching(st, card, f) if m != st.declining]


def free_spaces_except(st: GameState, space: int) -> list[int]:
    return [s for s in range(1, 7) if s != space and st.has_free_place(s)]


def can_remove(st: GameState, card: int, step: Step) -> bool:
    """Whether a knowledge removal has a token to remove."""
    if step.target == "self":
        return st.tokens[card] > 0
    return any(st.tokens[m] > 0 for m in matching(st, card, step.filter))


def can_move(st: GameState, card: int, step: Step) -> bool:
    """Whether some monument the step admits has a free place in another space."""
    return any(free_spaces_except(st, st.place_of(m)[0]) for m in movable(st, card, step.filter))


def step_remove(st: GameState, card: int, step: Step, ctx: int) -> None:
    amount = amount_of(st, card, step, ctx)
    if amount <= 0:
        return
    target = step.target
    if target == "self":
        if st.in_timeline(card):
            start_removal(st, card, amount, step.up_to, (card,))
        return
    cands = matching(st, card, step.filter)
    if target == "each":
        for m in cands:
            st.tokens[m] -= min(amount, st.tokens[m])
        return
    if target == "pool":
        start_removal(st, card, amount, step.up_to, tuple(cands))
        return
    cands = [m for m in cands if st.tokens[m] > 0]
    if not cands:
        return
    purpose = REMOVE_ONE if target == "one" else PAIR_FIRST
    st.stack.append((D_TARGET, card, purpose, tuple(cands), amount, step.up_to, -1))


def target_options(st: GameState, fr: Frame) -> list[int]:
    _, _, purpose, cands, _, _, first = fr
    if purpose in (PAIR_SECOND, SWAP_SECOND):
        p = st.place_index(first)
        return [A.TARGET_CODE | m for m in cands if st.place_index(m) > p]
    if purpose in (PAIR_FIRST, SWAP_FIRST) and len(cands) > 1:
        # Two are chosen in place order, so the last cannot come first.
        last = max(cands, key=st.place_index)
        return [A.TARGET_CODE | m for m in cands if m != last]
    return [A.TARGET_CODE | m for m in cands]


def target_choose(st: GameState, fr: Frame, action: int) -> None:
    _, card, purpose, cands, amount, up_to, first = fr
    m = A.value_of(action)
    if purpose == REMOVE_ONE:
        start_removal(st, card, amount, up_to, (m,))
    elif purpose == PAIR_FIRST:
        p = st.place_index(m)
        if any(st.place_index(x) > p for x in cands):
            st.stack.append((D_TARGET, card, PAIR_SECOND, cands, amount, up_to, m))
        else:
            start_removal(st, card, amount, up_to, (m,))
    elif purpose == PAIR_SECOND:
        start_removal(st, card, amount, up_to, (m,))
        start_removal(st, card, amount, up_to, (first,))
    elif purpose == SWAP_SELF:
        swap(st, card, m)
    elif purpose == SWAP_FIRST:
        st.stack.append((D_TARGET, card, SWAP_SECOND, cands, 0, False, m))
    elif purpose == SWAP_SECOND:
        swap(st, first, m)
    elif purpose == MOVE:
        if amount:  # a fixed destination space
            move(st, m, amount)
        else:
            st.stack.append((D_MOVE_SPACE, m))


def swap(st: GameState, a: int, b: int) -> None:
    """Swap exchanges the exact places of two monuments (their knowledge goes with them)."""
    sa, ra = st.place_of(a)
    sb, rb = st.place_of(b)
    la, lb = list(st.spaces[sa - 1]), list(st.spaces[sb - 1]) if sb != sa else None
    if lb is None:
        la[ra], la[rb] = b, a
        st.spaces[sa - 1] = tuple(la)
        return
    la[ra] = b
    lb[rb] = a
    st.spaces[sa - 1] = tuple(la)
    st.spaces[sb - 1] = tuple(lb)


def move(st: GameState, m: int, space: int) -> None:
    """Move a monument to a free place of another space, the lower place first."""
    if not st.has_free_place(space):
        return
    st.take_from_timeline(m)
    st.put_in_space(m, space)


def move_space_options(st: GameState, fr: Frame) -> list[int]:
    m = fr[1]
    return [A.SPACE_CODE | s for s in free_spaces_except(st, st.place_of(m)[0])]


def move_space_choose(st: GameState, fr: Frame, action: int) -> None:
    move(st, fr[1], A.value_of(action))


def step_swap(st: GameState, card: int, step: Step, ctx: int) -> None:
    cands = movable(st, card, step.filter)
    if step.first == "self":
        if not st.in_timeline(card) or card == st.declining:
            return
        others = tuple(m for m in cands if m != card)
        if others:
            st.stack.append((D_TARGET, card, SWAP_SELF, others, 0, False, -1))
        return
    if len(cands) < 2:
        return
    st.stack.append((D_TARGET, card, SWAP_FIRST, tuple(cands), 0, False, -1))


def step_move(st: GameState, card: int, step: Step, ctx: int) -> None:
    cands = movable(st, card, step.filter)
    if step.to:
        if not st.has_free_place(step.to):
            return
        cands = [m for m in cands if st.place_of(m)[0] != step.to]
    else:
        cands = [m for m in cands if free_spaces_except(st, st.place_of(m)[0])]
    if cands:
        st.stack.append((D_TARGET, card, MOVE, tuple(cands), step.to, False, -1))


def register() -> Registry:
    """The target decisions for the engine loop (`solver.engine.flow`)."""
    options = {D_TARGET: target_options, D_MOVE_SPACE: move_space_options}
    choose = {D_TARGET: target_choose, D_MOVE_SPACE: move_space_choose}
    return {}, options, choose
