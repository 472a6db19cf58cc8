"""How many monuments beyond space 1's two places the decline phases still to come can move to
the Past: the entries into space 1 during a decline phase (the simple bound's ``declines``,
`solver.bounds.simple`; the CP-SAT relaxation's relaxation 2, `solver.bounds.cpsat.fates`,
argues the same).

A decline phase declines the monuments in space 1, one at a time (RULES.md section 4C step 2).
When it starts, space 1 holds at most two monuments (section 2: two places; the time card is
no monument and leaves space 1 first, step 1, D18). While a monument's decline effect resolves
it is still in space 1 (it moves to the Past after its effect; the engine makes it immune to
moves and swaps), so at most one other monument is there, and at most one place is free: the
effect, with everything it sets off (the Creates it makes and the immediate effects and
"each time you CREATE" effects of what they create, Poulnabrone Dolmen's extra Creates, the
immediate effect of a technology it learns), can leave at most one monument more in space 1
than there was when it began. A monument that enters space 1 declines in the same phase; no
other effect runs inside a decline phase (the Timeline phase and the chests' windows come
before it, section 4B and 8). So the monuments that decline are at most two a phase plus one
per decline effect that can put a monument into space 1 (`entry_cards`): one whose steps create
a monument (or may: a Create of any kind) or move or swap one, or one that learns while a
technology whose immediate effect creates or moves a monument is not yet learned (each
technology is learned once: at most as many such entries as those technologies). Each
monument declines once (then it stays in the Past), so each decline effect counts once for all
the phases to come. The chests under the board count too (each chest once, D16), in case one
can run in a phase. A card with another trigger that creates, moves or learns makes the count
unknown (`None`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solver.bounds.activators import LEARN_OPS
from solver.engine.cards import ARTIFACT, Card, Step, all_steps
from solver.engine.state import GameState
from solver.frozen import Frozen

MOVE_OPS: Final = frozenset({"move", "swap"})
SET_OFF: Final = frozenset({"create", "learn", "excavate"})  # triggers a Create or Learn sets off


def puts_monument(steps: tuple[Step, ...]) -> bool:
    """Whether running `steps` can put a monument into a Timeline space (a Create that may be
    of a monument, a move, a swap)."""
    return any((s.op == "create" and s.kind != ARTIFACT) or s.op in MOVE_OPS
               for s in all_steps(steps))


def learns(steps: tuple[Step, ...]) -> bool:
    """Whether running `steps` can learn (or add) a technology."""
    return any(s.op in LEARN_OPS for s in all_steps(steps))


@dataclass(frozen=True)
class MoverFacts(Frozen):
    """The pool's cards as the count of the module reads them (fixed once dealt).

    :param movers: monuments whose decline effect can put a monument into a Timeline space.
    :param learners: the other monuments whose decline effect learns.
    :param techs: technologies whose immediate effect can put a monument into the Timeline.
    :param wild: cards with an effect of another trigger that creates, moves or learns.
    """

    movers: tuple[int, ...]
    learners: tuple[int, ...]
    techs: tuple[int, ...]
    wild: tuple[int, ...]


def mover_facts(cards: tuple[Card, ...], pool: frozenset[int]) -> MoverFacts:
    """The `MoverFacts` of a game's card pool."""
    movers: list[int] = []
    learners: list[int] = []
    techs: list[int] = []
    wild: list[int] = []
    for c in sorted(pool):
        card = cards[c]
        for e in card.effects:
            put, learn = puts_monument(e.steps), learns(e.steps)
            if not (put or learn):
                continue
            if e.trigger is not None and e.trigger.event not in SET_OFF:
                wild.append(c)
            elif card.is_tech:
                if put and e.trigger is None and e.moment == "immediate":
                    techs.append(c)
            elif e.trigger is None and e.moment == "decline":
                (movers if put else learners).append(c)
    learners = [c for c in learners if c not in movers]
    return MoverFacts(tuple(dict.fromkeys(movers)), tuple(dict.fromkeys(learners)),
                      tuple(dict.fromkeys(techs)), tuple(dict.fromkeys(wild)))


def phase_entries(st: GameState, facts: MoverFacts, present: set[int] | None = None) -> int | None:
    """The most monuments that can enter space 1 during the decline phases still to come (see
    the module), or None when a card with another trigger may act. `present`, when given: the
    builder cards that may be in play by then (`solver.bounds.takes.enterable`); a builder card
    never in play has no effect (its decline effect runs only if it declines, from space 1; its
    trigger only while it is in play), so the others count for nothing."""
    past = set(st.past)  # with the cards never in play: none of them acts
    if present is not None:
        cards = st.book.cards
        past.update(c for c in (*facts.wild, *facts.movers, *facts.learners)
                    if c not in present and not cards[c].is_tech)
    if any(c not in past for c in facts.wild):
        return None
    known = set(st.techs)
    n = sum(1 for c in facts.movers if c not in past)
    learners = sum(1 for c in facts.learners if c not in past)
    n += min(learners, sum(1 for c in facts.techs if c not in known))
    data = st.setup.chest_data
    if st.chests_under and data is not None:
        n += sum(1 for k in st.chests_under
                 if puts_monument(data.chests[k].steps) or learns(data.chests[k].steps))
    return n
