"""The Learn action (RULES.md section 5): take an available technology whose requirement you
meet; its immediate effect applies, then the "each time you LEARN" effects of the cards that were
in play when it entered the collection (in the player's order). A tile left with exactly one
card is discarded and refilled."""

from __future__ import annotations

from bisect import insort

from solver.engine import actions as A
from solver.engine.cards import Clause
from solver.engine.conditions import (
    MET,
    MET_IF_RELAXED,
    NOT_MET,
    Counts,
)
from solver.engine.frames import D_LEARN, F_EFFECT, F_LEARN_TRIGGERS, Frame, Registry
from solver.engine.groups import push_group
from solver.engine.state import EMPTY, GameState


def candi_sukuh_in_timeline(st: GameState) -> bool:
    """Whether a Timeline monument carries Candi Sukuh's special (D19)."""
    flags = st.book.candi_sukuh
    for items in st.spaces:
        for c in items:
            if c >= 0 and flags[c]:
                return True
    return False


def learnable(st: GameState, ignore_requirements: bool) -> list[int]:
    """Available technologies the player may learn now (Candi Sukuh relaxes one value, D19).

    The counters are read once for all the technologies (`Counts`), and whether Candi Sukuh is
    in the Timeline only when some requirement fails by one lowerable value."""
    techs = st.available_techs()
    if ignore_requirements:
        return sorted(techs)
    cards = st.book.cards
    single = st.book.single_minimum
    counts = Counts(st)
    values = counts.values
    out: list[int] = []
    relaxed: list[int] = []
    for t in techs:
        one = single[t]
        if one is not None:  # one "at least" clause (most requirements): compared here
            counter, need = one
            v = values.get(counter)
            if v is None:
                v = counts.of(counter)
            if v >= need:
                out.append(t)
            elif v >= max(0, need - 1):
                relaxed.append(t)
            continue
        requirement = cards[t].requirement
        if not requirement:
            out.append(t)
            continue
        status = _status(counts, requirement)
        if status == MET:
            out.append(t)
        elif status == MET_IF_RELAXED:
            relaxed.append(t)
    if relaxed and candi_sukuh_in_timeline(st):
        out.extend(relaxed)
    out.sort()
    return out


def _status(counts: Counts, requirement: tuple[Clause, ...]) -> int:
    """`requirement_status`, with the usual clauses (``>=``, ``<=``) compared inline and each
    counter read from the values `counts` has already computed when it can (the same answer,
    fewer calls: this runs for every available technology at every action choice)."""
    values = counts.values
    failing: Clause | None = None
    value = 0
    for c in requirement:
        v = values.get(c.counter)
        if v is None:
            v = counts.of(c.counter)
        op = c.op
        if op == ">=":
            ok = v >= c.value
        elif op == "<=":
            ok = v <= c.value
        else:
            ok = c.holds(v)
        if not ok:
            if failing is not None:
                return NOT_MET
            failing, value = c, v
    if failing is None:
        return MET
    return MET_IF_RELAXED if failing.op == ">=" and value >= max(0, failing.value - 1) else NOT_MET


def any_learnable(st: GameState) -> bool:
    """Whether the Learn action is legal (some available technology's requirement is met)."""
    cards = st.book.cards
    single = st.book.single_minimum
    counts = Counts(st)
    values = counts.values
    relaxed = False
    for t in st.tiles:
        if t == EMPTY:
            continue
        one = single[t]
        if one is not None:  # one "at least" clause, as in `learnable`
            counter, need = one
            v = values.get(counter)
            if v is None:
                v = counts.of(counter)
            if v >= need:
                return True
            if v >= max(0, need - 1):
                relaxed = True
            continue
        requirement = cards[t].requirement
        if not requirement:
            return True
        status = _status(counts, requirement)
        if status == MET:
            return True
        if status == MET_IF_RELAXED:
            relaxed = True
    return relaxed and candi_sukuh_in_timeline(st)


def start_learn(st: GameState, optional: bool, ignore_requirements: bool, count: int) -> None:
    st.stack.append((D_LEARN, optional, ignore_requirements, count))


def learn_options(st: GameState, fr: Frame) -> list[int]:
    _, optional, ignore, _ = fr
    opts = [A.CARD_CODE | t for t in learnable(st, ignore)]
    if optional and opts:
        opts.append(A.NO)
    return opts


def learn_choose(st: GameState, fr: Frame, action: int) -> None:
    """Take the chosen technology from its tile; if the tile now holds exactly one card, that
    card is discarded and the tile refilled at once (card clarifications, "Tech tiles": the
    rule applies to each departure, as after each of Candi Kethek's picks), before the
    technology's immediate effect and the "each time you LEARN" effects (RULES.md section 5
    lists the refill after them; a departure those effects make then sees a refilled tile,
    never a tile left empty by a departure from one card)."""
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
    reactions = st.book.learn_reactions
    group: list[tuple[int, int]] = []
    for x in st.in_play():
        if reactions[x]:  # most cards react to no Learn
            for i, tech_type in reactions[x]:
                if tech_type is None or tech_type == ttype:
                    group.append((x, i))
    return tuple(group)


def learn_triggers(st: GameState, fr: Frame) -> None:
    """Resolve the Learn group collected when the technology entered the collection, in the
    player's order (D15); a card that has left play since does not react."""
    if not fr[2]:  # nothing reacted to this Learn (most Learns): nothing to look up
        return
    in_play = set(st.in_play())
    push_group(st, [(x, i) for x, i in fr[2] if x in in_play])


def register() -> Registry:
    return ({F_LEARN_TRIGGERS: learn_triggers}, {D_LEARN: learn_options},
            {D_LEARN: learn_choose})
