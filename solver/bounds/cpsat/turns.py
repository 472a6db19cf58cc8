"""The turns still to play and the kinds of their actions (relaxations 1 and 5).

1. **Schedule.** The time card moves by itself, so the turns left, their actions (2 each, D8's
   last turn included), the decline phases that move monuments and the one that ends the game
   are constants (`schedule.build_schedule`).
5. **Actions** (the first half of relaxation 5; effects: `solver.bounds.cpsat.effects`). Two
   actions a turn; Searches draw 1 (none at 10 cards in hand, D4); Excavates rotate straight
   Past monuments (2 cards each, 3 with Phaistos Disc), at most those there now, declined in
   earlier turns, or straightened (that limit: `cardflow.hold_cards`).
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context
from solver.bounds.cpsat.resources import HAND_LIMIT
from solver.bounds.cpsat.variables import TurnActions


def take_actions(ctx: Context) -> TurnActions:
    """Per slot, its Searches, Excavates, Archives, Learns and Creates (RULES.md section 5):
    at most its actions in all; each Search draws at most 1 card (`searched`: none at 10
    cards, D4); each Excavate rotates at least one straight Past monument
    and draws 2 cards per rotated monument (3 with Phaistos Disc, D7); each Archive puts 1 to
    10 cards under the board (D4)."""
    m, slots = ctx.model, ctx.slots
    searches = [m.new_int_var(0, sl.actions, f"search{i}") for i, sl in enumerate(slots)]
    searched = [m.new_int_var(0, sl.actions, f"searched{i}") for i, sl in enumerate(slots)]
    excavations = [m.new_int_var(0, sl.actions, f"excavate{i}") for i, sl in enumerate(slots)]
    archives = [m.new_int_var(0, sl.actions, f"archive{i}") for i, sl in enumerate(slots)]
    learns = [m.new_int_var(0, sl.actions, f"learn{i}") for i, sl in enumerate(slots)]
    creates = [m.new_int_var(0, sl.actions, f"create{i}") for i, sl in enumerate(slots)]
    max_rot = len(ctx.state.past) + sum(sl.cap for sl in slots) + ctx.reach.entries + 60
    rotated = [m.new_int_var(0, max_rot, f"rotate{i}") for i in range(ctx.n_slots)]
    excavated = [m.new_int_var(0, 3 * max_rot, f"excavated{i}") for i in range(ctx.n_slots)]
    archived = [m.new_int_var(0, HAND_LIMIT * sl.actions, f"archived{i}")
                for i, sl in enumerate(slots)]
    rate = 3 if ctx.reach.phaistos else 2
    for i, sl in enumerate(slots):
        m.add(searches[i] + excavations[i] + archives[i] + learns[i] + creates[i]
              <= sl.actions)
        m.add(searched[i] <= searches[i])
        m.add(rotated[i] >= excavations[i])
        m.add(rotated[i] <= max_rot * excavations[i])
        m.add(excavated[i] <= rate * rotated[i])
        m.add(archived[i] >= archives[i])
        m.add(archived[i] <= HAND_LIMIT * archives[i])
    return TurnActions(searches=searches, searched=searched, excavations=excavations,
                       archives=archives, learns=learns, creates=creates, rotated=rotated,
                       excavated=excavated, archived=archived)
