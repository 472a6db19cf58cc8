"""The hand turn by turn: Creates, cards paid and cards drawn in the turn they happen
(relaxation 12, with creation times: `solver.bounds.cpsat.creation`).

12. **The hand by turn.** With the creation turns of relaxation 10, per remaining turn (slot):

    * **Creates of the turn.** The first creations made in a turn are at most its Create
      actions plus the granted Creates used in it, and the granted Creates used by the end of
      a turn are at most those granted by then (`creation.granted_by_turn`). A Create action
      creates its card in its own turn (RULES.md section 5) and a granted Create is used when
      its effect resolves, in the turn of the effect: a Create action left unused in one turn
      cannot create a card in a later one (`pace_creations` alone is cumulative and allows
      that).
    * **Effect draws in their turn.** Effect draws (those `cardflow.effect_draws` counts from
      the start) are booked per turn; by the end of a turn they are at most what the effects
      that can have fired by then yield, each effect at most its activations in all:

      - an immediate effect of a card with one timed life draws at its creation (section 5),
        so only once the card is created (`CreationTimes.by`);
      - a decline effect draws in its monument's decline phase (section 4C step 2), so only
        once it has declined (monuments that do not discard themselves);
      - a Timeline effect draws once per Timeline phase in which its card is in play (section
        4B): created by that turn and, for a monument, not declined in an earlier turn (a
        monument in the Past stays there; a card in play now counts from the start);
      - a trigger draws once per event (section 5, "each time you CREATE / LEARN /
        EXCAVATE"): creations by then are at most the Create actions by then plus the
        Creates granted by then; Learns by then at most the Learn actions by then plus every
        granted Learn; Excavates by then, the Excavate actions by then;
      - a technology's immediate effect draws when it is learned: at most as many
        technologies by then as the Learn actions by then plus every granted Learn, each
        drawing at most the largest such draw;
      - everything else (chests, Elongated Skulls, cards that can be created more than once)
        at any time, in full.

      The unconditional decline draws stay in their decline slot (`Draws.in_decline`).
    * **The hand balance, capped at 10 (D4).** The hand at the end of a turn is at most the
      hand at its start plus the cards drawn in it (Searches: at most 1 each; Excavates: what they
      draw; the turn's decline and effect draws) less the cards that leave the hand in it,
      and never more than 10: the hand holds at most 10 cards always (section 2, D4: a draw
      stops at 10, nothing is discarded down). The model's draws are the most a turn can draw
      (a Search or a draw at 10 cards draws nothing, so the real draws are at most these:
      the balance is an inequality); the cards that leave the hand in a turn are the increase
      of `cardflow.hold_cards`'s running total `used`, and they cover, in that turn, the
      cards created in it (the card and its printed discards, section 5; distance costs,
      untimed creations and effects' discards and Archives are counted in the game's total
      only: leaving a cost out of a turn can only help) and the cards archived by its Archive
      actions (section 5, D2). Ancient Greek creates its artifact from the revealed cards, not
      the hand (at most one card per learned Ancient Greek, in any turn).
      So the cards a turn can spend are at most 10 plus what it draws: draws banked in an
      early turn beyond 10 are lost, as in the game. For the same reason an Excavate draws at
      most 10 cards, however many monuments it rotates (D4, D7).

    Every real line satisfies these with its own per-turn counts (the cards that leave its
    hand in a turn as `used`'s increase, its Searches' real draws), so adding
    them keeps it a solution of the model.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.creation import CreationTimes, granted_by_turn, paid_by
from solver.bounds.cpsat.resources import HAND_LIMIT
from solver.bounds.cpsat.schedule import END
from solver.bounds.cpsat.timing import PoulnabroneTurns
from solver.bounds.cpsat.variables import (
    Artifacts,
    Draws,
    Effects,
    Monuments,
    RunningTotals,
    Specials,
    TurnActions,
    Var,
)


@dataclass(frozen=True)
class HandByTurn:
    """Per slot: the hand at its end, the effect draws booked in it, the granted Creates used
    in it (the variables of relaxation 12)."""

    hand: list[Var]
    effect_draws: list[Var]
    granted_used: list[Var]


def _big(ctx: Context) -> int:
    st = ctx.state
    return 10 * (ctx.actions_left + 10) + len(st.deck) + len(st.discard) + len(st.hand)


class _Timer:
    """When a card's effects can have fired by the end of each slot (relaxation 12)."""

    def __init__(self, ctx: Context, times: CreationTimes, monuments: Monuments,
                 artifacts: Artifacts) -> None:
        self.ctx, self.times, self.monuments = ctx, times, monuments
        self.one_life = {a for a in artifacts.new
                         if artifacts.created[a] is artifacts.first_created[a]}

    def created_by(self, c: int, i: int) -> LinExpr | None:
        """1 if the card's one timed life has begun by the end of slot `i` (None: untimed)."""
        if c in self.times.monuments or c in self.one_life:
            return self.times.by(c, i)
        return None

    def declined_by(self, c: int, i: int) -> LinExpr | None:
        """Declines of monument `c` by the end of slot `i` (None: untimed)."""
        mons = self.monuments
        if c not in mons.fate or c in mons.vanished:
            return None
        return sum(v for f, v in mons.fate[c].items() if f != END and f[1] <= i)

    def phases_by(self, c: int) -> list[LinExpr] | None:
        """Per slot, the Timeline phases by its end in which card `c` is in play (None:
        untimed)."""
        ctx, mons = self.ctx, self.monuments
        if c in mons.vanished:
            return None
        now = c in mons.space_now or c in ctx.reach.on_board
        if not now and c not in self.times.monuments and c not in self.times.artifacts:
            return None
        fate = mons.fate.get(c, {})
        out: list[LinExpr] = []
        total: LinExpr = 0
        for i, sl in enumerate(ctx.slots):
            if sl.timeline:
                made = 1 if now else self.times.by(c, i)
                gone = sum(v for f, v in fate.items() if f != END and f[1] < i)
                total = total + made - gone
            out.append(total)
        return out


