"""The effect interpreter: the primitives of the card vocabulary as engine frames.

An effect resolves as the steps of its data (`solver.engine.cards.Step`), in printed order. Mandatory
steps apply as far as possible; "you may" steps and effects are a yes/no decision, offered only
when accepting can change something, so one outcome is reached by one sequence (RULES.md D6).
Every target is a decision of the player; automatic steps (draw, "each" removals) are not.
"""

from __future__ import annotations

from solver.engine import actions as A
from solver.engine.archive import start_archive
from solver.engine.cards import ANY_MONUMENT, ARTIFACT, Filter, Step
from solver.engine.conditions import count, holds, requirement_met
from solver.engine.create import start_create
from solver.engine.errors import EffectNotImplementedError
from solver.engine.frames import (
    D_ARTIFACT_PAY,
    D_BOTTOM,
    D_DISCARD_VAR,
    D_MOVE_SPACE,
    D_NUMBER,
    D_PAY,
    D_PICK,
    D_TARGET,
    D_TECH_PICK,
    D_YESNO,
    F_EFFECT,
    F_REVEAL_DISCARD,
    F_STEPS,
    Frame,
    Registry,
)
from solver.engine.knowledge import start_removal
from solver.engine.learn import candi_sukuh_in_timeline, gain_technology, start_learn
from solver.engine.state import EMPTY, HAND_LIMIT, GameState

# D_TARGET purposes
REMOVE_ONE, PAIR_FIRST, PAIR_SECOND, SWAP_SELF, SWAP_FIRST, SWAP_SECOND, MOVE = range(7)
# D_TECH_PICK purposes
BURY, LEARN_REVEALED, HOLD = 0, 1, 2

def resolve_effect(st: GameState, fr: Frame) -> None:
    """Resolve one effect of a card: check its condition now; ask when it is optional."""
    _, card, i, ctx = fr
    e = st.book.cards[card].effects[i]
    if e.opponents_only or e.score is not None or e.reduction is not None or e.discount is not None:
        return
    if e.special is not None:
        if e.special == "poulnabrone":
            # M36: the extra Create is a monument Create ("you may CREATE 2 [monuments]").
            start_create(st, ANY_MONUMENT, None, optional=True, granted_by=card)
        return
    if not holds(st, e.condition, card):
        return
    if e.optional:
        if e.steps and can_step(st, card, e.steps[0], ctx):
            st.stack.append((D_YESNO, card, e.steps, ctx))
        return
    st.stack.append((F_STEPS, card, e.steps, 0, ctx, False))


def run_steps(st: GameState, fr: Frame) -> None:
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


def amount_of(st: GameState, card: int, step: Step, ctx: int) -> int:
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


def can_step(st: GameState, card: int, step: Step, ctx: int) -> bool:
    """Whether accepting an optional step can change anything (else it is not offered)."""
    op = step.op
    if op == "remove_knowledge":
        if step.target == "self":
            return st.tokens[card] > 0
        return any(st.tokens[m] > 0 for m in matching(st, card, step.filter))
    if op == "move":
        return any(free_spaces_except(st, st.place_of(m)[0]) for m in movable(st, card, step.filter))
    if op == "pay":
        if step.cost == "discard_hand":
            ctype = step.card_type
            cards = st.book.cards
            return sum(1 for c in st.hand if ctype is None or cards[c].kind == ctype) >= step.amount
        if step.cost == "discard_artifacts":
            return bool(st.board_artifacts())
        if step.cost == "discard_self":
            return card in st.artifacts
        return True
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


# ------------------------------------------------------------------ step handlers

def step_draw(st: GameState, card: int, step: Step, ctx: int) -> None:
    if step.per is None:
        n = step.n
    elif step.per == "paid":
        n = ctx
    else:
        n = count(st, step.per, card)
    st.draw(n)


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
        return [A.code(A.TARGET, m) for m in cands if st.place_index(m) > p]
    if purpose in (PAIR_FIRST, SWAP_FIRST) and len(cands) > 1:
        # Two are chosen in place order, so the last cannot come first.
        last = max(cands, key=st.place_index)
        return [A.code(A.TARGET, m) for m in cands if m != last]
    return [A.code(A.TARGET, m) for m in cands]


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
    return [A.code(A.SPACE, s) for s in free_spaces_except(st, st.place_of(m)[0])]


def move_space_choose(st: GameState, fr: Frame, action: int) -> None:
    move(st, fr[1], A.value_of(action))


def step_discard_lost(st: GameState, card: int, step: Step, ctx: int) -> None:
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
    """Calakmul (P33): reveal one card at a time; cards of the type go to hand, the rest are
    discarded; stop at `count` of them, at 10 in hand, or when no card is left."""
    cards = st.book.cards
    taken = 0
    others: list[int] = []
    while taken < step.count and len(st.hand) < HAND_LIMIT:
        c = st.take_top()
        if c < 0:
            break
        if cards[c].kind == step.monument_type:
            st.add_to_hand(c)
            taken += 1
        else:
            others.append(c)
            st.limbo.append(c)
    for c in others:
        st.limbo.remove(c)
        st.discard.append(c)


