"""What every build step of the relaxation reads, and the two CP-SAT helpers they share.

A build step (in `turns`, `fates`, `artifacts`, `technologies`, `effects`, `cardflow`,
`knowledge`, `counters`, `scoring`, `goals`) takes the `Context` and the variable groups built
before it (`solver.bounds.cpsat.variables`), adds its variables and constraints to
`Context.model`, and returns what it built; `solver.bounds.cpsat.relaxation.Relaxation.build`
calls the steps in one order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

from solver.bounds.cpsat.facts import FactBook
from solver.bounds.cpsat.reach import Reach
from solver.bounds.cpsat.resources import Gains
from solver.bounds.cpsat.schedule import Phase, Schedule, Slot
from solver.engine.cards import Card
from solver.engine.state import GameState

KIND_KEYS = ("city", "megalith", "pyramid")  # counter names of the monument types
LinExpr = Any  # cp_model linear expressions (ints, IntVars and their sums)


@dataclass(frozen=True)
class Context:
    """The position, what it can still reach, the schedule of the turns left, and the model.

    :param state: the position (at a phase boundary).
    :param phase: the part of the current turn still to play.
    :param pool_size: the number of cards in the game's card pool (caps "per" counters).
    :param facts: each card's effects by moment, with their gains per activation.
    :param chest_gains: what the chest cards under the board can still give (section 8).
    :param reach: the cards the rest of the game can still involve.
    :param schedule: the turns still to play (relaxation 1).
    :param model: the CP-SAT model the build steps fill.
    """

    state: GameState
    phase: Phase
    pool_size: int
    facts: FactBook
    chest_gains: Gains
    reach: Reach
    schedule: Schedule
    model: cp_model.CpModel

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.state.book.cards

    @property
    def slots(self) -> tuple[Slot, ...]:
        """The turns still to play, one slot each."""
        return self.schedule.slots

    @property
    def n_slots(self) -> int:
        return len(self.schedule.slots)

    @property
    def actions_left(self) -> int:
        """Actions still to take in the rest of the game."""
        return self.schedule.actions

    def as_var(self, expr: LinExpr, name: str) -> cp_model.IntVar:
        """A variable equal to a linear expression (CP-SAT then reads it once)."""
        v = self.model.new_int_var(-10**5, 10**5, name)
        self.model.add(v == expr)
        return v

    def running_totals(self, per_slot: list[LinExpr], name: str,
                       top: int) -> list[cp_model.IntVar]:
        """Running totals ``T[i] = per_slot[0] + ... + per_slot[i]`` as variables (so that
        each term appears in one constraint, not once per later turn)."""
        out: list[cp_model.IntVar] = []
        for i, x in enumerate(per_slot):
            v = self.model.new_int_var(0, top, f"{name}{i}")
            self.model.add(v == (out[-1] if out else 0) + x)
            out.append(v)
        return out