def balance_hand(ctx: Context, turns: TurnActions, times: CreationTimes,
                 monuments: Monuments, artifacts: Artifacts, effects: Effects,
                 specials: Specials, draws: Draws, totals: RunningTotals, used: list[Var],
                 greek: LinExpr, poulnabrone: PoulnabroneTurns | None) -> HandByTurn:
    """Relaxation 11 (see the module): Creates per turn, effect draws booked in their turn,
    and the hand balance capped at 10 (D4)."""
    m, n, big = ctx.model, ctx.n_slots, _big(ctx)
    timer = _Timer(ctx, times, monuments, artifacts)
    granted_by = granted_by_turn(ctx, times, monuments, artifacts, effects,
                                 specials.poulnabrone, poulnabrone)
    # Creates of the turn: Create actions plus granted Creates used in it.
    granted_used = [m.new_int_var(0, big, f"granted_used{i}") for i in range(n)]
    used_by = ctx.running_totals(list(granted_used), "granted_used_by", big)
    for i in range(n):
        made = sum(xs[i] for _, xs in times.timed())
        if not isinstance(made, int):
            m.add(made <= turns.creates[i] + granted_used[i])
        m.add(used_by[i] <= granted_by[i])
    # Effect draws by the end of each slot.
    creates_by = totals.creates
    learns_by = ctx.running_totals(turns.learns, "learns_upto", 2 * n)
    digs_by = ctx.running_totals(turns.excavations, "excavations_upto", 2 * n)
    avail: list[LinExpr] = [draws.elongated] * n
    tech_full: LinExpr = 0
    tech_most = 0
    for card, moment, k, act, e in effects.drawing:
        if isinstance(act, int) and act == 0:
            continue
        if moment == "learn":
            tech_full = tech_full + k * act
            tech_most = max(tech_most, k)
            continue
        name = f"{ctx.cards[card].code}_{moment}" if card >= 0 else "chest"
        per: list[LinExpr] | None = None
        if card >= 0 and moment == "immediate":
            born = [timer.created_by(card, i) for i in range(n)]
            if all(x is not None for x in born):
                per = [k * x for x in born if x is not None]
        elif card >= 0 and moment == "decline":
            gone = [timer.declined_by(card, i) for i in range(n)]
            if all(x is not None for x in gone):
                per = [k * x for x in gone if x is not None]
        elif card >= 0 and moment == "timeline":
            phases = timer.phases_by(card)
            if phases is not None:
                per = _at_most(ctx, [k * p for p in phases], k * act, f"tl_draws_{name}")
        elif card >= 0 and moment == "trigger" and e is not None and e.trigger is not None:
            ev = e.trigger.event
            events: list[LinExpr]
            if ev == "learn":
                events = [learns_by[i] + effects.gains["learn"] for i in range(n)]
            elif ev == "excavate":
                events = list(digs_by)
            else:
                events = [creates_by[i] + granted_by[i] for i in range(n)]
            per = _at_most(ctx, [k * x for x in events], k * act, f"trig_draws_{name}")
        for i in range(n):
            avail[i] = avail[i] + (k * act if per is None else per[i])
    if not isinstance(tech_full, int):
        tech = [m.new_int_var(0, big, f"tech_draws_by{i}") for i in range(n)]
        for i in range(n):
            m.add(tech[i] <= tech_full)
            m.add(tech[i] <= tech_most * (learns_by[i] + effects.gains["learn"]))
            avail[i] = avail[i] + tech[i]
    eff = [m.new_int_var(0, big, f"effect_draws{i}") for i in range(n)]
    eff_by = ctx.running_totals(list(eff), "effect_draws_by", big)
    m.add(eff_by[-1] == draws.by_effects)
    for i in range(n):
        m.add(eff_by[i] <= avail[i])
    # The hand balance, capped at 10 (D4), with the cards paid in each turn.
    greek_in: list[LinExpr] = [0] * n
    if not isinstance(greek, int):
        gv = [m.new_int_var(0, big, f"greek{i}") for i in range(n)]
        m.add(sum(gv) <= greek)
        greek_in = list(gv)
    hand: list[Var] = []
    before: LinExpr = ctx.phase.hand
    for i in range(n):
        m.add(turns.excavated[i] <= HAND_LIMIT * turns.excavations[i])
        h = m.new_int_var(0, HAND_LIMIT, f"hand_end{i}")
        out = used[i] - (used[i - 1] if i else 0)
        drawn = (turns.searched[i] + turns.excavated[i] + draws.in_decline[i] + eff[i])
        m.add(h <= before + drawn - out)
        paid_in = paid_by(ctx, times, i) - (paid_by(ctx, times, i - 1) if i else 0)
        m.add(out >= paid_in + turns.archived[i] - greek_in[i])
        hand.append(h)
        before = h
    return HandByTurn(hand=hand, effect_draws=eff, granted_used=granted_used)


def _at_most(ctx: Context, per_slot: list[LinExpr], total: LinExpr, name: str) -> list[LinExpr]:
    """Per slot, a variable at most `per_slot[i]` and at most `total` (the min of the two)."""
    m, big = ctx.model, 10 * _big(ctx)
    out: list[LinExpr] = []
    for i, x in enumerate(per_slot):
        v = m.new_int_var(0, big, f"{name}{i}")
        m.add(v <= x)
        m.add(v <= total)
        out.append(v)
    return out
