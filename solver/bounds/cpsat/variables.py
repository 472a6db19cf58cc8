"""The relaxation's variables, in groups named in the game's words.

Each group is built by one step (named beside it) and read by the later ones; `Variables`
holds them all once the model is built. Indices: `slot` is a turn still to play
(`solver.bounds.cpsat.schedule.Slot`, 0 = the current turn); a card is its index in the book.
An entry typed `LinExpr` may be a plain int (a fixed value) as well as a variable or a sum.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from solver.bounds.cpsat.context import LinExpr
from solver.engine.cards import Effect

if TYPE_CHECKING:
    from typing import TypeAlias

    from ortools.sat.python import cp_model

    Var: TypeAlias = cp_model.IntVar
else:
    Var = Any  # an OR-Tools IntVar (OR-Tools is imported when a model is built)
Fate = tuple[Any, ...]  # ("past", slot): declines in that slot's decline phase; END: stays

# How a fate is reached (`fates.reachable_fates`).
NATURAL = 0  # by the slides alone
SHIFTED = 1  # only if Potala Palace holds the Timeline back one turn (C30)
MOVED = 2  # only if the monument is moved or swapped (no distance cost then)


class Route(NamedTuple):
    """The cheapest way to a fate: the least extra discard cost (None: no cost counted, the
    fate needs a move), the latest slot the monument can be created in, and `how`."""

    cost: int | None
    latest: int
    how: int


@dataclass(frozen=True)
class TurnActions:
    """Per slot, how many of its actions are of each kind, and what they move
    (`turns.take_actions`)."""

    searches: list[Var]
    searched: list[Var]  # cards the Searches draw (a Search at 10 cards draws none, D4)
    excavations: list[Var]
    archives: list[Var]
    learns: list[Var]
    creates: list[Var]
    rotated: list[Var]  # straight Past monuments the excavations rotate
    excavated: list[Var]  # cards the excavations draw
    archived: list[Var]  # cards the Archives put under the board


@dataclass(frozen=True)
class Monuments:
    """Every monument that can still matter and its fate (`fates.choose_fates`).

    :param space_now: the monuments in the Timeline now, with their space.
    :param cards: those, then the monuments that can still be created (`new`).
    :param fate: one Boolean per fate a monument can reach (at most one true).
    :param routes: how each fate is reached.
    :param in_past: 1 if the monument declines into the Past.
    :param at_end: 1 if it is still in the Timeline at the end.
    :param vanished: times it is discarded by its own decline effect (C25-C29).
    :param created: creations still to come (activations of its immediate effects).
    :param needs_move: fates reached only by a move or a swap.
    :param distance_costs: the distance part of the discard costs (section 5).
    """

    space_now: dict[int, int]
    cards: list[int]
    new: list[int]
    fate: dict[int, dict[Fate, Var]]
    routes: dict[int, dict[Fate, Route]]
    in_past: dict[int, LinExpr]
    at_end: dict[int, LinExpr]
    vanished: dict[int, LinExpr]
    created: dict[int, LinExpr]
    needs_move: list[Var]
    distance_costs: list[LinExpr]


@dataclass(frozen=True)
class Artifacts:
    """Artifacts created from now on (`artifacts.choose_artifacts`).

    :param new: artifacts that can still be created (not on the board now).
    :param first_created: a new artifact is created (once).
    :param created: its creations (more than one only after it left play and a reshuffle).
    :param created_again: artifacts on the board now that leave and are created again.
    :param created_total: all artifact creations.
    :param freed_by_own_effect: artifacts that discard themselves (freeing their space).
    """

    new: list[int]
    first_created: dict[int, Var]
    created: dict[int, LinExpr]
    created_again: dict[int, LinExpr]
    created_total: Var
    freed_by_own_effect: list[LinExpr]


@dataclass(frozen=True)
class Technologies:
    """Technologies learned from now on (`technologies.choose_technologies`).

    :param learnable: those whose requirement can be met at all.
    :param learned: one Boolean each.
    :param requirement_met: its requirement holds on the final counters.
    :param learned_free: learned by a Learn that ignores requirements (M34).
    :param lowered: 1 when Candi Sukuh may be in the Timeline at a Learn (D19: each "at least"
        value of a requirement may then be 1 lower), else 0 (`technologies.candi_lowering`).
    """

    learnable: list[int]
    learned: dict[int, Var]
    requirement_met: dict[int, LinExpr]
    learned_free: dict[int, Var]
    lowered: LinExpr = 0


@dataclass(frozen=True)
class Events:
    """The events triggers count (`effects.count_events`)."""

    learns_of_type: dict[int, Var]
    learns: Var
    monuments_of_kind: dict[int, Var]
    monuments_created: Var


@dataclass(frozen=True)
class Effects:
    """The effects' activations and what they yield (`effects.activate_effects`).

    :param gains: per resource (a `Gains` field), the most all activations yield.
    :param conditions: (literal, effect): the effect fires only if the literal holds, and
        the literal only if the effect's condition holds on the final counters.
    :param timed: Timeline effects with their activations (act, effect, name).
    :param decline_draws: per decline slot, the cards drawn by decline effects there.
    :param decline_depth: per decline slot, the cards they take off the deck.
    :param in_play: per card, its times in play (now and creations to come).
    :param freed_by_paying: artifact spaces freed by paying with board artifacts (P13).
    :param granting: every effect that grants Creates: (card or -1 for the chest, moment,
        Creates granted per activation (monuments and artifacts), its activations).
    :param learning: every effect that grants Learns, in the same form (Learns granted per
        activation; `solver.bounds.cpsat.learntime`).
    :param drawing: every effect whose draws count in `gains["draw"]`: (card or -1 for the
        chest, moment ("immediate", "decline", "timeline", "trigger", "learn" for a
        technology), cards drawn per activation, its activations, the effect).
    """

    gains: dict[str, LinExpr]
    conditions: list[tuple[Var, Effect]]
    timed: list[tuple[LinExpr, Effect, str]]
    decline_draws: dict[int, list[LinExpr]]
    decline_depth: dict[int, list[LinExpr]]
    in_play: dict[int, LinExpr]
    freed_by_paying: list[LinExpr]
    granting: list[tuple[int, str, int, LinExpr]] = field(default_factory=list)
    learning: list[tuple[int, str, int, LinExpr]] = field(default_factory=list)
    drawing: list[tuple[int, str, int, LinExpr, Effect | None]] = field(default_factory=list)
    # (card, decline slot, cards its reveal takes off the deck then): reveals until a type
    # (P33), bounded by the deck's order in `deckorder.bound_reveals`
    reveals: list[tuple[int, int, Var]] = field(default_factory=list)
    # lost knowledge removed by every effect but decline effects (`timing.gate_last_lost`)
    late_lost: LinExpr = 0
    # cards effects take from the hand as their price (`effects.paid_from_hand`)
    paid_from_hand: LinExpr = 0
    # per card type, the cards of that type effects take from the hand as their price (A7:
    # 2 artifact cards; `effects.paid_from_hand`, `deckorder.pay_in_kind`)
    paid_by_type: dict[int, LinExpr] = field(default_factory=dict)


@dataclass(frozen=True)
class Specials:
    """Cards with a special rule (`effects.special_cards`).

    :param kensington: knowledge removals of Kensington Runestone (6 each).
    :param elongated_skulls: the times Elongated Skulls is in play.
    :param poulnabrone: extra Creates of Poulnabrone Dolmen (M36), in all and per copy.
    """

    kensington: LinExpr
    elongated_skulls: list[LinExpr]
    poulnabrone: LinExpr
    poulnabrone_creates: list[Var]


@dataclass(frozen=True)
class Draws:
    """Cards drawn outside the actions (`cardflow.effect_draws`).

    :param by_effects: cards drawn by effects other than those of declines (at any time).
    :param dug_by_effects: cards those effects take off the deck (drawn or revealed).
    :param elongated: cards drawn by Elongated Skulls.
    :param in_decline: per slot, cards drawn by the effects declining then.
    :param dug_in_decline: per slot, cards those take off the deck.
    :param before_timeline: per slot, the cards effects can have drawn before its Timeline
        phase (`cardflow.draws_before_timeline`), or None where not written.
    """

    by_effects: Var
    dug_by_effects: Var
    elongated: Var
    in_decline: list[LinExpr]
    dug_in_decline: list[LinExpr]
    before_timeline: list[Var] | None = None


@dataclass(frozen=True)
class SlotDeclines:
    """Per slot (`fates.declines_by_slot`): every monument declining then, the new ones among
    them, the cards those new ones cost, and the least distance part of their costs."""

    declined: list[LinExpr]
    new: list[LinExpr]
    new_cards: list[LinExpr]
    distance: list[LinExpr]


@dataclass(frozen=True)
class RunningTotals:
    """Per slot, totals from now to the end of that slot (`cardflow.running_totals`)."""

    creates: list[Var]
    due: list[Var]  # new monuments declined
    due_cards: list[Var]  # the cards they cost
    due_distance: list[Var]  # the least distance part of those costs
    archived: list[Var]
    drawn: list[Var]  # by Searches and excavations
    decline_drawn: list[Var]
    dug: list[Var]  # cards taken off the deck by actions and decline effects
    declined: list[Var]
    rotated: list[Var]


@dataclass(frozen=True)
class Knowledge:
    """Knowledge reaching the Past (`knowledge.lose_knowledge`).

    :param converted: knowledge on the monuments that decline (becomes lost knowledge).
    :param lost_peak: the highest lost knowledge (before removals).
    :param lost_final: lost knowledge at the end.
    """

    converted: Var
    lost_peak: LinExpr
    lost_final: Var


@dataclass
class FinalCounters:
    """The counters of the final position (`counters.final_counters`), by the names of
    `solver.engine.goals` (``past.city``, ``techs.any``, ``lost``, ...)."""

    values: dict[str, LinExpr]
    artifacts_ever: LinExpr  # artifacts ever on the board
    lost_peak: LinExpr

    def monotone(self, counter: str) -> LinExpr:
        """The largest value a counter that never goes down reaches (`facts.is_monotone`)."""
        if counter == "lost":
            return self.lost_peak
        if counter == "artifacts":
            return self.artifacts_ever
        return self.values[counter]


@dataclass(frozen=True)
class Variables:
    """Every group of the built model."""

    turns: TurnActions
    reshuffle: Var | None
    monuments: Monuments
    artifacts: Artifacts
    technologies: Technologies
    events: Events
    effects: Effects
    specials: Specials
    draws: Draws
    totals: RunningTotals
    hand_final: Var
    knowledge: Knowledge
    counters: FinalCounters
    vp: LinExpr