def step_niches(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Pyramid of the Niches (P7): nothing if the Level II deck is empty; else look at its top 7
    (fewer if fewer), learn one whose requirement you meet (mandatory; Candi Sukuh applies), and
    put the rest at the bottom of the deck in the order you choose."""
    deck = st.tech_decks[1]
    if not deck:
        return
    revealed = tuple(deck[-7:][::-1])
    del deck[-len(revealed):]
    st.limbo.extend(revealed)
    st.stack.append((D_BOTTOM, revealed))
    st.stack.append((D_TECH_PICK, LEARN_REVEALED, 1, revealed))


def bottom_options(st: GameState, fr: Frame) -> list[int]:
    return [A.code(A.CARD, c) for c in sorted(fr[1]) if c in st.limbo]


def bottom_choose(st: GameState, fr: Frame, action: int) -> None:
    """The chosen card goes under the deck; the next one chosen goes under it."""
    c = A.value_of(action)
    st.limbo.remove(c)
    st.tech_decks[1].insert(0, c)
    if any(x in st.limbo for x in fr[1]):
        st.stack.append(fr)


def step_ancient_greek(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Ancient Greek (T22): set the top 10 aside; if an artifact among them can be created (a
    free artifact space and its cost payable), create one (mandatory); discard the rest."""
    revealed = reveal_builder(st, 10)
    st.stack.append((F_REVEAL_DISCARD, revealed))
    arts = tuple(c for c in revealed if st.book.cards[c].kind == ARTIFACT)
    if arts:
        start_create(st, ARTIFACT, None, optional=False, granted_by=-1, source=arts)


def step_discard_hand(st: GameState, card: int, step: Step, ctx: int) -> None:
    n = min(step.amount, len(st.hand))
    if n:
        st.stack.append((D_PAY, n, -1, step.card_type))


def step_pay(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Pay a cost, then apply the rest; `paid` counts the units for ``per: paid``."""
    cost = step.cost
    if cost == "discard_hand":
        if not can_step(st, card, step, ctx):
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
    opts = [A.code(A.CARD, c) for c in st.hand if c > last] if n < most else []
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
    opts = [A.code(A.TARGET, a) for a in sorted(st.board_artifacts()) if a > last]
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


def step_bury(st: GameState, card: int, step: Step, ctx: int) -> None:
    st.stack.append((D_TECH_PICK, BURY, step.count, step.level))


def tech_pick_options(st: GameState, fr: Frame) -> list[int]:
    _, purpose, _, arg = fr
    cards = st.book.cards
    if purpose == BURY:
        return [A.code(A.CARD, t) for t in sorted(st.available_techs())
                if arg is None or cards[t].level == arg]
    if purpose == HOLD:
        return [A.code(A.CARD, t) for t in sorted(st.available_techs()) if cards[t].level == arg]
    relax = candi_sukuh_in_timeline(st)
    return [A.code(A.CARD, t) for t in sorted(arg)
            if t in st.limbo and requirement_met(st, cards[t].requirement, relax)]


def tech_pick_choose(st: GameState, fr: Frame, action: int) -> None:
    """BURY: the technology goes to the bottom of its level's deck, then the tile refill rule
    (P35, T27). LEARN_REVEALED: learn a revealed Level II technology (P7). HOLD: the technology
    goes onto the card (Abu Simbel, RULES.md section 12), then the tile refill rule."""
    _, purpose, n, arg = fr
    t = A.value_of(action)
    if purpose == BURY:
        if n > 1:
            st.stack.append((D_TECH_PICK, BURY, n - 1, arg))
        tile = st.take_from_tile(t)
        st.tech_decks[st.book.cards[t].level - 1].insert(0, t)
        st.check_tile(tile)
    elif purpose == HOLD:
        st.held = st.held + ((n, t),)
        st.check_tile(st.take_from_tile(t))
    else:
        st.limbo.remove(t)
        gain_technology(st, t)


def step_vanish(st: GameState, card: int, step: Step, ctx: int) -> None:
    """C25-C29: a declining card that still holds knowledge is discarded instead."""
    if st.tokens[card] >= 1:
        st.vanishing = card


def step_hold_tech(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Abu Simbel (RULES.md section 12), on Create: put an available technology of the step's
    level on this card (it leaves its tile; the tile rule of section 5 follows)."""
    if st.in_timeline(card):
        st.stack.append((D_TECH_PICK, HOLD, card, step.level or 2))


def step_gain_held_tech(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Abu Simbel (RULES.md section 12), on decline: the technology on this card joins the
    collection if its requirement is met now (Candi Sukuh may relax it, D19) and then counts as
    learned (its effect and the Learn triggers apply); otherwise it is discarded (stand-in)."""
    for holder, t in st.held:
        if holder != card:
            continue
        st.held = tuple(h for h in st.held if h != (holder, t))
        if requirement_met(st, st.book.cards[t].requirement, candi_sukuh_in_timeline(st)):
            gain_technology(st, t)
        else:
            st.discard_tech(t)


STEP_HANDLERS = {
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


def register() -> Registry:
    auto = {F_EFFECT: resolve_effect, F_STEPS: run_steps, F_REVEAL_DISCARD: reveal_discard}
    options = {
        D_YESNO: yesno_options, D_TARGET: target_options,
        D_MOVE_SPACE: move_space_options, D_NUMBER: number_options, D_PICK: pick_options,
        D_BOTTOM: bottom_options, D_DISCARD_VAR: discard_var_options,
        D_ARTIFACT_PAY: artifact_pay_options, D_TECH_PICK: tech_pick_options,
    }
    choose = {
        D_YESNO: yesno_choose, D_TARGET: target_choose,
        D_MOVE_SPACE: move_space_choose, D_NUMBER: number_choose, D_PICK: pick_choose,
        D_BOTTOM: bottom_choose, D_DISCARD_VAR: discard_var_choose,
        D_ARTIFACT_PAY: artifact_pay_choose, D_TECH_PICK: tech_pick_choose,
    }
    return auto, options, choose
