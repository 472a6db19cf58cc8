"""What each card can grant toward the counts of `solver.bounds.reachable`: Creates that may
be of a monument, Creates that may be of an artifact, Learns and lost knowledge removed
(`Gains`), per effect and per card (`Activator`), the effects gated by lost knowledge apart
(`lost_needed`, `with_gated`). Fixed once the cards are dealt: `activators` is worked out once a
game (`solver.bounds.poolfacts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solver.engine.cards import ARTIFACT, Card, Effect, Step, all_steps
from solver.frozen import Frozen

LEARN_OPS: Final = frozenset({"learn", "niches", "gain_held_tech"})
#: Gains are 4-vectors: Creates that may be of a monument, Creates that may be of an artifact,
#: Learns, lost knowledge removed.
MONUMENT: Final = 0
ARTIFACT_CREATE: Final = 1
LEARN: Final = 2
LOST: Final = 3
Gains = tuple[int, int, int, int]
NONE: Final[Gains] = (0, 0, 0, 0)


def step_gains(steps: tuple[Step, ...]) -> Gains:
    """The `Gains` that running `steps` once can bring (a Create of any kind counts for
    both kinds)."""
    mon = art = learns = lost = 0
    for s in all_steps(steps):
        if s.op == "create":
            n = max(1, s.count)
            if s.kind != ARTIFACT:
                mon += n
            if s.kind is None or s.kind == ARTIFACT:
                art += n
        elif s.op == "ancient_greek":
            art += 1
        elif s.op in LEARN_OPS:
            learns += max(1, s.count)
        elif s.op == "discard_lost":
            lost += s.amount
    return mon, art, learns, lost


def lost_needed(effect: Effect) -> int:
    """The least lost knowledge `effect`'s condition needs to hold (a clause ``lost >= k`` or
    ``lost == k``); 0 when its condition sets no such floor."""
    need = 0
    for clause in effect.condition:
        if clause.counter == "lost" and clause.op in (">=", "=="):
            need = max(need, clause.value)
    return need


def add_gains(a: Gains, b: Gains, times: int = 1) -> Gains:
    return (a[0] + b[0] * times, a[1] + b[1] * times, a[2] + b[2] * times, a[3] + b[3] * times)


@dataclass(frozen=True)
class Activator(Frozen):
    """The effects of one card that can grant Creates or Learns or remove lost knowledge.

    :param card: the card. :param tech: it is a technology. :param artifact: an artifact.
    :param cycles: it can be created again after it left play (an artifact: paid away to the
        discard pile; a monument that vanishes at its decline, C25-C29).
    :param immediate: gains of its immediate effects (at its Create or Learn).
    :param timeline: of its Timeline effects (each Timeline phase).
    :param decline: of its decline effects (each decline phase).
    :param on_create: of its triggers on a Create (``on_create_kind``: the created kind or None).
    :param on_excavate: of its triggers on an Excavate.
    :param unbounded: it has another effect with gains that no count bounds.
    :param gated: effects left out of the sums above because their condition needs lost
        knowledge (`lost_needed`): (the lost knowledge needed, the sum they belong to, gains).
    """

    card: int
    tech: bool
    artifact: bool
    cycles: bool
    immediate: Gains = NONE
    timeline: Gains = NONE
    decline: Gains = NONE
    on_create: Gains = NONE
    on_create_kind: int | None = None
    on_excavate: Gains = NONE
    unbounded: bool = False
    gated: tuple[tuple[int, str, Gains], ...] = ()


def activators(cards: tuple[Card, ...], pool: frozenset[int]) -> tuple[Activator, ...]:
    """The `Activator`s of a game's card pool, in card order."""
    out: list[Activator] = []
    for c in sorted(pool):
        card = cards[c]
        vanishes = any(s.op == "vanish_if_knowledge"
                       for e in card.effects for s in all_steps(e.steps))
        by = {"immediate": NONE, "timeline": NONE, "decline": NONE, "create": NONE,
              "excavate": NONE}
        kind: int | None = None
        unbounded = False
        any_gain = False
        gated: list[tuple[int, str, Gains]] = []
        for e in card.effects:
            g = step_gains(e.steps)
            if g == NONE:
                continue
            any_gain = True
            bucket = ""
            if e.trigger is not None:
                if e.trigger.event in ("create", "excavate"):
                    bucket = e.trigger.event
                    if e.trigger.event == "create":
                        kind = e.trigger.kind
                else:
                    unbounded = True
            elif e.moment in ("immediate", "timeline", "decline"):
                bucket = e.moment
            elif e.moment != "endgame":
                unbounded = True
            if bucket:
                need = lost_needed(e)
                if need > 0:
                    gated.append((need, bucket, g))
                else:
                    by[bucket] = add_gains(by[bucket], g)
        if any_gain:
            out.append(Activator(c, card.is_tech, card.kind == ARTIFACT and not card.is_tech,
                                 (card.kind == ARTIFACT and not card.is_tech) or vanishes,
                                 by["immediate"], by["timeline"], by["decline"], by["create"],
                                 kind, by["excavate"], unbounded, tuple(gated)))
    return tuple(out)


def with_gated(a: Activator, lost_max: int) -> Activator:
    """`a` with the gains of its gated effects whose condition lost knowledge up to
    `lost_max` can still meet added to their sums (see the module); unchanged if none."""
    if not a.gated:
        return a
    by = {"immediate": a.immediate, "timeline": a.timeline, "decline": a.decline,
          "create": a.on_create, "excavate": a.on_excavate}
    for need, bucket, g in a.gated:
        if need <= lost_max:
            by[bucket] = add_gains(by[bucket], g)
    return Activator(a.card, a.tech, a.artifact, a.cycles, by["immediate"], by["timeline"],
                     by["decline"], by["create"], a.on_create_kind, by["excavate"], a.unbounded)
