"""How many monuments beyond space 1's two places the decline phases still to come can move to
the Past: the entries into space 1 during a decline phase (the simple bound's ``declines``,
`solver.bounds.simple`).

A decline phase declines the monuments in space 1 (RULES.md section 4C step 2). When it starts,
space 1 holds at most two monuments (section 2: two places; the time card is no monument,
D18). During it, a monument enters space 1 only by an effect step that runs during it and
creates a monument or moves or swaps one (`solver.bounds.simple._puts_monument`), each step at
most its count. Which effects can run during a decline phase:

* the decline effects of the monuments declining (each card declines once: it then stays in
  the Past, section 4C);
* the chests' lightning effects (each chest once, D16);
* the immediate effect of a card created during the phase: only if something creates during
  the phase (a decline effect's Create, a chest's, or a Create of a card created or learned
  during the phase, or Poulnabrone Dolmen's extra Create, M36, which follows a Create): a
  *seed* among the cards above, or a trigger that no count here bounds;
* the immediate effect of a technology learned during the phase: only if something learns
  during the phase (a decline effect's Learn or Pyramid of the Niches, a chest's, or the
  immediate effect or "each time you CREATE" trigger of a card created during the phase);
* never a Timeline effect (section 4B: those run in the Timeline phase, before), nor an action
  or its "each time you EXCAVATE" triggers (section 4A: the action phase).

So the entries of all phases to come are at most: every decline effect's entries (of cards out
of the Past), the chests' under the board, and, only if a seed exists, every other effect's
entries of the cards out of the Past (plus one per Create then possible, if Poulnabrone Dolmen
is out of the Past), and, only if a Learn can run, the technologies' not yet learned.
While a decline phase is under way (work of its effects may be on the stack), the count is not
used (`None`: the caller keeps its own, looser count).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solver.engine.cards import ARTIFACT, Card, Step, all_steps
from solver.engine.state import GameState
from solver.frozen import Frozen

LEARN_OPS: Final = frozenset({"learn", "niches", "gain_held_tech"})
MOVE_OPS: Final = frozenset({"move", "swap"})
PHASE_TRIGGERS: Final = frozenset({"create"})  # triggers whose event can happen in the phase
NOT_IN_PHASE: Final = frozenset({"excavate"})  # an action: never in a decline phase


def entries(steps: tuple[Step, ...]) -> tuple[int, int]:
    """(monuments created, monuments moved or swapped) by one run of `steps`."""
    made = moved = 0
    for s in all_steps(steps):
        if s.op == "create" and s.kind != ARTIFACT:
            made += max(1, s.count)
        elif s.op in MOVE_OPS:
            moved += max(1, s.count)
    return made, moved


def learns(steps: tuple[Step, ...]) -> bool:
    """Whether running `steps` can learn (or add) a technology."""
    return any(s.op in LEARN_OPS for s in all_steps(steps))


@dataclass(frozen=True)
class MoverFacts(Frozen):
    """The pool's cards as the count of the module reads them (fixed once dealt).

    :param on_decline: (monument, creates, moves) of its decline effects, where nonzero.
    :param seeds: monuments whose decline effect creates a monument.
    :param learners: monuments whose decline effect learns.
    :param others: (card, creates, moves) of the builder cards' immediate effects and
        "each time you CREATE" triggers, where nonzero.
    :param techs: (technology, creates, moves) of its effects, where nonzero.
    :param wild: cards with an effect of another moment or trigger (or a technology's trigger)
        that creates, moves or learns: while one is out of the Past (or a technology at all),
        no count (`phase_entries` gives None).
    """

    on_decline: tuple[tuple[int, int, int], ...]
    seeds: tuple[int, ...]
    learners: tuple[int, ...]
    others: tuple[tuple[int, int, int], ...]
    techs: tuple[tuple[int, int, int], ...]
    wild: tuple[int, ...]


def mover_facts(cards: tuple[Card, ...], pool: frozenset[int]) -> MoverFacts:
    """The `MoverFacts` of a game's card pool."""
    on_decline: list[tuple[int, int, int]] = []
    seeds: list[int] = []
    learners: list[int] = []
    others: list[tuple[int, int, int]] = []
    techs: list[tuple[int, int, int]] = []
    wild: list[int] = []
    for c in sorted(pool):
        card = cards[c]
        dec = [0, 0]
        oth = [0, 0]
        for e in card.effects:
            made, moved = entries(e.steps)
            learn = learns(e.steps)
            if not (made or moved or learn):
                continue
            event = e.trigger.event if e.trigger is not None else None
            if event is None and e.moment in ("timeline", "endgame"):
                continue  # the Timeline phase (section 4B) or the final scoring
            if event is None and e.moment == "decline" and not card.is_tech:
                dec[0] += made
                dec[1] += moved
                if made:
                    seeds.append(c)
                if learn:
                    learners.append(c)
            elif event in NOT_IN_PHASE:
                continue
            elif event is None and e.moment == "immediate":
                oth[0] += made
                oth[1] += moved
            elif event in PHASE_TRIGGERS and not card.is_tech:
                oth[0] += made  # in play only while out of the Past: as an immediate effect
                oth[1] += moved
            else:  # another moment, or a technology's trigger (active once learned)
                wild.append(c)
        if dec != [0, 0]:
            on_decline.append((c, dec[0], dec[1]))
        if oth != [0, 0]:
            (techs if card.is_tech else others).append((c, oth[0], oth[1]))
    return MoverFacts(tuple(on_decline), tuple(seeds), tuple(learners), tuple(others),
                      tuple(techs), tuple(wild))


def phase_entries(st: GameState, facts: MoverFacts, poulnabrone: tuple[int, ...]) -> int | None:
    """The most monuments that can enter space 1 during the decline phases still to come (see
    the module), or None while a decline phase is under way."""
    if st.in_decline:
        return None
    past = set(st.past)
    known = set(st.techs)
    if any(c not in past for c in facts.wild):
        return None
    made = moved = 0
    for c, a, b in facts.on_decline:
        if c not in past:
            made += a
            moved += b
    seed = any(c not in past for c in facts.seeds)
    learn = any(c not in past for c in facts.learners)
    data = st.setup.chest_data
    if st.chests_under and data is not None:
        for k in st.chests_under:
            steps = data.chests[k].steps
            a, b = entries(steps)
            made += a
            moved += b
            seed = seed or any(s.op == "create" for s in all_steps(steps))
            learn = learn or learns(steps)
    learn = learn or seed
    if learn:
        for c, a, b in facts.techs:
            if c not in known:
                made += a
                moved += b
    if not (made or seed):
        return moved
    # Creates during the phases: the seeds' (and the chests', the technologies') `made`, and
    # the immediate Creates of the cards they create. Each Create makes one card, whose own
    # immediate effect then runs once: with ``k`` of the creating cards among them, the
    # Creates are ``made + k`` (doubled by Poulnabrone Dolmen in play, M36) and at most
    # ``creates - k`` other created cards can move or swap: the entries are largest with every
    # creating card created (``k`` = all of them).
    creators = sum(a for c, a, _ in facts.others if c not in past)
    movers = sorted((b for c, _, b in facts.others if c not in past), reverse=True)
    factor = 2 if any(c not in past for c in poulnabrone) else 1
    creates = factor * (made + creators)
    return creates + moved + sum(movers[:max(0, creates - creators)])
