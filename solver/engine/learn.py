"""The Learn action (RULES.md section 5): take an available technology whose requirement you
meet; its immediate effect applies, then the "each time you LEARN" effects of the cards that were
in play when it entered the collection (in the player's order). A tile left with exactly one
card is discarded and refilled."""

from __future__ import annotations

from bisect import insort

from solver.engine import actions as A
from solver.engine.conditions import (
    MET,
    MET_IF_RELAXED,
    Counts,
    requirement_status,
)
from solver.engine.frames import D_LEARN, F_EFFECT, F_LEARN_TRIGGERS, Frame, Registry
from solver.engine.groups import push_group
from solver.engine.state import EMPTY, GameState


def candi_sukuh_in_timeline(st: GameState) -> bool:
    cards = st.book.cards
    return any(e.special == "candi_sukuh" for c in st.monuments() for e in cards[c].effects)


def learnable(st: GameState, ignore_requirements: bool) -> list[int]:
    """Available technologies the player may learn now (Candi Sukuh relaxes one value, D19).

    The counters are read once for all the technologies (`Counts`), and whether Candi Sukuh is
    in the Timeline only when some requirement fails by one lowerable value."""
    techs = st.available_techs()
    if ignore_requirements:
        return sorted(techs)
    cards = st.book.cards
    counts = Counts(st)
    out: list[int] = []
    relaxed: list[int] = []
    for t in techs:
        requirement = cards[t].requirement
        status = requirement_status(counts, requirement) if requirement else MET
        if status == MET:
            out.append(t)
        elif status == MET_IF_RELAXED:
            relaxed.append(t)
    if relaxed and candi_sukuh_in_timeline(st):
        out.extend(relaxed)
    out.sort()
    return out


def any_learnable(st: GameState) -> bool:
    """Whether the Learn action is legal (some available technology's requirement is met)."""
    cards = st.book.cards
    counts = Counts(st)
    relaxed = False
    for t in st.tiles:
        if t == EMPTY:
            continue
        requirement = cards[t].requirement
        if not requirement:
            return True
        status = requirement_status(counts, requirement)
        if status == MET:
            return True
        if status == MET_IF_RELAXED:
            relaxed = True
    return relaxed and candi_sukuh_in_timeline(st)


def start_learn(st: GameState, optional: bool, ignore_requirements: bool, count: int) -> None:
    st.stack.append((D_LEARN, optional, ignore_requirements, count))


def learn_options(st: GameState, fr: Frame) -> list[int]:
    _, optional, ignore, _ = fr
    opts = [A.code(A.CARD, t) for t in learnable(st, ignore)]
    if optional and opts:
        opts.append(A.NO)
    return opts


def learn_choose(st: GameState, fr: Frame, action: int) -> None:
    _, optional, ignore, count = fr
    if action == A.NO:
        return
    tech = A.value_of(action)
    if count > 1:
        st.stack.append((D_LEARN, optional, ignore, count - 1))
    tile = st.take_from_tile(tech)
    st.check_tile(tile)
    gain_technology(st, tech)


def gain_technology(st: GameState, tech: int) -> None:
    """Learn `tech` (the Learn action or a Learn an effect grants): it enters the collection,
    the "each time you LEARN" effects of the cards in play now are collected, its immediate
    effect resolves, then that group (clarifications "Ordering": the technology's effect first).
    A card the effect itself puts into play (T22's artifact) was not in play at the Learn, so it
    does not react to it."""
    insort(st.techs, tech)
    st.stack.append((F_LEARN_TRIGGERS, tech, learn_trigger_group(st, tech)))
    add_to_collection(st, tech)


def add_to_collection(st: GameState, tech: int) -> None:
    """Push the immediate effect of a technology that has just entered the collection (a Learn,
    or Abu Simbel's "add it to your collection", which is no Learn: RULES.md section 12)."""
    effects = st.book.cards[tech].effects
    for i in range(len(effects) - 1, -1, -1):
        if effects[i].moment == "immediate":
            st.stack.append((F_EFFECT, tech, i, 0))


def learn_trigger_group(st: GameState, tech: int) -> tuple[tuple[int, int], ...]:
    """The (card, effect index) pairs in play that react to learning `tech` (its type)."""
    ttype = st.book.cards[tech].kind
    cards = st.book.cards
    group: list[tuple[int, int]] = []
    for x in st.in_play():
        for i, e in enumerate(cards[x].effects):
            t = e.trigger
            if t is not None and t.event == "learn" and (t.tech_type is None or t.tech_type == ttype):
                group.append((x, i))
    return tuple(group)


def learn_triggers(st: GameState, fr: Frame) -> None:
    """Resolve the Learn group collected when the technology entered the collection, in the
    player's order (D15); a card that has left play since does not react."""
    in_play = set(st.in_play())
    push_group(st, [(x, i) for x, i in fr[2] if x in in_play])


def register() -> Registry:
    return ({F_LEARN_TRIGGERS: learn_triggers}, {D_LEARN: learn_options},
            {D_LEARN: learn_choose})
